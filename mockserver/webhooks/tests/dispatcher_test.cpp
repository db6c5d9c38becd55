#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eventually.hpp"
#include "webhook_receiver.hpp"
#include "webhooks/dispatcher.hpp"

namespace {

using namespace std::chrono_literals;
using webdata::mock::webhooks::build_payload;
using webdata::mock::webhooks::Dispatcher;
using webdata::mock::webhooks::Settings;
using webdata::mock::webhooks::sign;
using webdata::mock::webhooks::Target;
using webdata::mock::webhooks::testing::Receiver;
using json = nlohmann::json;

// Generous: the suite runs on a loaded two-core machine, sanitizers included.
constexpr auto kPatience = std::chrono::milliseconds(20000);

std::string hmac_hex(const std::string& body, const std::string& key) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), digest, &length);
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

Settings fast_settings() {
  Settings settings;
  settings.first_backoff = 20ms;
  settings.backoff_factor = 2.0;
  settings.receiver_timeout = 5000ms;
  return settings;
}

Target target_for(const Receiver& receiver, const std::string& path = "/hook") {
  Target target;
  target.url = receiver.url(path);
  return target;
}

json page(int n) {
  return json{{"markdown", "page " + std::to_string(n)}, {"n", n}};
}

// The `n` of the one document of a page event, or -1 for other events.
int page_number(const Receiver::Request& request) {
  const auto payload = json::parse(request.body);
  const auto& data = payload.at("data");
  return data.empty() ? -1 : data.at(0).at("n").get<int>();
}

using webdata::testing::eventually;

}  // namespace

TEST_CASE("sign reproduces the wire-decisions test vector") {
  const std::string body =
      R"({"success":true,"type":"crawl.page","id":"crawl-123","webhookId":"webhook-123","data":[]})";
  CHECK(sign(body, "secret") ==
        "sha256=29729c39fd5f57c6f4d50c86dd20256a5d77b7b39d19531c17805163fb830d40");
  CHECK(sign(body + " ", "secret") != sign(body, "secret"));
  CHECK(sign(body, "other") != sign(body, "secret"));
}

TEST_CASE("Target::parse accepts the string and object forms") {
  std::string error;
  SECTION("a string URL") {
    const auto target = Target::parse("https://example.com/hook?x=1", &error);
    REQUIRE(target);
    CHECK(target->url == "https://example.com/hook?x=1");
    CHECK(target->headers.empty());
    CHECK(target->metadata == json::object());
    CHECK(target->events.empty());
    CHECK(target->wants("crawl.started"));
    CHECK(target->wants("batch_scrape.failed"));
  }
  SECTION("an object with every field") {
    const auto target = Target::parse(json{{"url", "http://127.0.0.1:9/h"},
                                           {"headers", {{"X-Token", "abc"}, {"X-Empty", ""}}},
                                           {"metadata", {{"run", "42"}, {"nested", {{"a", 1}}}}},
                                           {"events", {"page", "completed"}}},
                                      &error);
    REQUIRE(target);
    CHECK(target->url == "http://127.0.0.1:9/h");
    CHECK(target->headers.size() == 2);
    CHECK(target->metadata.at("run") == "42");
    CHECK(target->metadata.at("nested").at("a") == 1);
    CHECK(target->events == std::set<std::string>{"page", "completed"});
    CHECK(target->wants("crawl.page"));
    CHECK(target->wants("batch_scrape.completed"));
    CHECK_FALSE(target->wants("crawl.started"));
    CHECK_FALSE(target->wants("crawl.failed"));
  }
}

TEST_CASE("Target::parse refuses invalid webhook fields with a message naming the key") {
  struct Case {
    json field;
    std::string mentions;
  };
  const std::vector<Case> cases = {
      {json(42), "webhook"},
      {json("ftp://example.com/x"), "http"},
      {json("not a url"), "URL"},
      {json("/relative/path"), "URL"},
      {json{{"headers", json::object()}}, "webhook.url"},
      {json{{"url", 5}}, "webhook.url"},
      {json{{"url", "file:///etc/passwd"}}, "webhook.url"},
      {json{{"url", "https://e.com"}, {"secret", "x"}}, "secret"},
      {json{{"url", "https://e.com"}, {"headers", {{"X-A", 1}}}}, "webhook.headers.X-A"},
      {json{{"url", "https://e.com"}, {"headers", json::array()}}, "webhook.headers"},
      {json{{"url", "https://e.com"}, {"headers", {{"Bad Name", "v"}}}}, "Bad Name"},
      {json{{"url", "https://e.com"}, {"headers", {{"X-A", "a\r\nX-Injected: 1"}}}},
       "webhook.headers.X-A"},
      {json{{"url", "https://e.com"}, {"metadata", "text"}}, "webhook.metadata"},
      {json{{"url", "https://e.com"}, {"events", "page"}}, "webhook.events"},
      {json{{"url", "https://e.com"}, {"events", json::array()}}, "webhook.events"},
      {json{{"url", "https://e.com"}, {"events", {"page", "finished"}}}, "webhook.events.1"},
  };
  for (const auto& c : cases) {
    INFO(c.field.dump());
    std::string error;
    CHECK_FALSE(Target::parse(c.field, &error));
    CHECK_THAT(error, Catch::Contains(c.mentions));
    CHECK_FALSE(Target::parse(c.field, nullptr));
  }
}

TEST_CASE("build_payload follows wire decisions 4 byte for byte") {
  const json metadata = {{"run", "7"}};
  SECTION("page: data is an array holding the one document") {
    CHECK(build_payload("job-1", "crawl.page", true, json{{"markdown", "# Hi"}}, metadata,
                        std::nullopt) ==
          R"({"success":true,"type":"crawl.page","id":"job-1","data":[{"markdown":"# Hi"}],)"
          R"("metadata":{"run":"7"},"error":null})");
  }
  SECTION("page: an array is sent as given") {
    CHECK(build_payload("b", "batch_scrape.page", true, json::array({{{"a", 1}}}), json::object(),
                        std::nullopt) ==
          R"({"success":true,"type":"batch_scrape.page","id":"b","data":[{"a":1}],)"
          R"("metadata":{},"error":null})");
  }
  SECTION("started, completed and failed carry an empty data array") {
    CHECK(build_payload("job-1", "crawl.started", true, json{{"ignored", true}}, metadata,
                        std::nullopt) ==
          R"({"success":true,"type":"crawl.started","id":"job-1","data":[],)"
          R"("metadata":{"run":"7"},"error":null})");
    CHECK(build_payload("job-1", "batch_scrape.completed", true, nullptr, metadata, std::nullopt) ==
          R"({"success":true,"type":"batch_scrape.completed","id":"job-1","data":[],)"
          R"("metadata":{"run":"7"},"error":null})");
    CHECK(build_payload("job-1", "crawl.failed", false, nullptr, metadata,
                        std::string("robots \"blocked\"")) ==
          R"({"success":false,"type":"crawl.failed","id":"job-1","data":[],)"
          R"("metadata":{"run":"7"},"error":"robots \"blocked\""})");
  }
  SECTION("metadata that is not an object is sent as {}") {
    CHECK(
        build_payload("j", "crawl.started", true, nullptr, nullptr, std::nullopt) ==
        R"({"success":true,"type":"crawl.started","id":"j","data":[],"metadata":{},"error":null})");
  }
}

TEST_CASE("a delivery is a POST of the signed exact bytes with the target's headers") {
  Receiver receiver;
  Dispatcher dispatcher(fast_settings());
  std::string error;
  auto target = Target::parse(json{{"url", receiver.url("/in?team=1")},
                                   {"headers", {{"X-Token", "t0k"}, {"X-Blank", ""}}},
                                   {"metadata", {{"run", "r-1"}}}},
                              &error);
  REQUIRE(target);
  const json document = {{"markdown", "caf\xc3\xa9 \xe2\x9c\x93"},
                         {"metadata", {{"statusCode", 200}}}};
  dispatcher.enqueue("job-a", *target, "s3cret", "crawl.page", true, document, std::nullopt);
  REQUIRE(dispatcher.drain("job-a", kPatience));

  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  const auto& request = requests.front();
  CHECK(request.method == "POST");
  CHECK(request.target == "/in?team=1");
  CHECK(request.header("content-type") == "application/json");
  CHECK(request.header("x-token") == "t0k");
  CHECK(request.headers.count("x-blank") == 1);
  CHECK(request.header("x-blank").empty());
  CHECK(request.header("x-service-signature") == "sha256=" + hmac_hex(request.body, "s3cret"));

  const auto payload = json::parse(request.body);
  CHECK(payload == json{{"success", true},
                        {"type", "crawl.page"},
                        {"id", "job-a"},
                        {"data", json::array({document})},
                        {"metadata", {{"run", "r-1"}}},
                        {"error", nullptr}});
}

TEST_CASE("every event type is delivered with its payload shape") {
  Receiver receiver;
  Dispatcher dispatcher(fast_settings());
  Target target = target_for(receiver);
  target.metadata = {{"k", "v"}};
  for (const std::string kind : {"crawl", "batch_scrape"}) {
    const std::string job = kind + "-job";
    dispatcher.enqueue(job, target, "k", kind + ".started", true, nullptr, std::nullopt);
    dispatcher.enqueue(job, target, "k", kind + ".page", true, page(1), std::nullopt);
    dispatcher.enqueue(job, target, "k", kind + ".completed", true, nullptr, std::nullopt);
    dispatcher.enqueue(job, target, "k", kind + ".failed", false, nullptr,
                       std::string("job failed"));
  }
  REQUIRE(dispatcher.drain("", kPatience));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 8);

  std::map<std::string, std::vector<json>> by_job;
  for (const auto& request : requests) {
    CHECK(request.header("x-service-signature") == "sha256=" + hmac_hex(request.body, "k"));
    const auto payload = json::parse(request.body);
    by_job[payload.at("id").get<std::string>()].push_back(payload);
  }
  for (const std::string kind : {"crawl", "batch_scrape"}) {
    const auto& events = by_job[kind + "-job"];
    REQUIRE(events.size() == 4);
    CHECK(events[0] == json{{"success", true},
                            {"type", kind + ".started"},
                            {"id", kind + "-job"},
                            {"data", json::array()},
                            {"metadata", {{"k", "v"}}},
                            {"error", nullptr}});
    CHECK(events[1].at("type") == kind + ".page");
    CHECK(events[1].at("data") == json::array({page(1)}));
    CHECK(events[2].at("type") == kind + ".completed");
    CHECK(events[2].at("data") == json::array());
    CHECK(events[3] == json{{"success", false},
                            {"type", kind + ".failed"},
                            {"id", kind + "-job"},
                            {"data", json::array()},
                            {"metadata", {{"k", "v"}}},
                            {"error", "job failed"}});
  }
}

TEST_CASE("the signature header name is configurable and cannot be overridden by the target") {
  Receiver receiver;
  Settings settings = fast_settings();
  settings.signature_header = "X-Firecrawl-Signature";
  Dispatcher dispatcher(settings);
  Target target = target_for(receiver);
  target.headers = {{"x-firecrawl-signature", "forged"},
                    {"Content-Type", "application/vnd.x+json"}};
  dispatcher.enqueue("j", target, "key", "crawl.started", true, nullptr, std::nullopt);
  REQUIRE(dispatcher.drain("j", kPatience));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].headers.count("x-service-signature") == 0);
  CHECK(requests[0].header("x-firecrawl-signature") ==
        "sha256=" + hmac_hex(requests[0].body, "key"));
  CHECK(requests[0].header("content-type") == "application/vnd.x+json");
}

TEST_CASE("the events filter drops unwanted events before they are queued") {
  Receiver receiver;
  Dispatcher dispatcher(fast_settings());
  std::string error;
  const auto target =
      Target::parse(json{{"url", receiver.url()}, {"events", {"page", "failed"}}}, &error);
  REQUIRE(target);
  dispatcher.enqueue("j", *target, "k", "crawl.started", true, nullptr, std::nullopt);
  dispatcher.enqueue("j", *target, "k", "crawl.page", true, page(1), std::nullopt);
  dispatcher.enqueue("j", *target, "k", "crawl.page", true, page(2), std::nullopt);
  dispatcher.enqueue("j", *target, "k", "crawl.completed", true, nullptr, std::nullopt);
  dispatcher.enqueue("j", *target, "k", "crawl.failed", false, nullptr, std::string("x"));
  REQUIRE(dispatcher.drain("", kPatience));
  std::vector<std::string> types;
  for (const auto& request : receiver.requests()) {
    types.push_back(json::parse(request.body).at("type").get<std::string>());
  }
  CHECK(types == std::vector<std::string>{"crawl.page", "crawl.page", "crawl.failed"});
  CHECK(dispatcher.log_json().size() == 3);
}

TEST_CASE("a retrying event holds back the later events of its job") {
  Receiver receiver;
  std::atomic<int> failures_left{2};
  receiver.set_handler([&](const Receiver::Request& request) {
    Receiver::Reply reply;
    if (page_number(request) == 1 && failures_left > 0) {
      reply.status = failures_left-- == 2 ? 500 : 404;
    }
    return reply;
  });
  Dispatcher dispatcher(fast_settings());
  const Target target = target_for(receiver);
  for (int n = 1; n <= 5; ++n) {
    dispatcher.enqueue("job", target, "k", "crawl.page", true, page(n), std::nullopt);
  }
  REQUIRE(dispatcher.drain("job", kPatience));

  std::vector<int> order;
  std::set<std::string> bodies_of_first;
  std::set<std::string> signatures_of_first;
  for (const auto& request : receiver.requests()) {
    order.push_back(page_number(request));
    if (order.back() == 1) {
      bodies_of_first.insert(request.body);
      signatures_of_first.insert(request.header("x-service-signature"));
    }
  }
  CHECK(order == std::vector<int>{1, 1, 1, 2, 3, 4, 5});
  CHECK(bodies_of_first.size() == 1);
  CHECK(signatures_of_first.size() == 1);

  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 7);
  CHECK(log[0].at("status") == 500);
  CHECK(log[0].at("attempt") == 1);
  CHECK(log[0].at("outcome") == "retrying");
  CHECK(log[0].at("error") == "receiver answered HTTP 500");
  CHECK(log[1].at("status") == 404);
  CHECK(log[1].at("attempt") == 2);
  CHECK(log[1].at("outcome") == "retrying");
  CHECK(log[2].at("status") == 200);
  CHECK(log[2].at("attempt") == 3);
  CHECK(log[2].at("outcome") == "delivered");
  CHECK(log[2].at("error").is_null());
  for (std::size_t i = 3; i < log.size(); ++i) {
    CHECK(log[i].at("attempt") == 1);
    CHECK(log[i].at("outcome") == "delivered");
  }
}

TEST_CASE("events of concurrent jobs stay in order per job under failures") {
  Receiver receiver;
  std::mutex mutex;
  std::map<std::pair<std::string, int>, int> attempts;
  // Page 3, 6, 9, 12 fail once; page 4, 8, 12 fail twice.
  receiver.set_handler([&](const Receiver::Request& request) {
    const int n = page_number(request);
    int attempt = 0;
    {
      std::lock_guard<std::mutex> lock(mutex);
      attempt = ++attempts[{request.target, n}];
    }
    Receiver::Reply reply;
    if ((n % 3 == 0 && attempt == 1) || (n % 4 == 0 && attempt <= 2)) reply.status = 503;
    return reply;
  });
  Settings settings = fast_settings();
  settings.first_backoff = 5ms;
  settings.workers = 4;
  Dispatcher dispatcher(settings);
  constexpr int kJobs = 6;
  std::vector<std::thread> producers;
  for (int j = 0; j < kJobs; ++j) {
    producers.emplace_back([&, j] {
      const Target target = target_for(receiver, "/job/" + std::to_string(j));
      for (int n = 1; n <= 12; ++n) {
        dispatcher.enqueue("job-" + std::to_string(j), target, "k", "batch_scrape.page", true,
                           page(n), std::nullopt);
      }
    });
  }
  for (auto& producer : producers) producer.join();
  REQUIRE(dispatcher.drain("", kPatience));

  const std::vector<int> expected = {1, 2, 3, 3, 4, 4,  4,  5,  6,  6, 7,
                                     8, 8, 8, 9, 9, 10, 11, 12, 12, 12};
  std::map<std::string, std::vector<int>> arrivals;
  for (const auto& request : receiver.requests()) {
    arrivals[request.target].push_back(page_number(request));
  }
  REQUIRE(arrivals.size() == kJobs);
  for (const auto& [job, numbers] : arrivals) {
    INFO(job);
    CHECK(numbers == expected);
  }
  const auto log = dispatcher.log_json();
  CHECK(log.size() == kJobs * expected.size());
  for (const auto& entry : log) CHECK(entry.at("outcome") != "failed");
}

TEST_CASE("jobs are delivered in parallel: a stuck receiver does not hold other jobs") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request& request) {
    Receiver::Reply reply;
    reply.hold = request.target == "/stuck";
    return reply;
  });
  Dispatcher dispatcher(fast_settings());
  dispatcher.enqueue("slow", target_for(receiver, "/stuck"), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  REQUIRE(receiver.wait_for_count(1, kPatience));
  for (int n = 1; n <= 5; ++n) {
    dispatcher.enqueue("fast", target_for(receiver, "/fast"), "k", "crawl.page", true, page(n),
                       std::nullopt);
  }
  REQUIRE(dispatcher.drain("fast", kPatience));
  CHECK_FALSE(dispatcher.drain("slow", 50ms));
  CHECK(receiver.requests().size() == 6);
  receiver.release();
  CHECK(dispatcher.drain("slow", kPatience));
  CHECK(dispatcher.drain("", kPatience));
}

TEST_CASE("a failing receiver is retried with growing backoff, then given up") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request& request) {
    Receiver::Reply reply;
    reply.status = page_number(request) == 1 ? 503 : 200;
    return reply;
  });
  Settings settings = fast_settings();
  settings.max_attempts = 3;
  settings.first_backoff = 60ms;
  settings.backoff_factor = 3.0;
  Dispatcher dispatcher(settings);
  const Target target = target_for(receiver);
  dispatcher.enqueue("job", target, "k", "crawl.page", true, page(1), std::nullopt);
  dispatcher.enqueue("job", target, "k", "crawl.page", true, page(2), std::nullopt);
  REQUIRE(dispatcher.drain("job", kPatience));

  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 4);
  // Lower bounds only: waits can be longer on a loaded machine, never shorter.
  CHECK(requests[1].received_at - requests[0].received_at >= 60ms);
  CHECK(requests[2].received_at - requests[1].received_at >= 180ms);
  CHECK(page_number(requests[3]) == 2);

  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 4);
  for (int i = 0; i < 3; ++i) {
    CHECK(log[i].at("attempt") == i + 1);
    CHECK(log[i].at("status") == 503);
  }
  CHECK(log[0].at("outcome") == "retrying");
  CHECK(log[1].at("outcome") == "retrying");
  CHECK(log[2].at("outcome") == "failed");
  CHECK(log[3].at("outcome") == "delivered");
}

TEST_CASE("a retry waits on the mock's clock: advancing it makes the retry due at once") {
  Receiver receiver;
  std::atomic<bool> fail{true};
  receiver.set_handler([&](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.status = fail ? 503 : 200;
    return reply;
  });
  Settings settings = fast_settings();
  settings.first_backoff = std::chrono::minutes(2);
  webdata::mock::Clock clock;
  Dispatcher dispatcher(settings, clock);
  dispatcher.enqueue("job", target_for(receiver), "k", "crawl.page", true, page(1), std::nullopt);
  REQUIRE(eventually([&] { return dispatcher.log_json().size() == 1; }));
  fail = false;
  CHECK_FALSE(dispatcher.drain("job", 50ms));  // the retry waits for its two minutes

  clock.advance(std::chrono::seconds(119));  // not yet
  CHECK_FALSE(dispatcher.drain("job", 50ms));
  clock.advance(std::chrono::seconds(1));
  REQUIRE(dispatcher.drain("job", kPatience));
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 2);
  CHECK(log[0].at("outcome") == "retrying");
  CHECK(log[1].at("outcome") == "delivered");
}

TEST_CASE("redirects are not followed, they count as failed attempts") {
  Receiver receiver;
  receiver.set_handler([&](const Receiver::Request& request) {
    Receiver::Reply reply;
    if (request.target == "/hook") {
      reply.status = 302;
      reply.headers = {{"Location", receiver.url("/elsewhere")}};
    }
    return reply;
  });
  Settings settings = fast_settings();
  settings.max_attempts = 2;
  Dispatcher dispatcher(settings);
  dispatcher.enqueue("job", target_for(receiver), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  REQUIRE(dispatcher.drain("job", kPatience));
  for (const auto& request : receiver.requests()) CHECK(request.target == "/hook");
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 2);
  CHECK(log[1].at("status") == 302);
  CHECK(log[1].at("outcome") == "failed");
}

TEST_CASE("a receiver that does not answer in time is a failed attempt") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.hold = true;
    return reply;
  });
  Settings settings = fast_settings();
  settings.receiver_timeout = 300ms;
  settings.max_attempts = 2;
  Dispatcher dispatcher(settings);
  dispatcher.enqueue("job", target_for(receiver), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  REQUIRE(dispatcher.drain("job", kPatience));
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 2);
  for (const auto& entry : log) {
    CHECK(entry.at("status").is_null());
    CHECK_THAT(entry.at("error").get<std::string>(), Catch::Contains("timeout"));
    // libcurl's own clock may end the wait a hair before ours reads 300 ms.
    CHECK(entry.at("latencyMs").get<long>() >= 250);
  }
  CHECK(log[1].at("outcome") == "failed");
  CHECK(receiver.requests().size() == 2);
  receiver.release();
}

TEST_CASE("a receiver that is down is retried and given up without blocking anyone") {
  Settings settings = fast_settings();
  settings.max_attempts = 2;
  settings.first_backoff = 5ms;
  Dispatcher dispatcher(settings);
  Target target;
  target.url = "http://127.0.0.1:" + std::to_string(Receiver::closed_port()) + "/hook";
  for (int j = 0; j < 3; ++j) {
    for (int n = 1; n <= 4; ++n) {
      dispatcher.enqueue("down-" + std::to_string(j), target, "k", "crawl.page", true, page(n),
                         std::nullopt);
    }
  }
  REQUIRE(dispatcher.drain("", kPatience));
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 3 * 4 * 2);
  int gave_up = 0;
  for (const auto& entry : log) {
    CHECK(entry.at("status").is_null());
    CHECK_FALSE(entry.at("error").get<std::string>().empty());
    gave_up += entry.at("outcome") == "failed" ? 1 : 0;
  }
  CHECK(gave_up == 12);
}

TEST_CASE("enqueue returns before any network answer") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.hold = true;
    return reply;
  });
  Settings settings = fast_settings();
  settings.receiver_timeout = 60000ms;
  Dispatcher dispatcher(settings);
  for (int j = 0; j < 20; ++j) {
    for (int n = 1; n <= 10; ++n) {
      dispatcher.enqueue("job-" + std::to_string(j), target_for(receiver), "k", "crawl.page", true,
                         page(n), std::nullopt);
    }
  }
  // The receiver answers nothing until released, so had any enqueue waited for an answer we
  // would not get here; and no attempt can have finished yet.
  CHECK(dispatcher.log_json().empty());
  CHECK(receiver.wait_for_count(1, kPatience));
  CHECK_FALSE(dispatcher.drain("", 20ms));
  receiver.release();
  CHECK(dispatcher.drain("", kPatience));
  CHECK(receiver.requests().size() == 200);
}

TEST_CASE("drain waits for one job or all, and reports a timeout") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request& request) {
    Receiver::Reply reply;
    reply.hold = request.target == "/held";
    return reply;
  });
  Dispatcher dispatcher(fast_settings());
  CHECK(dispatcher.drain("", 0ms));
  CHECK(dispatcher.drain("unknown", 0ms));
  dispatcher.enqueue("held", target_for(receiver, "/held"), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  dispatcher.enqueue("free", target_for(receiver, "/free"), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  CHECK(dispatcher.drain("free", kPatience));
  CHECK_FALSE(dispatcher.drain("held", 100ms));
  CHECK_FALSE(dispatcher.drain("", 100ms));
  receiver.release();
  CHECK(dispatcher.drain("", kPatience));
}

TEST_CASE("reset drops queued events and wakes a backoff wait at once") {
  Receiver receiver;
  std::atomic<bool> fail{true};
  receiver.set_handler([&](const Receiver::Request&) {
    Receiver::Reply reply;
    reply.status = fail ? 500 : 200;
    return reply;
  });
  Settings settings = fast_settings();
  settings.first_backoff = std::chrono::minutes(2);
  Dispatcher dispatcher(settings);
  for (int n = 1; n <= 3; ++n) {
    dispatcher.enqueue("job", target_for(receiver), "k", "crawl.page", true, page(n), std::nullopt);
  }
  REQUIRE(eventually([&] { return dispatcher.log_json().size() == 1; }));
  CHECK_FALSE(dispatcher.drain("job", 50ms));

  const auto before = std::chrono::steady_clock::now();
  dispatcher.reset();
  CHECK(dispatcher.drain("", kPatience));
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::minutes(1));
  CHECK(dispatcher.log_json().empty());
  CHECK(receiver.requests().size() == 1);

  fail = false;
  dispatcher.enqueue("job", target_for(receiver), "k", "crawl.page", true, page(9), std::nullopt);
  REQUIRE(dispatcher.drain("job", kPatience));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 2);
  CHECK(page_number(requests[1]) == 9);
  CHECK(dispatcher.log_json().size() == 1);
}

TEST_CASE("reset aborts an attempt in flight without logging it") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request& request) {
    Receiver::Reply reply;
    reply.hold = request.target == "/held";
    return reply;
  });
  Settings settings = fast_settings();
  settings.receiver_timeout = std::chrono::minutes(2);
  settings.workers = 1;
  Dispatcher dispatcher(settings);
  dispatcher.enqueue("job", target_for(receiver, "/held"), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  REQUIRE(receiver.wait_for_count(1, kPatience));
  dispatcher.reset();
  CHECK(dispatcher.drain("", kPatience));
  // The only worker gets free only if the held attempt was really aborted.
  dispatcher.enqueue("job2", target_for(receiver, "/free"), "k", "crawl.started", true, nullptr,
                     std::nullopt);
  CHECK(dispatcher.drain("job2", kPatience));
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 1);
  CHECK(log[0].at("jobId") == "job2");
  receiver.release();
}

TEST_CASE("destruction does not wait for backoffs or receivers") {
  Receiver receiver;
  receiver.set_handler([](const Receiver::Request& request) {
    Receiver::Reply reply;
    reply.hold = request.target == "/held";
    reply.status = 500;
    return reply;
  });
  Settings settings = fast_settings();
  settings.first_backoff = std::chrono::minutes(2);
  settings.receiver_timeout = std::chrono::minutes(2);
  const auto before = std::chrono::steady_clock::now();
  {
    Dispatcher dispatcher(settings);
    dispatcher.enqueue("backoff", target_for(receiver, "/fail"), "k", "crawl.started", true,
                       nullptr, std::nullopt);
    dispatcher.enqueue("held", target_for(receiver, "/held"), "k", "crawl.started", true, nullptr,
                       std::nullopt);
    REQUIRE(receiver.wait_for_count(2, kPatience));
    REQUIRE(eventually([&] { return dispatcher.log_json().size() == 1; }));
  }
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::minutes(1));
  receiver.release();
}

TEST_CASE("log entries carry the attempt's facts") {
  Receiver receiver;
  Dispatcher dispatcher(fast_settings());
  Target target = target_for(receiver);
  dispatcher.enqueue("job-x", target, "key", "batch_scrape.page", true, page(3), std::nullopt);
  REQUIRE(dispatcher.drain("job-x", kPatience));
  const auto log = dispatcher.log_json();
  REQUIRE(log.size() == 1);
  const auto& entry = log[0];
  const auto request = receiver.requests().at(0);
  CHECK(entry.at("jobId") == "job-x");
  CHECK(entry.at("event") == "batch_scrape.page");
  CHECK(entry.at("url") == target.url);
  CHECK(entry.at("attempt") == 1);
  CHECK(entry.at("status") == 200);
  CHECK(entry.at("error").is_null());
  CHECK(entry.at("outcome") == "delivered");
  CHECK(entry.at("latencyMs").get<long>() >= 0);
  CHECK(entry.at("payloadBytes") == request.body.size());
  CHECK(entry.at("signature") == request.header("x-service-signature"));
  CHECK(std::regex_match(entry.at("attemptedAt").get<std::string>(),
                         std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
  dispatcher.clear_log();
  CHECK(dispatcher.log_json().empty());
}

TEST_CASE("the log keeps the newest entries up to its limit") {
  Receiver receiver;
  Settings settings = fast_settings();
  settings.log_limit = 5;
  Dispatcher dispatcher(settings);
  for (int j = 1; j <= 8; ++j) {
    const std::string job = "job-" + std::to_string(j);
    dispatcher.enqueue(job, target_for(receiver), "k", "crawl.started", true, nullptr,
                       std::nullopt);
    REQUIRE(dispatcher.drain(job, kPatience));
  }
  auto jobs_in_log = [&] {
    std::vector<std::string> jobs;
    for (const auto& entry : dispatcher.log_json()) jobs.push_back(entry.at("jobId"));
    return jobs;
  };
  CHECK(jobs_in_log() == std::vector<std::string>{"job-4", "job-5", "job-6", "job-7", "job-8"});
  settings.log_limit = 2;
  dispatcher.set_settings(settings);
  CHECK(dispatcher.settings().log_limit == 2);
  CHECK(jobs_in_log() == std::vector<std::string>{"job-7", "job-8"});
}
