// Extract (docs/reference/extract.md): a job over pages of the runner's test site, followed to
// its end; the status against its schema, `data` against the request's own schema. The job needs
// a language model: without one (capability `model`) its rules are skipped with the deployment's
// words, and only the schemas of its answers are judged.

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "route_checks.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

const json kTitleSchema = {
    {"type", "object"}, {"properties", {{"title", {{"type", "string"}}}}}, {"required", {"title"}}};

/// How `value` breaks `schema` (the caller's JSON Schema), one issue a line; empty when it fits.
std::string caller_schema_problems(const json& schema, const json& value) {
  valijson::Schema compiled;
  valijson::SchemaParser parser;
  parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(schema), compiled);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  if (validator.validate(compiled, valijson::adapters::NlohmannJsonAdapter(value), &results)) {
    return "";
  }
  std::string out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string where;
    for (const auto& part : error.context) where += part;
    out += where + ": " + error.description + "\n";
  }
  return out.empty() ? "does not validate" : out;
}

// An extract job may make no visible progress for a while (a model at work): wait longer.
WaitBounds extract_bounds() {
  WaitBounds b;
  b.idle = 180s;
  b.overall = 10min;
  return b;
}

// A finished extract: completed, with success; creditsUsed, when given, a count (deployments
// leave it out).
void check_completed(const json& last) {
  REQUIRE(last.value("status", "") == "completed");
  CHECK(last.value("success", false));
  if (last.contains("creditsUsed")) {
    CHECK(last.at("creditsUsed").is_number_integer());
    CHECK(last.value("creditsUsed", -1) >= 0);
  }
}

// An extract on a deployment without a language model cannot succeed, and its rules are skipped;
// what it answers is still JSON of its schema (rules ENV-CONTENT-TYPE, ENV-SCHEMA).
void check_answers_only(const std::string& version, const ApiResponse& started) {
  CHECK_JSON_ANSWER(started);
  CHECK_ANSWER_SCHEMA(started, version + "/extract.response");
  if (started.status != 200 || !started.body_json.is_object()) return;
  const std::string id = started.body_json.value("id", "");
  if (id.empty()) return;
  wait_job("/" + version + "/extract", id, nullptr, extract_bounds(), [&version](const json& body) {
    CHECK_SCHEMA(version + "/extract-status.response", body);
  });
}

}  // namespace

TEST_CASE("v2 extract: started and polled to its end with status and data against their schemas",
          "[extract]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][EXTRACT-DATA][EXTRACT-START][EXTRACT-STATUS]") {
  CHECKS_RULES(&rules::kExtractStart, &rules::kExtractStatus, &rules::kExtractData);
  REQUIRE_CAPABILITY("extract");
  const bool model =
      part_needs("model", {&rules::kExtractStart, &rules::kExtractStatus, &rules::kExtractData});
  const auto started = post("/v2/extract", {{"urls", {site_url("/docs/a.html")}},
                                            {"prompt", "The page title"},
                                            {"schema", kTitleSchema}});
  INFO(started.describe());
  if (!model) return check_answers_only("v2", started);
  std::string id;
  {
    RULE(rules::kExtractStart);
    CHECK_JSON_ANSWER(started);
    REQUIRE(started.status == 200);
    CHECK_SCHEMA("v2/extract.response", started.body_json);
    CHECK(started.body_json.value("success", false));
    id = started.body_json.value("id", "");
    REQUIRE_FALSE(id.empty());
  }
  std::vector<std::string> seen;
  const json last = wait_job("/v2/extract", id, &seen, extract_bounds(), [](const json& body) {
    RULE(rules::kExtractStatus);
    CHECK_SCHEMA("v2/extract-status.response", body);
  });
  INFO("last status: " << last.dump().substr(0, 2000));
  {
    RULE(rules::kExtractStatus);
    for (const auto& s : seen) {
      CHECK((s == "processing" || s == "completed" || s == "failed" || s == "cancelled"));
    }
    check_completed(last);
  }
  RULE(rules::kExtractData);
  CHECK(caller_schema_problems(kTitleSchema, last.value("data", json())) == "");
  CHECK(last.at("data").value("title", "").find("Page A") != std::string::npos);
}

TEST_CASE("v1 extract: the same job shape",
          "[extract][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][EXTRACT-DATA][EXTRACT-START][EXTRACT-STATUS]") {
  CHECKS_RULES(&rules::kExtractStart, &rules::kExtractStatus, &rules::kExtractData);
  REQUIRE_CAPABILITY("extract");
  const bool model =
      part_needs("model", {&rules::kExtractStart, &rules::kExtractStatus, &rules::kExtractData});
  const auto started = post("/v1/extract", {{"urls", {site_url("/docs/b.html")}},
                                            {"prompt", "The page title"},
                                            {"schema", kTitleSchema}});
  INFO(started.describe());
  if (!model) return check_answers_only("v1", started);
  std::string id;
  {
    RULE(rules::kExtractStart);
    REQUIRE(started.status == 200);
    CHECK_SCHEMA("v1/extract.response", started.body_json);
    id = started.body_json.value("id", "");
    REQUIRE_FALSE(id.empty());
  }
  const json last = wait_job("/v1/extract", id, nullptr, extract_bounds(), [](const json& body) {
    RULE(rules::kExtractStatus);
    CHECK_SCHEMA("v1/extract-status.response", body);
  });
  INFO("last status: " << last.dump().substr(0, 2000));
  {
    RULE(rules::kExtractStatus);
    check_completed(last);
  }
  RULE(rules::kExtractData);
  CHECK(caller_schema_problems(kTitleSchema, last.value("data", json())) == "");
}

TEST_CASE("extract: unknown ids answer 404 and urls of the wrong type 400",
          "[extract][validation]"
          "[ENV-CONTENT-TYPE][EXTRACT-INVALID][EXTRACT-UNKNOWN-ID]") {
  CHECKS_RULES(&rules::kExtractUnknown, &rules::kExtractInvalid);
  REQUIRE_CAPABILITY("extract");
  {
    RULE(rules::kExtractUnknown);
    for (const char* path : {"/v2/extract/", "/v1/extract/"}) {
      const auto res = get(std::string(path) + kNoSuchId);
      INFO(path << ": " << res.describe());
      CHECK_JSON_ANSWER(res);
      CHECK(res.status == 404);
      CHECK(res.body_json.value("success", true) == false);
    }
  }
  RULE(rules::kExtractInvalid);
  const auto res = post("/v2/extract", {{"urls", "not a list"}, {"prompt", "anything"}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 400);
  CHECK(res.body_json.value("success", true) == false);
  REQUIRE(res.body_json.value("details", json()).is_array());
  CHECK(details_name(res.body_json, "urls"));
}
