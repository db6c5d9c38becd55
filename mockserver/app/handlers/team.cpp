#include <chrono>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/time.hpp"
#include "core/usage.hpp"

// The team's own accounting (GET /v1|v2/team/credit-usage, token-usage, their historical forms,
// queue-status, and /v1|v2/concurrency-check), read from Teams (balances, plans and the usage
// ledger) and the job engine (pages running and queued). v2 names fields in camelCase; v1's
// current-usage answers use snake_case, as the real service does.

namespace webdata::mock::handlers {

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
  return refusal_answer(requests::Refusal{"Bad Request",
                                          json::array({{{"code", "invalid_enum_value"},
                                                        {"path", json::array({"byApiKey"})},
                                                        {"message", message}}}),
                                          "byApiKey: " + message});
}

/// The usage figures of the current billing period, named as the version names them.
json usage_fields(const std::string& version, bool credits, std::int64_t remaining,
                  std::int64_t plan, const BillingPeriod& period) {
  const std::string noun = credits ? "Credits" : "Tokens";
  if (version == "v2") {
    return {{"remaining" + noun, remaining},
            {"plan" + noun, plan},
            {"billingPeriodStart", iso8601(period.start)},
            {"billingPeriodEnd", iso8601(period.end)}};
  }
  const std::string lower = credits ? "credits" : "tokens";
  return {{"remaining_" + lower, remaining},
          {"plan_" + lower, plan},
          {"billing_period_start", iso8601(period.start)},
          {"billing_period_end", iso8601(period.end)}};
}

http::Response current_usage(Services& s, ApiCall& call, UsageUnit unit) {
  const bool credits = unit == UsageUnit::credits;
  const auto now = s.clock.now();
  const std::int64_t plan =
      credits ? s.teams.plan_credits(call.team.id) : s.teams.plan_tokens(call.team.id);
  // Credits are a balance (the admin API can set it); tokens an allowance per period.
  const std::int64_t remaining =
      credits ? s.teams.balance(call.team.id)
              : plan - s.teams.usage().used_in_period(call.team.id, unit, now);
  json data = usage_fields(call.version, credits, remaining, plan, billing_period(now));
  // --inject-fault baseline-fields: the Aug-2025 build answers the balance only.
  if (s.config.has_fault("baseline-fields")) {
    const std::string balance = call.version == "v2"
                                    ? (credits ? "remainingCredits" : "remainingTokens")
                                : credits ? "remaining_credits"
                                          : "remaining_tokens";
    data = {{balance, remaining}};
  }
  return http::Response::json(200, {{"success", true}, {"data", data}});
}

http::Response historical_usage(Services& s, ApiCall& call, UsageUnit unit) {
  bool by_key = false;
  if (auto refused = read_by_key(call.request, by_key)) return *refused;
  json periods = json::array();
  for (const auto& p : s.teams.usage().history(call.team.id, unit, by_key, s.clock.now())) {
    json entry = {{"startDate", iso8601(p.period.start)},
                  {"endDate", iso8601(p.period.end)},
                  {unit == UsageUnit::credits ? "creditsUsed" : "tokensUsed", p.used}};
    if (by_key && !p.api_key.empty()) entry["apiKey"] = masked_key(p.api_key);
    periods.push_back(std::move(entry));
  }
  return http::Response::json(200, {{"success", true}, {"periods", periods}});
}

http::Response queue_status(Services& s, ApiCall& call) {
  const auto figures = s.jobs->queue_figures(call.team.id);
  const auto now = s.clock.now();
  const auto last = s.teams.usage().last_use(call.team.id, now - std::chrono::hours(24));
  return http::Response::json(200,
                              {{"success", true},
                               {"jobsInQueue", figures.active + figures.waiting},
                               {"activeJobsInQueue", figures.active},
                               {"waitingJobsInQueue", figures.waiting},
                               {"maxConcurrency", call.team.concurrency},
                               {"mostRecentSuccess", last ? json(iso8601(*last)) : json(nullptr)}});
}

http::Response concurrency_check(Services& s, ApiCall& call) {
  if (s.config.has_fault("no-database")) return database_unavailable();
  return http::Response::json(200, {{"success", true},
                                    {"concurrency", s.jobs->queue_figures(call.team.id).active},
                                    {"maxConcurrency", call.team.concurrency}});
}

}  // namespace

void add_team_routes(ApiRoutes& routes, Services& s) {
  for (const std::string v : {"v1", "v2"}) {
    for (const UsageUnit unit : {UsageUnit::credits, UsageUnit::tokens}) {
      const std::string path =
          "/" + v + "/team/" + (unit == UsageUnit::credits ? "credit" : "token") + "-usage";
      routes.api("GET", path, [&s, unit](ApiCall& call) { return current_usage(s, call, unit); });
      routes.api("GET", path + "/historical",
                 [&s, unit](ApiCall& call) { return historical_usage(s, call, unit); });
    }
    routes.api("GET", "/" + v + "/team/queue-status",
               [&s](ApiCall& call) { return queue_status(s, call); });
    routes.api("GET", "/" + v + "/concurrency-check",
               [&s](ApiCall& call) { return concurrency_check(s, call); });
  }
}

}  // namespace webdata::mock::handlers
