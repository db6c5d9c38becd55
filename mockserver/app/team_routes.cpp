#include <chrono>

#include "app/mock_server.hpp"
#include "core/time.hpp"
#include "core/usage.hpp"

// The team's own accounting (GET /v1|v2/team/credit-usage, token-usage, their historical forms,
// queue-status, and /v1|v2/concurrency-check), read from Teams (balances, plans and the usage
// ledger) and the job engine (pages running and queued). v2 names fields in camelCase; v1's
// current-usage answers use snake_case, as the real service does.

namespace webdata::mock {

using nlohmann::json;

namespace {

/// A key as the usage history shows it: enough to tell a team's keys apart, not enough to use.
std::string masked_key(const std::string& key) {
  if (key.size() <= 8) return std::string(key.size(), '*');
  return key.substr(0, 4) + std::string(key.size() - 8, '*') + key.substr(key.size() - 4);
}

/// `byApiKey`: absent or "false" -> false, "true" -> true; anything else is refused.
std::optional<http::Response> read_by_key(const http::Request& request, bool& by_key) {
  const auto value = request.query_param("byApiKey");
  by_key = value && *value == "true";
  if (!value || *value == "true" || *value == "false") return std::nullopt;
  const std::string message = "query parameter 'byApiKey' must be true or false";
  return MockServer::refusal_answer(requests::Refusal{
      "Bad Request",
      json::array({{{"code", "invalid_enum_value"},
                    {"path", json::array({"byApiKey"})},
                    {"message", message}}}),
      "byApiKey: " + message});
}

}  // namespace

void MockServer::add_team_routes() {
  for (const std::string v : {"v1", "v2"}) {
    for (const UsageUnit unit : {UsageUnit::credits, UsageUnit::tokens}) {
      const bool credits = unit == UsageUnit::credits;
      const std::string path = "/" + v + "/team/" + (credits ? "credit" : "token") + "-usage";

      api("GET", path, [this, unit, credits](ApiCall& call) {
        const auto now = clock_.now();
        const BillingPeriod period = billing_period(now);
        const std::int64_t plan =
            credits ? teams_.plan_credits(call.team.id) : teams_.plan_tokens(call.team.id);
        // Credits are a balance (the admin API can set it); tokens an allowance per period.
        const std::int64_t remaining =
            credits ? teams_.balance(call.team.id)
                    : plan - teams_.usage().used_in_period(call.team.id, unit, now);
        const std::string noun = credits ? "Credits" : "Tokens";
        json data;
        if (call.version == "v2") {
          data = {{"remaining" + noun, remaining},
                  {"plan" + noun, plan},
                  {"billingPeriodStart", iso8601(period.start)},
                  {"billingPeriodEnd", iso8601(period.end)}};
        } else {
          const std::string lower = credits ? "credits" : "tokens";
          data = {{"remaining_" + lower, remaining},
                  {"plan_" + lower, plan},
                  {"billing_period_start", iso8601(period.start)},
                  {"billing_period_end", iso8601(period.end)}};
        }
        // --inject-fault baseline-fields: the Aug-2025 build answers the balance only.
        if (config_.has_fault("baseline-fields")) {
          const std::string balance = call.version == "v2" ? "remaining" + noun
                                      : credits            ? "remaining_credits"
                                                           : "remaining_tokens";
          data = {{balance, remaining}};
        }
        return http::Response::json(200, {{"success", true}, {"data", data}});
      });

      api("GET", path + "/historical", [this, unit, credits](ApiCall& call) {
        bool by_key = false;
        if (auto refused = read_by_key(call.request, by_key)) return *refused;
        json periods = json::array();
        for (const auto& p : teams_.usage().history(call.team.id, unit, by_key, clock_.now())) {
          json entry = {{"startDate", iso8601(p.period.start)},
                        {"endDate", iso8601(p.period.end)},
                        {credits ? "creditsUsed" : "tokensUsed", p.used}};
          if (by_key && !p.api_key.empty()) entry["apiKey"] = masked_key(p.api_key);
          periods.push_back(std::move(entry));
        }
        return http::Response::json(200, {{"success", true}, {"periods", periods}});
      });
    }

    api("GET", "/" + v + "/team/queue-status", [this](ApiCall& call) {
      const auto figures = jobs_->queue_figures(call.team.id);
      const auto now = clock_.now();
      const auto last = teams_.usage().last_use(call.team.id, now - std::chrono::hours(24));
      return http::Response::json(
          200, {{"success", true},
                {"jobsInQueue", figures.active + figures.waiting},
                {"activeJobsInQueue", figures.active},
                {"waitingJobsInQueue", figures.waiting},
                {"maxConcurrency", call.team.concurrency},
                {"mostRecentSuccess", last ? json(iso8601(*last)) : json(nullptr)}});
    });

    api("GET", "/" + v + "/concurrency-check", [this](ApiCall& call) {
      if (config_.has_fault("no-database")) return database_unavailable();
      return http::Response::json(200, {{"success", true},
                                        {"concurrency", jobs_->queue_figures(call.team.id).active},
                                        {"maxConcurrency", call.team.concurrency}});
    });
  }
}

}  // namespace webdata::mock
