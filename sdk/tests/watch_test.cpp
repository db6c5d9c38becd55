// CrawlJob::watch against a webdata-mock process: the WebSocket watcher and the polling fallback.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <thread>

#include "api_client.hpp"
#include "eventually.hpp"
#include "sdk_mock.hpp"
#include "watched.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::client_through;
using webdata::testing::CountingTransport;
using webdata::testing::crawl_of;
using webdata::testing::page_pacing;
using webdata::testing::policy_for;
using webdata::testing::SdkMock;
using webdata::testing::watch_all;
using webdata::testing::Watched;
using Kind = webdata::WatchEvent::Kind;
using namespace std::chrono_literals;

namespace {

/// Turns the mock's crawl watcher off, as a deployment without it (POST /__admin/settings).
void turn_watcher_off(const SdkMock& mock) {
  const auto reply =
      webdata::testing::ApiClient(mock.url()).post("/__admin/settings", {{"crawlWatcher", false}});
  REQUIRE(reply.status == 200);
}

/// Crawl watcher connections open on the mock now (GET /__admin/watchers).
long long open_watchers(const SdkMock& mock) {
  const auto reply = webdata::testing::ApiClient(mock.url()).get("/__admin/watchers");
  REQUIRE(reply.status == 200);
  return reply.body.at("open").get<long long>();
}

// Requests the mock has answered (its journal; a watcher's WebSocket upgrade counts), -1 when
// the journal cannot be read. No assertion: a helper thread calls it.
long long handled(const SdkMock& mock) {
  const auto reply = webdata::testing::ApiClient(mock.url()).get("/__admin/requests");
  if (reply.status != 200) return -1;
  return reply.body.at("meta").at("total").get<long long>();
}

/// Every event is well formed: status first, finished last and once, documents numbered.
void check_shape(const Watched& w, bool websocket) {
  REQUIRE_FALSE(w.error);
  REQUIRE(w.events.size() >= 2);
  CHECK(w.events.front().kind == Kind::kStatus);
  CHECK(w.events.back().kind == Kind::kFinished);
  std::size_t finished = 0;
  for (const auto& e : w.events) {
    CHECK(e.websocket == websocket);
    CHECK(e.status.data.empty());
    CHECK(e.document.has_value() == (e.kind == Kind::kDocument));
    if (e.kind == Kind::kFinished) ++finished;
  }
  CHECK(finished == 1);
}

}  // namespace

TEST_CASE("watch() streams a running crawl over the WebSocket", "[watch][integration]") {
  SdkMock mock(page_pacing(40));
  auto transport = std::make_shared<CountingTransport>();
  webdata::Client client = client_through(mock.url(), transport);
  auto job = client.start_crawl(crawl_of("http://pages-12.synthetic.test/")).value();

  const Watched w = watch_all(job.watch(policy_for(webdata::WatchMode::kAuto)));
  check_shape(w, true);
  const auto& final_status = w.events.back().status;
  CHECK(final_status.status == webdata::JobState::completed());
  CHECK(final_status.completed == 12);
  CHECK(w.urls.size() == 12);
  CHECK(std::set<std::string>(w.urls.begin(), w.urls.end()).size() == 12);
  // Documents came while the crawl ran: the catchup did not hold them all.
  CHECK(w.events.front().status.status == webdata::JobState::scraping());
  CHECK(w.events.front().status.completed < 12);
  // Over HTTP only the start and the one final status request (no documents downloaded).
  CHECK(transport->requests == 2);
  CHECK(transport->documents == 0);

  // Same documents, same order, as the status resource holds them.
  std::vector<std::string> stored;
  for (auto& doc : job.documents()) stored.push_back(doc.value().metadata.source_url.value_or(""));
  CHECK(stored == w.urls);
}

TEST_CASE("watch() falls back to polling and downloads each document once",
          "[watch][integration]") {
  SdkMock mock(page_pacing(40));
  auto transport = std::make_shared<CountingTransport>();
  webdata::Client client = client_through(mock.url(), transport);

  auto mode = webdata::WatchMode::kPolling;
  SECTION("the service offers no watcher (kAuto)") {
    turn_watcher_off(mock);
    mode = webdata::WatchMode::kAuto;
  }
  SECTION("polling is asked for (kPolling)") { mode = webdata::WatchMode::kPolling; }
  auto job = client.start_crawl(crawl_of("http://pages-12.synthetic.test/")).value();
  const Watched w = watch_all(job.watch(policy_for(mode)));
  check_shape(w, false);
  CHECK(w.events.back().status.status == webdata::JobState::completed());
  CHECK(w.events.back().status.completed == 12);
  CHECK(w.urls.size() == 12);
  CHECK(std::set<std::string>(w.urls.begin(), w.urls.end()).size() == 12);
  CHECK(transport->documents == 12);  // no chunk was fetched twice
  std::size_t status_events = 0;
  for (const auto& e : w.events) status_events += e.kind == Kind::kStatus ? 1 : 0;
  CHECK(status_events >= 2);  // progress was reported as it changed
}

TEST_CASE("watch() over the WebSocket only fails when the service does not offer it",
          "[watch][integration]") {
  SdkMock mock(page_pacing(0));
  turn_watcher_off(mock);
  webdata::Client client(mock.url(), "test-key");
  auto job = client.start_crawl(crawl_of("http://pages-3.synthetic.test/")).value();
  const Watched w = watch_all(job.watch(policy_for(webdata::WatchMode::kWebSocket)));
  REQUIRE(w.error);
  CHECK(w.error->kind == webdata::ErrorKind::kHttp);
  CHECK(w.error->http_status == 200);
}

TEST_CASE("watch() of an unknown crawl or with a bad key reports the HTTP error",
          "[watch][integration]") {
  SdkMock mock(page_pacing(0));
  webdata::Client client(mock.url(), "test-key");
  const Watched unknown = watch_all(client.crawl_job("4f8a1c1e-0000-4000-8000-000000000000")
                                        .watch(policy_for(webdata::WatchMode::kAuto)));
  REQUIRE(unknown.error);
  CHECK(unknown.error->http_status == 404);
  CHECK(unknown.error->message == "Job not found");

  auto job = client.start_crawl(crawl_of("http://pages-3.synthetic.test/")).value();
  webdata::Client wrong(mock.url(), "wrong-key");
  const Watched refused =
      watch_all(wrong.crawl_job(job.id()).watch(policy_for(webdata::WatchMode::kAuto)));
  REQUIRE(refused.error);
  CHECK(refused.error->http_status == 401);
}

TEST_CASE("watch() of a failed crawl ends with its error", "[watch][integration]") {
  SdkMock mock(page_pacing(0));
  webdata::Client client(mock.url(), "test-key");
  auto job = client.start_crawl(crawl_of("http://nowhere.invalid/")).value();
  for (auto mode : {webdata::WatchMode::kWebSocket, webdata::WatchMode::kPolling}) {
    const Watched w = watch_all(job.watch(policy_for(mode)));
    check_shape(w, mode == webdata::WatchMode::kWebSocket);
    CHECK(w.events.back().status.status == webdata::JobState::failed());
    REQUIRE(w.events.back().error);
    CHECK(w.events.back().error->find("could not be reached") != std::string::npos);
  }
}

TEST_CASE("watch() stops at its deadline and when cancelled", "[watch][integration]") {
  SdkMock mock(page_pacing(500));
  webdata::Client client(mock.url(), "test-key");
  auto job = client.start_crawl(crawl_of("http://pages-50.synthetic.test/")).value();

  for (auto mode : {webdata::WatchMode::kWebSocket, webdata::WatchMode::kPolling}) {
    INFO(static_cast<int>(mode));
    auto policy = policy_for(mode);
    policy.polling.max_wait = 300ms;
    const auto started = std::chrono::steady_clock::now();
    const Watched timed = watch_all(job.watch(policy));
    REQUIRE(timed.error);
    CHECK(timed.error->kind == webdata::ErrorKind::kTimeout);
    CHECK(std::chrono::steady_clock::now() - started < 5s);

    auto cancellable = policy_for(mode);
    // Cancelled once the watch has reached the mock (its upgrade or first poll is answered).
    const long long before = handled(mock);
    REQUIRE(before >= 0);
    std::thread canceller([&mock, before, token = cancellable.polling.cancel] {
      webdata::testing::eventually([&] { return handled(mock) > before; });
      token.cancel();
    });
    const Watched cancelled = watch_all(job.watch(cancellable));
    canceller.join();
    REQUIRE(cancelled.error);
    CHECK(cancelled.error->kind == webdata::ErrorKind::kCancelled);
  }
  // A watcher that stopped reading is gone from the server.
  CHECK(webdata::testing::eventually([&] { return open_watchers(mock) == 0; }));
  CHECK(job.cancel().ok());
}
