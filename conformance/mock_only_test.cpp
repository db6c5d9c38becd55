// [mock-only]: rules that need webdata-mock's /__admin/ surface (docs/mockserver.md): a small chunk
// limit, the clock (retention expiry), credit balances, and API stub faults. Skipped against live
// deployments. This file is linked last: the clock test resets the mock at its end.

#include "support.hpp"

using namespace webdata::conformance;

namespace {

// Restores a mock setting when the test case ends, whatever its outcome.
class SettingGuard {
 public:
  SettingGuard(std::string key, json restore)
      : key_(std::move(key)), restore_(std::move(restore)) {}
  ~SettingGuard() { admin("POST", "/__admin/settings", {{key_, restore_}}); }
  SettingGuard(const SettingGuard&) = delete;
  SettingGuard& operator=(const SettingGuard&) = delete;

 private:
  std::string key_;
  json restore_;
};

long long balance(const std::string& team) {
  const auto res = admin("GET", "/__admin/settings");
  return res.body_json.value("creditBalances", json::object()).value(team, -1LL);
}

}  // namespace

TEST_CASE("small chunk limit: next and skip cover every document once",
          "[mock-only][chunking]"
          "[CHUNK-NEXT-UNIQUE][CHUNK-SIZE][MOCK-CHUNK-BYTES]") {
  RULE(rules::kMockChunkBytes);
  REQUIRE_MOCK();
  const auto before = admin("GET", "/__admin/settings");
  REQUIRE(before.status == 200);
  const SettingGuard guard("chunkBytes", before.body_json.value("chunkBytes", 10485760));
  REQUIRE(admin("POST", "/__admin/settings", {{"chunkBytes", 1000}}).status == 200);

  const auto res = post("/v2/crawl", {{"url", site_url("/")}});
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  const json status = wait_job("/v2/crawl", id);
  REQUIRE(status.value("status", "") == "completed");
  const Chunks chunks = collect_chunks("/v2/crawl/" + id);
  INFO("chunks: " << chunks.responses.size());
  CHECK(chunks.responses.size() >= 3);
  CHECK_FALSE(chunks.looped);
  CHECK_FALSE(chunks.responses.back().body_json.contains("next"));
  std::vector<std::string> urls;
  for (const auto& d : chunks.documents) urls.push_back(source_url(d));
  INFO("documents over all chunks: " << json(urls).dump());
  RULE(rules::kNextUnique);
  CHECK(std::set<std::string>(urls.begin(), urls.end()).size() == urls.size());
  CHECK(static_cast<int>(urls.size()) == chunks.responses.back().body_json.value("completed", -1));
  for (const auto& r : chunks.responses) {
    std::size_t bytes = 0;
    const json data = r.body_json.value("data", json::array());
    for (const auto& d : data) bytes += d.dump().size();
    RULE(rules::kChunkSize);
    CHECK((bytes <= 1000 || data.size() == 1));
  }
  RULE(rules::kNextUnique);
  std::vector<std::string> sdk_urls;
  for (auto& doc : sdk().crawl_job(id).documents()) {
    REQUIRE(doc.ok());
    sdk_urls.push_back(doc->metadata.source_url.value_or(""));
    if (sdk_urls.size() > urls.size() + 20) break;  // a `next` that never ends
  }
  CHECK(sdk_urls == urls);
}

TEST_CASE("a page costs one credit and a team out of credits gets 402",
          "[mock-only][credits]"
          "[CREDITS-BILLING][ENV-SCHEMA]") {
  RULE(rules::kCreditsBilling);
  REQUIRE_MOCK();
  const long long start = balance("team-1");
  REQUIRE(start > 10);
  const auto res = post("/v2/scrape", {{"url", site_url("/docs/a.html?credit=" + unique_token())}});
  REQUIRE(res.status == 200);
  CHECK(balance("team-1") == start - 1);
  REQUIRE(admin("POST", "/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status ==
          200);
  const auto broke =
      post("/v2/scrape", {{"url", site_url("/docs/a.html?credit=" + unique_token())}});
  admin("POST", "/__admin/settings/credits", {{"team", "team-1"}, {"credits", start}});
  INFO(broke.describe());
  CHECK(broke.status == 402);
  CHECK_SCHEMA("common/error", broke.body_json);
}

TEST_CASE("an API stub with a fault breaks the connection and the SDK reports a transport error",
          "[mock-only][faults]"
          "[MOCK-FAULT]") {
  RULE(rules::kMockFault);
  REQUIRE_MOCK();
  const std::string token = unique_token();
  const auto added = admin(
      "POST", "/__admin/mappings",
      {{"request",
        {{"method", "POST"}, {"url", "/v2/scrape"}, {"bodyPatterns", {{{"contains", token}}}}}},
       {"response", {{"fault", "CONNECTION_RESET_BY_PEER"}}}});
  INFO(added.describe());
  REQUIRE(added.status == 201);
  const std::string mapping = added.body_json.value("id", "");
  const auto raw = post("/v2/scrape", {{"url", site_url("/docs/a.html?fault=" + token)}});
  CHECK(raw.status == 0);
  webdata::ClientOptions o;
  o.api_url = target().base_url;
  o.api_key = target().api_key;
  o.retry = webdata::RetryPolicy::none();
  webdata::ScrapeRequest req;
  req.url = site_url("/docs/a.html?fault=" + token);
  const auto doc = webdata::Client(o).scrape(req);
  admin("DELETE", "/__admin/mappings/" + mapping);
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.error().kind == webdata::ErrorKind::kTransport);
  const auto after = post("/v2/scrape", {{"url", site_url("/docs/a.html?fault=" + token)}});
  CHECK(after.status == 200);
}

TEST_CASE("after expiresAt a job answers 404 Job expired",
          "[mock-only][expiry]"
          "[ENV-SCHEMA][RETENTION][RETENTION-EXPIRED]") {
  RULE(rules::kExpired);
  REQUIRE_MOCK();
  const auto res = post("/v2/batch/scrape", {{"urls", {site_url("/docs/a.html")}}});
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  const json status = wait_job("/v2/batch/scrape", id);
  REQUIRE(status.value("status", "") == "completed");
  {
    RULE(rules::kRetention);
    REQUIRE(admin("POST", "/__admin/clock/advance", {{"milliseconds", 23 * 3600 * 1000}}).status ==
            200);
    CHECK(get("/v2/batch/scrape/" + id).status == 200);
  }
  RULE(rules::kExpired);
  REQUIRE(admin("POST", "/__admin/clock/advance", {{"milliseconds", 3600 * 1000 + 60000}}).status ==
          200);
  const auto expired = get("/v2/batch/scrape/" + id);
  // Back to real time without wiping the mock: later cases read the precheck's agent run.
  admin("POST", "/__admin/clock/reset");
  INFO(expired.describe());
  CHECK(expired.status == 404);
  CHECK(expired.body_json.value("error", "") == "Job expired");
  CHECK_SCHEMA("common/error", expired.body_json);
}
