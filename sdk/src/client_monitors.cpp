// Monitors (docs/reference/monitors.md): /v2/monitor and its checks. Answers are
// `{success, data}`; models are decoded leniently (unknown members go to `extras`).
#include "client_core.hpp"
#include "codec.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

Call monitor_call(const char* method, std::string target, const json* body = nullptr) {
  Call call;
  call.method = method;
  call.target = std::move(target);
  if (body != nullptr) call.body = dump(*body);
  return call;
}

std::string monitor_path(const ClientCore& core, const std::string& id, const std::string& tail = "") {
  return core.path("/monitor/" + escape_segment(id) + tail);
}

/// `?name=value&...` of the options that are set.
std::string query_of(const std::vector<std::pair<const char*, std::optional<std::string>>>& items) {
  std::string out;
  for (const auto& [name, value] : items) {
    if (!value) continue;
    out += (out.empty() ? "?" : "&") + std::string(name) + "=" + escape_segment(*value);
  }
  return out;
}

std::optional<std::string> text_of(const std::optional<long long>& n) {
  return n ? std::optional<std::string>(std::to_string(*n)) : std::nullopt;
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

void decode_schedule(const json& j, MonitorSchedule& out, const Path& p) {
  Reader r(j, p);
  r("cron", out.cron);
  r("text", out.text);
  r("timezone", out.timezone);
}

void decode_summary(const json& j, MonitorSummary& out, const Path& p) {
  Reader r(j, p);
  r("totalPages", out.total_pages);
  r("same", out.same);
  r("changed", out.changed);
  r("new", out.added);
  r("removed", out.removed);
  r("error", out.error);
}

MonitorTarget decode_target(const json& j, const Path& p) {
  MonitorTarget out;
  Reader r(j, p);
  r("type", out.type);
  r("id", out.id);
  r("urls", out.urls);
  r("url", out.url);
  r("queries", out.queries);
  return out;
}

void decode_monitor(const json& j, Monitor& out, const Path& p) {
  Reader r(j, p);
  r.req("id", out.id);
  r("name", out.name);
  r("status", out.status);
  if (const json* s = r.find("schedule"); s != nullptr && s->is_object()) {
    decode_schedule(*s, out.schedule, p.child("schedule"));
  }
  r("nextRunAt", out.next_run_at);
  r("lastRunAt", out.last_run_at);
  r("currentCheckId", out.current_check_id);
  r.each("targets", out.targets, decode_target);
  r("retentionDays", out.retention_days);
  r("estimatedCreditsPerMonth", out.estimated_credits_per_month);
  if (const json* s = r.find("lastCheckSummary"); s != nullptr && s->is_object()) {
    decode_summary(*s, out.last_check_summary.emplace(), p.child("lastCheckSummary"));
  }
  r("createdAt", out.created_at);
  r("updatedAt", out.updated_at);
  r.rest(out.extras);
}

MonitorCheckPage decode_page(const json& j, const Path& p) {
  MonitorCheckPage out;
  Reader r(j, p);
  r("id", out.id);
  r("targetId", out.target_id);
  r("url", out.url);
  r("status", out.status);
  r("previousScrapeId", out.previous_scrape_id);
  r("currentScrapeId", out.current_scrape_id);
  r("statusCode", out.status_code);
  r("error", out.error);
  if (const json* diff = r.find("diff"); diff != nullptr && diff->is_object()) {
    if (const auto text = diff->find("text"); text != diff->end() && text->is_string()) {
      out.diff_text = text->get<std::string>();
    }
    out.extras["diff"] = Json::from_trusted_text(dump(*diff));
  }
  r.rest(out.extras);
  return out;
}

void decode_check(const json& j, MonitorCheck& out, const Path& p) {
  Reader r(j, p);
  r.req("id", out.id);
  r("monitorId", out.monitor_id);
  r("status", out.status);
  r("trigger", out.trigger);
  r("scheduledFor", out.scheduled_for);
  r("startedAt", out.started_at);
  r("finishedAt", out.finished_at);
  r("actualCredits", out.actual_credits);
  r("billingStatus", out.billing_status);
  if (const json* s = r.find("summary"); s != nullptr && s->is_object()) {
    decode_summary(*s, out.summary, p.child("summary"));
  }
  r.each("pages", out.pages, decode_page);
  r("next", out.next);
  r.rest(out.extras);
}

/// `data` of a `{success, data}` answer.
const json& data_of(const json& j) {
  if (!j.is_object() || !j.contains("data")) throw ParseError(Path{}, "expected `data` in the answer");
  return j.at("data");
}

Monitor decode_monitor_answer(const json& j) {
  Monitor out;
  decode_monitor(data_of(j), out, Path{}.collecting(out.diagnostics).child("data"));
  return out;
}

MonitorCheck decode_check_answer(const json& j) {
  MonitorCheck out;
  decode_check(data_of(j), out, Path{}.collecting(out.diagnostics).child("data"));
  return out;
}

template <class T, class Decode>
std::vector<T> decode_monitor_list(const json& j, Decode decode_one) {
  const json& data = data_of(j);
  if (!data.is_array()) throw ParseError(Path{}, "expected `data` to be an array");
  std::vector<T> out;
  for (const auto& item : data) {
    T one;
    decode_one(item, one, Path{}.collecting(one.diagnostics).child("data"));
    out.push_back(std::move(one));
  }
  return out;
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
  return detail::call_and_decode<Monitor>(
      *core_, detail::monitor_call("POST", core_->path("/monitor"), &body), options,
      "create monitor", detail::decode_monitor_answer);
}

Result<std::vector<Monitor>> Client::list_monitors(const MonitorListOptions& paging,
                                                   const CallOptions& options) const {
  const std::string query = detail::query_of(
      {{"limit", detail::text_of(paging.limit)}, {"offset", detail::text_of(paging.offset)}});
  return detail::call_and_decode<std::vector<Monitor>>(
      *core_, detail::get(core_->path("/monitor") + query), options, "list monitors",
      [](const detail::json& j) { return detail::decode_monitor_list<Monitor>(j, detail::decode_monitor); });
}

Result<Monitor> Client::get_monitor(const std::string& id, const CallOptions& options) const {
  return detail::call_and_decode<Monitor>(*core_, detail::get(detail::monitor_path(*core_, id)),
                                          options, "get monitor", detail::decode_monitor_answer);
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
  return detail::call_and_decode<Monitor>(
      *core_, detail::monitor_call("PATCH", detail::monitor_path(*core_, id), &body), options,
      "update monitor", detail::decode_monitor_answer);
}

Result<bool> Client::delete_monitor(const std::string& id, const CallOptions& options) const {
  auto tree = core_->execute_json(detail::monitor_call("DELETE", detail::monitor_path(*core_, id)),
                                  options, core_->deadline_for(options));
  if (!tree.ok()) return tree.error();
  return true;
}

Result<MonitorCheck> Client::run_monitor(const std::string& id, const CallOptions& options) const {
  const detail::json body = detail::json::object();
  return detail::call_and_decode<MonitorCheck>(
      *core_, detail::monitor_call("POST", detail::monitor_path(*core_, id, "/run"), &body),
      options, "run monitor", detail::decode_check_answer);
}

Result<std::vector<MonitorCheck>> Client::monitor_checks(const std::string& id,
                                                         const MonitorListOptions& paging,
                                                         const CallOptions& options) const {
  const std::string query = detail::query_of(
      {{"limit", detail::text_of(paging.limit)}, {"offset", detail::text_of(paging.offset)}});
  return detail::call_and_decode<std::vector<MonitorCheck>>(
      *core_, detail::get(detail::monitor_path(*core_, id, "/checks") + query), options,
      "list monitor checks",
      [](const detail::json& j) { return detail::decode_monitor_list<MonitorCheck>(j, detail::decode_check); });
}

Result<MonitorCheck> Client::monitor_check(const std::string& id, const std::string& check_id,
                                           const MonitorCheckOptions& query_options,
                                           const CallOptions& options) const {
  const std::string query = detail::query_of({{"limit", detail::text_of(query_options.limit)},
                                              {"skip", detail::text_of(query_options.skip)},
                                              {"status", query_options.status}});
  return detail::call_and_decode<MonitorCheck>(
      *core_,
      detail::get(detail::monitor_path(*core_, id, "/checks/" + detail::escape_segment(check_id)) +
                  query),
      options, "get monitor check", detail::decode_check_answer);
}

}  // namespace webdata
