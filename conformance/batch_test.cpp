// Batch scrape (docs/reference/batch-scrape.md, jobs.md): start answers, invalidURLs both ways,
// documents, counters, retention fields, errors endpoint, cancel.

#include <ctime>

#include "support.hpp"

using namespace webdata::conformance;

namespace {

std::optional<std::chrono::system_clock::time_point> parse_iso(const std::string& text) {
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d", &year, &month, &day, &hour, &minute,
                  &second) != 6) {
    return std::nullopt;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

}  // namespace

namespace webdata::conformance {

// Shared with crawl_test.cpp: the counters and retention fields of a finished job's status.
void check_finished_status(const json& status, std::size_t documents) {
  {
    RULE(rules::kJobCounters);
    INFO(status.dump().substr(0, 600));
    REQUIRE(status.is_object());
    const int total = status.value("total", -1);
    const int completed = status.value("completed", -1);
    CHECK(total >= completed);
    CHECK(completed == static_cast<int>(documents));
    RULE(rules::kCredits);
    REQUIRE(status.contains("creditsUsed"));
    CHECK(status.at("creditsUsed").is_number_integer());
    CHECK(status.value("creditsUsed", -1) >= completed);
  }
  RULE(rules::kRetention);
  REQUIRE(status.contains("expiresAt"));
  const auto expires = parse_iso(status.value("expiresAt", ""));
  REQUIRE(expires.has_value());
  const auto now = std::chrono::system_clock::now();
  CHECK(*expires > now + std::chrono::hours(23));
  CHECK(*expires < now + std::chrono::hours(25));
}

}  // namespace webdata::conformance

TEST_CASE("v2 batch: by default invalid URLs are dropped into invalidURLs and the job runs",
          "[batch]"
          "[BATCH-DOCUMENTS][BATCH-START][CREDITS-FIELDS][DEF-IGNORE-INVALID][ENV-CONTENT-TYPE]"
          "[ENV-SCHEMA][JOB-COUNTERS][JOB-STATES][RETENTION]") {
  const std::string good = site_url("/docs/a.html");
  const auto res = post("/v2/batch/scrape", {{"urls", {good, "not a url"}}});
  INFO(res.describe());
  {
    // Refusing the batch is the default's fault, not the start answer's: ignoreInvalidURLs was
    // not sent, and in v2 it defaults to true.
    RULE(rules::kDefaultInvalidUrls);
    REQUIRE(res.status == 200);
  }
  {
    RULE(rules::kBatchStart);
    CHECK_JSON_ANSWER(res);
    CHECK_SCHEMA("v2/batch-scrape.response", res.body_json);
    CHECK(res.body_json.value("success", false));
    CHECK(res.body_json.value("url", "").find(res.body_json.value("id", "?")) != std::string::npos);
  }
  {
    RULE(rules::kDefaultInvalidUrls);
    CHECK(res.body_json.value("invalidURLs", json()) == json::array({"not a url"}));
  }
  const std::string id = res.body_json.value("id", "");
  std::vector<std::string> seen;
  const json status = wait_job("/v2/batch/scrape", id, &seen);
  CHECK_SCHEMA("v2/batch-scrape-status.response", status);
  {
    RULE(rules::kJobStates);
    INFO("states seen: " << json(seen).dump());
    CHECK(status.value("status", "") == "completed");
  }
  const auto chunks = collect_chunks("/v2/batch/scrape/" + id);
  RULE(rules::kBatchDocuments);
  REQUIRE(chunks.documents.size() == 1);
  CHECK(source_url(chunks.documents[0]) == good);
  check_finished_status(chunks.responses.back().body_json, chunks.documents.size());
}

// The explicit option, apart from the default (a deployment whose default differs still has it).
TEST_CASE("batch with ignoreInvalidURLs true drops the invalid URLs and starts the job",
          "[batch][v1]"
          "[BATCH-INVALID-TRUE][ENV-CONTENT-TYPE][ENV-SCHEMA]") {
  RULE(rules::kBatchInvalidTrue);
  const std::string good = site_url("/docs/a.html");
  for (const std::string version : {"v2", "v1"}) {
    const std::string path = "/" + version + "/batch/scrape";
    const auto res = post(path, {{"urls", {good, "not a url"}}, {"ignoreInvalidURLs", true}});
    INFO(version << ": " << res.describe());
    CHECK_JSON_ANSWER(res);
    REQUIRE(res.status == 200);
    CHECK_SCHEMA(version + "/batch-scrape.response", res.body_json);
    CHECK_FALSE(res.body_json.value("id", "").empty());
    CHECK(res.body_json.value("invalidURLs", json()) == json::array({"not a url"}));
    const auto all_valid = post(path, {{"urls", {good}}, {"ignoreInvalidURLs", true}});
    INFO(version << " all valid: " << all_valid.describe());
    REQUIRE(all_valid.status == 200);
    CHECK(all_valid.body_json.value("invalidURLs", json::array()) == json::array());
  }
}

TEST_CASE("batch without ignoreInvalidURLs refuses invalid URLs (v2 false and v1 default)",
          "[batch][v1]"
          "[BATCH-INVALID-FALSE][DEF-IGNORE-INVALID][ENV-SCHEMA]") {
  RULE(rules::kBatchInvalidFalse);
  const std::string good = site_url("/docs/a.html");
  const auto v2 =
      post("/v2/batch/scrape", {{"urls", {good, "not a url"}}, {"ignoreInvalidURLs", false}});
  INFO(v2.describe());
  CHECK(v2.status == 400);
  CHECK_ANSWER_SCHEMA(v2, "v2/batch-scrape.response");
  const auto v2_valid = post("/v2/batch/scrape", {{"urls", {good}}, {"ignoreInvalidURLs", false}});
  INFO(v2_valid.describe());
  CHECK(v2_valid.status == 200);
  CHECK_FALSE(v2_valid.body_json.contains("invalidURLs"));
  {
    RULE(rules::kDefaultInvalidUrls);
    const auto v1 = post("/v1/batch/scrape", {{"urls", {good, "not a url"}}});
    INFO(v1.describe());
    CHECK(v1.status == 400);
    CHECK_ANSWER_SCHEMA(v1, "v1/batch-scrape.response");
    const auto v1_valid = post("/v1/batch/scrape", {{"urls", {good}}});
    INFO(v1_valid.describe());
    CHECK(v1_valid.status == 200);
    CHECK_SCHEMA("v1/batch-scrape.response", v1_valid.body_json);
    CHECK_FALSE(v1_valid.body_json.contains("invalidURLs"));
  }
}

TEST_CASE("batch documents: a target 404 is a document and a failed fetch an error",
          "[batch][errors]"
          "[BATCH-DOCUMENTS][BATCH-START][CREDITS-FIELDS][ENV-CONTENT-TYPE][ENV-SCHEMA]"
          "[ERRORS-SHAPE][JOB-COUNTERS][JOB-STATES][RETENTION][SCRAPE-TARGET-404]") {
  const std::string a = site_url("/docs/a.html");
  const std::string missing = site_url("/missing.html");
  const std::string unreachable = "http://conformance-nonexistent.invalid/page";
  const auto res = post("/v2/batch/scrape", {{"urls", {a, missing, unreachable}}});
  INFO(res.describe());
  {
    RULE(rules::kBatchStart);
    REQUIRE(res.status == 200);
  }
  const std::string id = res.body_json.value("id", "");
  const bool dropped =
      res.body_json.value("invalidURLs", json::array()).dump().find("invalid") != std::string::npos;
  const json status = wait_job("/v2/batch/scrape", id);
  {
    RULE(rules::kJobStates);
    CHECK(status.value("status", "") == "completed");
  }
  const auto chunks = collect_chunks("/v2/batch/scrape/" + id);
  std::map<std::string, int> codes;
  for (const auto& d : chunks.documents) {
    codes[source_url(d)] = d.value("metadata", json::object()).value("statusCode", -1);
  }
  {
    RULE(rules::kBatchDocuments);
    INFO("documents by sourceURL and statusCode: " << json(codes).dump());
    CHECK(codes.size() == chunks.documents.size());
    CHECK(codes[a] == 200);
    RULE(rules::kScrapeTarget404);
    CHECK(codes[missing] == 404);
    CHECK(codes.count(unreachable) == 0);
  }
  check_finished_status(chunks.responses.back().body_json, chunks.documents.size());
  const auto errors = get("/v2/batch/scrape/" + id + "/errors");
  INFO(errors.describe());
  RULE(rules::kErrorsShape);
  CHECK_JSON_ANSWER(errors);
  REQUIRE(errors.status == 200);
  CHECK_SCHEMA("v2/batch-scrape-errors.response", errors.body_json);
  if (dropped) {
    WARN("the target listed " << unreachable << " in invalidURLs; errors endpoint not checked");
    return;
  }
  RULE(rules::kBatchDocuments);
  const json list = errors.body_json.value("errors", json::array());
  bool listed = false;
  for (const auto& e : list) listed = listed || e.value("url", "") == unreachable;
  CHECK(listed);
}

TEST_CASE("SDK: batch scrape start with invalid URLs then wait and errors",
          "[batch][sdk]"
          "[BATCH-DOCUMENTS][DEF-IGNORE-INVALID][ERRORS-SHAPE][JOB-STATES]") {
  webdata::BatchScrapeRequest req;
  req.urls = {site_url("/docs/a.html"), site_url("/docs/b.html"), "not a url"};
  const auto job = sdk().start_batch_scrape(req);
  INFO((job.ok() ? std::string() : job.error().describe()));
  {
    RULE(rules::kDefaultInvalidUrls);
    REQUIRE(job.ok());
  }
  {
    RULE(rules::kDefaultInvalidUrls);
    CHECK(job->started().invalid_urls == std::optional<std::vector<std::string>>({"not a url"}));
  }
  // Waited for while the job makes progress; the SDK's own wait then answers at once.
  wait_job("/v2/batch/scrape", job->id());
  webdata::PollingPolicy policy;
  policy.interval = 200ms;
  const auto done = job->wait(policy);
  INFO((done.ok() ? std::string() : done.error().describe()));
  RULE(rules::kBatchDocuments);
  REQUIRE(done.ok());
  {
    RULE(rules::kJobStates);
    CHECK(done->status == webdata::JobState::completed());
  }
  CHECK(done->data.size() == 2);
  CHECK(done->completed == 2);
  CHECK_FALSE(done->next.has_value());
  const auto errors = job->errors();
  INFO((errors.ok() ? std::string() : errors.error().describe()));
  RULE(rules::kErrorsShape);
  CHECK(errors.ok());
}

TEST_CASE("cancel a running batch (DELETE /v1 and /v2 batch/scrape/{id})",
          "[batch][cancelling][slow]"
          "[BATCH-START][CANCEL][ENV-CONTENT-TYPE][ENV-SCHEMA][JOB-STATES]") {
  RULE(rules::kCancel);
  for (const std::string version : {"v1", "v2"}) {
    INFO(version);
    std::vector<std::string> urls;
    for (int i = 1; i <= 6; ++i) {
      urls.push_back(site_url("/slow-tree/" + std::to_string(i) + ".html?batch=" + unique_token()));
    }
    const auto res = post("/" + version + "/batch/scrape", {{"urls", urls}, {"maxConcurrency", 1}});
    INFO(res.describe());
    {
      RULE(rules::kBatchStart);
      REQUIRE(res.status == 200);
    }
    const std::string id = res.body_json.value("id", "");
    const auto cancelled = del("/" + version + "/batch/scrape/" + id);
    INFO(cancelled.describe());
    CHECK_JSON_ANSWER(cancelled);
    CHECK(cancelled.status == 200);
    CHECK(cancelled.body_json.value("status", "") == "cancelled");
    CHECK_SCHEMA(version + "/batch-scrape-cancel.response", cancelled.body_json);
    const auto after = get("/" + version + "/batch/scrape/" + id);
    CHECK(after.body_json.value("status", "") == "cancelled");
    RULE(rules::kJobStates);
    std::this_thread::sleep_for(target().scaled(1600ms));
    const auto later = get("/" + version + "/batch/scrape/" + id);
    CHECK(later.body_json.value("status", "") == "cancelled");
    CHECK(later.body_json.value("completed", 99) < 6);
  }
}
