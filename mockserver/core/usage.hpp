#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

// The mock's accounting of what each team used: credits and extract tokens, by billing period
// and by API key, for the team usage endpoints (GET /v1|v2/team/credit-usage, token-usage and
// their historical forms, queue-status).

namespace webdata::mock {

using TimePoint = std::chrono::system_clock::time_point;

/// The API key that work on this thread is billed to, while the object lives (nests). The
/// request path sets it for its handler; the job engine sets it for the pages of a job, to the
/// key that started the job.
class UsageAttribution {
 public:
  explicit UsageAttribution(std::string key);
  ~UsageAttribution();
  UsageAttribution(const UsageAttribution&) = delete;
  UsageAttribution& operator=(const UsageAttribution&) = delete;
  /// The key in effect on this thread ("" outside any attribution).
  static std::string current();

 private:
  std::string previous_;
};

/// A billing period: the calendar month (UTC) holding a time.
struct BillingPeriod {
  TimePoint start;  ///< The first day of the month, 00:00 UTC.
  TimePoint end;    ///< The first day of the next month, 00:00 UTC (exclusive).
};
BillingPeriod billing_period(TimePoint t);

enum class UsageUnit { credits, tokens };

/// What one period (and, when asked, one key) used.
struct UsagePeriod {
  BillingPeriod period;
  std::string api_key;  ///< Set only for a history by key.
  std::int64_t used = 0;
};

/// Totals by team, unit, period and key; bounded by the number of periods and keys, not by the
/// number of charges. Thread-safe.
class UsageLedger {
 public:
  void record(const std::string& team, UsageUnit unit, std::int64_t amount, TimePoint when,
              const std::string& api_key);
  /// Every period from the team's first use (or `now`'s period) up to `now`'s, oldest first;
  /// with `by_key`, one entry per key that used something in the period (the current period is
  /// listed even when nothing was used).
  std::vector<UsagePeriod> history(const std::string& team, UsageUnit unit, bool by_key,
                                   TimePoint now) const;
  /// What the team used in the period holding `now`.
  std::int64_t used_in_period(const std::string& team, UsageUnit unit, TimePoint now) const;
  /// Everything the team used since the ledger was cleared.
  std::int64_t used_total(const std::string& team, UsageUnit unit) const;
  /// When the team was last billed for work, if at or after `since`.
  std::optional<TimePoint> last_use(const std::string& team, TimePoint since) const;
  void clear();

 private:
  // (team, unit, period start, key) -> amount.
  using Key = std::tuple<std::string, int, TimePoint, std::string>;
  mutable std::mutex mutex_;
  std::map<Key, std::int64_t> totals_;
  std::map<std::string, TimePoint> last_use_;
};

}  // namespace webdata::mock
