// The API front door over real HTTP: authentication, JSON parsing, schema validation,
// idempotency keys, credits, the admin surface and API stubs.
#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using webdata::testing::page_stub;

namespace {

const json kMinimalScrape = {{"url", "http://nowhere.invalid/"}};

}  // namespace

TEST_CASE("authentication follows wire-decisions section 2", "[api][auth]") {
  RunningMock mock;
  const ApiClient api(mock.url(), "");

  SECTION("no Authorization header") {
    const auto r = api.post("/v2/scrape", kMinimalScrape);
    CHECK(r.status == 401);
    CHECK(r.body["success"] == false);
    CHECK(r.body["error"] == "Unauthorized");
  }
  SECTION("a header without a token") {
    const auto r = api.post("/v2/scrape", kMinimalScrape, {{"Authorization", "Bearer "}});
    CHECK(r.status == 401);
    CHECK(r.body["error"] == "Unauthorized: Token missing");
  }
  SECTION("an unknown key") {
    const auto r = api.post("/v1/scrape", kMinimalScrape, {{"Authorization", "Bearer nope"}});
    CHECK(r.status == 401);
    CHECK(r.body["error"] == "Unauthorized: Invalid token");
  }
  SECTION("the default key passes authentication") {
    const auto r = api.post("/v2/scrape", json{{"bogus", 1}}, {{"Authorization", "Bearer test-key"}});
    CHECK(r.status == 400);  // past auth, stopped by validation
  }
}

TEST_CASE("malformed JSON is refused before authentication", "[api][validation]") {
  RunningMock mock;
  const ApiClient api(mock.url(), "");
  const auto r = api.post_text("/v2/scrape", "{\"url\": ");
  CHECK(r.status == 400);
  CHECK(r.body["code"] == "BAD_REQUEST_INVALID_JSON");
  CHECK(r.body["error"] == "Bad request, malformed JSON");
  CHECK(r.header("content-type") == "application/json");
}

TEST_CASE("schema violations answer 400 with field-level details", "[api][validation]") {
  RunningMock mock;
  const ApiClient api(mock.url());

  SECTION("unknown field") {
    const auto r = api.post("/v2/scrape", {{"url", "https://a.test/"}, {"bogus", true}});
    REQUIRE(r.status == 400);
    CHECK(r.body["code"] == "BAD_REQUEST");
    REQUIRE(r.body["details"].is_array());
    const auto& issue = r.body["details"][0];
    CHECK(issue["code"] == "unrecognized_keys");
    CHECK(issue["keys"] == json::array({"bogus"}));
    CHECK(r.body["error"] == "Bad Request");
    CHECK(r.body["hint"].get<std::string>().find("bogus") != std::string::npos);
    CHECK(r.body["details"][0]["message"] ==
          "Unrecognized key in body -- please review the v2 API documentation for request body "
          "changes");
  }
  SECTION("wrong type names the path") {
    const auto r = api.post("/v2/scrape", {{"url", "https://a.test/"}, {"timeout", "soon"}});
    REQUIRE(r.status == 400);
    const auto& issue = r.body["details"][0];
    CHECK(issue["code"] == "invalid_type");
    CHECK(issue["path"] == json::array({"timeout"}));
    CHECK(issue["expected"].is_string());
  }
  SECTION("a number above its maximum") {
    const auto r = api.post("/v2/scrape", {{"url", "https://a.test/"}, {"timeout", 300001}});
    REQUIRE(r.status == 400);
    CHECK(r.body["details"][0]["code"] == "too_big");
  }
  SECTION("an unknown enum value") {
    const auto r = api.post("/v2/scrape", {{"url", "https://a.test/"}, {"proxy", "stealthy"}});
    REQUIRE(r.status == 400);
    CHECK(r.body["details"][0]["code"] == "invalid_enum_value");
  }
  SECTION("missing url") {
    const auto r = api.post("/v1/scrape", json::object());
    REQUIRE(r.status == 400);
    CHECK(r.body["details"][0]["path"] == json::array({"url"}));
  }
  SECTION("a body that is not an object") {
    const auto r = api.post("/v2/scrape", json::array({1, 2}));
    REQUIRE(r.status == 400);
    CHECK(r.body["details"][0]["code"] == "invalid_type");
  }
  SECTION("origin and integration are accepted everywhere") {
    const auto r = api.post("/v2/scrape", {{"url", "http://nowhere.invalid/"},
                                           {"origin", "sdk"}, {"integration", "tests"}});
    CHECK(r.status != 400);
  }
}

TEST_CASE("a body accepted before is not validated again, and still authenticated",
          "[api][validation]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  // Validation (and its defaults) is remembered per schema and exact body; everything else of the
  // request is checked as on the first time.
  const std::string text = R"({"url": "http://nowhere.invalid/", "formats": ["markdown"]})";
  for (int i = 0; i < 3; ++i) {
    const auto r = api.post_text("/v2/scrape", text);
    CHECK(r.status == 500);  // past validation: the fetch fails (DNS)
    CHECK(r.body["code"] == "SCRAPE_DNS_RESOLUTION_ERROR");
  }
  const ApiClient anonymous(mock.url(), "");
  CHECK(anonymous.post_text("/v2/scrape", text, {{"Authorization", "Bearer nope"}}).status == 401);
  // The same text against another schema is validated against that one.
  const auto as_crawl = api.post_text("/v2/crawl", text);
  CHECK(as_crawl.status == 400);
  CHECK(as_crawl.body["code"] == "BAD_REQUEST");
  // A refused body is refused every time, with its details.
  const std::string bad = R"({"url": "http://nowhere.invalid/", "formats": ["nope"]})";
  for (int i = 0; i < 2; ++i) {
    const auto r = api.post_text("/v2/scrape", bad);
    CHECK(r.status == 400);
    CHECK(r.body["details"].is_array());
  }
  // Defaults are applied on a remembered body too: v1's maxAge 0 means never a cache hit.
  REQUIRE(api.post("/__admin/mappings", page_stub("memo.test", "/p", "<p>x</p>")).status == 201);
  const std::string v1 = R"({"url": "http://memo.test/p"})";
  for (int i = 0; i < 2; ++i) {
    const auto r = api.post_text("/v1/scrape", v1);
    REQUIRE(r.status == 200);
    CHECK(r.body["data"]["metadata"]["cacheState"] == "miss");
  }
  CHECK(api.post_text("/v2/scrape", v1).status == 200);
  CHECK(api.post_text("/v2/scrape", v1).body["data"]["metadata"]["cacheState"] == "hit");
}

TEST_CASE("idempotency keys are UUIDs used once per team", "[api][idempotency]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const std::string key = "6f1c9a52-0b7e-4c55-9d0e-1f2a3b4c5d6e";
  const auto first = api.post("/v2/scrape", kMinimalScrape, {{"x-idempotency-key", key}});
  CHECK(first.status != 409);
  const auto again = api.post("/v2/scrape", kMinimalScrape, {{"x-idempotency-key", key}});
  CHECK(again.status == 409);
  CHECK(again.body["error"] == "Idempotency key already used");
  const auto bad = api.post("/v2/scrape", kMinimalScrape, {{"x-idempotency-key", "not-a-uuid"}});
  CHECK(bad.status == 400);
  CHECK(bad.body["details"][0]["path"] == json::array({"x-idempotency-key"}));
  CHECK(bad.body["details"][0]["validation"] == "uuid");

  SECTION("a key is forgotten after 24 hours") {
    ApiClient admin(mock.url());
    CHECK(admin.post("/__admin/clock/advance", {{"milliseconds", 24LL * 3600 * 1000 + 1}}).status ==
          200);
    CHECK(api.post("/v2/scrape", kMinimalScrape, {{"x-idempotency-key", key}}).status != 409);
  }
}

TEST_CASE("the admin API is off unless enabled", "[api][admin]") {
  auto config = RunningMock::quiet_config();
  config.admin = false;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  const auto r = api.get("/__admin/requests");
  CHECK(r.status == 404);
  CHECK(r.body["error"].get<std::string>().find("--admin") != std::string::npos);
}

TEST_CASE("the journal records API requests with credentials masked", "[api][admin]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  api.post("/v2/scrape", {{"url", "https://a.test/"}, {"bogus", 1}});
  const auto journal = api.get("/__admin/requests");
  REQUIRE(journal.status == 200);
  REQUIRE(journal.body["requests"].size() == 1);
  const auto& entry = journal.body["requests"][0];
  CHECK(entry["request"]["method"] == "POST");
  CHECK(entry["request"]["url"] == "/v2/scrape");
  CHECK(entry["response"]["status"] == 400);
  CHECK(entry["request"].dump().find("test-key") == std::string::npos);
  CHECK(api.del("/__admin/requests").status == 200);
  CHECK(api.get("/__admin/requests").body["requests"].empty());
}

TEST_CASE("the journal keeps the last journalLimit requests, newest first, and counts them all",
          "[api][admin]") {
  auto config = RunningMock::quiet_config();
  config.journal_limit = 3;
  RunningMock mock(config);
  const ApiClient api(mock.url());
  // Seven requests through a journal of three: its entries are reused twice over.
  for (int i = 0; i < 7; ++i) api.get("/v2/crawl/" + std::to_string(i));
  const auto journal = api.get("/__admin/requests");
  REQUIRE(journal.status == 200);
  REQUIRE(journal.body["requests"].size() == 3);
  CHECK(journal.body["meta"]["total"] == 7);
  std::set<std::string> ids;
  for (int k = 0; k < 3; ++k) {
    const auto& entry = journal.body["requests"][k];
    CHECK(entry["request"]["url"] == "/v2/crawl/" + std::to_string(6 - k));
    CHECK(entry["request"]["absoluteUrl"].get<std::string>().rfind("http://", 0) == 0);
    CHECK(entry["request"]["headers"]["Authorization"] == "<masked>");
    ids.insert(entry["id"].get<std::string>());
  }
  CHECK(ids.size() == 3);
  CHECK(api.del("/__admin/requests").status == 200);
  api.get("/v2/crawl/again");
  const auto after = api.get("/__admin/requests").body;
  REQUIRE(after["requests"].size() == 1);
  CHECK(after["requests"][0]["request"]["url"] == "/v2/crawl/again");
  CHECK(after["meta"]["total"] == 1);
}

TEST_CASE("credits: a team without credits gets 402", "[api][credits]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status == 200);
  const auto r = api.post("/v2/scrape", {{"url", "http://nowhere.invalid/"}});
  CHECK(r.status == 402);
  CHECK(r.body["success"] == false);
  CHECK(r.body["error"].get<std::string>().find("credit") != std::string::npos);
  CHECK(api.get("/__admin/settings").body["creditBalances"]["team-1"] == 0);
  REQUIRE(api.post("/__admin/reset", json::object()).status == 200);
  CHECK(api.get("/__admin/settings").body["creditBalances"]["team-1"] == 1000000);
}

TEST_CASE("the admin clock goes back to real time and keeps the jobs", "[api][admin]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  auto finished_batch = [&] {
    const auto started = api.post("/v2/batch/scrape", {{"urls", {"https://docs.example.test/"}}});
    REQUIRE(started.status == 200);
    const std::string id = started.body["id"];
    REQUIRE(webdata::testing::eventually(
        [&] { return api.get("/v2/batch/scrape/" + id).body["status"] == "completed"; }));
    return id;
  };
  const std::string kept = finished_batch();
  const std::string read_expired = finished_batch();
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 48LL * 3600 * 1000}}).status == 200);
  CHECK(api.get("/v2/batch/scrape/" + read_expired).status == 404);  // its results are dropped
  const auto back = api.post("/__admin/clock/reset", json::object());
  REQUIRE(back.status == 200);
  CHECK(back.body["offsetMs"] == 0);
  CHECK(api.get("/__admin/clock").body["offsetMs"] == 0);
  const auto again = api.get("/v2/batch/scrape/" + kept);
  CHECK(again.status == 200);  // never read while expired: kept, only the clock moved back
  CHECK(again.body["data"].size() == 1);
  const auto gone = api.get("/v2/batch/scrape/" + read_expired);
  CHECK(gone.status == 404);  // a dropped job stays expired
  CHECK(gone.body["error"] == "Job expired");
}

TEST_CASE("admin settings refuse bad bodies", "[api][admin]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  CHECK(api.post("/__admin/clock/advance", {{"milliseconds", -5}}).status == 400);
  CHECK(api.post("/__admin/clock/advance", {{"seconds", 5}}).status == 400);
  CHECK(api.post("/__admin/settings/credits", {{"team", "nope"}, {"credits", 1}}).status == 404);
  CHECK(api.post_text("/__admin/settings/credits", "{").status == 400);
}

TEST_CASE("API stubs answer before the built-in API", "[api][stubs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const json mapping = {
      {"request", {{"method", "POST"}, {"url", "/v2/scrape"},
                   {"bodyPatterns", json::array({{{"contains", "pinned.test"}}})}}},
      {"response", {{"status", 200},
                    {"headers", {{"Content-Type", "application/json"}}},
                    {"jsonBody", {{"success", true}, {"data", {{"markdown", "# pinned"}}}}}}}};
  const auto created = api.post("/__admin/mappings", mapping);
  REQUIRE(created.status == 201);
  const std::string id = created.body["id"];

  const auto pinned = api.post("/v2/scrape", {{"url", "https://pinned.test/"}});
  CHECK(pinned.status == 200);
  CHECK(pinned.body["data"]["markdown"] == "# pinned");
  // Other requests still reach the built-in API.
  CHECK(api.post("/v2/scrape", {{"bogus", 1}}).status == 400);

  CHECK(api.get("/__admin/mappings/" + id).status == 200);
  CHECK(api.del("/__admin/mappings/" + id).status == 200);
  CHECK(api.get("/__admin/mappings/" + id).status == 404);
  CHECK(api.post("/v2/scrape", {{"url", "https://pinned.test/"}}).body["data"]["markdown"] !=
        "# pinned");
}

TEST_CASE("an API stub can break the connection", "[api][stubs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/mappings",
                   {{"request", {{"method", "GET"}, {"url", "/v2/crawl/active"}}},
                    {"response", {{"fault", "EMPTY_RESPONSE"}}}})
              .status == 201);
  const auto r = api.get("/v2/crawl/active");
  CHECK(r.status == -1);  // the transport saw the connection close without an answer
  // The server is still up.
  CHECK(api.get("/health").status == 200);
}

TEST_CASE("a stub mapping that cannot be loaded is refused with its reason", "[api][stubs]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto r = api.post("/__admin/mappings",
                          {{"request", {{"method", "GET"}, {"urlPath", "/x"}}},
                           {"response", {{"status", 200}, {"transformers", {"response-template"}}}}});
  CHECK(r.status == 422);
  CHECK(r.body["success"] == false);
  CHECK(api.post_text("/__admin/mappings", "nope").status == 400);
}
