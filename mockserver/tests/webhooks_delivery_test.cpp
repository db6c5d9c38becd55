// Webhook deliveries of real jobs to a real receiver, checked byte for byte and verified with the
// SDK (issue 7 "Done when"): crawl events, signatures, order under concurrency, retries, and a
// receiver that hangs or is down never slowing the job.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <set>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "webhook_receiver.hpp"
#include "webdata/webhooks.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using Receiver = webdata::mock::webhooks::testing::Receiver;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

webdata::mock::Config fast(const std::string& secret = "hook-secret") {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.teams = {{"team-1", {"test-key"}}};
  config.teams[0].webhook_secret = secret;
  return config;
}

std::vector<json> documents_of(const ApiClient& api, const std::string& path) {
  std::vector<json> out;
  std::string target = path;
  for (int guard = 0; guard < 100; ++guard) {
    const auto page = api.get(target);
    REQUIRE(page.status == 200);
    for (const auto& doc : page.body["data"]) out.push_back(doc);
    if (!page.body.contains("next")) break;
    const std::string next = page.body["next"];
    target = next.substr(next.find("/v"));
  }
  return out;
}

}  // namespace

TEST_CASE("a crawl's deliveries carry the exact payload bytes and headers",
          "[webhooks][jobs]") {
  RunningMock mock(fast());
  const ApiClient api(mock.url());
  Receiver receiver;
  const auto started = api.post(
      "/v2/crawl", {{"url", "http://pages-3.synthetic.test/"},
                    {"webhook", {{"url", receiver.url("/in?x=1")},
                                 {"headers", {{"X-Team", "crawlers"}, {"Authorization", "Token t"}}},
                                 {"metadata", {{"run", "7"}}}}}});
  REQUIRE(started.status == 200);
  const std::string id = started.body["id"];
  REQUIRE(mock.server().jobs().wait_idle(30s));
  REQUIRE(mock.server().webhooks().drain("", 30s));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 5);  // started, 3 pages, completed
  const auto documents = documents_of(api, "/v2/crawl/" + id);
  REQUIRE(documents.size() == 3);

  std::vector<std::string> expected;
  expected.push_back(R"({"success":true,"type":"crawl.started","id":")" + id +
                     R"(","data":[],"metadata":{"run":"7"},"error":null})");
  for (const auto& doc : documents) {
    expected.push_back(R"({"success":true,"type":"crawl.page","id":")" + id + R"(","data":[)" +
                       doc.dump() + R"(],"metadata":{"run":"7"},"error":null})");
  }
  expected.push_back(R"({"success":true,"type":"crawl.completed","id":")" + id +
                     R"(","data":[],"metadata":{"run":"7"},"error":null})");
  for (std::size_t i = 0; i < requests.size(); ++i) {
    INFO("delivery " << i);
    const auto& r = requests[i];
    CHECK(r.method == "POST");
    CHECK(r.target == "/in?x=1");
    CHECK(r.body == expected[i]);
    CHECK(r.header("content-type") == "application/json");
    CHECK(r.header("x-team") == "crawlers");
    CHECK(r.header("authorization") == "Token t");
    CHECK(r.header("x-service-signature") == webdata::webhooks::sign("hook-secret", r.body));
  }
}

TEST_CASE("the SDK verifies real deliveries and rejects tampered ones", "[webhooks][jobs]") {
  RunningMock mock(fast("s3cr3t"));
  const ApiClient api(mock.url());
  Receiver receiver;
  const auto started = api.post("/v1/batch/scrape",
                                {{"urls", {"http://pages-2.synthetic.test/", "http://pages-2.synthetic.test/p1"}},
                                 {"webhook", receiver.url()}});
  REQUIRE(started.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(30s));
  REQUIRE(mock.server().webhooks().drain("", 30s));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 4);
  std::multiset<std::string> pages;
  for (const auto& r : requests) {
    const std::string signature = r.header("x-service-signature");
    auto event = webdata::webhooks::verify_and_parse("s3cr3t", r.body, signature);
    REQUIRE(event.ok());
    CHECK(event->id == started.body["id"]);
    CHECK(event->success);
    CHECK(event->type.job_kind() == "batch_scrape");
    if (event->type == webdata::webhooks::EventType::batch_scrape_page()) {
      REQUIRE(event->data.size() == 1);
      pages.insert(event->data[0].metadata.source_url.value_or(""));
      CHECK(event->data[0].markdown.has_value());
    } else {
      CHECK(event->data.empty());
    }
    // One byte changed, a different secret, or no header: refused before parsing.
    std::string tampered = r.body;
    tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'a' ? 'b' : 'a';
    CHECK_FALSE(webdata::webhooks::verify_signature("s3cr3t", tampered, signature));
    CHECK_FALSE(webdata::webhooks::verify_and_parse("s3cr3t", tampered, signature).ok());
    CHECK_FALSE(webdata::webhooks::verify_and_parse("other", r.body, signature).ok());
    CHECK_FALSE(webdata::webhooks::verify_and_parse("s3cr3t", r.body, std::nullopt).ok());
    // All the request's headers at once, the signature found by name in any case.
    webdata::Headers received(r.headers.begin(), r.headers.end());
    CHECK(webdata::webhooks::verify_and_parse("s3cr3t", r.body, received).ok());
    CHECK_FALSE(webdata::webhooks::verify_and_parse("s3cr3t", tampered, received).ok());
    CHECK_FALSE(
        webdata::webhooks::verify_and_parse("s3cr3t", r.body, received, "X-Firecrawl-Signature").ok());
  }
  CHECK(pages == std::multiset<std::string>{"http://pages-2.synthetic.test/",
                                            "http://pages-2.synthetic.test/p1"});
  CHECK(webdata::webhooks::EventType(json::parse(requests.front().body)["type"].get<std::string>()) ==
        webdata::webhooks::EventType::batch_scrape_started());
  CHECK(webdata::webhooks::EventType(json::parse(requests.back().body)["type"].get<std::string>()) ==
        webdata::webhooks::EventType::batch_scrape_completed());
}

TEST_CASE("concurrent crawls each deliver in order: started, pages as stored, completed",
          "[webhooks][jobs]") {
  RunningMock mock(fast());
  const ApiClient api(mock.url());
  Receiver receiver;
  // A receiver that is slow for some deliveries, so queues build up while jobs run.
  std::atomic<int> seen{0};
  receiver.set_handler([&](const Receiver::Request&) {
    Receiver::Reply reply;
    if (++seen % 3 == 0) reply.delay = 20ms;
    return reply;
  });
  std::vector<std::string> ids;
  for (const char* site : {"a", "b", "c"}) {
    const auto started = api.post(
        "/v2/crawl", {{"url", std::string("http://") + site + ".pages-8.synthetic.test/"},
                      {"maxConcurrency", 4},
                      {"webhook", receiver.url()}});
    REQUIRE(started.status == 200);
    ids.push_back(started.body["id"]);
  }
  REQUIRE(mock.server().jobs().wait_idle(30s));
  REQUIRE(mock.server().webhooks().drain("", 60s));
  std::map<std::string, std::vector<json>> by_job;
  for (const auto& r : receiver.requests()) {
    const json body = json::parse(r.body);
    by_job[body["id"].get<std::string>()].push_back(body);
  }
  for (const auto& id : ids) {
    INFO(id);
    const auto& events = by_job[id];
    REQUIRE(events.size() == 10);
    CHECK(events.front()["type"] == "crawl.started");
    CHECK(events.back()["type"] == "crawl.completed");
    const auto stored = documents_of(api, "/v2/crawl/" + id);
    REQUIRE(stored.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
      CHECK(events[i + 1]["type"] == "crawl.page");
      CHECK(events[i + 1]["data"][0] == stored[i]);
    }
  }
}

TEST_CASE("a receiver that fails twice gets the same signed bytes a third time",
          "[webhooks][jobs]") {
  RunningMock mock(fast());
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings", {{"webhookBackoffMs", 20}}).status == 200);
  Receiver receiver;
  std::atomic<int> calls{0};
  receiver.set_handler([&](const Receiver::Request&) {
    Receiver::Reply reply;
    if (++calls <= 2) reply.status = 503;
    return reply;
  });
  const auto started = api.post("/v2/batch/scrape", {{"urls", {"http://pages-1.synthetic.test/"}},
                                                     {"webhook", receiver.url()}});
  REQUIRE(started.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(30s));
  REQUIRE(mock.server().webhooks().drain("", 30s));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 5);  // started x3, page, completed
  for (int i = 1; i < 3; ++i) {
    CHECK(requests[i].body == requests[0].body);
    CHECK(requests[i].header("x-service-signature") == requests[0].header("x-service-signature"));
  }
  CHECK(requests[2].received_at - requests[1].received_at >=
        requests[1].received_at - requests[0].received_at);  // backoff grows
  CHECK(json::parse(requests[3].body)["type"] == "batch_scrape.page");
  CHECK(json::parse(requests[4].body)["type"] == "batch_scrape.completed");

  const auto log = api.get("/__admin/webhooks").body["deliveries"];
  REQUIRE(log.size() == 5);
  CHECK(log[0]["attempt"] == 1);
  CHECK(log[0]["status"] == 503);
  CHECK(log[0]["outcome"] == "retrying");
  CHECK(log[1]["attempt"] == 2);
  CHECK(log[1]["outcome"] == "retrying");
  CHECK(log[2]["attempt"] == 3);
  CHECK(log[2]["status"] == 200);
  CHECK(log[2]["outcome"] == "delivered");
  CHECK(log[2]["error"].is_null());
  for (const auto& entry : log) CHECK(entry["event"].is_string());
}

TEST_CASE("a receiver that hangs or is down does not delay the job", "[webhooks][jobs]") {
  RunningMock mock(fast());
  const ApiClient api(mock.url());
  Receiver hanging;
  hanging.set_handler([](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.hold = true;  // never answers until released (the mock waits 10 s per attempt)
    return reply;
  });
  const std::string dead = "http://127.0.0.1:" + std::to_string(Receiver::closed_port()) + "/hook";
  const auto before = std::chrono::steady_clock::now();
  const auto a = api.post("/v2/crawl", {{"url", "http://pages-20.synthetic.test/"},
                                        {"webhook", hanging.url()}});
  const auto b = api.post("/v2/batch/scrape", {{"urls", {"http://pages-1.synthetic.test/"}},
                                               {"webhook", dead}});
  REQUIRE(a.status == 200);
  REQUIRE(b.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(30s));
  const auto took = std::chrono::steady_clock::now() - before;
  CHECK(took < 8s);  // one held delivery alone takes 10 s to time out
  CHECK(api.get("/v2/crawl/" + a.body["id"].get<std::string>() + "?limit=1").body["status"] ==
        "completed");
  CHECK(api.get("/v2/batch/scrape/" + b.body["id"].get<std::string>()).body["status"] ==
        "completed");
  REQUIRE(hanging.wait_for_count(1, 10s));
  CHECK(hanging.requests().size() == 1);  // the job's later events wait behind the first
  hanging.release();
}
