#include <string>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "jobs/crawl_rules.hpp"
#include "jobs/monitors.hpp"

// Monitors (docs/reference/monitors.md): POST/GET /v2/monitor, GET/PATCH/DELETE
// /v2/monitor/{id}, POST /v2/monitor/{id}/run, GET /v2/monitor/{id}/checks and
// /v2/monitor/{id}/checks/{checkId}. The monitors, their schedule and their checks are the
// monitor engine's (jobs/monitors.hpp); these routes check what the schema cannot (the schedule,
// each target's fields, the webhook) and answer `{success, data}`.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// Monitors or checks per page of a list when the request says no `limit`.
constexpr std::size_t kListLimit = 50;
/// Pages of a check per answer when the request says no `limit`.
constexpr std::size_t kCheckPages = 100;

http::Response monitor_not_found() { return http::Response::error(404, "Monitor not found"); }

http::Response data_answer(json data) {
  return http::Response::json(200, {{"success", true}, {"data", std::move(data)}});
}

/// 400 naming the schedule's bad field, or the checked schedule.
std::optional<http::Response> schedule_refusal(const requests::MonitorSchedule& schedule,
                                               jobs::ScheduleCheck& checked) {
  checked = jobs::check_schedule(schedule);
  if (checked.schedule) return std::nullopt;
  const std::string field = schedule.text && !schedule.cron ? "text" : "cron";
  return field_refusal("schedule." + field, json::array({"schedule", field}), checked.error);
}

/// The field a target of its type needs, when it is missing: scrape `urls`, crawl `url`,
/// search `queries`.
std::optional<std::string> missing_field(const requests::MonitorTarget& target) {
  if (target.type == "scrape" && !target.urls) return "urls";
  if (target.type == "crawl" && !target.url) return "url";
  if (target.type == "search" && !target.queries) return "queries";
  return std::nullopt;
}

/// 400 naming a crawl target's include or exclude pattern that is not a regular expression.
std::optional<http::Response> patterns_refusal(const requests::MonitorTarget& target, std::size_t i) {
  if (!target.crawl_options) return std::nullopt;
  const auto& o = *target.crawl_options;
  for (const auto& [key, patterns] : {std::pair<const char*, const std::optional<std::vector<std::string>>&>{
                                          "includePaths", o.include_paths},
                                      {"excludePaths", o.exclude_paths}}) {
    if (!patterns) continue;
    if (auto bad = jobs::check_patterns(*patterns)) {
      return field_refusal("targets." + std::to_string(i) + ".crawlOptions." + key,
                           json::array({"targets", i, "crawlOptions", key}), *bad, "invalid_string");
    }
  }
  return std::nullopt;
}

/// 400 for a target without its type's field, options the team cannot use, or a webhook that
/// cannot be delivered to.
std::optional<http::Response> targets_refusal(Services& s, const Team& team,
                                              const std::vector<requests::MonitorTarget>& targets,
                                              const std::optional<json>& webhook) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (const auto field = missing_field(targets[i])) {
      const std::string where = "targets." + std::to_string(i) + "." + *field;
      return field_refusal(where, json::array({"targets", i, *field}),
                           "Required for a " + targets[i].type + " target", "invalid_type");
    }
    if (auto refused = patterns_refusal(targets[i], i)) return refused;
    if (targets[i].scrape_options) {
      if (auto refused = s.check_scrape_options(*targets[i].scrape_options, team)) return refused;
    }
  }
  if (webhook && !webhook->is_null()) {
    std::string error;
    if (!s.monitor_webhook(*webhook, &error)) return field_error("webhook", "webhook: " + error, error);
  }
  return std::nullopt;
}

http::Response create_monitor(Services& s, ApiCall& call, const requests::MonitorRequest& request) {
  jobs::ScheduleCheck schedule;
  if (auto refused = schedule_refusal(request.schedule, schedule)) return *refused;
  if (auto refused = targets_refusal(s, call.team, request.targets, request.webhook)) return *refused;
  return data_answer(s.monitors->create(call.team, request, schedule));
}

http::Response update_monitor(Services& s, ApiCall& call,
                              const requests::MonitorUpdateRequest& request) {
  std::optional<jobs::ScheduleCheck> schedule;
  // A schedule with only a `timezone` (the CLI's `update --timezone`) keeps the expression.
  if (request.schedule && (request.schedule->cron || request.schedule->text)) {
    schedule.emplace();
    if (auto refused = schedule_refusal(*request.schedule, *schedule)) return *refused;
  }
  const auto targets = request.targets.value_or(std::vector<requests::MonitorTarget>{});
  if (auto refused = targets_refusal(s, call.team, targets, request.webhook)) return *refused;
  auto updated = s.monitors->update(call.team.id, call.params.at("id"), request, schedule);
  return updated ? data_answer(std::move(*updated)) : monitor_not_found();
}

/// `offset` and `limit` of a list, or the refusal naming the bad one.
std::optional<http::Response> read_list_paging(const http::Request& request, std::size_t& offset,
                                               std::size_t& limit) {
  if (auto bad = query_count(request, "offset", 0, SIZE_MAX / 2, offset)) {
    return field_error("offset", *bad, *bad);
  }
  if (auto bad = query_count(request, "limit", 1, 1000, limit)) return field_error("limit", *bad, *bad);
  return std::nullopt;
}

http::Response list_monitors(Services& s, ApiCall& call) {
  std::size_t offset = 0;
  std::size_t limit = kListLimit;
  if (auto refused = read_list_paging(call.request, offset, limit)) return *refused;
  return data_answer(s.monitors->list(call.team.id, offset, limit));
}

http::Response get_monitor(Services& s, ApiCall& call) {
  auto found = s.monitors->get(call.team.id, call.params.at("id"));
  return found ? data_answer(std::move(*found)) : monitor_not_found();
}

http::Response delete_monitor(Services& s, ApiCall& call) {
  if (!s.monitors->remove(call.team.id, call.params.at("id"))) return monitor_not_found();
  return http::Response::json(200, {{"success", true}});
}

http::Response run_monitor(Services& s, ApiCall& call) {
  if (!s.monitors->get(call.team.id, call.params.at("id"))) return monitor_not_found();
  if (auto refused = s.require_credits(call.team, 1)) return *refused;
  auto check = s.monitors->run_now(call.team.id, call.params.at("id"));
  return check ? data_answer(std::move(*check)) : monitor_not_found();
}

http::Response list_checks(Services& s, ApiCall& call) {
  std::size_t offset = 0;
  std::size_t limit = kListLimit;
  if (auto refused = read_list_paging(call.request, offset, limit)) return *refused;
  auto found = s.monitors->checks(call.team.id, call.params.at("id"), offset, limit);
  return found ? data_answer(std::move(*found)) : monitor_not_found();
}

http::Response get_check(Services& s, ApiCall& call) {
  std::size_t skip = 0;
  std::size_t limit = kCheckPages;
  if (auto bad = query_count(call.request, "skip", 0, SIZE_MAX / 2, skip)) {
    return field_error("skip", *bad, *bad);
  }
  if (auto bad = query_count(call.request, "limit", 1, 1000, limit)) return field_error("limit", *bad, *bad);
  const auto status = call.request.query_param("status");
  const auto check =
      s.monitors->find_check(call.team.id, call.params.at("id"), call.params.at("checkId"));
  if (!check) return http::Response::error(404, "Monitor check not found");
  bool more = false;
  json data = check->detail_json(skip, limit, status, more);
  json next = nullptr;
  if (more) {
    next = s.public_base(call.request) + call.request.path + "?skip=" + std::to_string(skip + limit) +
           "&limit=" + std::to_string(limit) + (status ? "&status=" + *status : "");
  }
  data["next"] = next;
  return http::Response::json(200, {{"success", true}, {"data", std::move(data)}, {"next", next}});
}

}  // namespace

void add_monitor_routes(ApiRoutes& routes, Services& s) {
  const auto v2 = requests::Version::v2;
  routes.api<requests::MonitorRequest>(
      "POST", "/v2/monitor", v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::MonitorRequest> request) {
        return create_monitor(s, call, *request);
      });
  routes.api("GET", "/v2/monitor", [&s](ApiCall& call) { return list_monitors(s, call); });
  routes.api("GET", "/v2/monitor/{id}", [&s](ApiCall& call) { return get_monitor(s, call); });
  routes.api<requests::MonitorUpdateRequest>(
      "PATCH", "/v2/monitor/{id}", v2, Credits::free,
      [&s](ApiCall& call, std::shared_ptr<const requests::MonitorUpdateRequest> request) {
        return update_monitor(s, call, *request);
      });
  routes.api("DELETE", "/v2/monitor/{id}", [&s](ApiCall& call) { return delete_monitor(s, call); });
  routes.api("POST", "/v2/monitor/{id}/run", [&s](ApiCall& call) { return run_monitor(s, call); });
  routes.api("GET", "/v2/monitor/{id}/checks",
             [&s](ApiCall& call) { return list_checks(s, call); });
  routes.api("GET", "/v2/monitor/{id}/checks/{checkId}",
             [&s](ApiCall& call) { return get_check(s, call); });
}

}  // namespace webdata::mock::handlers
