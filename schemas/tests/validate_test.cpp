#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <webdata/contract/schemas.hpp>

using nlohmann::json;
using webdata::contract::Issue;
using webdata::contract::SchemaSet;

namespace {

std::vector<Issue> check(const std::string& schema, const json& value) {
  return SchemaSet::embedded().validate(schema, value);
}

}  // namespace

TEST_CASE("a valid request has no issues", "[validate]") {
  CHECK(check("v2/scrape.request", {{"url", "https://example.com"}}).empty());
  CHECK(check("v2/scrape.request", {{"url", "https://example.com"},
                                    {"formats", {"markdown", {{"type", "json"}, {"prompt", "x"}}}},
                                    {"origin", "sdk"},
                                    {"integration", "tests"}})
            .empty());
  CHECK(check("v1/scrape.request",
              {{"url", "https://example.com"}, {"formats", {"markdown", "screenshot@fullPage"}}})
            .empty());
}

TEST_CASE("an unknown request field is rejected and named", "[validate]") {
  const auto issues = check("v2/scrape.request", {{"url", "https://example.com"}, {"bogus", 1}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "unrecognized_keys");
  CHECK(issues[0].path == json::array());
  CHECK(issues[0].extra["keys"] == json{"bogus"});
  CHECK(issues[0].message == "Unrecognized key(s) in object: 'bogus'");

  const auto nested = check("v2/crawl.request", {{"url", "https://example.com"},
                                                 {"scrapeOptions", {{"onlyMain", true}}}});
  REQUIRE(nested.size() == 1);
  CHECK(nested[0].code == "unrecognized_keys");
  CHECK(nested[0].path == json{"scrapeOptions"});
  CHECK(nested[0].message == "scrapeOptions: Unrecognized key(s) in object: 'onlyMain'");
}

TEST_CASE("origin and integration are accepted by every request schema", "[validate]") {
  const auto& schemas = SchemaSet::embedded();
  int requests = 0;
  for (const auto& name : schemas.names()) {
    if (name.size() < 8 || name.compare(name.size() - 8, 8, ".request") != 0) continue;
    ++requests;
    const json& props = schemas.document(name).at("properties");
    INFO(name);
    CHECK(props.contains("origin"));
    CHECK(props.contains("integration"));
    CHECK(schemas.document(name).at("additionalProperties") == false);
  }
  CHECK(requests == 15 + 2 + 2 + 8 + 3);  // 9 of the specification, map and extract (v1, v2), params
  // preview, parse + v1 deep research and llms.txt + monitor create and update + research (papers,
  // paper, similar, github), developer search, feedback (2), support ask + browser, browser
  // execute, interact
}

TEST_CASE("a wrong type names the field's path", "[validate]") {
  const auto issues =
      check("v2/scrape.request", {{"url", "https://example.com"}, {"onlyMainContent", "yes"}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_type");
  CHECK(issues[0].path == json{"onlyMainContent"});
  CHECK(issues[0].extra["expected"] == "boolean");
  CHECK(issues[0].extra["received"] == "string");
  CHECK(issues[0].message == "onlyMainContent: Expected boolean, received string");

  const auto deep = check("v2/search.request",
                          {{"query", "q"}, {"scrapeOptions", {{"formats", {"markdown", 7}}}}});
  REQUIRE(deep.size() == 1);
  CHECK(deep[0].code == "invalid_type");
  CHECK(deep[0].path == json{"scrapeOptions", "formats", 1});
  CHECK(deep[0].extra["expected"] == "string | object");
  CHECK(deep[0].message == "scrapeOptions.formats.1: Expected string | object, received number");
}

TEST_CASE("integers reject fractions", "[validate]") {
  const auto issues = check("v2/scrape.request", {{"url", "https://a.example"}, {"waitFor", 1.5}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].extra["expected"] == "integer");
  CHECK(issues[0].extra["received"] == "float");
}

TEST_CASE("a missing required field is reported as Required", "[validate]") {
  const auto issues = check("v2/scrape.request", {{"formats", {"markdown"}}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_type");
  CHECK(issues[0].path == json{"url"});
  CHECK(issues[0].extra["received"] == "undefined");
  CHECK(issues[0].extra["expected"] == "string");
  CHECK(issues[0].message == "url: Required");
}

TEST_CASE("enum values are listed", "[validate]") {
  const auto issues = check("v2/scrape.request", {{"url", "https://a.example"}, {"proxy", "tor"}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_enum_value");
  CHECK(issues[0].path == json{"proxy"});
  CHECK(issues[0].extra["options"] == json{"basic", "enhanced", "stealth", "auto"});
  CHECK(issues[0].extra["received"] == "tor");
  CHECK(issues[0].message ==
        "proxy: Invalid enum value. Expected 'basic' | 'enhanced' | 'stealth' | 'auto', received 'tor'");
}

TEST_CASE("a format string out of the list names the element", "[validate]") {
  const auto issues =
      check("v2/scrape.request", {{"url", "https://a.example"}, {"formats", {"foo"}}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_enum_value");
  CHECK(issues[0].path == json{"formats", 0});
  CHECK(issues[0].message.rfind("formats.0: Invalid enum value. Expected 'markdown' | ", 0) == 0);
}

TEST_CASE("an unknown format object type lists every object type", "[validate]") {
  const auto issues =
      check("v2/scrape.request", {{"url", "https://a.example"}, {"formats", {{{"type", "foo"}}}}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_enum_value");
  CHECK(issues[0].path == json{"formats", 0, "type"});
  const json& options = issues[0].extra["options"];
  for (const char* type : {"markdown", "screenshot", "json", "changeTracking", "branding"}) {
    INFO(type);
    CHECK(std::find(options.begin(), options.end(), json(type)) != options.end());
  }
  CHECK(issues[0].message.rfind("formats.0.type: Invalid enum value. Expected 'markdown'", 0) == 0);
  CHECK(issues[0].message.find("received 'foo'") != std::string::npos);
}

TEST_CASE("a oneOf failure reports the branch the value was meant for", "[validate]") {
  const auto format = check(
      "v2/scrape.request",
      {{"url", "https://a.example"}, {"formats", {{{"type", "screenshot"}, {"quality", "high"}}}}});
  REQUIRE(format.size() == 1);
  CHECK(format[0].code == "invalid_type");
  CHECK(format[0].path == json{"formats", 0, "quality"});

  const auto action = check("v2/scrape.request",
                            {{"url", "https://a.example"}, {"actions", {{{"type", "click"}}}}});
  REQUIRE(action.size() == 1);
  CHECK(action[0].message == "actions.0.selector: Required");

  const auto extra = check("v2/scrape.request",
                           {{"url", "https://a.example"},
                            {"actions", {{{"type", "press"}, {"key", "Enter"}, {"ctrl", true}}}}});
  REQUIRE(extra.size() == 1);
  CHECK(extra[0].code == "unrecognized_keys");
  CHECK(extra[0].path == json{"actions", 0});
  CHECK(extra[0].extra["keys"] == json{"ctrl"});
}

TEST_CASE("limits give too_big and too_small", "[validate]") {
  const auto big = check("v2/scrape.request", {{"url", "https://a.example"}, {"timeout", 300001}});
  REQUIRE(big.size() == 1);
  CHECK(big[0].code == "too_big");
  CHECK(big[0].extra["maximum"] == 300000);
  CHECK(big[0].message == "timeout: Number must be less than or equal to 300000");
  CHECK(check("v1/scrape.request", {{"url", "https://a.example"}, {"timeout", 300001}}).empty());

  const auto small = check("v2/search.request", {{"query", "q"}, {"limit", 0}});
  REQUIRE(small.size() == 1);
  CHECK(small[0].code == "too_small");
  // The service's Zod `positive()`: greater than 0, not at least 1.
  CHECK(small[0].extra["minimum"] == 0);
  CHECK(small[0].extra["inclusive"] == false);
  CHECK(small[0].text == "Number must be greater than 0");
  CHECK(small[0].path == json{"limit"});
  CHECK(check("v2/search.request", {{"query", "q"}, {"limit", 101}})[0].code == "too_big");
  CHECK(check("v2/search.request", {{"query", "q"}, {"limit", 100}}).empty());

  // (A batch scrape takes an empty list, as the service does; an extract does not.)
  const auto empty = check("v2/extract.request", {{"urls", json::array()}, {"prompt", "p"}});
  REQUIRE(empty.size() == 1);
  CHECK(empty[0].code == "too_small");
  CHECK(empty[0].extra["type"] == "array");
}

TEST_CASE("a pattern mismatch is invalid_string", "[validate]") {
  const auto issues = check("v2/scrape.request",
                            {{"url", "https://a.example"}, {"location", {{"country", "USA"}}}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_string");
  CHECK(issues[0].path == json{"location", "country"});
}

TEST_CASE("search sources take strings or objects but not both", "[validate]") {
  CHECK(check("v2/search.request", {{"query", "q"}, {"sources", {"web", "news"}}}).empty());
  CHECK(check("v2/search.request", {{"query", "q"}, {"sources", {{{"type", "images"}}}}}).empty());
  CHECK_FALSE(check("v2/search.request", {{"query", "q"}, {"sources", {"web", {{"type", "news"}}}}})
                  .empty());
  const auto bad = check("v2/search.request", {{"query", "q"}, {"categories", {"videos"}}});
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].code == "invalid_enum_value");
  CHECK(bad[0].path == json{"categories", 0});
}

TEST_CASE("date-time fields accept ISO text and null where allowed", "[validate]") {
  const json doc = {{"metadata", {{"sourceURL", "https://a.example"}, {"statusCode", 200}}},
                    {"changeTracking", {{"previousScrapeAt", nullptr}, {"changeStatus", "new"}}}};
  CHECK(check("common/scrape-document", doc).empty());
  json later = doc;
  later["changeTracking"]["previousScrapeAt"] = "2025-01-02T03:04:05.678Z";
  CHECK(check("common/scrape-document", later).empty());
  later["changeTracking"]["previousScrapeAt"] = "yesterday";
  const auto issues = check("common/scrape-document", later);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].code == "invalid_string");
  CHECK(issues[0].path == json{"changeTracking", "previousScrapeAt"});
}

TEST_CASE("responses are open, requests are strict", "[validate]") {
  const json response = {
      {"success", true},
      {"data",
       {{"markdown", "# Hi"},
        {"metadata",
         {{"sourceURL", "https://a.example"}, {"statusCode", 200}, {"og:locale", "en_US"}}}}},
      {"someNewField", 1}};
  CHECK(check("v2/scrape.response", response).empty());
  json wrong = response;
  wrong["data"]["metadata"]["statusCode"] = "200";
  const auto issues = check("v2/scrape.response", wrong);
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == json{"data", "metadata", "statusCode"});
}

TEST_CASE("issue to_json carries the wire fields", "[validate]") {
  const auto issues = check("v2/scrape.request", {{"url", "https://a.example"}, {"proxy", "tor"}});
  REQUIRE_FALSE(issues.empty());
  const json wire = issues[0].to_json();
  CHECK(wire["code"] == "invalid_enum_value");
  CHECK(wire["path"] == json{"proxy"});
  CHECK(wire["message"] == issues[0].message);
  CHECK(wire["options"] == json{"basic", "enhanced", "stealth", "auto"});
  CHECK(wire["received"] == "tor");
  CHECK(check("common/error", {{"success", false}, {"error", "Bad Request"}, {"details", {wire}}})
            .empty());
}

TEST_CASE("an unknown schema name is a programming error", "[validate]") {
  CHECK_THROWS_AS(check("v2/nothing.request", json::object()), std::invalid_argument);
  CHECK_THROWS_AS(SchemaSet::embedded().with_defaults("v3/scrape.request", json::object()),
                  std::invalid_argument);
  CHECK_FALSE(SchemaSet::embedded().has("v2/nothing.request"));
}

TEST_CASE("validate can be called from several threads at once", "[validate][threads]") {
  const auto& schemas = SchemaSet::embedded();
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const bool good = (i + t) % 2 == 0;
        const json body =
            good ? json{{"url", "https://a.example"}, {"location", {{"country", "DE"}}}}
                 : json{{"url", "https://a.example"}, {"timeout", "slow"}};
        const auto issues = schemas.validate("v2/scrape.request", body);
        if (issues.empty() != good) ++failures[t];
        if (!good && (issues.size() != 1 || issues[0].path != json{"timeout"})) ++failures[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == std::vector<int>(4, 0));
}
