#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/job_runner.hpp"
#include "core/teams.hpp"
#include "jobs/monitor_schedule.hpp"
#include "requests/requests.hpp"
#include "scrape/scraper.hpp"

// Monitors (POST /v2/monitor and the routes under /v2/monitor/{id}): a team's scheduled checks
// of a set of pages. A check scrapes every page of the monitor's targets through the scrape
// pipeline, compares each with the monitor's previous check through change tracking (a history
// of its own per monitor: the tag "monitor:<id>"), records each page's status (same, new,
// changed, removed, error) and tells the event sink (signed webhooks, app/services.cpp).
// Checks are due on the mock's clock: advancing it (POST /__admin/clock/advance) runs every
// check it passed, as does any monitor request made after a check fell due.

namespace webdata::mock::jobs {

/// What one page of a check found.
struct MonitorPage {
  std::string id;
  std::string target_id;
  std::string url;
  std::string status;  ///< same | new | changed | removed | error
  std::optional<std::string> previous_scrape_id;
  std::optional<std::string> current_scrape_id;
  std::optional<int> status_code;
  std::optional<std::string> error;
  nlohmann::json diff = nullptr;  ///< {text, json} when changed or removed
  nlohmann::json judgment = nullptr;  ///< a search result judged against the monitor's goal
  bool meaningful = false;  ///< the judgment's verdict: the change matters for the goal
  std::chrono::system_clock::time_point created_at;

  nlohmann::json to_json() const;
};

/// How many pages of a check were in each status.
struct MonitorSummary {
  std::int64_t total = 0, same = 0, changed = 0, added = 0, removed = 0, error = 0;
  void count(const std::string& status);
  nlohmann::json to_json() const;
};

/// One check, the progress reached only through lock() (the job runner's contract).
struct MonitorCheckProgress {
  std::string status = "queued";  ///< queued | running | completed | partial | failed | skipped_no_credits
  std::optional<std::chrono::system_clock::time_point> started_at;
  std::optional<std::chrono::system_clock::time_point> finished_at;
  std::int64_t credits = 0;
  MonitorSummary summary;
  nlohmann::json target_results = nlohmann::json::array();
  std::vector<MonitorPage> pages;
  std::optional<std::string> error;
  std::chrono::system_clock::time_point updated_at;
};

class MonitorCheck : public Guarded<MonitorCheckProgress> {
 public:
  std::string id;
  std::string team_id;
  std::string monitor_id;
  std::string trigger;  ///< scheduled | manual
  std::optional<std::chrono::system_clock::time_point> scheduled_for;
  std::int64_t estimated_credits = 0;
  std::chrono::system_clock::time_point created_at;

  /// The check's answer; `pages` (GET .../checks/{checkId}) with paging and a status filter.
  nlohmann::json to_json() const;
  nlohmann::json detail_json(std::size_t skip, std::size_t limit,
                             const std::optional<std::string>& status, bool& more) const;
};

/// A monitor as configured (the typed request, its targets with ids) and its schedule.
struct Monitor {
  std::string id;
  std::string team_id;
  std::string name;
  std::string status = "active";  ///< active | paused
  requests::MonitorSchedule schedule;  ///< `cron` always set (normalized from `text`)
  Cron cron;
  std::vector<requests::MonitorTarget> targets;
  nlohmann::json webhook = nullptr;
  nlohmann::json notification = nullptr;
  std::int64_t retention_days = 30;
  std::optional<std::string> goal;
  bool judge_enabled = false;
  std::chrono::system_clock::time_point created_at, updated_at;
  std::optional<std::chrono::system_clock::time_point> next_run, last_run;
  std::optional<std::string> current_check_id;
  std::optional<MonitorSummary> last_summary;
  std::deque<std::shared_ptr<MonitorCheck>> checks;  ///< newest first
  /// The scrape id each page (target id + URL) had at its last check.
  std::map<std::string, std::string> last_scrape;

  nlohmann::json to_json() const;
};

/// A schedule checked and normalized: the cron expression and its parse, or why not.
struct ScheduleCheck {
  std::optional<requests::MonitorSchedule> schedule;
  Cron cron;
  std::string error;  ///< set when `schedule` is not
};
ScheduleCheck check_schedule(const requests::MonitorSchedule& schedule);
/// How often the expression runs in 30 days (the credits estimate of a month).
std::int64_t runs_per_month(const Cron& cron);

/// An event of a monitor: "monitor.page" (a page that is not `same`) or
/// "monitor.check.completed"; `webhook` is the monitor's configuration.
using MonitorEventSink =
    std::function<void(const std::string& team_id, const nlohmann::json& webhook,
                       const std::string& check_id, const std::string& event,
                       const nlohmann::json& data)>;

/// Pages one crawl target reads without a `crawlOptions.limit`.
constexpr std::size_t kMonitorCrawlPages = 10;
/// Results one query of a search target keeps without a `maxResults`.
constexpr std::int64_t kMonitorSearchResults = 10;

/// What identifies a page of a monitor between checks: its target and URL.
inline std::string monitor_page_key(const std::string& target_id, const std::string& url) {
  return target_id + " " + url;
}

/// The pages (scrape, crawl) or results (search) one check of `target` reads at most: what a
/// check is estimated to cost.
std::int64_t monitor_target_pages(const requests::MonitorTarget& target);

/// One query of a search target, as the search service takes it.
struct MonitorSearchQuery {
  std::string query;
  std::vector<std::string> include_domains;
  std::vector<std::string> exclude_domains;
  std::string tbs;  ///< the target's `searchWindow` as a time filter ("qdr:h")
  std::int64_t limit = kMonitorSearchResults;
};

/// One result of a query.
struct MonitorSearchHit {
  std::string url;
  std::string title;
  std::string description;
};

/// Runs a search target's query (the search service, wired by app/services.cpp: the jobs layer
/// does not use the search layer). Sets `error` when the query could not run.
using MonitorSearcher =
    std::function<std::vector<MonitorSearchHit>(const MonitorSearchQuery& query, std::string& error)>;

/// The team's monitors and their checks. Thread-safe; checks run on the runner's worker.
class MonitorEngine {
 public:
  MonitorEngine(scrape::Scraper& scraper, Teams& teams, const Clock& clock);
  ~MonitorEngine();
  MonitorEngine(const MonitorEngine&) = delete;
  MonitorEngine& operator=(const MonitorEngine&) = delete;

  void set_event_sink(MonitorEventSink sink) { sink_ = std::move(sink); }
  void set_searcher(MonitorSearcher searcher) { searcher_ = std::move(searcher); }

  /// A new monitor of `team` (the schedule already checked).
  nlohmann::json create(const Team& team, const requests::MonitorRequest& request,
                        const ScheduleCheck& schedule);
  /// The team's monitors, oldest first, `offset` and `limit` applied.
  nlohmann::json list(const std::string& team_id, std::size_t offset, std::size_t limit);
  /// The monitor's answer, or nullopt when the team has no such monitor.
  std::optional<nlohmann::json> get(const std::string& team_id, const std::string& id);
  std::optional<nlohmann::json> update(const std::string& team_id, const std::string& id,
                                       const requests::MonitorUpdateRequest& request,
                                       const std::optional<ScheduleCheck>& schedule);
  bool remove(const std::string& team_id, const std::string& id);
  /// Queues a manual check; its answer (queued), or nullopt for an unknown monitor.
  std::optional<nlohmann::json> run_now(const std::string& team_id, const std::string& id);
  std::optional<nlohmann::json> checks(const std::string& team_id, const std::string& id,
                                       std::size_t offset, std::size_t limit);
  std::shared_ptr<MonitorCheck> find_check(const std::string& team_id, const std::string& id,
                                           const std::string& check_id);
  /// Queues a check of every active monitor whose next run is due on the clock.
  void run_due();
  /// Blocks until no check is queued or running, or `timeout` passes.
  bool wait_idle(std::chrono::milliseconds timeout) { return runner_.wait_idle(timeout); }
  void reset();

 private:
  std::shared_ptr<Monitor> find_locked(const std::string& team_id, const std::string& id);
  /// Under mutex_: a check of `monitor` queued on the runner.
  std::shared_ptr<MonitorCheck> queue_check(Monitor& monitor, const std::string& trigger,
                                            std::optional<std::chrono::system_clock::time_point> at);
  void run(MonitorCheck& check);
  /// Scrapes the pages of one target into `pages`; the target's result entry.
  nlohmann::json run_target(const Monitor& monitor, const requests::MonitorTarget& target,
                            const Team& team, std::vector<MonitorPage>& pages,
                            std::int64_t& credits);
  /// A scrape target's pages; a crawl target's start page and the pages in scope it leads to.
  nlohmann::json run_scrape_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                   const Team& team, std::vector<MonitorPage>& pages,
                                   std::int64_t& credits);
  nlohmann::json run_crawl_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                  const Team& team, std::vector<MonitorPage>& pages,
                                  std::int64_t& credits);
  /// Every query of a search target: each result a page (new, same or changed since the last
  /// check), judged against the monitor's goal when the judge is on.
  nlohmann::json run_search_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                   const Team& team, std::vector<MonitorPage>& pages,
                                   std::int64_t& credits);
  MonitorPage search_page(const Monitor& monitor, const std::string& target_id,
                          const MonitorSearchHit& hit, const Team& team);
  MonitorPage check_page(const Monitor& monitor, const std::string& target_id,
                         const std::string& url, const Team& team, scrape::Outcome& outcome);
  /// Pages of the check before `check` that this one did not see (a link gone, a URL taken
  /// out of the targets): `removed`.
  void add_removed(const Monitor& monitor, const MonitorCheck& check,
                   std::vector<MonitorPage>& pages) const;
  /// Records the check's pages, bills its credits and sends its events.
  void finish(const Monitor& monitor, MonitorCheck& check, std::vector<MonitorPage> pages,
              nlohmann::json results, std::int64_t credits, bool ran);
  void send_events(const Monitor& monitor, const MonitorCheck& check);
  std::int64_t pages_per_check(const Monitor& monitor) const;

  scrape::Scraper& scraper_;
  Teams& teams_;
  const Clock& clock_;
  MonitorEventSink sink_;
  MonitorSearcher searcher_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Monitor>> monitors_;
  JobRunner<MonitorCheck> runner_;
  // After the runner: advancing the clock queues the checks it made due.
  ClockSubscription clock_advanced_;
};

}  // namespace webdata::mock::jobs
