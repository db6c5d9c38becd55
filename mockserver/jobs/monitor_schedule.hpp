#pragma once

#include <bitset>
#include <chrono>
#include <optional>
#include <string>

// A monitor's schedule (POST /v2/monitor `schedule`): a 5-field cron expression, or the
// natural-language text the service normalizes to one. Times are read in UTC: the mock keeps the
// `timezone` it is given and reports it back, but does not shift the schedule by it.

namespace webdata::mock::jobs {

/// A parsed 5-field cron expression: minute hour day-of-month month day-of-week. Each field is
/// `*`, a number, a range `a-b`, a step `*/n` or `a-b/n`, or a comma list of those; day-of-week
/// 0-7 (0 and 7 are Sunday). As in cron, when both day fields are restricted a day matching
/// either one runs.
struct Cron {
  std::bitset<60> minutes;
  std::bitset<24> hours;
  std::bitset<32> days;    ///< 1-31
  std::bitset<13> months;  ///< 1-12
  std::bitset<7> weekdays;
  bool any_day = true;
  bool any_weekday = true;

  /// The first minute strictly after `after` that the expression matches (within five years;
  /// nullopt when it never does, e.g. "0 0 31 2 *").
  std::optional<std::chrono::system_clock::time_point> next_after(
      std::chrono::system_clock::time_point after) const;
};

/// The expression parsed, or nullopt with why in `error`.
std::optional<Cron> parse_cron(const std::string& expression, std::string* error);

/// The cron expression a natural-language schedule stands for ("every 30 minutes", "every 2
/// hours", "hourly", "daily", "daily at 9:00", "every day at 18:30", "weekly", "every minute"),
/// or nullopt when the text is not understood.
std::optional<std::string> cron_from_text(const std::string& text);

}  // namespace webdata::mock::jobs
