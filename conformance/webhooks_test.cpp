// Webhooks (docs/reference/webhooks.md), received by the runner's own receiver.

#include "webdata/webhooks.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

std::string hook_url(const std::string& token) {
  return site_url("/hooks/" + token);
}

bool has_type_suffix(const std::vector<Delivery>& list, const std::string& suffix) {
  for (const auto& d : list) {
    const json body = json::parse(d.body, nullptr, false);
    const std::string type = body.is_object() ? body.value("type", "") : "";
    if (type.size() >= suffix.size() &&
        type.compare(type.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

// Waits for the job `resource`/`id` while it makes progress, then for its completed delivery (a
// bounded time after the job ended). Returns the deliveries and, in `status`, the job's last
// status.
std::vector<Delivery> wait_completed(const std::string& token, const std::string& resource,
                                     const std::string& id, json* status = nullptr) {
  const json last = wait_job(resource, id);
  if (status != nullptr) *status = last;
  return site().wait_for_deliveries(
      token, [](const std::vector<Delivery>& l) { return has_type_suffix(l, ".completed"); },
      target().scaled(30s));
}

// Deliveries of one job: every rule of docs/reference/webhooks.md about their sequence, payloads
// and signatures.
void check_deliveries(const std::vector<Delivery>& list, const std::string& kind,
                      const std::string& job_id, const json& metadata,
                      const std::string& header_name, const std::string& header_value,
                      int documents) {
  std::vector<std::string> types;
  for (const auto& d : list) {
    const json body = json::parse(d.body, nullptr, false);
    types.push_back(body.is_object() ? body.value("type", "?") : "(not JSON)");
  }
  INFO("deliveries: " << json(types).dump());
  {
    RULE(rules::kHookEvents);
    REQUIRE(list.size() >= 2);
    CHECK(types.front() == kind + ".started");
    CHECK(types.back() == kind + ".completed");
    CHECK(std::count(types.begin(), types.end(), kind + ".completed") == 1);
    CHECK(std::count(types.begin(), types.end(), kind + ".started") == 1);
    CHECK(std::count(types.begin(), types.end(), kind + ".page") == documents);
  }
  for (const auto& d : list) {
    const json body = json::parse(d.body, nullptr, false);
    INFO("delivery: " << d.body.substr(0, 400));
    {
      RULE(rules::kHookPayload);
      CHECK_SCHEMA("common/webhook-event", body);
      REQUIRE(body.is_object());
      CHECK(body.value("id", "") == job_id);
      CHECK(body.value("success", false) == true);
      CHECK(body.value("metadata", json()) == metadata);
      CHECK((!body.contains("error") || body.at("error").is_null()));
      const json data = body.value("data", json::array());
      if (body.value("type", "") == kind + ".page") {
        REQUIRE(data.size() == 1);
        CHECK_SCHEMA("common/scrape-document", data[0]);
        CHECK_FALSE(source_url(data[0]).empty());
      } else {
        CHECK(data == json::array());
      }
    }
    {
      RULE(rules::kHookHeaders);
      CHECK(d.header("Content-Type").rfind("application/json", 0) == 0);
      CHECK(d.header(header_name) == header_value);
    }
    // A deployment without a webhook secret sends no signature (the precheck finds out): the
    // rule cannot be judged then, which is a skip of this rule, not of the other rules.
    const Capability& signing = capability("webhook-signing");
    if (!signing.available()) {
      skip_rule(rules::kHookSignature, "capability webhook-signing: " + signing.detail);
      continue;
    }
    RULE(rules::kHookSignature);
    const std::string signature = d.header(target().signature_header);
    INFO(target().signature_header << ": " << signature);
    REQUIRE_FALSE(signature.empty());
    CHECK(signature.rfind("sha256=", 0) == 0);
    CHECK_FALSE(webdata::webhooks::verify_signature("conformance-wrong-secret", d.body, signature));
    if (target().webhook_secret.empty()) {
      // Presence and format were checked; whether it verifies needs the secret.
      skip_rule(rules::kHookSignature,
                "capability webhook-secret: " + capability("webhook-secret").detail);
    } else {
      CHECK(webdata::webhooks::verify_signature(target().webhook_secret, d.body, signature));
      CHECK_FALSE(
          webdata::webhooks::verify_signature(target().webhook_secret, d.body + " ", signature));
      const auto event =
          webdata::webhooks::verify_and_parse(target().webhook_secret, d.body, signature);
      INFO((event.ok() ? std::string() : event.error().describe()));
      REQUIRE(event.ok());
      CHECK(event->id == job_id);
    }
  }
}

}  // namespace

TEST_CASE("batch scrape webhooks: events in order with their payloads and headers and signatures",
          "[webhooks][batch]"
          "[BATCH-START][ENV-SCHEMA][HOOK-EVENTS][HOOK-HEADERS][HOOK-PAYLOAD][HOOK-SIGNATURE]") {
  const std::string token = unique_token();
  const json metadata = {{"run", token}, {"suite", "conformance"}};
  const std::vector<std::string> urls = {site_url("/docs/a.html"), site_url("/docs/b.html")};
  CHECKS_RULES(&rules::kHookEvents, &rules::kHookPayload, &rules::kHookHeaders,
               &rules::kHookSignature);
  REQUIRE_CAPABILITY("webhooks");
  const auto res = post("/v2/batch/scrape", {{"urls", urls},
                                             {"webhook",
                                              {{"url", hook_url(token)},
                                               {"headers", {{"X-Conformance-Run", token}}},
                                               {"metadata", metadata}}}});
  INFO(res.describe());
  {
    RULE(rules::kBatchStart);
    REQUIRE(res.status == 200);
  }
  const std::string id = res.body_json.value("id", "");
  const auto list = wait_completed(token, "/v2/batch/scrape", id);
  check_deliveries(list, "batch_scrape", id, metadata, "X-Conformance-Run", token, 2);
}

TEST_CASE("crawl webhooks: started then one page event per document then completed",
          "[webhooks][crawl]"
          "[CRAWL-START][ENV-SCHEMA][HOOK-EVENTS][HOOK-HEADERS][HOOK-PAYLOAD][HOOK-SIGNATURE]") {
  const std::string token = unique_token();
  const json metadata = {{"run", token}};
  CHECKS_RULES(&rules::kHookEvents, &rules::kHookPayload, &rules::kHookHeaders,
               &rules::kHookSignature);
  REQUIRE_CAPABILITY("webhooks");
  const auto res = post("/v2/crawl", {{"url", site_url("/docs/")},
                                      {"webhook",
                                       {{"url", hook_url(token)},
                                        {"headers", {{"X-Conformance-Run", token}}},
                                        {"metadata", metadata},
                                        {"events", {"started", "page", "completed"}}}}});
  INFO(res.describe());
  {
    RULE(rules::kCrawlStart);
    REQUIRE(res.status == 200);
  }
  const std::string id = res.body_json.value("id", "");
  json status;
  const auto list = wait_completed(token, "/v2/crawl", id, &status);
  check_deliveries(list, "crawl", id, metadata, "X-Conformance-Run", token,
                   status.value("completed", -1));
}

TEST_CASE("webhook events filter: only the chosen kinds are delivered",
          "[webhooks]"
          "[BATCH-START][HOOK-FILTER]") {
  RULE(rules::kHookFilter);
  REQUIRE_CAPABILITY("webhooks");
  const std::string token = unique_token();
  const auto res = post("/v2/batch/scrape",
                        {{"urls", {site_url("/docs/a.html")}},
                         {"webhook", {{"url", hook_url(token)}, {"events", {"completed"}}}}});
  INFO(res.describe());
  {
    RULE(rules::kBatchStart);
    REQUIRE(res.status == 200);
  }
  const std::string id = res.body_json.value("id", "");
  wait_completed(token, "/v2/batch/scrape", id);
  // Late deliveries of filtered-out kinds would arrive within this pause.
  std::this_thread::sleep_for(target().scaled(500ms));
  const auto list = site().deliveries(token);
  REQUIRE(list.size() == 1);
  CHECK(json::parse(list[0].body, nullptr, false).value("type", "") == "batch_scrape.completed");
}

TEST_CASE("SDK: a webhook given as a URL string reaches the receiver",
          "[webhooks][sdk]"
          "[BATCH-START][HOOK-EVENTS]") {
  RULE(rules::kHookEvents);
  REQUIRE_CAPABILITY("webhooks");
  const std::string token = unique_token();
  webdata::BatchScrapeRequest req;
  req.urls = {site_url("/docs/b.html")};
  req.webhook = webdata::WebhookSpec(hook_url(token));
  const auto job = sdk().start_batch_scrape(req);
  INFO((job.ok() ? std::string() : job.error().describe()));
  {
    RULE(rules::kBatchStart);
    REQUIRE(job.ok());
  }
  const auto list = wait_completed(token, "/v2/batch/scrape", job->id());
  REQUIRE_FALSE(list.empty());
  std::vector<std::string> types;
  for (const auto& d : list) {
    const auto event = webdata::webhooks::parse_event(d.body);
    REQUIRE(event.ok());
    CHECK(event->id == job->id());
    types.push_back(event->type.value());
  }
  INFO(json(types).dump());
  CHECK(types == std::vector<std::string>{"batch_scrape.started", "batch_scrape.page",
                                          "batch_scrape.completed"});
}
