#include "jobs/monitors.hpp"

#include <algorithm>
#include <set>

#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "scrape/scrape_store.hpp"

namespace webdata::mock::jobs {

namespace {

using nlohmann::json;
using TimePoint = std::chrono::system_clock::time_point;

json time_or_null(const std::optional<TimePoint>& t) {
  return t ? json(iso8601(*t)) : json(nullptr);
}

template <class T>
json value_or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

/// The target as the API answers it: the request's fields, scrape options included.
json target_json(const requests::MonitorTarget& target) {
  requests::MonitorRequest wrapper;
  wrapper.targets.push_back(target);
  return requests::encode(wrapper)["targets"][0];
}

}  // namespace

json MonitorPage::to_json() const {
  return {{"id", id},
          {"targetId", target_id},
          {"url", url},
          {"status", status},
          {"previousScrapeId", value_or_null(previous_scrape_id)},
          {"currentScrapeId", value_or_null(current_scrape_id)},
          {"statusCode", value_or_null(status_code)},
          {"error", value_or_null(error)},
          {"diff", diff},
          {"snapshot", nullptr},
          {"judgment", judgment},
          {"createdAt", iso8601(created_at)}};
}

void MonitorSummary::count(const std::string& status) {
  ++total;
  if (status == "same") ++same;
  if (status == "changed") ++changed;
  if (status == "new") ++added;
  if (status == "removed") ++removed;
  if (status == "error") ++error;
}

json MonitorSummary::to_json() const {
  return {{"totalPages", total}, {"same", same},       {"changed", changed},
          {"new", added},        {"removed", removed}, {"error", error}};
}

json MonitorCheck::to_json() const {
  const auto p = lock();
  const bool done = p->finished_at.has_value();
  return {{"id", id},
          {"monitorId", monitor_id},
          {"status", p->status},
          {"trigger", trigger},
          {"scheduledFor", time_or_null(scheduled_for)},
          {"startedAt", time_or_null(p->started_at)},
          {"finishedAt", time_or_null(p->finished_at)},
          {"estimatedCredits", estimated_credits},
          {"reservedCredits", done ? json(nullptr) : json(estimated_credits)},
          {"actualCredits", done ? json(p->credits) : json(nullptr)},
          {"billingStatus", !done ? "reserved" : p->credits > 0 ? "confirmed" : "not_applicable"},
          {"summary", p->summary.to_json()},
          {"targetResults", p->target_results},
          {"notificationStatus", nullptr},
          {"error", value_or_null(p->error)},
          {"createdAt", iso8601(created_at)},
          {"updatedAt", iso8601(p->updated_at)}};
}

json MonitorCheck::detail_json(std::size_t skip, std::size_t limit,
                               const std::optional<std::string>& status, bool& more) const {
  json out = to_json();
  json pages = json::array();
  std::size_t matched = 0;
  more = false;
  const auto p = lock();
  for (const auto& page : p->pages) {
    if (status && page.status != *status) continue;
    if (matched++ < skip) continue;
    if (pages.size() == limit) {
      more = true;
      break;
    }
    pages.push_back(page.to_json());
  }
  out["pages"] = std::move(pages);
  return out;
}

json Monitor::to_json() const {
  json schedule_out = {{"cron", schedule.cron.value_or("")},
                       {"timezone", schedule.timezone.value_or("UTC")}};
  if (schedule.text) schedule_out["text"] = *schedule.text;
  json targets_out = json::array();
  for (const auto& target : targets) targets_out.push_back(target_json(target));
  return {{"id", id},
          {"name", name},
          {"status", status},
          {"schedule", schedule_out},
          {"nextRunAt", status == "active" ? time_or_null(next_run) : json(nullptr)},
          {"lastRunAt", time_or_null(last_run)},
          {"currentCheckId", value_or_null(current_check_id)},
          {"targets", targets_out},
          {"webhook", webhook},
          {"notification", notification},
          {"retentionDays", retention_days},
          {"lastCheckSummary", last_summary ? last_summary->to_json() : json(nullptr)},
          {"goal", value_or_null(goal)},
          {"judgeEnabled", judge_enabled},
          {"createdAt", iso8601(created_at)},
          {"updatedAt", iso8601(updated_at)}};
}

ScheduleCheck check_schedule(const requests::MonitorSchedule& schedule) {
  ScheduleCheck out;
  if (schedule.cron.has_value() == schedule.text.has_value()) {
    out.error = "Provide exactly one of schedule.cron or schedule.text";
    return out;
  }
  requests::MonitorSchedule normalized = schedule;
  if (schedule.text) {
    const auto cron = cron_from_text(*schedule.text);
    if (!cron) {
      out.error = "Could not understand schedule.text '" + *schedule.text +
                  "' (try \"every 30 minutes\", \"hourly\" or \"daily at 9:00\")";
      return out;
    }
    normalized.cron = *cron;
  }
  const auto parsed = parse_cron(*normalized.cron, &out.error);
  if (!parsed) return out;
  if (!parsed->next_after(std::chrono::system_clock::now())) {
    out.error = "Invalid cron expression: it never runs";
    return out;
  }
  out.cron = *parsed;
  out.schedule = normalized;
  return out;
}

}  // namespace webdata::mock::jobs
