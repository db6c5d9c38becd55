// Webhooks (spec 2.8, 5.3, 6; WD 4), received by the runner's own receiver.

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

std::vector<Delivery> wait_completed(const std::string& token) {
  return site().wait_for_deliveries(
      token, [](const std::vector<Delivery>& l) { return has_type_suffix(l, ".completed"); },
      target().scaled(30s));
}

// Deliveries of one job: every rule of spec 6 / WD 4 about their sequence and payloads.
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
    RULE(rules::kHookSignature);
    const std::string signature = d.header(target().signature_header);
    INFO(target().signature_header << ": " << signature);
    REQUIRE_FALSE(signature.empty());
    CHECK(signature.rfind("sha256=", 0) == 0);
    CHECK_FALSE(webdata::webhooks::verify_signature("conformance-wrong-secret", d.body, signature));
    if (!target().webhook_secret.empty()) {
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

TEST_CASE("batch scrape webhooks: events in order, payloads, metadata, headers, signatures",
          "[webhooks][batch]") {
  const std::string token = unique_token();
  const json metadata = {{"run", token}, {"suite", "conformance"}};
  const std::vector<std::string> urls = {site_url("/docs/a.html"), site_url("/docs/b.html")};
  const auto res = post("/v2/batch/scrape", {{"urls", urls},
                                             {"webhook",
                                              {{"url", hook_url(token)},
                                               {"headers", {{"X-Conformance-Run", token}}},
                                               {"metadata", metadata}}}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  const auto list = wait_completed(token);
  check_deliveries(list, "batch_scrape", id, metadata, "X-Conformance-Run", token, 2);
  if (target().webhook_secret.empty()) {
    CONFORMANCE_SKIP(capability("webhook-secret").reason +
                     " (presence and format of the signature were checked)");
  }
}

TEST_CASE("crawl webhooks: started, one page event per document, completed", "[webhooks][crawl]") {
  const std::string token = unique_token();
  const json metadata = {{"run", token}};
  const auto res = post("/v2/crawl", {{"url", site_url("/docs/")},
                                      {"webhook",
                                       {{"url", hook_url(token)},
                                        {"headers", {{"X-Conformance-Run", token}}},
                                        {"metadata", metadata},
                                        {"events", {"started", "page", "completed"}}}}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  const auto list = wait_completed(token);
  const json status = wait_job("/v2/crawl", id, 30s);
  check_deliveries(list, "crawl", id, metadata, "X-Conformance-Run", token,
                   status.value("completed", -1));
}

TEST_CASE("webhook events filter: only the chosen kinds are delivered", "[webhooks]") {
  RULE(rules::kHookFilter);
  const std::string token = unique_token();
  const auto res = post("/v2/batch/scrape",
                        {{"urls", {site_url("/docs/a.html")}},
                         {"webhook", {{"url", hook_url(token)}, {"events", {"completed"}}}}});
  INFO(res.describe());
  REQUIRE(res.status == 200);
  const std::string id = res.body_json.value("id", "");
  wait_completed(token);
  wait_job("/v2/batch/scrape", id, 30s);
  std::this_thread::sleep_for(target().scaled(500ms));
  const auto list = site().deliveries(token);
  REQUIRE(list.size() == 1);
  CHECK(json::parse(list[0].body, nullptr, false).value("type", "") == "batch_scrape.completed");
}

TEST_CASE("SDK: a webhook given as a URL string reaches the receiver", "[webhooks][sdk]") {
  RULE(rules::kHookEvents);
  const std::string token = unique_token();
  webdata::BatchScrapeRequest req;
  req.urls = {site_url("/docs/b.html")};
  req.webhook = webdata::WebhookSpec(hook_url(token));
  const auto job = sdk().start_batch_scrape(req);
  INFO((job.ok() ? std::string() : job.error().describe()));
  REQUIRE(job.ok());
  const auto list = wait_completed(token);
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
