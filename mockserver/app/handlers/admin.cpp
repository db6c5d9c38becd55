#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/time.hpp"

// The admin surface under /__admin/ (wire-decisions section 9): WireMock-compatible journal and
// reset, plus the mock's own clock, settings, crawl watchers and webhook log. Mappings and
// scenarios are handlers/admin_mappings.cpp.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// The settings POST /__admin/settings takes (credits have their own route).
constexpr const char* kSettable[] = {"chunkBytes",       "pagePacingMs",     "webhookMaxAttempts",
                                     "webhookBackoffMs", "webhookTimeoutMs", "crawlWatcher"};

http::Response admin_bad_request(const std::string& message) {
  return http::Response::error(400, message, "BAD_REQUEST");
}

http::Response admin_done() {
  return http::Response::json(200, json::object());
}

http::Response clock_answer(const Clock& clock) {
  return http::Response::json(
      200, {{"now", iso8601(clock.now())}, {"offsetMs", clock.offset().count()}});
}

http::Response list_requests(Services& s, const http::Request&, const http::PathParams&) {
  return http::Response::json(200, s.journal.to_json());
}

http::Response clear_requests(Services& s, const http::Request&, const http::PathParams&) {
  s.journal.clear();
  return admin_done();
}

http::Response read_clock(Services& s, const http::Request&, const http::PathParams&) {
  return clock_answer(s.clock);
}

http::Response advance_clock(Services& s, const http::Request& request, const http::PathParams&) {
  const json body = json::parse(request.body, nullptr, false);
  const bool ok = body.is_object() && body.size() == 1 && body.contains("milliseconds") &&
                  body.at("milliseconds").is_number_integer() &&
                  body.at("milliseconds").get<long long>() >= 0;
  if (!ok) return admin_bad_request("body must be {\"milliseconds\": <non-negative integer>}");
  s.clock.advance(std::chrono::milliseconds(body.at("milliseconds").get<long long>()));
  return clock_answer(s.clock);
}

// Back to real time, keeping every job and run: a test that moved the clock to see something
// expire leaves the rest of the mock's state to the tests after it.
http::Response reset_clock(Services& s, const http::Request&, const http::PathParams&) {
  s.clock.reset();
  return clock_answer(s.clock);
}

http::Response read_settings(Services& s, const http::Request&, const http::PathParams&) {
  json out = s.config.to_json();
  json balances = json::object();
  for (const auto& t : s.config.effective_teams()) balances[t.id] = s.teams.balance(t.id);
  out["creditBalances"] = balances;
  out.update(s.settings_json());
  return http::Response::json(200, out);
}

/// 400 when `key` is no setting or `value` is out of its range.
std::optional<http::Response> check_setting(const std::string& key, const json& value) {
  if (std::find(std::begin(kSettable), std::end(kSettable), key) == std::end(kSettable)) {
    return admin_bad_request("unknown setting '" + key +
                             "' (settable: chunkBytes, pagePacingMs, webhookMaxAttempts, "
                             "webhookBackoffMs, webhookTimeoutMs, crawlWatcher; "
                             "credits via /__admin/settings/credits)");
  }
  if (key == "crawlWatcher") {
    if (value.is_boolean()) return std::nullopt;
    return admin_bad_request("crawlWatcher must be true or false");
  }
  const long long max = key == "chunkBytes"           ? (1LL << 34)
                        : key == "webhookMaxAttempts" ? 20
                                                      : 600000;
  const long long min =
      key == "chunkBytes" || key == "webhookMaxAttempts" || key == "webhookTimeoutMs" ? 1 : 0;
  if (!value.is_number_integer() || value.get<long long>() < min || value.get<long long>() > max) {
    return admin_bad_request(key + " must be an integer from " + std::to_string(min) + " to " +
                             std::to_string(max));
  }
  return std::nullopt;
}

/// The checked settings of `body` applied to the engines they belong to.
void apply_settings(Services& s, const json& body) {
  if (body.contains("chunkBytes"))
    s.jobs->set_chunk_bytes(body.at("chunkBytes").get<std::size_t>());
  if (body.contains("pagePacingMs")) {
    const std::chrono::milliseconds pacing(body.at("pagePacingMs").get<long long>());
    s.jobs->set_pacing(pacing);
    s.extracts->set_pacing(pacing);
  }
  auto delivery = s.webhooks->settings();
  if (body.contains("webhookMaxAttempts")) {
    delivery.max_attempts = body.at("webhookMaxAttempts").get<int>();
  }
  if (body.contains("webhookBackoffMs")) {
    delivery.first_backoff =
        std::chrono::milliseconds(body.at("webhookBackoffMs").get<long long>());
  }
  if (body.contains("webhookTimeoutMs")) {
    delivery.receiver_timeout =
        std::chrono::milliseconds(body.at("webhookTimeoutMs").get<long long>());
  }
  s.webhooks->set_settings(delivery);
  // Off: later upgrade requests are answered as plain HTTP, as by a deployment without the
  // watcher (open connections stay); a black-box client's fallback to polling is testable.
  if (body.contains("crawlWatcher")) s.watchers.set_enabled(body.at("crawlWatcher").get<bool>());
}

http::Response change_settings(Services& s, const http::Request& request, const http::PathParams&) {
  const json body = json::parse(request.body, nullptr, false);
  if (!body.is_object()) return admin_bad_request("body must be a JSON object");
  for (const auto& [key, value] : body.items()) {
    if (auto refused = check_setting(key, value)) return *refused;
  }
  apply_settings(s, body);
  return http::Response::json(200, s.settings_json());
}

http::Response set_credits(Services& s, const http::Request& request, const http::PathParams&) {
  const json body = json::parse(request.body, nullptr, false);
  const bool ok = body.is_object() && body.contains("team") && body.at("team").is_string() &&
                  body.contains("credits") && body.at("credits").is_number_integer();
  if (!ok) return admin_bad_request("body must be {\"team\": str, \"credits\": int}");
  const auto team = body.at("team").get<std::string>();
  if (s.teams.find(team) == nullptr) return http::Response::error(404, "Unknown team " + team);
  s.teams.set_balance(team, body.at("credits").get<std::int64_t>());
  return http::Response::json(200, {{"team", team}, {"credits", s.teams.balance(team)}});
}

// Open crawl watcher connections: a client that stopped watching must not leave one behind.
http::Response list_watchers(Services& s, const http::Request&, const http::PathParams&) {
  return http::Response::json(
      200, {{"enabled", s.watchers.enabled()}, {"open", s.watchers.open()->load()}});
}

http::Response list_webhooks(Services& s, const http::Request&, const http::PathParams&) {
  json log = s.webhooks->log_json();
  const auto total = log.size();
  return http::Response::json(200, {{"deliveries", std::move(log)}, {"meta", {{"total", total}}}});
}

http::Response clear_webhooks(Services& s, const http::Request&, const http::PathParams&) {
  s.webhooks->clear_log();
  return admin_done();
}

}  // namespace

void add_admin_routes(http::Router& admin, Services& s, ApiRoutes& routes) {
  static const AdminRoute kRoutes[] = {{"GET", "/__admin/requests", list_requests},
                                       {"DELETE", "/__admin/requests", clear_requests},
                                       {"POST", "/__admin/requests/reset", clear_requests},
                                       {"GET", "/__admin/clock", read_clock},
                                       {"POST", "/__admin/clock/advance", advance_clock},
                                       {"POST", "/__admin/clock/reset", reset_clock},
                                       {"GET", "/__admin/settings", read_settings},
                                       {"POST", "/__admin/settings", change_settings},
                                       {"POST", "/__admin/settings/credits", set_credits},
                                       {"GET", "/__admin/watchers", list_watchers},
                                       {"GET", "/__admin/webhooks", list_webhooks},
                                       {"DELETE", "/__admin/webhooks", clear_webhooks},
                                       {"GET", "/__admin/feedback", list_feedback}};
  add_admin_table(admin, s, kRoutes);
  // Everything back to the start state: journal, stubs, scenarios, clock, credits, caches,
  // jobs and the API's idempotency keys.
  admin.add("POST", "/__admin/reset", [&s, &routes](const http::Request&, const http::PathParams&) {
    s.reset();
    routes.forget_idempotency_keys();
    return admin_done();
  });
  add_admin_mapping_routes(admin, s);
}

}  // namespace webdata::mock::handlers
