// Authentication (docs/reference/auth.md), the error envelope and strict validation (errors.md).
// Validation issues are zod issues; a deployment may nest them (a wrong member of a union field is
// one invalid_union issue with the member issues inside), so they are searched at any depth.

#include <algorithm>

#include "checks.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

struct Endpoint {
  std::string method;
  std::string path;
  json body;
};

// Every endpoint of v1 and v2, with a valid body, so that only the key decides the answer.
std::vector<Endpoint> all_endpoints() {
  const std::string page = site_url("/docs/a.html");
  const std::string id = "00000000-0000-4000-8000-000000000000";
  return {
      {"POST", "/v2/scrape", {{"url", page}}},
      {"POST", "/v1/scrape", {{"url", page}}},
      {"GET", "/v2/scrape/" + id, nullptr},
      {"GET", "/v1/scrape/" + id, nullptr},
      {"POST", "/v2/batch/scrape", {{"urls", {page}}}},
      {"POST", "/v1/batch/scrape", {{"urls", {page}}}},
      {"GET", "/v2/batch/scrape/" + id, nullptr},
      {"GET", "/v1/batch/scrape/" + id, nullptr},
      {"DELETE", "/v1/batch/scrape/" + id, nullptr},
      {"DELETE", "/v2/batch/scrape/" + id, nullptr},
      {"GET", "/v2/batch/scrape/" + id + "/errors", nullptr},
      {"POST", "/v2/crawl", {{"url", page}}},
      {"POST", "/v1/crawl", {{"url", page}}},
      {"GET", "/v2/crawl/" + id, nullptr},
      {"GET", "/v1/crawl/" + id, nullptr},
      {"DELETE", "/v2/crawl/" + id, nullptr},
      {"GET", "/v2/crawl/" + id + "/errors", nullptr},
      {"GET", "/v1/crawl/" + id + "/errors", nullptr},
      {"GET", "/v2/crawl/active", nullptr},
      {"GET", "/v1/crawl/active", nullptr},
      {"POST", "/v2/search", {{"query", "conformance"}}},
      {"POST", "/v1/search", {{"query", "conformance"}}},
      {"POST", "/v2/agent", {{"prompt", "conformance"}}},
  };
}

ApiResponse send(const Endpoint& e, webdata::Headers headers) {
  Call c;
  c.method = e.method;
  c.path = e.path;
  if (!e.body.is_null()) c.body = e.body;
  c.auth = Auth::kNone;
  c.headers = std::move(headers);
  return call(c);
}

// An answer that is not an error (a 200 where a refusal was due) is the failure of the rule the
// case judges; ENV-ERROR-BODY judges error answers only.
void check_error_body(const ApiResponse& res) {
  if (res.status < 400) return;
  RULE(rules::kErrorBody);
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  CHECK_SCHEMA("common/error", res.body_json);
  REQUIRE(res.body_json.is_object());
  CHECK(res.body_json.value("success", true) == false);
  CHECK(res.body_json.value("error", json()).is_string());
}

// The issues of a 400 answer's `details` with one of `codes`, nested ones included.
std::vector<FoundIssue> issues_with_code(const ApiResponse& res,
                                         const std::vector<std::string>& codes) {
  if (!res.is_json() || !res.body_json.contains("details")) return {};
  return find_issues(res.body_json.at("details"), codes);
}

// Whether one of `issues` lies at (or inside an issue at) the field `key`.
bool any_at(const std::vector<FoundIssue>& issues, const std::string& key) {
  return std::any_of(issues.begin(), issues.end(),
                     [&](const FoundIssue& issue) { return issue.at(key); });
}

}  // namespace

TEST_CASE("every endpoint answers 401 without a valid key",
          "[auth]"
          "[AUTH-401][ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA]") {
  RULE(rules::kAuth401);
  REQUIRE_CAPABILITY("auth");
  for (const auto& e : all_endpoints()) {
    INFO(e.method << " " << e.path);
    const bool search = e.path.find("/search") != std::string::npos;
    const bool agent = e.path.find("/agent") != std::string::npos;
    if ((search && !capability("search").available()) ||
        (agent && !capability("agent").available())) {
      WARN("not checked (capability missing): " << e.method << " " << e.path);
      continue;
    }
    const auto missing = send(e, {});
    INFO("no Authorization header: " << missing.describe());
    CHECK(missing.status == 401);
    check_error_body(missing);
    const auto wrong = send(e, {{"Authorization", "Bearer conformance-unknown-key"}});
    INFO("unknown key: " << wrong.describe());
    CHECK(wrong.status == 401);
    const auto scheme = send(e, {{"Authorization", "Basic " + target().api_key}});
    INFO("Basic scheme: " << scheme.describe());
    CHECK(scheme.status == 401);
  }
}

TEST_CASE("401 answers say why the key was refused",
          "[auth]"
          "[AUTH-MESSAGES]") {
  RULE(rules::kAuthMessages);
  REQUIRE_CAPABILITY("auth");
  const Endpoint e{"GET", "/v2/crawl/active", nullptr};
  const auto missing = send(e, {});
  CHECK(missing.status == 401);
  CHECK(missing.body_json.value("success", true) == false);
  CHECK(missing.body_json.value("error", "") == "Unauthorized");
  const auto no_token = send(e, {{"Authorization", "Bearer "}});
  CHECK(no_token.status == 401);
  CHECK(no_token.body_json.value("error", "") == "Unauthorized: Token missing");
  const auto unknown = send(e, {{"Authorization", "Bearer conformance-unknown-key"}});
  CHECK(unknown.status == 401);
  CHECK(unknown.body_json.value("error", "") == "Unauthorized: Invalid token");
}

TEST_CASE("SDK: a wrong key is an HTTP 401 error",
          "[auth][sdk]"
          "[AUTH-401]") {
  RULE(rules::kAuth401);
  REQUIRE_CAPABILITY("auth");
  webdata::ClientOptions o;
  o.api_url = target().base_url;
  o.api_key = "conformance-unknown-key";
  o.retry = webdata::RetryPolicy::none();
  const webdata::Client client(o);
  webdata::ScrapeRequest req;
  req.url = site_url("/docs/a.html");
  const auto doc = client.scrape(req);
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.error().kind == webdata::ErrorKind::kHttp);
  CHECK(doc.error().http_status == 401);
}

TEST_CASE("malformed JSON answers 400 BAD_REQUEST_INVALID_JSON before auth",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-JSON]") {
  RULE(rules::kMalformedJson);
  for (const char* path : {"/v2/scrape", "/v1/scrape", "/v2/crawl", "/v2/batch/scrape"}) {
    INFO(path);
    Call c;
    c.method = "POST";
    c.path = path;
    c.raw_body = R"({"url": "http://x.example/",)";
    const auto with_key = call(c);
    INFO(with_key.describe());
    CHECK(with_key.status == 400);
    CHECK(with_key.body_json.value("code", "") == "BAD_REQUEST_INVALID_JSON");
    check_error_body(with_key);
    c.auth = Auth::kNone;
    const auto without_key = call(c);
    INFO("without a key: " << without_key.describe());
    CHECK(without_key.status == 400);
  }
}

TEST_CASE("an unknown field answers 400 with unrecognized_keys",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-STRICT]") {
  RULE(rules::kUnknownField);
  const std::string page = site_url("/docs/a.html");
  const std::vector<std::pair<std::string, json>> cases = {
      {"/v2/scrape", {{"url", page}, {"conformanceBogus", 1}}},
      {"/v1/scrape", {{"url", page}, {"conformanceBogus", 1}}},
      {"/v2/batch/scrape", {{"urls", {page}}, {"conformanceBogus", 1}}},
      {"/v2/crawl", {{"url", page}, {"conformanceBogus", 1}}},
      {"/v1/crawl", {{"url", page}, {"conformanceBogus", 1}}},
  };
  for (const auto& [path, body] : cases) {
    INFO(path);
    const auto res = post(path, body);
    INFO(res.describe());
    CHECK(res.status == 400);
    CHECK(res.body_json.value("code", "") == "BAD_REQUEST");
    check_error_body(res);
    const auto issues = issues_with_code(res, {"unrecognized_keys"});
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].issue.value("keys", json::array()).dump().find("conformanceBogus") !=
          std::string::npos);
  }
}

TEST_CASE("a wrong type answers 400 with invalid_type at the field's path",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-TYPE]") {
  RULE(rules::kWrongType);
  const auto res = post("/v2/scrape", {{"url", site_url("/")}, {"formats", {"markdown", 7}}});
  INFO(res.describe());
  CHECK(res.status == 400);
  check_error_body(res);
  // formats is a union of format names and format objects: a deployment may report the wrong
  // element as invalid_union with the invalid_type issue of each member inside.
  CHECK(any_at(issues_with_code(res, {"invalid_type"}), "formats"));

  const auto crawl = post("/v2/crawl", {{"url", site_url("/")}, {"limit", "ten"}});
  INFO(crawl.describe());
  CHECK(crawl.status == 400);
  CHECK(any_at(issues_with_code(crawl, {"invalid_type"}), "limit"));
}

TEST_CASE("scrape timeout above 300000 ms answers 400 too_big",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-RANGE]") {
  RULE(rules::kOutOfRange);
  const auto res = post("/v2/scrape", {{"url", site_url("/")}, {"timeout", 300001}});
  INFO(res.describe());
  CHECK(res.status == 400);
  check_error_body(res);
  CHECK(any_at(issues_with_code(res, {"too_big"}), "timeout"));
  const auto batch = post("/v2/batch/scrape", {{"urls", {site_url("/")}}, {"timeout", 300001}});
  INFO(batch.describe());
  CHECK(batch.status == 400);
}

TEST_CASE("an unknown proxy answers 400 with an enum issue",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-ENUM]") {
  RULE(rules::kBadEnum);
  const auto res = post("/v2/scrape", {{"url", site_url("/")}, {"proxy", "teleport"}});
  INFO(res.describe());
  CHECK(res.status == 400);
  check_error_body(res);
  // zod 3 says invalid_enum_value, zod 4 invalid_value.
  CHECK(any_at(issues_with_code(res, {"invalid_enum_value", "invalid_value"}), "proxy"));
}

TEST_CASE("a url that is not a URL or no url answers 400",
          "[validation]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][VAL-REQUIRED][VAL-URL]") {
  {
    RULE(rules::kBadUrl);
    for (const char* path : {"/v2/scrape", "/v1/scrape", "/v2/crawl"}) {
      const auto res = post(path, {{"url", "not a url"}});
      INFO(path << " " << res.describe());
      CHECK(res.status == 400);
      check_error_body(res);
    }
  }
  RULE(rules::kMissingField);
  for (const char* path : {"/v2/scrape", "/v2/crawl", "/v2/batch/scrape"}) {
    const auto res = post(path, json::object());
    INFO(path << " " << res.describe());
    CHECK(res.status == 400);
    check_error_body(res);
  }
}

TEST_CASE("every endpoint accepts origin and knows the integration field",
          "[validation]"
          "[VAL-ORIGIN]") {
  RULE(rules::kOriginAccepted);
  const std::string page = site_url("/docs/a.html");
  for (const std::string version : {"v2", "v1"}) {
    const auto res = post("/" + version + "/scrape", {{"url", page}, {"origin", "conformance"}});
    INFO(version << " with origin: " << res.describe());
    CHECK(res.status == 200);
  }
  // Deployments may accept only the integrations they know: a 400 about the value is allowed,
  // one that does not know the field (unrecognized_keys) is not.
  const auto res = post("/v2/scrape", {{"url", page}, {"integration", "webdata-conformance"}});
  INFO("with integration: " << res.describe());
  if (res.status != 200) {
    CHECK(res.status == 400);
    CHECK(issues_with_code(res, {"unrecognized_keys"}).empty());
    const auto about = find_issues(res.body_json.value("details", json::array()),
                                   {"invalid_enum_value", "invalid_value", "invalid_union",
                                    "invalid_type", "invalid_string", "custom"});
    CHECK(any_at(about, "integration"));
  }
}

TEST_CASE("SDK: a validation error carries status and error code with details",
          "[validation][sdk]"
          "[VAL-RANGE]") {
  RULE(rules::kOutOfRange);
  webdata::ScrapeRequest req;
  req.url = site_url("/");
  req.timeout = std::chrono::milliseconds(300001);
  const auto doc = sdk().scrape(req);
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.error().http_status == 400);
  CHECK(doc.error().code == "BAD_REQUEST");
  CHECK(doc.error().details.find("too_big") != std::string::npos);
}

TEST_CASE("unknown job ids answer 404 Job not found",
          "[jobs]"
          "[ENV-CONTENT-TYPE][ENV-ERROR-BODY][ENV-SCHEMA][JOB-UNKNOWN-ID]") {
  RULE(rules::kUnknownJob);
  const std::string id = "00000000-0000-4000-8000-" + unique_token().substr(0, 12);
  for (const std::string path :
       {"/v2/crawl/", "/v1/crawl/", "/v2/batch/scrape/", "/v1/batch/scrape/"}) {
    const auto res = get(path + id);
    INFO(path << id << " " << res.describe());
    CHECK(res.status == 404);
    CHECK(res.body_json.value("error", "") == "Job not found");
    check_error_body(res);
  }
  const auto sdk_status = sdk().crawl_status(id);
  REQUIRE_FALSE(sdk_status.ok());
  CHECK(sdk_status.error().http_status == 404);
}
