#include <catch2/catch.hpp>

#include <webdata/contract/schemas.hpp>

using nlohmann::json;
using webdata::contract::SchemaSet;

namespace {

json fill(const std::string& schema, json value) {
  return SchemaSet::embedded().with_defaults(schema, std::move(value));
}

}  // namespace

TEST_CASE("v2 scrape defaults follow specification 4.1", "[defaults]") {
  const json out = fill("v2/scrape.request", {{"url", "https://a.example"}});
  CHECK(out["url"] == "https://a.example");
  CHECK(out["formats"] == json{"markdown"});
  CHECK(out["onlyMainContent"] == true);
  CHECK(out["maxAge"] == 172800000);
  CHECK(out["waitFor"] == 0);
  CHECK(out["mobile"] == false);
  CHECK(out["skipTlsVerification"] == true);
  CHECK(out["timeout"] == 30000);
  CHECK(out["parsers"] == json{"pdf"});
  CHECK(out["location"] == json{{"country", "US"}});
  CHECK(out["removeBase64Images"] == true);
  CHECK(out["blockAds"] == true);
  CHECK(out["proxy"] == "auto");
  CHECK(out["storeInCache"] == true);
  CHECK(out["zeroDataRetention"] == false);
  CHECK_FALSE(out.contains("includeTags"));
  CHECK_FALSE(out.contains("origin"));
  CHECK(SchemaSet::embedded().validate("v2/scrape.request", out).empty());
}

TEST_CASE("v1 scrape defaults differ as specification 4.2 says", "[defaults]") {
  const json out = fill("v1/scrape.request", {{"url", "https://a.example"}});
  CHECK(out["maxAge"] == 0);
  CHECK(out["skipTlsVerification"] == false);
  CHECK(out["proxy"] == "basic");
  CHECK(out["timeout"] == 30000);
  CHECK(out["parsePDF"] == true);
  CHECK_FALSE(out.contains("parsers"));
  CHECK(out["formats"] == json{"markdown"});
  CHECK(SchemaSet::embedded().validate("v1/scrape.request", out).empty());
}

TEST_CASE("given values are kept", "[defaults]") {
  const json out = fill("v2/scrape.request", {{"url", "https://a.example"},
                                              {"maxAge", 0},
                                              {"proxy", "basic"},
                                              {"formats", json::array()},
                                              {"location", {{"country", "DE"}}}});
  CHECK(out["maxAge"] == 0);
  CHECK(out["proxy"] == "basic");
  CHECK(out["formats"] == json::array());
  CHECK(out["location"] == json{{"country", "DE"}});
}

TEST_CASE("defaults reach nested objects and array items", "[defaults]") {
  const json crawl = fill("v2/crawl.request", {{"url", "https://a.example"},
                                               {"scrapeOptions", json::object()},
                                               {"webhook", {{"url", "https://hook.example"}}}});
  CHECK(crawl["limit"] == 10000);
  CHECK(crawl["sitemap"] == "include");
  CHECK(crawl["scrapeOptions"]["maxAge"] == 172800000);
  CHECK(crawl["scrapeOptions"]["proxy"] == "auto");
  CHECK(crawl["webhook"]["events"] == json{"started", "page", "completed", "failed"});

  const json plain_hook =
      fill("v2/crawl.request", {{"url", "https://a.example"}, {"webhook", "https://hook.example"}});
  CHECK(plain_hook["webhook"] == "https://hook.example");
  // A crawl without scrapeOptions scrapes with every default, as the service's `{}` default.
  CHECK(plain_hook["scrapeOptions"]["maxAge"] == 172800000);
  CHECK(plain_hook["scrapeOptions"]["formats"] == json{"markdown"});

  const json v1_crawl =
      fill("v1/crawl.request", {{"url", "https://a.example"}, {"scrapeOptions", json::object()}});
  CHECK(v1_crawl["scrapeOptions"]["maxAge"] == 0);
  CHECK(v1_crawl["scrapeOptions"]["proxy"] == "basic");

  const json items =
      fill("v2/scrape.request",
           {{"url", "https://a.example"},
            {"formats", {"markdown", {{"type", "screenshot"}}}},
            {"actions", {{{"type", "scroll"}}, {{"type", "wait"}, {"milliseconds", 5}}}},
            {"location", {{"languages", {"de"}}}}});
  CHECK(items["formats"][0] == "markdown");
  CHECK(items["formats"][1]["fullPage"] == false);
  CHECK(items["actions"][0]["direction"] == "down");
  CHECK(items["actions"][1] == json{{"type", "wait"}, {"milliseconds", 5}});
  CHECK(items["location"]["country"] == "US");
}

TEST_CASE("search and batch defaults", "[defaults]") {
  const json search = fill("v2/search.request", {{"query", "q"}});
  CHECK(search["limit"] == 5);
  CHECK(search["sources"] == json{"web"});
  CHECK(search["categories"] == json::array());
  CHECK(search["country"] == "US");
  CHECK(search["timeout"] == 60000);
  CHECK(search["ignoreInvalidURLs"] == false);

  const json batch = fill("v2/batch-scrape.request", {{"urls", {"https://a.example"}}});
  CHECK(batch["ignoreInvalidURLs"] == true);
  CHECK(batch["maxAge"] == 172800000);
  CHECK_FALSE(batch.contains("maxConcurrency"));
}
