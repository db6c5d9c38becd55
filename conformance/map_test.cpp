// Map (docs/reference/map.md): the URLs of the runner's test site, v2 and v1. A deployment
// without the route skips with the precheck's reason.

#include <algorithm>

#include "support.hpp"

using namespace webdata::conformance;

namespace {

std::vector<std::string> link_urls(const json& body) {
  std::vector<std::string> out;
  for (const auto& link : body.value("links", json::array())) {
    if (link.is_string()) out.push_back(link.get<std::string>());
    if (link.is_object() && link.contains("url") && link.at("url").is_string()) {
      out.push_back(link.at("url").get<std::string>());
    }
  }
  return out;
}

bool lists(const std::vector<std::string>& urls, const std::string& path) {
  return std::any_of(urls.begin(), urls.end(),
                     [&](const std::string& u) { return site_path(u) == path; });
}

ApiResponse map_v2(const json& extra) {
  json body = {{"url", site_url("/")}};
  body.update(extra);
  return post("/v2/map", body);
}

}  // namespace

TEST_CASE("v2 map: the shape with the sitemap modes and limit",
          "[map]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][MAP-LIMIT][MAP-SHAPE][MAP-SITEMAP]") {
  CHECKS_RULES(&rules::kMapShape, &rules::kMapSitemap, &rules::kMapLimit);
  REQUIRE_CAPABILITY("map");
  const auto all = map_v2({{"sitemap", "include"}});
  INFO(all.describe());
  {
    RULE(rules::kMapShape);
    CHECK_JSON_ANSWER(all);
    REQUIRE(all.status == 200);
    CHECK_SCHEMA("v2/map.response", all.body_json);
    CHECK(all.body_json.value("success", false));
    REQUIRE(all.body_json.contains("links"));
    for (const auto& link : all.body_json.at("links")) {
      INFO(link.dump());
      REQUIRE(link.is_object());
      CHECK(link.value("url", "").rfind("http", 0) == 0);
    }
  }
  const auto urls = link_urls(all.body_json);
  {
    // A map lists what the sitemap (and an index, where the deployment has one) names; whether
    // it adds the links of pages is up to the deployment. So: the sitemap's pages are listed
    // unless the sitemap is skipped, and with `only` nothing that only a page links to.
    RULE(rules::kMapSitemap);
    CHECK(lists(urls, "/docs/a.html"));
    CHECK(lists(urls, "/sitemap-only.html"));

    const auto only = map_v2({{"sitemap", "only"}});
    INFO(only.describe());
    REQUIRE(only.status == 200);
    CHECK_SCHEMA("v2/map.response", only.body_json);
    const auto only_urls = link_urls(only.body_json);
    CHECK(lists(only_urls, "/sitemap-only.html"));
    // Named by links but not by the sitemap.
    CHECK_FALSE(lists(only_urls, "/missing.html"));

    const auto skip = map_v2({{"sitemap", "skip"}});
    INFO(skip.describe());
    REQUIRE(skip.status == 200);
    CHECK_SCHEMA("v2/map.response", skip.body_json);
    // Named by the sitemap alone: without it, nothing leads there (an empty list is allowed).
    CHECK_FALSE(lists(link_urls(skip.body_json), "/sitemap-only.html"));
  }
  RULE(rules::kMapLimit);
  const auto two = map_v2({{"limit", 2}});
  INFO(two.describe());
  REQUIRE(two.status == 200);
  CHECK_SCHEMA("v2/map.response", two.body_json);
  CHECK(link_urls(two.body_json).size() == 2);
}

TEST_CASE("v2 map: search puts the matching links first",
          "[map]"
          "[ENV-SCHEMA][MAP-SEARCH]") {
  CHECKS_RULES(&rules::kMapSearch);
  REQUIRE_CAPABILITY("map");
  RULE(rules::kMapSearch);
  const auto res = map_v2({{"search", "post"}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/map.response", res.body_json);
  const auto urls = link_urls(res.body_json);
  REQUIRE_FALSE(urls.empty());
  CHECK(site_path(urls.front()) == "/blog/post-1.html");
}

TEST_CASE("v1 map: links are URL strings",
          "[map][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][MAP-LIMIT][MAP-SHAPE]") {
  CHECKS_RULES(&rules::kMapShape, &rules::kMapLimit);
  REQUIRE_CAPABILITY("map-v1");
  const auto res = post("/v1/map", {{"url", site_url("/")}, {"limit", 3}});
  INFO(res.describe());
  RULE(rules::kMapShape);
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v1/map.response", res.body_json);
  CHECK(res.body_json.value("success", false));
  const json links = res.body_json.value("links", json::array());
  REQUIRE_FALSE(links.empty());
  for (const auto& link : links) CHECK(link.is_string());
  RULE(rules::kMapLimit);
  CHECK(links.size() <= 3);
}
