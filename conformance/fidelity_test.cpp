// Behaviours every deployment of the service shares where the specification is silent
// (docs/mockserver/fidelity.md lists them with their sources): the body's media type, the
// cross-field rules, schemeless URLs, CORS, the cancel answer, failed pages and total, expiresAt to
// the second, the ongoing alias and path filters of active crawls, v1 extract. Message texts are
// not checked: they differ between versions.

#include <regex>

#include "support.hpp"

using namespace webdata::conformance;

namespace {

/// Whether `details` (an issue list, issues maybe nested in union issues) holds a `custom` issue.
bool has_custom_issue(const json& details) {
  if (details.is_array()) {
    for (const auto& issue : details) {
      if (has_custom_issue(issue)) return true;
    }
    return false;
  }
  if (!details.is_object()) return false;
  if (details.value("code", "") == "custom") return true;
  for (const char* nested : {"unionErrors", "issues", "errors"}) {
    if (details.contains(nested) && has_custom_issue(details.at(nested))) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a POST body not sent as application/json is refused with a 4xx",
          "[fidelity]"
          "[VAL-BODY-CONTENT-TYPE]") {
  RULE(rules::kBodyContentType);
  Call c;
  c.method = "POST";
  c.path = "/v2/scrape";
  c.raw_body = json{{"url", site_url("/docs/a.html")}}.dump();
  c.headers = {{"Content-Type", "text/plain"}};
  const auto res = call(c);
  INFO(res.describe());
  CHECK(res.status >= 400);
  CHECK(res.status < 500);
}

TEST_CASE("cross-field rules of scrape options answer 400 with a custom issue",
          "[fidelity][validation]"
          "[ENV-CONTENT-TYPE][VAL-CROSS-FIELD]") {
  RULE(rules::kCrossField);
  const std::string url = site_url("/docs/a.html");
  const std::vector<json> bodies = {
      {{"url", url}, {"waitFor", 6000}, {"timeout", 10000}},
      {{"url", url},
       {"formats", {{{"type", "screenshot"}}, {{"type", "screenshot"}, {"fullPage", true}}}}},
      {{"url", url}, {"actions", {{{"type", "wait"}, {"milliseconds", 10}, {"selector", "h1"}}}}}};
  for (const auto& body : bodies) {
    const auto res = post("/v2/scrape", body);
    INFO(body.dump() << " -> " << res.describe());
    CHECK_JSON_ANSWER(res);
    CHECK(res.status == 400);
    CHECK(res.body_json.value("success", true) == false);
    CHECK(has_custom_issue(res.body_json.value("details", json())));
  }
}

TEST_CASE("a page URL without a scheme is scraped as http",
          "[fidelity][scrape]"
          "[ENV-CONTENT-TYPE][VAL-SCHEMELESS-URL]") {
  RULE(rules::kSchemelessUrl);
  const std::string url = target().site_host + "/docs/a.html";
  const auto res = post("/v2/scrape", {{"url", url}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK(res.body_json.value("success", false) == true);
  const json data = res.body_json.value("data", json::object());
  CHECK(data.value("markdown", "").find("Page A") != std::string::npos);
}

TEST_CASE("a CORS preflight answers 2xx and allows the origin",
          "[fidelity][http]"
          "[ENV-CORS]") {
  RULE(rules::kCors);
  Call c;
  c.method = "OPTIONS";
  c.path = "/v2/scrape";
  c.auth = Auth::kNone;
  c.headers = {{"Origin", "http://localhost:5173"},
               {"Access-Control-Request-Method", "POST"},
               {"Access-Control-Request-Headers", "authorization,content-type"}};
  const auto res = call(c);
  INFO(res.describe());
  CHECK(res.status >= 200);
  CHECK(res.status < 300);
  const std::string allowed = res.header("Access-Control-Allow-Origin");
  CHECK((allowed == "*" || allowed == "http://localhost:5173"));
}

TEST_CASE("failed pages leave total and expiresAt has no milliseconds",
          "[fidelity][batch]"
          "[JOB-TOTAL-FAILED][RETENTION-SECONDS]") {
  const std::string a = site_url("/docs/a.html");
  const std::string b = site_url("/docs/b.html");
  const std::string unreachable = "http://conformance-nonexistent.invalid/fidelity";
  const auto res = post("/v2/batch/scrape", {{"urls", {a, unreachable, b}}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  const json status = wait_job("/v2/batch/scrape", res.body_json.value("id", ""));
  INFO(status.dump().substr(0, 600));
  {
    RULE(rules::kTotalWithoutFailed);
    CHECK(status.value("status", "") == "completed");
    CHECK(status.value("completed", -1) == 2);
    CHECK(status.value("total", -1) == status.value("completed", -2));
  }
  RULE(rules::kExpiresSeconds);
  const std::string expires = status.value("expiresAt", "");
  INFO("expiresAt " << expires);
  static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.000)?Z$)");
  CHECK(std::regex_match(expires, iso));
}

TEST_CASE("active crawls: the ongoing alias with the path filters and the cancel answer",
          "[fidelity][crawl][cancelling][slow]"
          "[ACTIVE-ONGOING][ACTIVE-PATHS][CANCEL-BODY][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  const std::string start = site_url("/slow-tree/?fidelity=" + unique_token());
  const json include = {"^/slow-tree/.*"};
  const json exclude = {"^/never/.*"};
  const auto res = post("/v2/crawl", {{"url", start},
                                      {"includePaths", include},
                                      {"excludePaths", exclude},
                                      {"scrapeOptions", {{"formats", {"markdown"}}}}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  auto entry_of = [&id](const ApiResponse& list) {
    for (const auto& c : list.body_json.value("crawls", json::array())) {
      if (c.value("id", "") == id) return c;
    }
    return json();
  };
  const auto active = get("/v2/crawl/active");
  const auto ongoing = get("/v2/crawl/ongoing");
  {
    RULE(rules::kActiveOngoing);
    INFO("active " << active.describe() << "\nongoing " << ongoing.describe());
    CHECK_JSON_ANSWER(ongoing);
    REQUIRE(ongoing.status == 200);
    CHECK_SCHEMA("v2/crawl-active.response", ongoing.body_json);
    const json listed = entry_of(ongoing);
    REQUIRE(listed.is_object());
    CHECK(listed.value("url", "") == start);
    CHECK(listed.value("teamId", "") == entry_of(active).value("teamId", ""));
  }
  {
    RULE(rules::kActivePaths);
    const json options = entry_of(active).value("options", json::object());
    INFO("options " << options.dump());
    CHECK(options.value("includePaths", json()) == include);
    CHECK(options.value("excludePaths", json()) == exclude);
  }
  RULE(rules::kCancelBody);
  const auto cancelled = del("/v2/crawl/" + id);
  INFO(cancelled.describe());
  CHECK_JSON_ANSWER(cancelled);
  REQUIRE(cancelled.status == 200);
  CHECK(cancelled.body_json.value("status", "") == "cancelled");
}

TEST_CASE("v1 extract format answers in data.extract",
          "[fidelity][scrape][v1]"
          "[ENV-CONTENT-TYPE][SCRAPE-V1-EXTRACT]") {
  CHECKS_RULES(&rules::kV1Extract);
  REQUIRE_CAPABILITY("model");
  REQUIRE_CAPABILITY("format:json");
  RULE(rules::kV1Extract);
  const auto res = post("/v1/scrape", {{"url", site_url("/docs/a.html")},
                                       {"formats", {"extract"}},
                                       {"extract", {{"prompt", "The heading of the page"}}}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  const json data = res.body_json.value("data", json::object());
  CHECK(data.contains("extract"));
  CHECK_FALSE(data.contains("llm_extraction"));
}
