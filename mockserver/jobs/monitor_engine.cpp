#include <algorithm>
#include <set>

#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/url.hpp"
#include "jobs/monitors.hpp"
#include "scrape/scrape_store.hpp"

// The MonitorEngine's state and checks (the answers' shapes are in monitors.cpp).

namespace webdata::mock::jobs {

namespace {

using nlohmann::json;
using TimePoint = std::chrono::system_clock::time_point;

/// Finished checks leave the runner (the monitor keeps them) after this long.
constexpr std::chrono::hours kRunnerRetention{1};

/// Every target with an id ("target-1", ... for those the request left without one).
std::vector<requests::MonitorTarget> with_ids(std::vector<requests::MonitorTarget> targets) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!targets[i].id) targets[i].id = "target-" + std::to_string(i + 1);
  }
  return targets;
}


}  // namespace

MonitorEngine::MonitorEngine(scrape::Scraper& scraper, Teams& teams, const Clock& clock)
    : scraper_(scraper),
      teams_(teams),
      clock_(clock),
      runner_(clock, kRunnerRetention, 1, [this](MonitorCheck& check) { run(check); }),
      clock_advanced_(clock, [this] { run_due(); }) {}

MonitorEngine::~MonitorEngine() { reset(); }

json MonitorEngine::create(const Team& team, const requests::MonitorRequest& request,
                           const ScheduleCheck& schedule) {
  auto monitor = std::make_shared<Monitor>();
  monitor->id = uuid4();
  monitor->team_id = team.id;
  monitor->name = request.name;
  monitor->schedule = *schedule.schedule;
  monitor->cron = schedule.cron;
  monitor->targets = with_ids(request.targets);
  monitor->webhook = request.webhook.value_or(json(nullptr));
  monitor->notification = request.notification.value_or(json(nullptr));
  monitor->retention_days = request.retention_days;
  monitor->goal = request.goal;
  monitor->judge_enabled = request.judge_enabled || request.goal.has_value();
  monitor->created_at = monitor->updated_at = clock_.now();
  monitor->next_run = monitor->cron.next_after(clock_.now());
  std::lock_guard<std::mutex> lock(mutex_);
  monitors_[monitor->id] = monitor;
  json out = monitor->to_json();
  out["estimatedCreditsPerMonth"] = pages_per_check(*monitor) * runs_per_month(monitor->cron);
  return out;
}

json MonitorEngine::list(const std::string& team_id, std::size_t offset, std::size_t limit) {
  run_due();
  std::vector<std::shared_ptr<Monitor>> mine;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [id, monitor] : monitors_) {
    if (monitor->team_id == team_id) mine.push_back(monitor);
  }
  std::stable_sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) {
    return a->created_at < b->created_at;
  });
  json out = json::array();
  for (std::size_t i = offset; i < mine.size() && out.size() < limit; ++i) {
    out.push_back(mine[i]->to_json());
  }
  return out;
}

std::optional<json> MonitorEngine::get(const std::string& team_id, const std::string& id) {
  run_due();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto monitor = find_locked(team_id, id);
  if (!monitor) return std::nullopt;
  json out = monitor->to_json();
  out["estimatedCreditsPerMonth"] = pages_per_check(*monitor) * runs_per_month(monitor->cron);
  return out;
}

std::optional<json> MonitorEngine::update(const std::string& team_id, const std::string& id,
                                          const requests::MonitorUpdateRequest& request,
                                          const std::optional<ScheduleCheck>& schedule) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto monitor = find_locked(team_id, id);
  if (!monitor) return std::nullopt;
  if (request.name) monitor->name = *request.name;
  if (request.status) monitor->status = *request.status;
  if (schedule) {
    monitor->schedule = *schedule->schedule;
    monitor->cron = schedule->cron;
  } else if (request.schedule && request.schedule->timezone) {
    monitor->schedule.timezone = request.schedule->timezone;
  }
  if (request.webhook) monitor->webhook = *request.webhook;
  if (request.notification) monitor->notification = *request.notification;
  if (request.targets) monitor->targets = with_ids(*request.targets);
  if (request.retention_days) monitor->retention_days = *request.retention_days;
  if (request.goal) {
    monitor->goal = request.goal->is_string() ? std::optional<std::string>(request.goal->get<std::string>())
                                              : std::nullopt;
  }
  if (request.judge_enabled) monitor->judge_enabled = *request.judge_enabled;
  monitor->updated_at = clock_.now();
  // Resuming or rescheduling counts from now: checks missed while paused do not run.
  if (schedule || request.status) monitor->next_run = monitor->cron.next_after(clock_.now());
  json out = monitor->to_json();
  out["estimatedCreditsPerMonth"] = pages_per_check(*monitor) * runs_per_month(monitor->cron);
  return out;
}

bool MonitorEngine::remove(const std::string& team_id, const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!find_locked(team_id, id)) return false;
  monitors_.erase(id);
  return true;
}

std::optional<json> MonitorEngine::run_now(const std::string& team_id, const std::string& id) {
  std::shared_ptr<MonitorCheck> check;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto monitor = find_locked(team_id, id);
    if (!monitor) return std::nullopt;
    check = queue_check(*monitor, "manual", std::nullopt);
  }
  runner_.submit(check);
  return check->to_json();
}

std::optional<json> MonitorEngine::checks(const std::string& team_id, const std::string& id,
                                          std::size_t offset, std::size_t limit) {
  run_due();
  std::vector<std::shared_ptr<MonitorCheck>> found;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto monitor = find_locked(team_id, id);
    if (!monitor) return std::nullopt;
    found.assign(monitor->checks.begin(), monitor->checks.end());
  }
  json out = json::array();
  for (std::size_t i = offset; i < found.size() && out.size() < limit; ++i) {
    out.push_back(found[i]->to_json());
  }
  return out;
}

std::shared_ptr<MonitorCheck> MonitorEngine::find_check(const std::string& team_id,
                                                        const std::string& id,
                                                        const std::string& check_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto monitor = find_locked(team_id, id);
  if (!monitor) return nullptr;
  for (const auto& check : monitor->checks) {
    if (check->id == check_id) return check;
  }
  return nullptr;
}

void MonitorEngine::run_due() {
  std::vector<std::shared_ptr<MonitorCheck>> due;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = clock_.now();
    for (auto& [id, monitor] : monitors_) {
      if (monitor->status != "active" || !monitor->next_run || *monitor->next_run > now) continue;
      // One check for however many runs the clock passed: missed runs are not made up.
      due.push_back(queue_check(*monitor, "scheduled", monitor->next_run));
      monitor->next_run = monitor->cron.next_after(now);
    }
  }
  for (const auto& check : due) runner_.submit(check);
}

void MonitorEngine::reset() {
  runner_.reset([](MonitorCheck& check) {
    const auto progress = check.lock();
    if (!progress->finished_at) progress->finished_at = std::chrono::system_clock::time_point{};
  });
  std::lock_guard<std::mutex> lock(mutex_);
  monitors_.clear();
}

std::shared_ptr<Monitor> MonitorEngine::find_locked(const std::string& team_id,
                                                    const std::string& id) {
  const auto it = monitors_.find(id);
  if (it == monitors_.end() || it->second->team_id != team_id) return nullptr;
  return it->second;
}

std::shared_ptr<MonitorCheck> MonitorEngine::queue_check(Monitor& monitor, const std::string& trigger,
                                                         std::optional<TimePoint> at) {
  auto check = std::make_shared<MonitorCheck>();
  check->id = uuid4();
  check->team_id = monitor.team_id;
  check->monitor_id = monitor.id;
  check->trigger = trigger;
  check->scheduled_for = at;
  check->estimated_credits = pages_per_check(monitor);
  check->created_at = clock_.now();
  check->lock()->updated_at = check->created_at;
  monitor.checks.push_front(check);
  monitor.current_check_id = check->id;
  return check;
}

std::int64_t MonitorEngine::pages_per_check(const Monitor& monitor) const {
  std::int64_t pages = 0;
  for (const auto& target : monitor.targets) pages += monitor_target_pages(target);
  return pages;
}

void MonitorEngine::run(MonitorCheck& check) {
  Monitor monitor;  // a copy: an update during the check changes the next one
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = find_locked(check.team_id, check.monitor_id);
    if (!found) return;
    monitor = *found;
  }
  {
    const auto progress = check.lock();
    if (progress->finished_at) return;  // reset
    progress->status = "running";
    progress->started_at = progress->updated_at = clock_.now();
  }
  const Team* team = teams_.find(check.team_id);
  std::vector<MonitorPage> pages;
  json results = json::array();
  std::int64_t credits = 0;
  if (team != nullptr && teams_.balance(team->id) >= 1) {
    for (const auto& target : monitor.targets) {
      results.push_back(run_target(monitor, target, *team, pages, credits));
    }
    add_removed(monitor, check, pages);
  }
  finish(monitor, check, std::move(pages), std::move(results), credits, team != nullptr);
}

void MonitorEngine::add_removed(const Monitor& monitor, const MonitorCheck& check,
                                std::vector<MonitorPage>& pages) const {
  // The check before this one (the monitor keeps them newest first).
  const auto self = std::find_if(monitor.checks.begin(), monitor.checks.end(),
                                 [&](const auto& c) { return c.get() == &check; });
  if (self == monitor.checks.end() || std::next(self) == monitor.checks.end()) return;
  std::set<std::string> seen;
  for (const auto& page : pages) seen.insert(monitor_page_key(page.target_id, page.url));
  const auto previous = (*std::next(self))->lock();
  for (const auto& before : previous->pages) {
    if (before.status == "removed" || seen.count(monitor_page_key(before.target_id, before.url)) != 0) continue;
    MonitorPage gone;
    gone.id = uuid4();
    gone.target_id = before.target_id;
    gone.url = before.url;
    gone.status = "removed";
    gone.previous_scrape_id = before.current_scrape_id;
    gone.created_at = clock_.now();
    pages.push_back(std::move(gone));
  }
}

void MonitorEngine::finish(const Monitor& monitor, MonitorCheck& check, std::vector<MonitorPage> pages,
                           json results, std::int64_t credits, bool ran) {
  MonitorSummary summary;
  for (const auto& page : pages) summary.count(page.status);
  if (credits > 0) teams_.charge(check.team_id, credits);
  {
    const auto progress = check.lock();
    if (progress->finished_at) return;  // reset meanwhile
    progress->status = !ran || (pages.empty() && results.empty()) ? "skipped_no_credits"
                       : summary.error == 0                       ? "completed"
                       : summary.error < summary.total            ? "partial"
                                                                  : "failed";
    progress->credits = credits;
    progress->summary = summary;
    progress->target_results = std::move(results);
    progress->pages = std::move(pages);
    progress->finished_at = progress->updated_at = clock_.now();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto stored = find_locked(check.team_id, check.monitor_id)) {
      stored->last_run = clock_.now();
      stored->last_summary = summary;
      if (stored->current_check_id == check.id) stored->current_check_id.reset();
      for (const auto& page : check.lock()->pages) {
        if (page.current_scrape_id) stored->last_scrape[monitor_page_key(page.target_id, page.url)] = *page.current_scrape_id;
      }
    }
  }
  send_events(monitor, check);
}

void MonitorEngine::send_events(const Monitor& monitor, const MonitorCheck& check) {
  if (!sink_ || monitor.webhook.is_null()) return;
  const json summary = check.to_json();
  for (const auto& page : check.lock()->pages) {
    if (page.status == "same") continue;
    sink_(monitor.team_id, monitor.webhook, check.id, "monitor.page",
          {{"monitorId", monitor.id}, {"checkId", check.id}, {"page", page.to_json()}});
  }
  sink_(monitor.team_id, monitor.webhook, check.id, "monitor.check.completed",
        json::array({{{"monitorId", monitor.id}, {"monitorName", monitor.name}, {"check", summary}}}));
}

std::int64_t runs_per_month(const Cron& cron) {
  const TimePoint start{};  // a fixed month (January 1970): the same estimate every time
  std::int64_t runs = 0;
  for (auto at = cron.next_after(start - std::chrono::minutes(1)); at && *at < start + std::chrono::hours(24 * 30);
       at = cron.next_after(*at)) {
    ++runs;
  }
  return runs;
}

}  // namespace webdata::mock::jobs
