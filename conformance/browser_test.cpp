// Browser sessions (docs/reference/browser.md): a session's start, list, execute and end shapes,
// a refused body, an unknown id. Deployments without the routes skip with the precheck's reason
// (capability browser).

#include "route_checks.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

/// A 200 JSON answer matching `schema`.
void check_answer(const std::string& what, const ApiResponse& res, const std::string& schema) {
  INFO(what << ": " << res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA(schema, res.body_json);
  CHECK(res.body_json.value("success", false));
}

/// The session `id` in GET /v2/browser, with status `status`.
void check_listed(const std::string& id, const std::string& status) {
  const auto list = get("/v2/browser");
  check_answer("GET /v2/browser", list, "v2/browser-list.response");
  std::string seen;
  for (const auto& s : list.body_json.value("sessions", json::array())) {
    if (s.is_object() && s.value("id", "") == id) seen = s.value("status", "");
  }
  INFO("session " << id);
  CHECK(seen == status);
}

}  // namespace

TEST_CASE("browser: a session starts and is listed and runs code until it ends",
          "[browser]"
          "[BROWSER-SHAPE][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kBrowserShape);
  REQUIRE_CAPABILITY("browser");
  RULE(rules::kBrowserShape);
  const auto started = post("/v2/browser", {{"ttl", 60}});
  check_answer("POST /v2/browser", started, "v2/browser.response");
  const std::string id = started.body_json.value("id", "");
  REQUIRE_FALSE(id.empty());
  check_listed(id, "active");
  const std::string path = "/v2/browser/" + id;
  const auto ran = post(path + "/execute", {{"code", "open " + site_url("/docs/a.html") +
                                                         "\nget title"},
                                            {"language", "bash"}});
  check_answer("POST " + path + "/execute", ran, "v2/browser-execute.response");
  CHECK(ran.body_json.value("exitCode", -1) == 0);
  CHECK(ran.body_json.value("result", "").find("Page A") != std::string::npos);
  const auto ended = del(path);
  check_answer("DELETE " + path, ended, "v2/browser-delete.response");
  CHECK(ended.body_json.value("status", "") == "destroyed");
  check_listed(id, "destroyed");
}

TEST_CASE("browser: a bad body answers 400 with details and an unknown id 404",
          "[browser][validation]"
          "[BROWSER-ERRORS][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  CHECKS_RULES(&rules::kBrowserErrors);
  REQUIRE_CAPABILITY("browser");
  RULE(rules::kBrowserErrors);
  check_refused(post("/v2/browser", {{"ttl", "long"}}), "ttl");
  const std::string unknown = std::string("/v2/browser/") + kNoSuchId;
  check_not_found("POST " + unknown + "/execute",
                  post(unknown + "/execute", {{"code", "get title"}, {"language", "bash"}}));
  check_not_found("DELETE " + unknown, del(unknown));
}
