#include <catch2/catch.hpp>

#include <thread>

#include "test_support.hpp"
#include "web/virtual_web.hpp"

using namespace std::chrono_literals;
using webdata::mock::web::FetchRequest;
using webdata::mock::web::FetchResult;
using webdata::mock::web::VirtualWeb;
using webdata::mock::web::testing::bundled_web_root;
using webdata::mock::web::testing::TempDir;

namespace {

const VirtualWeb& bundled() {
  static const VirtualWeb web(VirtualWeb::Options{{bundled_web_root()}});
  return web;
}

FetchResult fetch(const VirtualWeb& web, const std::string& url,
                  std::chrono::milliseconds timeout = 30000ms) {
  FetchRequest request;
  request.url = url;
  request.timeout = timeout;
  return web.fetch_deferred(request);
}

}  // namespace

TEST_CASE("fixture pages are served by host and path") {
  const auto home = fetch(bundled(), "https://docs.example.test/");
  REQUIRE(home.ok);
  CHECK(home.status == 200);
  CHECK(home.source == "fixture");
  CHECK(home.url == "https://docs.example.test/");
  CHECK(home.content_type == "text/html; charset=utf-8");
  CHECK_THAT(home.body, Catch::Contains("<title>Quarry Documentation</title>"));
  const auto page = fetch(bundled(), "http://docs.example.test/concepts/sinks?ref=nav#modes");
  REQUIRE(page.ok);
  CHECK_THAT(page.body, Catch::Contains("<h1>Sinks</h1>"));
  CHECK(page.url == "http://docs.example.test/concepts/sinks?ref=nav");
  CHECK_THAT(fetch(bundled(), "https://blog.example.test/").body, Catch::Contains("Latest posts"));
  // The same path on another host is another page.
  CHECK(fetch(bundled(), "https://shop.example.test/").body != home.body);
}

TEST_CASE("a fixture host's unknown paths answer its 404 page, unknown hosts do not resolve") {
  const auto missing = fetch(bundled(), "https://docs.example.test/no/such/page");
  REQUIRE(missing.ok);
  CHECK(missing.status == 404);
  CHECK_THAT(missing.body, Catch::Contains("Page not found"));
  const auto shop_missing = fetch(bundled(), "https://shop.example.test/nothing-here");
  REQUIRE(shop_missing.ok);
  CHECK(shop_missing.status == 404);
  const auto unknown = fetch(bundled(), "https://unknown-host.test/");
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.error_code == "SCRAPE_DNS_RESOLUTION_ERROR");
  CHECK_THAT(unknown.error_message, Catch::Contains("unknown-host.test"));
  CHECK(fetch(bundled(), "ftp://docs.example.test/").error_code == "SCRAPE_SITE_ERROR");
}

TEST_CASE("redirects are followed within the virtual web, across hosts, at most 10") {
  const auto moved = fetch(bundled(), "https://docs.example.test/old-guide");
  REQUIRE(moved.ok);
  CHECK(moved.url == "https://docs.example.test/guides/migration");
  CHECK(moved.redirects == std::vector<std::string>{"https://docs.example.test/old-guide"});
  CHECK_THAT(moved.body, Catch::Contains("Migrating from 1.x"));

  const auto apex = fetch(bundled(), "http://example.com/pricing");
  REQUIRE(apex.ok);
  CHECK(apex.url == "https://www.example.com/");
  CHECK(apex.status == 200);

  const auto chain = fetch(bundled(), "https://edge.example.test/redirect/1");
  REQUIRE(chain.ok);
  CHECK(chain.redirects.size() == 3);
  CHECK(chain.url == "https://edge.example.test/redirect/done");

  const auto loop = fetch(bundled(), "https://edge.example.test/loop/a");
  CHECK_FALSE(loop.ok);
  CHECK(loop.error_code == "SCRAPE_SITE_ERROR");
  CHECK_THAT(loop.error_message, Catch::Contains("redirects"));
}

TEST_CASE("faults become fetch errors, error pages are pages") {
  const auto reset = fetch(bundled(), "https://edge.example.test/reset");
  CHECK_FALSE(reset.ok);
  CHECK(reset.error_code == "SCRAPE_SITE_ERROR");
  CHECK_THAT(reset.error_message, Catch::Contains("reset"));
  CHECK(fetch(bundled(), "https://edge.example.test/empty").error_code == "SCRAPE_SITE_ERROR");
  const auto error = fetch(bundled(), "https://edge.example.test/server-error");
  REQUIRE(error.ok);
  CHECK(error.status == 500);
}

TEST_CASE("fixed delays count against the timeout") {
  const auto slow = fetch(bundled(), "https://edge.example.test/slow", 5000ms);
  REQUIRE(slow.ok);
  CHECK(slow.elapsed >= 1500ms);
  const auto timed_out = fetch(bundled(), "https://edge.example.test/slow", 300ms);
  CHECK_FALSE(timed_out.ok);
  CHECK(timed_out.error_code == "SCRAPE_TIMEOUT");
  CHECK(timed_out.elapsed >= 300ms);
  CHECK(timed_out.elapsed < 1400ms);
  const auto never = fetch(bundled(), "https://fail-timeout.synthetic.test/", 200ms);
  CHECK(never.error_code == "SCRAPE_TIMEOUT");
  CHECK(never.elapsed < 2000ms);
}

TEST_CASE("mobile, language and anti-bot variants") {
  FetchRequest request;
  request.url = "https://shop.example.test/products/trail-kettle";
  const auto desktop = bundled().fetch_deferred(request);
  request.mobile = true;
  const auto mobile = bundled().fetch_deferred(request);
  REQUIRE(desktop.ok);
  REQUIRE(mobile.ok);
  CHECK_THAT(desktop.body, Catch::Contains("class=\"desktop\""));
  CHECK_THAT(mobile.body, Catch::Contains("class=\"mobile\""));

  FetchRequest travel;
  travel.url = "https://travel.example.org/trails/rota-vicentina";
  CHECK_THAT(bundled().fetch_deferred(travel).body, Catch::Contains("<html lang=\"en\">"));
  travel.accept_language = "de-DE,de;q=0.9";
  CHECK_THAT(bundled().fetch_deferred(travel).body,
             Catch::Contains("Wandern auf der Rota Vicentina"));
  travel.accept_language = "fr";
  CHECK_THAT(bundled().fetch_deferred(travel).body, Catch::Contains("<html lang=\"fr\">"));
  travel.accept_language = "es-ES";
  CHECK_THAT(bundled().fetch_deferred(travel).body, Catch::Contains("<html lang=\"en\">"));
  // A caller's header replaces the default of the same name.
  travel.accept_language.clear();
  travel.headers = {{"accept-language", "de"}};
  CHECK_THAT(bundled().fetch_deferred(travel).body, Catch::Contains("<html lang=\"de\">"));

  FetchRequest deals;
  deals.url = "https://shop.example.test/deals";
  const auto blocked = bundled().fetch_deferred(deals);
  REQUIRE(blocked.ok);
  CHECK(blocked.status == 403);
  CHECK_THAT(blocked.body, Catch::Contains("Just a moment"));
  deals.proxy = "enhanced";
  const auto passed = bundled().fetch_deferred(deals);
  CHECK(passed.status == 200);
  CHECK_THAT(passed.body, Catch::Contains("Summer deals"));

  FetchRequest synthetic;
  synthetic.url = "https://protected.synthetic.test/";
  CHECK(bundled().fetch_deferred(synthetic).status == 403);
  synthetic.proxy = "enhanced";
  CHECK(bundled().fetch_deferred(synthetic).status == 200);
}

TEST_CASE("synthetic sites are served for *.synthetic.test and synthetic.json hosts") {
  const auto page = fetch(bundled(), "https://pages-12.fanout-3.synthetic.test/p1/p2");
  REQUIRE(page.ok);
  CHECK(page.source == "synthetic");
  CHECK(page.status == 200);
  const auto bad = fetch(bundled(), "https://pages-x.synthetic.test/");
  CHECK(bad.error_code == "SCRAPE_DNS_RESOLUTION_ERROR");
  CHECK_THAT(bad.error_message, Catch::Contains("pages-x"));
  const auto library = fetch(bundled(), "https://library.synthetic.test/robots.txt");
  CHECK_THAT(library.body, Catch::Contains("Disallow: /private/"));
}

TEST_CASE("fixture scenarios change a page between fetches") {
  TempDir root;
  root.write("mappings/page.json", R"({"mappings": [
    {"scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "v2",
     "request": {"host": {"equalTo": "a.test"}, "urlPath": "/"}, "response": {"body": "v1"}},
    {"scenarioName": "s", "requiredScenarioState": "v2",
     "request": {"host": {"equalTo": "a.test"}, "urlPath": "/"}, "response": {"body": "v2"}}]})");
  VirtualWeb web(VirtualWeb::Options{{root.path()}});
  CHECK(fetch(web, "https://a.test/").body == "v1");
  CHECK(fetch(web, "https://a.test/").body == "v2");
  CHECK(fetch(web, "https://a.test/").body == "v2");
  web.stubs().reset_scenarios();
  CHECK(fetch(web, "https://a.test/").body == "v1");
  // Mappings added through the admin surface serve at once.
  web.stubs().add({{"request", {{"host", {{"equalTo", "b.test"}}}, {"urlPath", "/new"}}},
                   {"response", {{"body", "added"}}}});
  CHECK(fetch(web, "https://b.test/new").body == "added");
}

TEST_CASE("known_urls lists fixture pages and configured synthetic sites") {
  const auto urls = bundled().known_urls();
  auto has = [&](const std::string& url) {
    return std::find(urls.begin(), urls.end(), url) != urls.end();
  };
  CHECK(has("https://docs.example.test/"));
  CHECK(has("https://docs.example.test/reference/cli"));
  CHECK(has("https://blog.example.test/2024/03/retries-with-jitter"));
  CHECK(has("https://travel.example.org/ja/kumano-kodo"));
  CHECK(has("https://shop.example.test/deals"));
  CHECK(has("https://library.synthetic.test/p4/p4"));
  CHECK_FALSE(has("https://docs.example.test/robots.txt"));
  CHECK_FALSE(has("https://docs.example.test/old-guide"));
  CHECK_FALSE(has("https://edge.example.test/server-error"));
  CHECK_FALSE(has("https://edge.example.test/data.json"));
  CHECK(std::is_sorted(urls.begin(), urls.end()));
  std::size_t library = 0;
  for (const auto& u : urls) library += u.rfind("https://library.synthetic.test/", 0) == 0;
  CHECK(library == 60);
}

TEST_CASE("the virtual web serves many threads at once") {
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        const auto r = fetch(bundled(), i % 2 ? "https://docs.example.test/faq"
                                              : "https://pages-100.synthetic.test/p" +
                                                    std::to_string(1 + (i + t) % 5));
        if (r.ok && r.status == 200) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 240);
}
