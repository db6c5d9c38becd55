// POST /v1|v2/map over real HTTP: sitemap modes, scope, robots, subdomains, search ranking,
// limit, timeout, bad input, and a large synthetic site.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"
#include "schema_check.hpp"
#include "webdata/contract/schemas.hpp"

using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using surface_test::check_schema;

namespace {

std::string page(const std::string& title, const std::vector<std::string>& links,
                 const std::string& description = "") {
  std::string html = "<html><head><title>" + title + "</title>";
  if (!description.empty()) html += "<meta name=\"description\" content=\"" + description + "\">";
  html += "</head><body><main><h1>" + title + "</h1>";
  for (const auto& l : links) html += "<p><a href=\"" + l + "\">" + l + "</a></p>";
  return html + "</main></body></html>";
}

struct MapSite {
  RunningMock mock;
  ApiClient api{mock.url()};

  MapSite() {
    const std::string h = "map.test";
    add(page_stub(h, "/", page("Home", {"/docs/", "/docs/install", "/blog/launch", "/private/x",
                                        "https://other.test/", "/docs/install#step-2",
                                        "/search?q=a", "/search?q=b",
                                        "https://help.map.test/faq"},
                               "The home page")));
    add(page_stub(h, "/docs/", page("Documentation", {"/docs/install", "/docs/configure"})));
    add(page_stub(h, "/docs/install", page("Installing the tool", {"/docs/"},
                                           "How to install it on every platform")));
    add(page_stub(h, "/docs/configure", page("Configuration", {})));
    add(page_stub(h, "/blog/launch", page("Launch day", {})));
    add(page_stub(h, "/private/x", page("Private", {})));
    add(page_stub(h, "/robots.txt", "User-agent: *\nDisallow: /private/\n", 200, "text/plain"));
    add(page_stub(h, "/sitemap.xml",
                  "<urlset><url><loc>http://map.test/docs/hidden-upgrade-guide</loc></url>"
                  "<url><loc>http://map.test/private/y</loc></url></urlset>",
                  200, "application/xml"));
    add(page_stub("help.map.test", "/faq", page("FAQ", {})));
    add(page_stub("other.test", "/", page("Other", {})));
  }
  void add(const json& mapping) { REQUIRE(api.post("/__admin/mappings", mapping).status == 201); }

  std::vector<std::string> urls(const json& body) const {
    std::vector<std::string> out;
    for (const auto& link : body.at("links")) {
      out.push_back(link.is_string() ? link.get<std::string>() : link.at("url").get<std::string>());
    }
    return out;
  }
};

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_CASE("v2 map lists the site from its sitemap and links, in scope and allowed by robots",
          "[map]") {
  MapSite site;
  const auto r = site.api.post("/v2/map", {{"url", "http://map.test/"}});
  REQUIRE(r.status == 200);
  check_schema("v2/map.response", r.body);
  const auto urls = site.urls(r.body);
  CHECK(urls.front() == "http://map.test/");
  for (const char* expected :
       {"http://map.test/docs/", "http://map.test/docs/install", "http://map.test/blog/launch",
        "http://map.test/docs/configure", "http://map.test/docs/hidden-upgrade-guide",
        "https://help.map.test/faq"}) {
    INFO(expected);
    CHECK(has(urls, expected));
  }
  CHECK_FALSE(has(urls, "http://map.test/private/x"));  // robots.txt
  CHECK_FALSE(has(urls, "http://map.test/private/y"));
  CHECK_FALSE(has(urls, "https://other.test/"));        // another site
  // Fragments are dropped and, by default, URLs differing only by their query are one page.
  CHECK(std::count(urls.begin(), urls.end(), "http://map.test/docs/install") == 1);
  CHECK(std::count_if(urls.begin(), urls.end(), [](const std::string& u) {
          return u.rfind("http://map.test/search", 0) == 0;
        }) == 1);
  // Pages that were read carry their title and description.
  for (const auto& link : r.body["links"]) {
    if (link["url"] == "http://map.test/docs/install") {
      CHECK(link["title"] == "Installing the tool");
      CHECK(link["description"] == "How to install it on every platform");
    }
  }
}

TEST_CASE("map sitemap modes: only the sitemap, or no sitemap", "[map]") {
  MapSite site;
  auto r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"sitemap", "only"}});
  REQUIRE(r.status == 200);
  CHECK(site.urls(r.body) == std::vector<std::string>{"http://map.test/docs/hidden-upgrade-guide"});
  r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"sitemap", "skip"}});
  REQUIRE(r.status == 200);
  CHECK_FALSE(has(site.urls(r.body), "http://map.test/docs/hidden-upgrade-guide"));
  CHECK(has(site.urls(r.body), "http://map.test/docs/configure"));
}

TEST_CASE("map options: subdomains, query parameters, limit, a section of the site", "[map]") {
  MapSite site;
  auto r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"includeSubdomains", false}});
  REQUIRE(r.status == 200);
  CHECK_FALSE(has(site.urls(r.body), "https://help.map.test/faq"));

  r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"ignoreQueryParameters", false}});
  REQUIRE(r.status == 200);
  CHECK(has(site.urls(r.body), "http://map.test/search?q=a"));
  CHECK(has(site.urls(r.body), "http://map.test/search?q=b"));

  r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"limit", 3}});
  REQUIRE(r.status == 200);
  CHECK(r.body["links"].size() == 3);

  r = site.api.post("/v2/map", {{"url", "http://map.test/docs/"}});
  REQUIRE(r.status == 200);
  for (const auto& url : site.urls(r.body)) {
    INFO(url);
    CHECK(url.rfind("http://map.test/docs/", 0) == 0);
  }
  CHECK(has(site.urls(r.body), "http://map.test/docs/configure"));
}

TEST_CASE("map search ranks the most relevant links first and then applies the limit", "[map]") {
  MapSite site;
  auto r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"search", "install"}});
  REQUIRE(r.status == 200);
  CHECK(site.urls(r.body).front() == "http://map.test/docs/install");
  r = site.api.post("/v2/map",
                    {{"url", "http://map.test/"}, {"search", "upgrade guide"}, {"limit", 1}});
  REQUIRE(r.status == 200);
  CHECK(site.urls(r.body) == std::vector<std::string>{"http://map.test/docs/hidden-upgrade-guide"});
}

TEST_CASE("v1 map answers links as strings and reads sitemapOnly and ignoreSitemap", "[map]") {
  MapSite site;
  auto r = site.api.post("/v1/map", {{"url", "http://map.test/"}});
  REQUIRE(r.status == 200);
  check_schema("v1/map.response", r.body);
  REQUIRE(r.body["links"].at(0).is_string());
  CHECK(has(site.urls(r.body), "http://map.test/docs/hidden-upgrade-guide"));
  r = site.api.post("/v1/map", {{"url", "http://map.test/"}, {"sitemapOnly", true}});
  CHECK(site.urls(r.body) == std::vector<std::string>{"http://map.test/docs/hidden-upgrade-guide"});
  r = site.api.post("/v1/map", {{"url", "http://map.test/"}, {"ignoreSitemap", true}});
  CHECK_FALSE(has(site.urls(r.body), "http://map.test/docs/hidden-upgrade-guide"));
}

TEST_CASE("map refuses bad input with field-level details", "[map]") {
  MapSite site;
  auto r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"sitemap", "sometimes"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["success"] == false);
  CHECK(r.body["details"].at(0)["path"] == json::array({"sitemap"}));
  r = site.api.post("/v2/map", {{"url", "not a url"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"].at(0)["path"] == json::array({"url"}));
  r = site.api.post("/v2/map", {{"url", "http://map.test/"}, {"limit", 0}});
  CHECK(r.status == 400);
  r = site.api.post("/v1/map", {{"url", "http://map.test/"}, {"sitemap", "only"}});
  CHECK(r.status == 400);  // a v2 field on v1
  r = site.api.post("/v2/map", json::object());
  CHECK(r.status == 400);
}

TEST_CASE("map answers 408 MAP_TIMEOUT when the site is slower than the timeout", "[map]") {
  MapSite site;
  const auto r =
      site.api.post("/v2/map", {{"url", "https://delay-300.synthetic.test/"}, {"timeout", 100}});
  REQUIRE(r.status == 408);
  CHECK(r.body["code"] == "MAP_TIMEOUT");
}

TEST_CASE("map reads a 10,000-page synthetic site whole from its sitemap", "[map]") {
  MapSite site;
  const auto r = site.api.post(
      "/v2/map", {{"url", "https://pages-10000.fanout-10.synthetic.test/"}, {"limit", 100000}});
  REQUIRE(r.status == 200);
  CHECK(r.body["links"].size() == 10000);
  const auto limited = site.api.post(
      "/v2/map", {{"url", "https://pages-10000.fanout-10.synthetic.test/"}});
  CHECK(limited.body["links"].size() == 5000);  // the default limit
}

TEST_CASE("map charges one credit and refuses a team without credits", "[map]") {
  MapSite site;
  REQUIRE(site.api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 1}}).status ==
          200);
  CHECK(site.api.post("/v2/map", {{"url", "http://map.test/"}}).status == 200);
  CHECK(site.api.post("/v2/map", {{"url", "http://map.test/"}}).status == 402);
}
