// The `tbs` time filter: qdr:h/d/w/m/y[N] and cdr:1,cd_min:...,cd_max:... ranges.
#include "search/tbs.hpp"

#include <cctype>
#include <cstdio>

#include "core/time.hpp"

namespace webdata::mock::search {

using Clock_ = std::chrono::system_clock;

namespace {

/// The length of a qdr unit (h, d, w, m, y); zero for any other letter.
std::chrono::hours qdr_unit(char unit) {
  switch (unit) {
    case 'h':
      return std::chrono::hours(1);
    case 'd':
      return std::chrono::hours(24);
    case 'w':
      return std::chrono::hours(24 * 7);
    case 'm':
      return std::chrono::hours(24 * 30);
    case 'y':
      return std::chrono::hours(24 * 365);
    default:
      return std::chrono::hours(0);
  }
}

/// qdr:U[N]: the last N units (N 1 when left out).
std::optional<TimeRange> parse_qdr(const std::string& tbs, Clock_::time_point now,
                                   std::string& error) {
  long long count = 1;
  if (tbs.size() > 5) {
    count = 0;
    for (std::size_t i = 5; i < tbs.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(tbs[i])) || count > 100000) {
        error = "tbs '" + tbs + "': a qdr unit may only be followed by a count";
        return std::nullopt;
      }
      count = count * 10 + (tbs[i] - '0');
    }
    if (count == 0) {
      error = "tbs '" + tbs + "': the count must be at least 1";
      return std::nullopt;
    }
  }
  const std::chrono::hours unit_length = qdr_unit(tbs[4]);
  if (unit_length.count() == 0) {
    error = "tbs '" + tbs + "': qdr takes h, d, w, m or y";
    return std::nullopt;
  }
  TimeRange range;
  range.from = now - unit_length * count;
  range.to = now;
  return range;
}

/// One `cd_min:MM/DD/YYYY` or `cd_max:MM/DD/YYYY` bound into `range`; false when it is neither.
bool read_cdr_bound(const std::string& part, TimeRange& range) {
  const auto colon = part.find(':');
  const std::string key = part.substr(0, colon);
  const std::string value = colon == std::string::npos ? "" : part.substr(colon + 1);
  unsigned m = 0, d = 0;
  long long y = 0;
  char s1 = 0, s2 = 0;
  int consumed = 0;
  const bool ok =
      std::sscanf(value.c_str(), "%u%c%u%c%lld%n", &m, &s1, &d, &s2, &y, &consumed) == 5 &&
      consumed == static_cast<int>(value.size()) && s1 == '/' && s2 == '/' && m >= 1 && m <= 12 &&
      d >= 1 && d <= 31 && y >= 1000 && y <= 9999;
  if (!ok || (key != "cd_min" && key != "cd_max")) return false;
  const Clock_::time_point day{std::chrono::seconds(days_from_civil(y, m, d) * 86400LL)};
  if (key == "cd_min") {
    range.from = day;
  } else {
    range.to = day + std::chrono::hours(24) - std::chrono::seconds(1);
  }
  return true;
}

/// cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY (either bound may be left out).
std::optional<TimeRange> parse_cdr(const std::string& tbs, std::string& error) {
  TimeRange range;
  std::size_t at = 5;
  while (at < tbs.size()) {
    if (tbs[at] != ',') break;
    const auto next = tbs.find(',', at + 1);
    const std::string part =
        tbs.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    at = next == std::string::npos ? tbs.size() : next;
    if (!read_cdr_bound(part, range)) {
      error = "tbs '" + tbs + "': expected cd_min:MM/DD/YYYY and/or cd_max:MM/DD/YYYY";
      return std::nullopt;
    }
  }
  if (at != tbs.size()) {
    error = "tbs '" + tbs + "': expected cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY";
    return std::nullopt;
  }
  return range;
}

}  // namespace

std::optional<TimeRange> parse_tbs(const std::string& tbs, Clock_::time_point now,
                                   std::string& error) {
  if (tbs.empty()) return TimeRange{};
  if (tbs.rfind("qdr:", 0) == 0 && tbs.size() >= 5) return parse_qdr(tbs, now, error);
  if (tbs.rfind("cdr:1", 0) == 0) return parse_cdr(tbs, error);
  error = "tbs '" + tbs +
          "' is not one of qdr:h, qdr:d, qdr:w, qdr:m, qdr:y or "
          "cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY";
  return std::nullopt;
}

}  // namespace webdata::mock::search
