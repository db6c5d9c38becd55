// Monitors (docs/reference/monitors.md): /v2/monitor and its checks, and the wait for a check.
// Answers are `{success, data}`; models are read tolerantly (unknown members go to `extras`).
#include <algorithm>
#include <iterator>

#include "job_follower.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

std::string monitor_path(const ClientCore& core, const std::string& id,
                         const std::string& tail = "") {
  return core.path("/monitor/" + escape_segment(id) + tail);
}

/// `target` with the paging of a list.
std::string paged(std::string target, const MonitorListOptions& paging) {
  Query q(std::move(target));
  q.add("limit", paging.limit).add("offset", paging.offset);
  return q.target();
}

/// Every answer is `{success, data}`: its `data` as `T`.
template <class T>
Result<T> monitor_call(const ClientCore& core, const Call& call, const CallOptions& options,
                       const char* what) {
  return call_for_member<T>(core, call, options, what, "data", kRequired);
}

json schedule_json(const MonitorSchedule& s) {
  json out = json::object();
  if (s.cron) out["cron"] = *s.cron;
  if (s.text) out["text"] = *s.text;
  if (s.timezone) out["timezone"] = *s.timezone;
  return out;
}

json targets_json(const std::vector<MonitorTarget>& targets) {
  json out = json::array();
  for (const auto& t : targets) {
    json target = {{"type", t.type}};
    if (t.id) target["id"] = *t.id;
    if (!t.urls.empty()) target["urls"] = t.urls;
    if (t.url) target["url"] = *t.url;
    if (!t.queries.empty()) target["queries"] = t.queries;
    out.push_back(std::move(target));
  }
  return out;
}

json webhook_json(const MonitorWebhook& w) {
  json out = {{"url", w.url}};
  if (!w.headers.empty()) out["headers"] = w.headers;
  if (!w.metadata.empty()) out["metadata"] = w.metadata;
  if (!w.events.empty()) out["events"] = w.events;
  return out;
}

/// `diff` of a checked page: `diff.text` is the unified diff; the whole `diff` (its parse-diff
/// `json` too) stays in extras.
void read_check_diff(Reader& io, MonitorCheckPage& p) {
  io.custom("diff", p.diff_text, [&p](const json& diff, const Path& dp) {
    Reader d(diff, dp);
    d("text", p.diff_text);
    p.extras["diff"] = from_tree(diff);
  });
}

}  // namespace

// The field lists of client_monitors.fields.json, written as C++ by webdata_codegen.
#include "client_monitors.fields.inc"

namespace {

/// `first` with the pages of every `next` after it; `next` stays set only if an answer with
/// `next` brought no page.
Result<MonitorCheck> with_all_pages(const ClientCore& core, Result<MonitorCheck> first,
                                    const CallOptions& options) {
  if (!first.ok()) return first;
  MonitorCheck check = std::move(*first);
  while (check.next) {
    auto target = core.resolve_next(*check.next);
    if (!target.ok()) return target.error();
    auto more = monitor_call<MonitorCheck>(core, get(*target), options, "get monitor check");
    if (!more.ok()) return more.error();
    if (more->pages.empty()) break;
    std::move(more->pages.begin(), more->pages.end(), std::back_inserter(check.pages));
    check.diagnostics.insert(check.diagnostics.end(), more->diagnostics.begin(),
                             more->diagnostics.end());
    check.next = std::move(more->next);
  }
  return check;
}

}  // namespace
}  // namespace detail

Result<Monitor> Client::create_monitor(const CreateMonitorRequest& request,
                                       const CallOptions& options) const {
  detail::json body = {{"name", request.name},
                       {"schedule", detail::schedule_json(request.schedule)},
                       {"targets", detail::targets_json(request.targets)}};
  if (request.webhook) body["webhook"] = detail::webhook_json(*request.webhook);
  if (request.retention_days) body["retentionDays"] = *request.retention_days;
  if (request.goal) body["goal"] = *request.goal;
  return detail::monitor_call<Monitor>(*core_, detail::post(core_->path("/monitor"), body),
                                       options, "create monitor");
}

Result<std::vector<Monitor>> Client::list_monitors(const MonitorListOptions& paging,
                                                   const CallOptions& options) const {
  const auto call = detail::get(detail::paged(core_->path("/monitor"), paging));
  return detail::monitor_call<std::vector<Monitor>>(*core_, call, options, "list monitors");
}

Result<Monitor> Client::get_monitor(const std::string& id, const CallOptions& options) const {
  return detail::monitor_call<Monitor>(*core_, detail::get(detail::monitor_path(*core_, id)),
                                       options, "get monitor");
}

Result<Monitor> Client::update_monitor(const std::string& id, const UpdateMonitorRequest& request,
                                       const CallOptions& options) const {
  detail::json body = detail::json::object();
  if (request.name) body["name"] = *request.name;
  if (request.status) body["status"] = *request.status;
  if (request.schedule) body["schedule"] = detail::schedule_json(*request.schedule);
  if (request.targets) body["targets"] = detail::targets_json(*request.targets);
  if (request.webhook) body["webhook"] = detail::webhook_json(*request.webhook);
  if (request.remove_webhook) body["webhook"] = nullptr;
  if (request.retention_days) body["retentionDays"] = *request.retention_days;
  const auto call = detail::json_call("PATCH", detail::monitor_path(*core_, id), &body);
  return detail::monitor_call<Monitor>(*core_, call, options, "update monitor");
}

Result<bool> Client::delete_monitor(const std::string& id, const CallOptions& options) const {
  auto tree = core_->execute_json(detail::json_call("DELETE", detail::monitor_path(*core_, id)),
                                  options, core_->deadline_for(options));
  if (!tree.ok()) return tree.error();
  return true;
}

Result<MonitorCheck> Client::run_monitor(const std::string& id, const CallOptions& options) const {
  const auto call = detail::post(detail::monitor_path(*core_, id, "/run"), detail::json::object());
  return detail::monitor_call<MonitorCheck>(*core_, call, options, "run monitor");
}

Result<std::vector<MonitorCheck>> Client::monitor_checks(const std::string& id,
                                                         const MonitorListOptions& paging,
                                                         const CallOptions& options) const {
  const auto call = detail::get(detail::paged(detail::monitor_path(*core_, id, "/checks"), paging));
  return detail::monitor_call<std::vector<MonitorCheck>>(*core_, call, options,
                                                         "list monitor checks");
}

Result<MonitorCheck> Client::monitor_check(const std::string& id, const std::string& check_id,
                                           const MonitorCheckOptions& query_options,
                                           const CallOptions& options) const {
  detail::Query q(detail::monitor_path(*core_, id, "/checks/" + detail::escape_segment(check_id)));
  q.add("limit", query_options.limit).add("skip", query_options.skip);
  q.add("status", query_options.status);
  return detail::monitor_call<MonitorCheck>(*core_, detail::get(q.target()), options,
                                            "get monitor check");
}

Result<MonitorCheck> Client::wait_monitor_check(const std::string& id,
                                                const std::string& check_id,
                                                const PollingPolicy& policy,
                                                const CallOptions& options) const {
  // One budget for the polls and the pages read after them.
  CallOptions within = options;
  within.deadline = detail::wait_deadline(*core_, policy, options);
  within.total_timeout.reset();
  MonitorCheckOptions one;  // each poll small; the pages are read once the check has ended
  one.limit = 1;
  auto done = detail::poll_until<MonitorCheck>(
      *core_, policy, within.deadline, "monitor check " + check_id,
      [&] { return monitor_check(id, check_id, one, within); },
      [](const MonitorCheck& check) { return check.finished(); });
  if (!done.ok()) return done;
  return detail::with_all_pages(*core_, monitor_check(id, check_id, {}, within), within);
}

}  // namespace webdata
