#include "core/usage.hpp"

#include <ctime>

#include "core/time.hpp"

namespace webdata::mock {

namespace {

thread_local std::string t_attributed_key;

TimePoint from_days(long long days) {
  return TimePoint(std::chrono::hours(24 * days));
}

}  // namespace

UsageAttribution::UsageAttribution(std::string key) : previous_(std::move(t_attributed_key)) {
  t_attributed_key = std::move(key);
}

UsageAttribution::~UsageAttribution() { t_attributed_key = std::move(previous_); }

std::string UsageAttribution::current() { return t_attributed_key; }

BillingPeriod billing_period(TimePoint t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  const long long year = utc.tm_year + 1900;
  const unsigned month = static_cast<unsigned>(utc.tm_mon + 1);
  BillingPeriod out;
  out.start = from_days(days_from_civil(year, month, 1));
  out.end = from_days(month == 12 ? days_from_civil(year + 1, 1, 1)
                                  : days_from_civil(year, month + 1, 1));
  return out;
}

void UsageLedger::record(const std::string& team, UsageUnit unit, std::int64_t amount,
                         TimePoint when, const std::string& api_key) {
  if (amount == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  totals_[Key{team, static_cast<int>(unit), billing_period(when).start, api_key}] += amount;
  auto& last = last_use_[team];
  if (when > last) last = when;
}

std::vector<UsagePeriod> UsageLedger::history(const std::string& team, UsageUnit unit,
                                              bool by_key, TimePoint now) const {
  const BillingPeriod current = billing_period(now);
  std::map<TimePoint, std::map<std::string, std::int64_t>> by_period;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [key, amount] : totals_) {
      const auto& [t, u, start, api_key] = key;
      if (t != team || u != static_cast<int>(unit) || start > current.start) continue;
      by_period[start][by_key ? api_key : std::string()] += amount;
    }
  }
  by_period[current.start];  // the current period is always listed
  std::vector<UsagePeriod> out;
  // Walk month by month from the first period with use, so that empty months show as 0.
  for (TimePoint start = by_period.begin()->first; start <= current.start;) {
    const BillingPeriod period = billing_period(start);
    const auto it = by_period.find(start);
    if (it == by_period.end() || it->second.empty()) {
      out.push_back({period, "", 0});
    } else {
      for (const auto& [api_key, amount] : it->second) out.push_back({period, api_key, amount});
    }
    start = period.end;
  }
  return out;
}

std::int64_t UsageLedger::used_in_period(const std::string& team, UsageUnit unit,
                                         TimePoint now) const {
  const TimePoint start = billing_period(now).start;
  std::lock_guard<std::mutex> lock(mutex_);
  std::int64_t sum = 0;
  for (auto it = totals_.lower_bound(Key{team, static_cast<int>(unit), start, ""});
       it != totals_.end() && std::get<0>(it->first) == team &&
       std::get<1>(it->first) == static_cast<int>(unit) && std::get<2>(it->first) == start;
       ++it) {
    sum += it->second;
  }
  return sum;
}

std::int64_t UsageLedger::used_total(const std::string& team, UsageUnit unit) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::int64_t sum = 0;
  for (const auto& [key, amount] : totals_) {
    if (std::get<0>(key) == team && std::get<1>(key) == static_cast<int>(unit)) sum += amount;
  }
  return sum;
}

std::optional<TimePoint> UsageLedger::last_use(const std::string& team, TimePoint since) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = last_use_.find(team);
  if (it == last_use_.end() || it->second < since) return std::nullopt;
  return it->second;
}

void UsageLedger::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  totals_.clear();
  last_use_.clear();
}

}  // namespace webdata::mock
