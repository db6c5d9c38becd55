// GCC 12 reports a false -Wmaybe-uninitialized inside std::regex's compiler when sanitizers are
// on (GCC PR 105562); the warning is in libstdc++, not here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "web/synthetic.hpp"

using webdata::mock::web::parse_synthetic_host;
using webdata::mock::web::SyntheticSettings;
using webdata::mock::web::SyntheticWeb;

namespace {

SyntheticSettings settings(const std::string& host) {
  std::string error;
  auto s = parse_synthetic_host(host, error);
  INFO(error);
  REQUIRE(s);
  return *s;
}

std::vector<std::string> hrefs(const std::string& html) {
  static const std::regex href("href=\"([^\"]*)\"");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

}  // namespace

TEST_CASE("synthetic host grammar") {
  const auto s = settings(
      "pages-10000.depth-4.fanout-8.weight-64k.errors-7-503.slow-9-1200."
      "delay-5.protected-3.private.norobots.nositemap.mysite.synthetic.test");
  CHECK(s.pages == 10000);
  CHECK(s.depth == 4);
  CHECK(s.fanout == 8);
  CHECK(s.weight == 64 * 1024);
  CHECK(s.error_every == 7);
  CHECK(s.error_status == 503);
  CHECK(s.slow_every == 9);
  CHECK(s.slow_delay == std::chrono::milliseconds(1200));
  CHECK(s.delay == std::chrono::milliseconds(5));
  CHECK(s.protected_every == 3);
  CHECK_FALSE(s.protect_all);
  CHECK(s.private_section);
  CHECK_FALSE(s.robots);
  CHECK_FALSE(s.sitemap);
  // 1 + 8 + 64 + 512 + 4096 pages fit in four levels below the root.
  CHECK(s.page_count() == 4681);
  CHECK(settings("synthetic.test").page_count() == 25);
  CHECK(settings("protected.weight-2m.synthetic.test").protect_all);
  CHECK(settings("protected.weight-2m.synthetic.test").weight == 2 * 1024 * 1024);
  CHECK(settings("fail-tls.synthetic.test").fail == "tls");

  std::string error;
  CHECK_FALSE(parse_synthetic_host("docs.example.test", error));
  CHECK(error.empty());
  for (const char* bad :
       {"pages-abc.synthetic.test", "pages-0.synthetic.test", "fanout-0.synthetic.test",
        "weight-30m.synthetic.test", "fail-boom.synthetic.test", "pages-5-6.synthetic.test",
        "errors-3-200.synthetic.test"}) {
    error.clear();
    INFO(bad);
    CHECK_FALSE(parse_synthetic_host(bad, error));
    CHECK_THAT(error, Catch::Contains("synthetic host"));
  }
}

TEST_CASE("synthetic pages are deterministic, linked as a tree and well formed") {
  SyntheticWeb web;
  const std::string host = "pages-40.fanout-3.synthetic.test";
  const auto s = settings(host);
  const auto a = web.serve("https", host, s, "/p2/p1", false);
  const auto b = web.serve("https", host, s, "/p2/p1?utm=1", false);
  REQUIRE(a.response.status == 200);
  CHECK(a.response.body == b.response.body);
  CHECK(web.serve("https", "other." + host, s, "/p2/p1", false).response.body != a.response.body);
  const auto& html = a.response.body;
  for (const char* part : {"<title>", "<meta name=\"description\"", "<h1>", "<h2>", "<p>", "<img ",
                           "<time datetime=\"", "<nav", "<footer", "</html>"}) {
    CHECK_THAT(html, Catch::Contains(part));
  }
  // /p2/p1 is node 2*3+1 = 7; children 22, 23, 24 are /p2/p1/p1../p3.
  const auto links = hrefs(html);
  const std::set<std::string> link_set(links.begin(), links.end());
  for (const char* child : {"/p2/p1/p1", "/p2/p1/p2", "/p2/p1/p3", "/", "/p2"}) {
    CHECK(link_set.count(child) == 1);
  }
  CHECK(web.serve("https", host, s, "/p2/p1/p3", false).response.status == 200);     // node 24
  CHECK(web.serve("https", host, s, "/p3/p3/p3", false).response.status == 200);     // node 39
  CHECK(web.serve("https", host, s, "/p1/p1/p1/p2", false).response.status == 404);  // node 41
  CHECK(web.serve("https", host, s, "/p1/p1/p1/p1", false).response.status == 404);
  CHECK(web.serve("https", host, s, "/p4", false).response.status == 404);
  CHECK(web.serve("https", host, s, "/p0", false).response.status == 404);
  CHECK(web.serve("https", host, s, "/images/7.png", false).response.body.substr(1, 3) == "PNG");
}

TEST_CASE("every synthetic page is reachable by links from the root") {
  SyntheticWeb web;
  const std::string host = "pages-200.fanout-4.synthetic.test";
  const auto s = settings(host);
  std::set<std::string> seen{"/"};
  std::vector<std::string> queue{"/"};
  while (!queue.empty()) {
    const auto path = queue.back();
    queue.pop_back();
    const auto page = web.serve("http", host, s, path, false);
    REQUIRE(page.response.status == 200);
    for (const auto& link : hrefs(page.response.body)) {
      if (link.empty() || link[0] != '/' || link.rfind("/images", 0) == 0) continue;
      if (seen.insert(link).second) queue.push_back(link);
    }
  }
  CHECK(seen.size() == 200);
  const auto urls = web.page_urls("http", host, s, 1000);
  CHECK(urls.size() == 200);
  for (const auto& url : urls)
    CHECK(seen.count(url.substr(std::string("http://").size() + host.size())) == 1);
}

TEST_CASE("synthetic robots.txt and sitemap.xml") {
  SyntheticWeb web;
  const std::string host = "pages-30.private.synthetic.test";
  const auto s = settings(host);
  const auto robots = web.serve("https", host, s, "/robots.txt", false).response;
  CHECK(robots.status == 200);
  CHECK_THAT(robots.body, Catch::Contains("Disallow: /private/"));
  CHECK_THAT(robots.body, Catch::Contains("Sitemap: https://" + host + "/sitemap.xml"));
  const auto sitemap = web.serve("https", host, s, "/sitemap.xml", false).response;
  CHECK(sitemap.status == 200);
  std::size_t locs = 0;
  for (auto pos = sitemap.body.find("<loc>"); pos != std::string::npos;
       pos = sitemap.body.find("<loc>", pos + 1))
    ++locs;
  CHECK(locs == 30);
  CHECK(web.serve("https", host, s, "/private/", false).response.status == 200);
  CHECK_THAT(web.serve("https", host, s, "/", false).response.body,
             Catch::Contains("href=\"/private/\""));

  const std::string bare = "norobots.nositemap.synthetic.test";
  CHECK(web.serve("https", bare, settings(bare), "/robots.txt", false).response.status == 404);
  CHECK(web.serve("https", bare, settings(bare), "/sitemap.xml", false).response.status == 404);

  // Over 50,000 pages the sitemap becomes an index of chunk files.
  const std::string big = "pages-120000.fanout-50.synthetic.test";
  const auto index = web.serve("https", big, settings(big), "/sitemap.xml", false).response.body;
  CHECK_THAT(index, Catch::Contains("<sitemapindex"));
  CHECK_THAT(index, Catch::Contains("/sitemap-3.xml"));
  const auto chunk3 = web.serve("https", big, settings(big), "/sitemap-3.xml", false).response;
  std::size_t chunk_locs = 0;
  for (auto pos = chunk3.body.find("<loc>"); pos != std::string::npos;
       pos = chunk3.body.find("<loc>", pos + 1))
    ++chunk_locs;
  CHECK(chunk_locs == 20000);
  CHECK(web.serve("https", big, settings(big), "/sitemap-4.xml", false).response.status == 404);
}

TEST_CASE("synthetic errors, slow pages, weight, protection, failures") {
  SyntheticWeb web;
  const std::string host =
      "pages-50.errors-5.missing-4.slow-6-700.weight-300k.protected-8.synthetic.test";
  const auto s = settings(host);
  const auto urls = web.page_urls("https", host, s, 100);
  auto serve = [&](std::size_t index, bool enhanced = false) {
    const auto path = urls[index].substr(std::string("https://").size() + host.size());
    return web.serve("https", host, s, path, enhanced).response;
  };
  CHECK(serve(4).status == 500);
  CHECK(serve(14).status == 500);
  CHECK(serve(3).status == 200);
  CHECK_THAT(serve(3).body, Catch::Contains("/retired-page"));
  CHECK(web.serve("https", host, s, "/p4/retired-page", false).response.status == 404);
  CHECK(serve(5).delay == std::chrono::milliseconds(700));
  CHECK(serve(6).delay == std::chrono::milliseconds(0));
  CHECK(serve(1).body.size() >= 300 * 1024);
  CHECK(serve(1).body.size() < 320 * 1024);
  CHECK(serve(7).status == 403);
  CHECK_THAT(serve(7).body, Catch::Contains("Just a moment"));
  CHECK(serve(7, true).status == 200);
  CHECK(serve(9).status == 500);

  const std::string all = "protected.synthetic.test";
  CHECK(web.serve("https", all, settings(all), "/", false).response.status == 403);
  CHECK(web.serve("https", all, settings(all), "/", true).response.status == 200);
  CHECK(web.serve("https", all, settings(all), "/robots.txt", false).response.status == 200);

  const std::string tls = "fail-tls.synthetic.test";
  CHECK(web.serve("https", tls, settings(tls), "/", false).error_code == "SCRAPE_SSL_ERROR");
  const std::string dns = "fail-dns.synthetic.test";
  CHECK(web.serve("https", dns, settings(dns), "/", false).error_code ==
        "SCRAPE_DNS_RESOLUTION_ERROR");
  const std::string refused = "fail-refused.synthetic.test";
  CHECK(web.serve("https", refused, settings(refused), "/", false).error_code ==
        "SCRAPE_SITE_ERROR");
}
