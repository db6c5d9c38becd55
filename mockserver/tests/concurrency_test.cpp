// Handlers off the I/O threads (issue 22): a request that waits (a slow page, a stub's delay)
// must not make other requests wait. Latency bounds here are behaviour, set generously (a
// loaded CI machine, sanitizers); the figures themselves are printed and measured in bench/.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "eventually.hpp"
#include "http/worker_pool.hpp"
#include "mock_fixture.hpp"

using webdata::testing::eventually;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

struct Timed {
  int status = 0;
  std::string body;
  milliseconds took{0};
  Clock::time_point done{};  // when the last byte of the answer came
};

// One request on its own connection, timed from connect to the last byte of the answer.
Timed call(unsigned short port, const std::string& method, const std::string& target,
           const std::string& body = "") {
  namespace beast = boost::beast;
  namespace http = beast::http;
  namespace net = boost::asio;
  Timed out;
  const auto start = Clock::now();
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::seconds(60));
  beast::error_code ec;
  stream.connect({net::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return out;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::authorization, "Bearer test-key");
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req, ec);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  if (!ec) http::read(stream, buffer, res, ec);
  out.done = Clock::now();
  out.took = std::chrono::duration_cast<milliseconds>(out.done - start);
  if (ec) return out;
  out.status = static_cast<int>(res.result_int());
  out.body = std::move(res.body());
  return out;
}

std::string scrape_body(const std::string& url) {
  return json{{"url", url}, {"formats", {"markdown"}}}.dump();
}

// Requests the mock has handled so far (the journal records an answer when it is made, before a
// delayed one is written): a request counted here is waiting for its page or delay, if it has one.
std::size_t handled(unsigned short port) {
  const auto journal = call(port, "GET", "/__admin/requests");
  if (journal.status != 200) return 0;
  return json::parse(journal.body)["meta"]["total"].get<std::size_t>();
}

// Waits until the mock has handled `count` requests in all.
bool handled_at_least(unsigned short port, std::size_t count) {
  return eventually([&] { return handled(port) >= count; });
}

}  // namespace

TEST_CASE("with 16 scrapes of a 5 s page in flight, health and a cache hit answer within 50 ms",
          "[http][workers]") {
  RunningMock mock;  // default threads and workers
  const auto port = mock.server().port();
  const std::string cached = scrape_body("https://docs.example.test/");
  REQUIRE(call(port, "POST", "/v2/scrape", cached).status == 200);  // now in the page cache

  std::vector<std::thread> slow;
  std::atomic<int> slow_ok{0};
  std::atomic<long long> first_slow_done_ms{-1};
  const auto begin = Clock::now();
  for (int i = 0; i < 16; ++i) {
    slow.emplace_back([&, i] {
      // Distinct hosts: sixteen separate fetches of a page that answers after 5 s.
      const auto r = call(port, "POST", "/v2/scrape",
                          scrape_body("https://delay-5000.slow" + std::to_string(i) +
                                      ".synthetic.test/"));
      const auto at = std::chrono::duration_cast<milliseconds>(Clock::now() - begin).count();
      long long none = -1;
      first_slow_done_ms.compare_exchange_strong(none, at);
      if (r.status == 200) ++slow_ok;
    });
  }
  REQUIRE(handled_at_least(port, 17));  // the cached page, then all sixteen waiting

  // Nine of each, one connection per request: the median answers within 50 ms (the issue's
  // bound; a Release build answers in under a millisecond), and none waits for a slow page. The
  // median, because one request of a sanitized build on a shared CI machine may lose its core
  // for a scheduler tick; a request that waited for a slow page would take seconds.
  std::vector<Timed> health;
  std::vector<Timed> hit;
  for (int i = 0; i < 9; ++i) {
    health.push_back(call(port, "GET", "/health"));
    hit.push_back(call(port, "POST", "/v2/scrape", cached));
  }
  const auto health_done_ms =
      std::chrono::duration_cast<milliseconds>(Clock::now() - begin).count();
  // The five seconds pass on the mock's clock: the slow answers are due at once.
  mock.server().clock().advance(std::chrono::seconds(5));
  for (auto& t : slow) t.join();

  auto median_ms = [](std::vector<Timed> answers) {
    std::sort(answers.begin(), answers.end(),
              [](const Timed& a, const Timed& b) { return a.took < b.took; });
    return answers[answers.size() / 2].took;
  };
  auto slowest = [](const std::vector<Timed>& answers) {
    milliseconds most{0};
    for (const auto& a : answers) most = std::max(most, a.took);
    return most;
  };
  INFO("GET /health median " << median_ms(health).count() << " ms (max "
                             << slowest(health).count() << "), cache hit median "
                             << median_ms(hit).count() << " ms (max " << slowest(hit).count()
                             << "); first slow scrape done at " << first_slow_done_ms.load()
                             << " ms");
  for (int i = 0; i < 9; ++i) {
    CHECK(health[i].status == 200);
    CHECK(hit[i].status == 200);
    CHECK(json::parse(hit[i].body)["data"]["metadata"]["cacheState"] == "hit");
  }
  // Answered while every slow scrape was still waiting for its page (until the advance) ...
  CHECK(health_done_ms <= first_slow_done_ms.load());
  // ... and promptly: before the worker pool, health waited seconds behind the slow pages.
  CHECK(median_ms(health) < milliseconds(50));
  CHECK(median_ms(hit) < milliseconds(50));
  CHECK(slowest(health) < milliseconds(1000));
  CHECK(slowest(hit) < milliseconds(1000));
  CHECK(slow_ok == 16);
}

TEST_CASE("a stub's fixedDelayMilliseconds is a timer: it holds no handler thread",
          "[http][workers]") {
  auto config = RunningMock::quiet_config();
  config.server.threads = 1;
  config.server.workers = 1;  // a sleeping delay would take the only handler thread
  RunningMock mock(config);
  const auto port = mock.server().port();
  const json mapping = {
      {"request", {{"method", "GET"}, {"url", "/v2/late"}}},
      {"response", {{"status", 200}, {"body", "late"}, {"fixedDelayMilliseconds", 3000}}}};
  REQUIRE(call(port, "POST", "/__admin/mappings", mapping.dump()).status == 201);

  std::vector<std::thread> late;
  std::vector<Timed> late_results(4);
  for (int i = 0; i < 4; ++i) {
    late.emplace_back([&, i] { late_results[i] = call(port, "GET", "/v2/late"); });
  }
  REQUIRE(handled_at_least(port, 4));  // all four waiting on their delay's timer
  // An API answer that goes through the (single) handler thread.
  const auto other = call(port, "GET", "/v2/crawl/7d4c8c0e-0000-4000-8000-000000000000");
  for (auto& t : late) t.join();

  INFO("other request took " << other.took.count() << " ms");
  CHECK(other.status == 404);
  CHECK(other.took < milliseconds(1000));
  for (const auto& r : late_results) {
    CHECK(r.status == 200);
    CHECK(r.body == "late");
    CHECK(r.took >= milliseconds(2900));  // the delay is still served in full
  }
}

TEST_CASE("slow pages are timers: with more slow scrapes than workers, a fast scrape answers at once",
          "[http][workers]") {
  auto config = RunningMock::quiet_config();
  config.server.threads = 1;
  config.server.workers = 2;  // a sleeping page would hold one of only two handler threads
  RunningMock mock(config);
  const auto port = mock.server().port();

  // Eight slow scrapes: synthetic pages of distinct hosts that answer after 3 s, and the
  // fixture page with fixedDelayMilliseconds 1500 (fresh each time: maxAge 0).
  std::vector<std::thread> slow;
  std::vector<Timed> slow_results(8);
  for (int i = 0; i < 8; ++i) {
    slow.emplace_back([&, i] {
      const std::string body =
          i < 6 ? scrape_body("https://delay-3000.many" + std::to_string(i) + ".synthetic.test/")
                : json{{"url", "https://edge.example.test/slow"}, {"maxAge", 0}}.dump();
      slow_results[i] = call(port, "POST", "/v2/scrape", body);
    });
  }
  // A page slower than the request's timeout answers 408 at the deadline, not after its delay.
  Timed timed_out;
  std::thread late([&] {
    timed_out = call(port, "POST", "/v2/scrape",
                     json{{"url", "https://delay-60000.late.synthetic.test/"}, {"timeout", 1500}}
                         .dump());
  });
  REQUIRE(handled_at_least(port, 9));  // all nine are waiting for their pages

  // The same slow page again: the first scrape's answer is not due yet, so the cache does not
  // have it, and this one waits for the page too.
  Timed again;
  std::thread repeat([&] {
    again = call(port, "POST", "/v2/scrape", scrape_body("https://delay-3000.many0.synthetic.test/"));
  });
  const auto fast = call(port, "POST", "/v2/scrape",
                         json{{"url", "https://docs.example.test/"}, {"maxAge", 0}}.dump());
  REQUIRE(handled_at_least(port, 11));  // the repeated one waits too
  // Three seconds pass on the mock's clock: every slow answer and the deadline are due at once.
  const auto advanced_at = Clock::now();
  mock.server().clock().advance(std::chrono::seconds(3));
  for (auto& t : slow) t.join();
  late.join();
  repeat.join();

  INFO("a fast scrape took " << fast.took.count() << " ms behind 8 slow ones on 2 workers");
  CHECK(fast.status == 200);
  CHECK(fast.took < milliseconds(1000));  // behind sleeping workers it waited for a slow page
  for (int i = 0; i < 8; ++i) {
    INFO("slow scrape " << i << " took " << slow_results[i].took.count() << " ms");
    CHECK(slow_results[i].status == 200);
    CHECK(slow_results[i].done >= advanced_at);  // not before its delay had passed
    CHECK(json::parse(slow_results[i].body)["data"]["metadata"]["cacheState"] == "miss");
  }
  INFO("the timed-out scrape took " << timed_out.took.count() << " ms");
  CHECK(timed_out.status == 408);
  CHECK(json::parse(timed_out.body)["code"] == "SCRAPE_TIMEOUT");
  CHECK(timed_out.done >= advanced_at);  // at its deadline, long before the page's delay
  INFO("the repeated slow scrape took " << again.took.count() << " ms");
  CHECK(again.status == 200);
  CHECK(json::parse(again.body)["data"]["metadata"]["cacheState"] == "miss");
  CHECK(again.done >= advanced_at);
  // Once due, the page is in the cache.
  const auto hit = call(port, "POST", "/v2/scrape", scrape_body("https://delay-3000.many0.synthetic.test/"));
  CHECK(hit.took < milliseconds(1000));
  CHECK(json::parse(hit.body)["data"]["metadata"]["cacheState"] == "hit");
}

TEST_CASE("map, search and agent answers wait on timers: slow pages hold no handler thread",
          "[http][workers]") {
  auto config = RunningMock::quiet_config();
  config.server.threads = 1;
  config.server.workers = 1;  // a route that slept for a page would take the only handler thread
  RunningMock mock(config);
  const auto port = mock.server().port();
  // A page of the virtual web that answers after 1.5 s, found by search. The agent reads a slow
  // synthetic page (not in the index, so it is fetched).
  const json page = {
      {"request", {{"method", "GET"}, {"host", {{"equalTo", "slow.quokka.test"}}}, {"urlPath", "/"}}},
      {"response",
       {{"status", 200},
        {"headers", {{"Content-Type", "text/html; charset=utf-8"}}},
        {"body", "<html><head><title>Quokka island</title></head><body><p>The quokka lives on "
                 "Rottnest island and smiles at every visitor who walks by.</p></body></html>"},
        {"fixedDelayMilliseconds", 1500}}}};
  REQUIRE(call(port, "POST", "/__admin/mappings", page.dump()).status == 201);
  // The index is built before the timed part (its build reads pages without their delays).
  REQUIRE(call(port, "POST", "/v2/search", json{{"query", "quokka"}}.dump()).status == 200);
  const std::string cached = scrape_body("https://docs.example.test/");
  REQUIRE(call(port, "POST", "/v2/scrape", cached).status == 200);

  Timed map_late, map_done, searched, agent;
  std::vector<std::thread> slow;
  // Every answer of these sites comes after 1 s (robots.txt and the sitemap too): the first map
  // runs out of its 2.5 s, the second reads robots.txt, the sitemap and its one page (1.2 s).
  slow.emplace_back([&] {
    map_late = call(port, "POST", "/v2/map",
                    json{{"url", "https://pages-3.delay-1000.maplate.synthetic.test/"},
                         {"timeout", 2500}}
                        .dump());
  });
  slow.emplace_back([&] {
    map_done = call(port, "POST", "/v2/map",
                    json{{"url", "https://pages-1.delay-400.mapdone.synthetic.test/"}}.dump());
  });
  slow.emplace_back([&] {
    searched = call(port, "POST", "/v2/search",
                    json{{"query", "quokka"}, {"scrapeOptions", {{"formats", {"markdown"}}}}}
                        .dump());
  });
  slow.emplace_back([&] {
    agent = call(port, "POST", "/v2/agent",
                 json{{"prompt", "Where does the quokka live?"},
                      {"urls", {"https://delay-1500.agent.synthetic.test/"}}}
                     .dump());
  });
  REQUIRE(handled_at_least(port, 6));  // the two before, then all four waiting for their pages
  const auto hit = call(port, "POST", "/v2/scrape", cached);
  // 2.5 s pass on the mock's clock: every page and the first map's deadline are due at once.
  const auto advanced_at = Clock::now();
  mock.server().clock().advance(milliseconds(2500));
  for (auto& t : slow) t.join();

  INFO("a cache hit took " << hit.took.count() << " ms behind slow maps, a search and an agent");
  CHECK(hit.status == 200);
  CHECK(hit.took < milliseconds(1000));
  INFO("map with a timeout: " << map_late.took.count() << " ms " << map_late.body);
  CHECK(map_late.status == 408);
  CHECK(json::parse(map_late.body)["code"] == "MAP_TIMEOUT");
  CHECK(map_late.done >= advanced_at);  // at its deadline, not before
  INFO("map: " << map_done.took.count() << " ms " << map_done.body);
  CHECK(map_done.status == 200);
  CHECK(json::parse(map_done.body)["links"].size() >= 1);
  CHECK(map_done.done >= advanced_at);  // robots.txt, the sitemap and the page, in turn
  INFO("search: " << searched.took.count() << " ms " << searched.body);
  CHECK(searched.status == 200);
  const json web = json::parse(searched.body)["data"]["web"];
  REQUIRE(web.size() >= 1);
  CHECK(web[0]["markdown"].get<std::string>().find("Rottnest") != std::string::npos);
  CHECK(searched.done >= advanced_at);  // the result's scrape waited for its page
  INFO("agent: " << agent.took.count() << " ms " << agent.body);
  CHECK(agent.status == 200);
  CHECK(agent.done >= advanced_at);  // it read the slow page it was given
}

TEST_CASE("the worker pool grows on demand up to its bound, then queues",
          "[http][workers]") {
  webdata::mock::http::WorkerPool pool(3);
  CHECK(pool.threads() == 0);
  std::atomic<int> running{0};
  std::atomic<int> peak{0};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  std::vector<int> order;
  std::mutex order_mutex;
  for (int i = 0; i < 6; ++i) {
    pool.submit([&, i] {
      {
        std::lock_guard<std::mutex> lock(order_mutex);
        order.push_back(i);  // the order tasks start in
      }
      const int now = ++running;
      int seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {
      }
      released.wait();
      --running;
    });
  }
  REQUIRE(eventually([&] { return pool.busy() >= 3; }));
  CHECK(pool.threads() == 3);  // bounded
  CHECK(pool.busy() == 3);
  {
    std::lock_guard<std::mutex> lock(order_mutex);
    REQUIRE(order.size() == 3);  // the other three wait in the queue
    CHECK(std::set<int>(order.begin(), order.end()) == std::set<int>{0, 1, 2});
  }
  release.set_value();
  pool.stop();  // runs what is queued, then joins
  CHECK(order.size() == 6);
  CHECK(peak.load() == 3);
  // The queued tasks started only once threads were free.
  REQUIRE(order.size() == 6);
  CHECK(std::set<int>(order.begin() + 3, order.end()) == std::set<int>{3, 4, 5});

  pool.submit([] { FAIL("a task submitted after stop must not run"); });
}

TEST_CASE("queued tasks run in the order they came", "[http][workers]") {
  webdata::mock::http::WorkerPool pool(1);
  std::vector<int> order;  // one thread: no lock needed between the tasks
  std::promise<void> release;
  pool.submit([released = release.get_future().share()] { released.wait(); });
  for (int i = 0; i < 5; ++i) pool.submit([&, i] { order.push_back(i); });
  release.set_value();
  pool.stop();
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("stopping the server lets requests in flight on workers and timers finish",
          "[http][workers]") {
  auto mock = std::make_unique<RunningMock>();
  const auto port = mock->server().port();
  const json mapping = {
      {"request", {{"method", "GET"}, {"url", "/v2/late"}}},
      {"response", {{"status", 200}, {"body", "late"}, {"fixedDelayMilliseconds", 800}}}};
  REQUIRE(call(port, "POST", "/__admin/mappings", mapping.dump()).status == 201);

  Timed slow_scrape;
  Timed stubbed;
  std::thread scraper([&] {
    slow_scrape = call(port, "POST", "/v2/scrape",
                       scrape_body("https://delay-800.stop.synthetic.test/"));
  });
  std::thread stub([&] { stubbed = call(port, "GET", "/v2/late"); });
  REQUIRE(handled_at_least(port, 2));  // both waiting on their timers
  mock.reset();  // stop (grace 5 s) and destroy
  scraper.join();
  stub.join();
  CHECK(slow_scrape.status == 200);
  CHECK(stubbed.status == 200);
  CHECK(stubbed.body == "late");
}
