// The crawl watcher: a WebSocket on GET /v1|v2/crawl/{id} (issue 7), over real sockets.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "ws_client.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using webdata::testing::WsClient;
using json = nlohmann::json;

namespace {

const WsClient::Headers kBearer = {{"Authorization", "Bearer test-key"}};

webdata::mock::Config paced(int pacing_ms) {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = pacing_ms;
  config.teams = {{"team-1", {"test-key"}}, {"team-2", {"other-key"}}};
  return config;
}

std::string start_crawl(const ApiClient& api, const json& body, const std::string& version = "v2") {
  const auto started = api.post("/" + version + "/crawl", body);
  REQUIRE(started.status == 200);
  return started.body["id"].get<std::string>();
}

/// Every document of a finished job through the status endpoint, following `next`.
json all_documents(const ApiClient& api, const std::string& path) {
  json docs = json::array();
  std::string target = path;
  for (int guard = 0; guard < 1000; ++guard) {
    const auto page = api.get(target);
    REQUIRE(page.status == 200);
    for (const auto& doc : page.body["data"]) docs.push_back(doc);
    if (!page.body.contains("next")) return docs;
    const std::string next = page.body["next"];
    target = next.substr(next.find("/v"));
  }
  FAIL("status chunks never ended");
  return docs;
}

using webdata::testing::eventually;

}  // namespace

TEST_CASE("the watcher streams a running crawl: catchup, each new page, then 1000 with done",
          "[watch][jobs]") {
  RunningMock mock(paced(40));
  const ApiClient api(mock.url());
  const std::string id =
      start_crawl(api, {{"url", "http://pages-15.synthetic.test/"}, {"maxConcurrency", 1}});

  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v2/crawl/" + id, kBearer).empty());
  CHECK(ws.response().result_int() == 101);
  const auto messages = ws.drain();
  REQUIRE_FALSE(ws.timed_out());
  CHECK(ws.closed());
  CHECK(ws.close_code() == 1000);
  CHECK(json::parse(ws.close_reason()) == json{{"type", "done"}});

  REQUIRE(messages.size() >= 2);
  const json catchup = json::parse(messages.front());
  CHECK(catchup["type"] == "catchup");
  const json& state = catchup["data"];
  CHECK(state["success"] == true);
  CHECK(state["status"] == "scraping");  // 15 pages 40 ms apart: far from done
  for (const char* key : {"total", "completed", "creditsUsed"}) CHECK(state[key].is_number_integer());
  CHECK(state["expiresAt"].is_string());
  CHECK_FALSE(state.contains("next"));
  REQUIRE(state["data"].is_array());
  CHECK(state["data"].size() == state["completed"].get<std::size_t>());

  json streamed = state["data"];
  std::size_t documents = 0;
  for (std::size_t i = 1; i < messages.size(); ++i) {
    const json message = json::parse(messages[i]);
    REQUIRE(message["type"] == "document");
    REQUIRE(message["data"].is_object());
    streamed.push_back(message["data"]);
    ++documents;
  }
  CHECK(documents >= 1);  // pages scraped while watching came one by one

  const auto status = api.get("/v2/crawl/" + id + "?limit=1");
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["completed"] == 15);
  // Catchup plus the streamed pages are exactly the job's documents, in order, none twice.
  CHECK(streamed == all_documents(api, "/v2/crawl/" + id));
  std::set<std::string> urls;
  for (const auto& doc : streamed) urls.insert(doc["metadata"]["sourceURL"].get<std::string>());
  CHECK(urls.size() == 15);
}

TEST_CASE("the key may come as the WebSocket subprotocol, which is echoed (v1 path)",
          "[watch][jobs]") {
  RunningMock mock(paced(0));
  const ApiClient api(mock.url());
  const std::string id = start_crawl(api, {{"url", "http://pages-4.synthetic.test/"}}, "v1");
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));

  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v1/crawl/" + id, {{"Sec-WebSocket-Protocol", "test-key"}}).empty());
  CHECK(ws.response()[boost::beast::http::field::sec_websocket_protocol] == "test-key");
  const auto messages = ws.drain();
  REQUIRE(messages.size() == 1);  // a finished crawl: catchup with everything, then done
  const json catchup = json::parse(messages[0]);
  CHECK(catchup["type"] == "catchup");
  CHECK(catchup["data"]["status"] == "completed");
  CHECK(catchup["data"]["completed"] == 4);
  CHECK(catchup["data"]["data"] == all_documents(api, "/v1/crawl/" + id));
  CHECK(ws.close_code() == 1000);
  CHECK(json::parse(ws.close_reason()) == json{{"type", "done"}});

  SECTION("an Authorization header wins; a protocol that is not a key is not echoed") {
    WsClient both(mock.server().port());
    REQUIRE(both.open("/v1/crawl/" + id, {{"Authorization", "Bearer test-key"},
                                          {"Sec-WebSocket-Protocol", "chat"}})
                .empty());
    CHECK(both.response()[boost::beast::http::field::sec_websocket_protocol].empty());
    CHECK(both.drain().size() == 1);
    CHECK(both.close_code() == 1000);
  }
}

TEST_CASE("unknown jobs, other teams' jobs, batch ids and bad keys close with 1008",
          "[watch][jobs]") {
  RunningMock mock(paced(0));
  const ApiClient api(mock.url());
  const ApiClient other(mock.url(), "other-key");
  const std::string mine = start_crawl(api, {{"url", "http://pages-2.synthetic.test/"}});
  const auto batch = api.post("/v2/batch/scrape", {{"urls", {"http://pages-2.synthetic.test/"}}});
  REQUIRE(batch.status == 200);

  struct Case {
    std::string name;
    std::string target;
    WsClient::Headers headers;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"unknown id", "/v2/crawl/4f8a1c1e-0000-4000-8000-000000000000", kBearer, "Job not found"},
      {"another team's crawl", "/v2/crawl/" + mine, {{"Authorization", "Bearer other-key"}},
       "Job not found"},
      {"a batch scrape id", "/v2/crawl/" + batch.body["id"].get<std::string>(), kBearer,
       "Job not found"},
      {"a wrong key", "/v2/crawl/" + mine, {{"Authorization", "Bearer nope"}},
       "Unauthorized: Invalid token"},
      {"a wrong key as protocol", "/v1/crawl/" + mine, {{"Sec-WebSocket-Protocol", "nope"}},
       "Unauthorized: Invalid token"},
      {"no key", "/v2/crawl/" + mine, {}, "Unauthorized"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    WsClient ws(mock.server().port());
    REQUIRE(ws.open(c.target, c.headers).empty());
    CHECK(ws.drain().empty());
    CHECK(ws.closed());
    CHECK(ws.close_code() == 1008);
    const json reason = json::parse(ws.close_reason(), nullptr, false);
    CHECK(reason == json{{"type", "error"}, {"error", c.error}});
  }
  CHECK(mock.server().jobs().watcher_count() == 0);
  // The other team's own crawl is watchable with its key.
  const std::string theirs = start_crawl(other, {{"url", "http://pages-2.synthetic.test/"}});
  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v2/crawl/" + theirs, {{"Authorization", "Bearer other-key"}}).empty());
  CHECK_FALSE(ws.drain().empty());
  CHECK(ws.close_code() == 1000);
}

TEST_CASE("a plain GET of a crawl is still the status resource", "[watch][jobs]") {
  RunningMock mock(paced(0));
  const ApiClient api(mock.url());
  const std::string id = start_crawl(api, {{"url", "http://pages-2.synthetic.test/"}});
  const auto status = api.get("/v2/crawl/" + id);
  CHECK(status.status == 200);
  CHECK(status.body["status"].is_string());
  // An upgrade request to a path that is not a crawl is answered as plain HTTP.
  WsClient ws(mock.server().port());
  CHECK_FALSE(ws.open("/v2/crawl/active", kBearer).empty());
}

TEST_CASE("the admin API turns the crawl watcher off and on, and counts open watchers",
          "[watch][jobs][admin]") {
  RunningMock mock(paced(40));
  const ApiClient api(mock.url());
  CHECK(api.get("/__admin/watchers").body == json{{"enabled", true}, {"open", 0}});
  CHECK(api.get("/__admin/settings").body["crawlWatcher"] == true);
  const std::string id =
      start_crawl(api, {{"url", "http://pages-15.synthetic.test/"}, {"maxConcurrency", 1}});
  const auto open_watchers = [&] { return api.get("/__admin/watchers").body["open"]; };
  {
    WsClient watching(mock.server().port());
    REQUIRE(watching.open("/v2/crawl/" + id, kBearer).empty());
    REQUIRE(watching.next());
    CHECK(eventually([&] { return open_watchers() == 1; }, std::chrono::seconds(10)));

    // Off: an upgrade request is answered as the plain status GET; the open watcher stays.
    const auto off = api.post("/__admin/settings", {{"crawlWatcher", false}});
    REQUIRE(off.status == 200);
    CHECK(off.body["crawlWatcher"] == false);
    WsClient declined(mock.server().port());
    CHECK_FALSE(declined.open("/v2/crawl/" + id, kBearer).empty());
    CHECK(declined.response().result_int() == 200);
    CHECK(api.get("/__admin/watchers").body == json{{"enabled", false}, {"open", 1}});
    CHECK(api.get("/__admin/settings").body["crawlWatcher"] == false);
  }
  // Its client gone, the connection is gone from the count.
  CHECK(eventually([&] { return open_watchers() == 0; }, std::chrono::seconds(10)));

  REQUIRE(api.post("/__admin/settings", {{"crawlWatcher", true}}).status == 200);
  WsClient again(mock.server().port());
  CHECK(again.open("/v2/crawl/" + id, kBearer).empty());
  const auto refused = api.post("/__admin/settings", {{"crawlWatcher", "no"}});
  CHECK(refused.status == 400);
  CHECK(refused.body["error"].get<std::string>().find("crawlWatcher") != std::string::npos);
}

TEST_CASE("a failed crawl sends an error message, then done", "[watch][jobs]") {
  RunningMock mock(paced(0));
  const ApiClient api(mock.url());
  const std::string id = start_crawl(api, {{"url", "http://nowhere.invalid/"}});
  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v2/crawl/" + id, kBearer).empty());
  const auto messages = ws.drain();
  REQUIRE(messages.size() >= 2);
  CHECK(json::parse(messages.front())["type"] == "catchup");
  const json error = json::parse(messages.back());
  CHECK(error["type"] == "error");
  CHECK(error["error"].get<std::string>().find("could not be reached") != std::string::npos);
  CHECK(ws.close_code() == 1000);
  CHECK(json::parse(ws.close_reason()) == json{{"type", "done"}});
  CHECK(api.get("/v2/crawl/" + id).body["status"] == "failed");
}

TEST_CASE("cancelling a watched crawl ends the watch with done", "[watch][jobs]") {
  RunningMock mock(paced(100));
  const ApiClient api(mock.url());
  const std::string id =
      start_crawl(api, {{"url", "http://pages-50.synthetic.test/"}, {"maxConcurrency", 1}});
  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v2/crawl/" + id, kBearer).empty());
  const auto catchup = ws.next();
  REQUIRE(catchup);
  CHECK(json::parse(*catchup)["data"]["status"] == "scraping");
  REQUIRE(api.del("/v2/crawl/" + id).status == 200);
  const auto rest = ws.drain(std::chrono::seconds(10));
  for (const auto& message : rest) CHECK(json::parse(message)["type"] == "document");
  CHECK(ws.close_code() == 1000);
  CHECK(json::parse(ws.close_reason()) == json{{"type", "done"}});
}

TEST_CASE("watchers that leave mid-crawl are cleaned up and do not hurt the job",
          "[watch][jobs]") {
  RunningMock mock(paced(20));
  const ApiClient api(mock.url());
  const std::string id =
      start_crawl(api, {{"url", "http://pages-30.synthetic.test/"}, {"maxConcurrency", 2}});
  {
    WsClient rude(mock.server().port());  // drops the TCP connection without a close frame
    REQUIRE(rude.open("/v2/crawl/" + id, kBearer).empty());
    REQUIRE(rude.next());
    WsClient polite(mock.server().port());
    REQUIRE(polite.open("/v2/crawl/" + id, kBearer).empty());
    REQUIRE(polite.next());
    polite.close();
    CHECK(mock.server().jobs().watcher_count() >= 1);
  }
  CHECK(eventually([&] { return mock.server().jobs().watcher_count() == 0; },
                   std::chrono::seconds(10)));
  CHECK(eventually([&] { return mock.server().open_watchers() == 0; }, std::chrono::seconds(10)));
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(30)));
  const auto status = api.get("/v2/crawl/" + id + "?limit=1");
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["completed"] == 30);
  CHECK(all_documents(api, "/v2/crawl/" + id).size() == 30);
}

// [large]: 40 MB of pages; the TSan step of the test command leaves it to the full TSan run.
TEST_CASE("a watcher too slow to read is cut off with 1008, the job does not wait for it",
          "[watch][jobs][large]") {
  RunningMock mock(paced(0));
  webdata::mock::http::WebSocketLimits limits;
  limits.max_queued_messages = 2;
  limits.close_timeout = std::chrono::seconds(60);  // the client reads only after the job
  mock.server().set_watcher_limits(limits);
  const ApiClient api(mock.url());
  // 80 pages of 512 KB: far more than the socket buffers hold while nobody reads.
  const std::string id = start_crawl(api, {{"url", "http://pages-80.weight-512k.synthetic.test/"},
                                           {"maxConcurrency", 4}});
  WsClient ws(mock.server().port());
  REQUIRE(ws.open("/v2/crawl/" + id, kBearer).empty());
  const auto started = std::chrono::steady_clock::now();
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(60)));
  const auto status = api.get("/v2/crawl/" + id + "?limit=1");
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["completed"] == 80);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));

  const auto messages = ws.drain(std::chrono::seconds(30));
  CHECK(messages.size() < 81);
  CHECK(ws.closed());
  CHECK(ws.close_code() == 1008);
  CHECK(ws.close_reason().find("too slow") != std::string::npos);
  CHECK(eventually([&] { return mock.server().jobs().watcher_count() == 0; },
                   std::chrono::seconds(10)));
}

TEST_CASE("stopping the server closes watchers with 1001", "[watch][jobs]") {
  auto mock = std::make_unique<RunningMock>(paced(200));
  const ApiClient api(mock->url());
  const std::string id =
      start_crawl(api, {{"url", "http://pages-50.synthetic.test/"}, {"maxConcurrency", 1}});
  WsClient ws(mock->server().port());
  REQUIRE(ws.open("/v2/crawl/" + id, kBearer).empty());
  REQUIRE(ws.next());
  std::thread reader([&] { ws.drain(std::chrono::seconds(20)); });
  const auto before = std::chrono::steady_clock::now();
  mock.reset();
  const auto took = std::chrono::steady_clock::now() - before;
  reader.join();
  CHECK(took < std::chrono::seconds(4));  // well inside the 5 s grace: nothing waited on it
  CHECK(ws.close_code() == 1001);
}

TEST_CASE("a server stopped while watchers open their connections closes each one cleanly",
          "[watch][jobs][http][stress]") {
  // The stop's close frame must wait for the opening handshake's own write: a close sent while
  // the 101 answer was still being written was a second write on the socket (an abort in Beast).
  for (int round = 0; round < 150; ++round) {
    INFO("round " << round);
    auto mock = std::make_unique<RunningMock>(paced(40));
    const ApiClient api(mock->url());
    const std::string id = start_crawl(api, {{"url", "http://pages-15.synthetic.test/"}});
    const unsigned short port = mock->server().port();
    std::vector<std::thread> watchers;
    for (int i = 0; i < 4; ++i) {
      watchers.emplace_back([port, id] {
        WsClient ws(port);
        if (ws.open("/v2/crawl/" + id, kBearer).empty()) ws.drain(std::chrono::seconds(10));
      });
    }
    // Stop once 0 to 4 of them have asked for the upgrade: some are then mid-handshake.
    const int upgraded = round % 5;
    CHECK(eventually([&] { return api.get("/__admin/watchers").body["open"] >= upgraded; },
                     std::chrono::seconds(10)));
    mock.reset();  // stops the server: every open watcher gets its close frame
    for (auto& t : watchers) t.join();
  }
}
