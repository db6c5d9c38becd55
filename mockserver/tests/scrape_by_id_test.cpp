// GET /v1|v2/scrape/{id}: a past scrape read back by its metadata.scrapeId, over real HTTP, with
// the service's answers for unknown, malformed and other teams' ids, zero data retention and
// retention; and the bounds of the store behind it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "scrape/scrape_store.hpp"
#include "stub_mapping.hpp"

using webdata::mock::scrape::ScrapeStore;
using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

webdata::mock::Config two_teams() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.teams = {{"alpha", {"key-a"}}, {"beta", {"key-b"}}};
  config.teams[0].zero_data_retention = true;  // alpha may ask for zeroDataRetention
  return config;
}

struct ByIdFixture {
  RunningMock mock{two_teams()};
  ApiClient alpha{mock.url(), "key-a"};
  ApiClient beta{mock.url(), "key-b"};
  ByIdFixture() {
    for (const char* path : {"/one", "/two", "/three"}) {
      const std::string body = std::string("<html><head><title>Page ") + path +
                               "</title></head><body><h1>Heading " + path +
                               "</h1><p>Text of the page.</p></body></html>";
      REQUIRE(alpha.post("/__admin/mappings", page_stub("pages.test", path, body)).status == 201);
    }
  }
  /// POST /{version}/scrape of `path`; the answer's data.
  json scrape(const std::string& version, const std::string& path, json extra = json::object()) {
    extra["url"] = "http://pages.test" + path;
    const auto r = alpha.post("/" + version + "/scrape", extra);
    REQUIRE(r.status == 200);
    return r.body["data"];
  }
  static std::string id_of(const json& document) {
    return document["metadata"]["scrapeId"].get<std::string>();
  }
};

}  // namespace

TEST_CASE_METHOD(ByIdFixture, "a past scrape reads back by its scrapeId, v1 and v2",
                 "[scrape][by-id]") {
  const json v2 = scrape("v2", "/one", {{"formats", {"markdown", "links"}}});
  const auto read = alpha.get("/v2/scrape/" + id_of(v2));
  REQUIRE(read.status == 200);
  CHECK(read.body["success"] == true);
  CHECK(read.body["data"] == v2);  // the same document, formats and metadata alike
  CHECK(read.body["data"]["markdown"].get<std::string>().find("Heading /one") !=
        std::string::npos);

  const json v1 = scrape("v1", "/two", {{"formats", {"markdown", "html"}}});
  const auto read_v1 = alpha.get("/v1/scrape/" + id_of(v1));
  REQUIRE(read_v1.status == 200);
  CHECK(read_v1.body["success"] == true);
  CHECK(read_v1.body["data"] == v1);

  // Either version reads a scrape made through the other, in the shape it was made in.
  CHECK(alpha.get("/v1/scrape/" + id_of(v2)).body["data"] == v2);
  CHECK(alpha.get("/v2/scrape/" + id_of(v1)).body["data"] == v1);
  // A UUID matches whatever the case of its hex digits.
  std::string upper = id_of(v2);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  CHECK(alpha.get("/v2/scrape/" + upper).status == 200);
}

TEST_CASE_METHOD(ByIdFixture, "scrape by id: unknown, malformed and another team's ids",
                 "[scrape][by-id]") {
  for (const std::string version : {"v1", "v2"}) {
    const auto unknown = alpha.get("/" + version + "/scrape/00000000-0000-4000-8000-000000000000");
    CHECK(unknown.status == 404);
    CHECK(unknown.body == json({{"success", false}, {"error", "Job not found."}}));

    const auto malformed = alpha.get("/" + version + "/scrape/not-a-uuid");
    CHECK(malformed.status == 400);
    CHECK(malformed.body["error"] == "Invalid job ID format. Job ID must be a valid UUID.");

    const json doc = scrape(version, "/one");
    const auto other = beta.get("/" + version + "/scrape/" + id_of(doc));
    CHECK(other.status == 403);
    CHECK(other.body == json({{"success", false},
                              {"error", "You are not allowed to access this resource."}}));
    CHECK(ApiClient(mock.url(), "no-such-key").get("/" + version + "/scrape/" + id_of(doc)).status ==
          401);
  }
}

TEST_CASE_METHOD(ByIdFixture, "a zero data retention scrape keeps nothing to read back",
                 "[scrape][by-id]") {
  const json v2 = scrape("v2", "/one", {{"zeroDataRetention", true}});
  const auto read = alpha.get("/v2/scrape/" + id_of(v2));
  CHECK(read.status == 404);
  CHECK(read.body["error"] == "Job not found.");
  const json v1 = scrape("v1", "/two", {{"zeroDataRetention", true}});
  CHECK(alpha.get("/v1/scrape/" + id_of(v1)).status == 404);
  // The same page without it is kept.
  CHECK(alpha.get("/v2/scrape/" + id_of(scrape("v2", "/one"))).status == 200);
}

TEST_CASE_METHOD(ByIdFixture, "a past scrape expires 24 hours after it was made",
                 "[scrape][by-id][retention]") {
  const std::string id = id_of(scrape("v2", "/one"));
  REQUIRE(alpha.post("/__admin/clock/advance", {{"milliseconds", 24LL * 3600 * 1000 - 1000}})
              .status == 200);
  CHECK(alpha.get("/v2/scrape/" + id).status == 200);
  const std::string later = id_of(scrape("v2", "/two"));  // made 1 s before the first expires
  REQUIRE(alpha.post("/__admin/clock/advance", {{"milliseconds", 1000}}).status == 200);
  const auto expired = alpha.get("/v2/scrape/" + id);
  CHECK(expired.status == 404);
  CHECK(expired.body["error"] == "Job not found.");
  CHECK(alpha.get("/v2/scrape/" + later).status == 200);
  // The admin reset forgets every past scrape.
  REQUIRE(alpha.post("/__admin/reset", json::object()).status == 200);
  CHECK(alpha.get("/v2/scrape/" + later).status == 404);
}

TEST_CASE_METHOD(ByIdFixture, "the pages of a batch scrape read back by their scrapeIds",
                 "[scrape][by-id][jobs]") {
  const json urls = {"http://pages.test/one", "http://pages.test/two"};
  const auto kept = alpha.post("/v2/batch/scrape", {{"urls", urls}});
  const auto zdr = alpha.post("/v1/batch/scrape", {{"urls", urls}, {"zeroDataRetention", true}});
  REQUIRE(kept.status == 200);
  REQUIRE(zdr.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));

  const auto status = alpha.get("/v2/batch/scrape/" + kept.body["id"].get<std::string>());
  REQUIRE(status.body["status"] == "completed");
  REQUIRE(status.body["data"].size() == 2);
  for (const auto& document : status.body["data"]) {
    const auto read = alpha.get("/v2/scrape/" + id_of(document));
    REQUIRE(read.status == 200);
    CHECK(read.body["data"] == document);
    CHECK(beta.get("/v2/scrape/" + id_of(document)).status == 403);
  }
  const auto zdr_status = alpha.get("/v1/batch/scrape/" + zdr.body["id"].get<std::string>());
  REQUIRE(zdr_status.body["data"].size() == 2);
  for (const auto& document : zdr_status.body["data"]) {
    CHECK(alpha.get("/v1/scrape/" + id_of(document)).status == 404);
  }
}

TEST_CASE("the scrape store is bounded by entries, bytes and retention", "[scrape][by-id]") {
  using std::chrono::hours;
  using std::chrono::seconds;
  const auto t0 = std::chrono::system_clock::time_point{} + hours(1000);
  const auto doc = [](std::size_t n) { return std::make_shared<const std::string>(n, 'x'); };

  SECTION("entries: the oldest go first") {
    ScrapeStore store(ScrapeStore::Limits{3, 1u << 20, hours(24)});
    for (int i = 0; i < 5; ++i) store.add("id-" + std::to_string(i), "t", doc(10), t0);
    CHECK(store.size() == 3);
    CHECK(store.find("id-1", "t", t0).found == ScrapeStore::Found::not_found);
    CHECK(store.find("id-2", "t", t0).found == ScrapeStore::Found::yes);
    CHECK(store.find("id-4", "t", t0).found == ScrapeStore::Found::yes);
  }
  SECTION("bytes: the oldest go first; a document over the limit alone is not kept") {
    ScrapeStore store(ScrapeStore::Limits{100, 100, hours(24)});
    store.add("a", "t", doc(40), t0);
    store.add("b", "t", doc(40), t0);
    store.add("c", "t", doc(40), t0);
    CHECK(store.size() == 2);
    CHECK(store.bytes() == 80);
    CHECK(store.find("a", "t", t0).found == ScrapeStore::Found::not_found);
    store.add("huge", "t", doc(101), t0);
    CHECK(store.find("huge", "t", t0).found == ScrapeStore::Found::not_found);
    CHECK(store.size() == 2);
  }
  SECTION("retention: expired entries leave on the next add or find") {
    ScrapeStore store(ScrapeStore::Limits{100, 1000, hours(24)});
    store.add("old", "t", doc(10), t0);
    store.add("new", "t", doc(10), t0 + hours(12));
    CHECK(store.find("old", "t", t0 + hours(24) - seconds(1)).found == ScrapeStore::Found::yes);
    CHECK(store.find("old", "t", t0 + hours(24)).found == ScrapeStore::Found::not_found);
    CHECK(store.size() == 1);
    CHECK(store.bytes() == 10);
    CHECK(store.find("new", "other", t0 + hours(24)).found == ScrapeStore::Found::other_team);
  }
}

TEST_CASE_METHOD(ByIdFixture, "the scraped results of a search read back by their scrapeIds",
                 "[scrape][by-id][search]") {
  const auto found = alpha.post("/v2/search", {{"query", "river site:news.example.test"},
                                               {"scrapeOptions", {{"formats", {"markdown"}}}}});
  REQUIRE(found.status == 200);
  const json& web = found.body["data"]["web"];
  REQUIRE_FALSE(web.empty());
  for (const auto& item : web) {
    const auto read = alpha.get("/v2/scrape/" + item["metadata"]["scrapeId"].get<std::string>());
    REQUIRE(read.status == 200);
    CHECK(read.body["data"]["markdown"] == item["markdown"]);
    CHECK(read.body["data"]["metadata"]["sourceURL"] == item["url"]);
  }
}
