#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"

// Monitors (docs/reference/monitors.md): pages checked on a schedule for changes.

namespace webdata {

/// When a monitor runs: exactly one of `cron` (5 fields) or `text` ("every 30 minutes") on
/// create; answers always carry the normalized `cron`.
struct MonitorSchedule {
  std::optional<std::string> cron;
  std::optional<std::string> text;
  std::optional<std::string> timezone;  ///< default "UTC"
};

/// What a monitor checks: `scrape` (`urls`), `crawl` (`url`) or `search` (`queries`).
struct MonitorTarget {
  std::string type = "scrape";
  std::optional<std::string> id;  ///< given by the service when left out
  std::vector<std::string> urls;
  std::optional<std::string> url;
  std::vector<std::string> queries;
};

/// Where a monitor's events go: "monitor.page" and "monitor.check.completed" (all when empty).
struct MonitorWebhook {
  std::string url;
  std::map<std::string, std::string> headers;
  std::map<std::string, std::string> metadata;
  std::vector<std::string> events;
};

/// POST /v2/monitor.
struct CreateMonitorRequest {
  std::string name;
  MonitorSchedule schedule;
  std::vector<MonitorTarget> targets;
  std::optional<MonitorWebhook> webhook;
  std::optional<long long> retention_days;
  std::optional<std::string> goal;
};

/// PATCH /v2/monitor/{id}: only what is set changes.
struct UpdateMonitorRequest {
  std::optional<std::string> name;
  std::optional<std::string> status;  ///< "active" | "paused"
  std::optional<MonitorSchedule> schedule;
  std::optional<std::vector<MonitorTarget>> targets;
  std::optional<MonitorWebhook> webhook;
  bool remove_webhook = false;  ///< sends `webhook: null`
  std::optional<long long> retention_days;
};

/// Pages of a check per status.
struct MonitorSummary {
  long long total_pages = 0;
  long long same = 0;
  long long changed = 0;
  long long added = 0;  ///< wire `new`
  long long removed = 0;
  long long error = 0;
};

struct Monitor {
  std::string id;
  std::string name;
  std::string status;  ///< active | paused
  MonitorSchedule schedule;
  std::optional<std::string> next_run_at;
  std::optional<std::string> last_run_at;
  std::optional<std::string> current_check_id;
  std::vector<MonitorTarget> targets;
  long long retention_days = 0;
  std::optional<long long> estimated_credits_per_month;
  std::optional<MonitorSummary> last_check_summary;
  std::string created_at;
  std::string updated_at;
  Extras extras;            ///< webhook, notification, goal, ...
  Diagnostics diagnostics;  ///< keys that did not have the expected type
};

/// One page of a check.
struct MonitorCheckPage {
  std::string id;
  std::string target_id;
  std::string url;
  std::string status;  ///< same | new | changed | removed | error
  std::optional<std::string> previous_scrape_id;
  std::optional<std::string> current_scrape_id;
  std::optional<int> status_code;
  std::optional<std::string> error;
  std::optional<std::string> diff_text;  ///< `diff.text`: the unified diff of a changed page
  Extras extras;
};

/// A check: its state, summary and (from `monitor_check`) its pages.
struct MonitorCheck {
  std::string id;
  std::string monitor_id;
  std::string status;   ///< queued | running | completed | partial | failed | skipped_*
  std::string trigger;  ///< scheduled | manual
  std::optional<std::string> scheduled_for;
  std::optional<std::string> started_at;
  std::optional<std::string> finished_at;
  std::optional<long long> actual_credits;
  std::string billing_status;
  MonitorSummary summary;
  std::vector<MonitorCheckPage> pages;
  std::optional<std::string> next;  ///< more pages: GET this address
  Extras extras;
  Diagnostics diagnostics;

  /// Whether the check has ended (neither queued nor running).
  bool finished() const { return status != "queued" && status != "running"; }
};

/// Paging of `Client::list_monitors` and `Client::monitor_checks`.
struct MonitorListOptions {
  std::optional<long long> limit;
  std::optional<long long> offset;
};

/// Paging and filter of `Client::monitor_check`'s pages.
struct MonitorCheckOptions {
  std::optional<long long> limit;
  std::optional<long long> skip;
  std::optional<std::string> status;  ///< only pages in this status
};

}  // namespace webdata
