#include "core/time.hpp"

#include <cstdio>
#include <ctime>

#include "core/text.hpp"

namespace webdata::mock {

namespace {

int digits_at(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!is_digit(s[i])) return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

bool valid_date(int y, int m, int d) {
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > kDays[m - 1]) return false;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

std::tm utc_fields(std::chrono::system_clock::time_point t, long& millis) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  auto secs = static_cast<std::time_t>(ms / 1000);
  millis = static_cast<long>(ms % 1000);
  if (millis < 0) {
    millis += 1000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return tm;
}

std::string format(std::chrono::system_clock::time_point t, bool with_millis, bool zero_millis) {
  long millis = 0;
  const std::tm tm = utc_fields(t, millis);
  if (zero_millis) millis = 0;
  char buf[64];  // room for any year an int holds
  if (with_millis) {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  } else {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  }
  return buf;
}

}  // namespace

std::string iso8601(std::chrono::system_clock::time_point t) { return format(t, true, false); }
std::string iso8601_seconds(std::chrono::system_clock::time_point t) {
  return format(t, true, true);
}
std::string iso8601_compact(std::chrono::system_clock::time_point t) {
  return format(t, false, false);
}

std::string iso_date(std::chrono::system_clock::time_point t) {
  long millis = 0;
  const std::tm tm = utc_fields(t, millis);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buf;
}

// Howard Hinnant's days_from_civil and civil_from_days.
long long days_from_civil(long long year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const auto yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

std::string date_from_days(long long days) {
  days += 719468;
  const long long era = (days >= 0 ? days : days - 146096) / 146097;
  const long long doe = days - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long y = yoe + era * 400;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  const long long d = doy - (153 * mp + 2) / 5 + 1;
  const long long m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  char buf[80];  // room for any long long, so that no output can be cut
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", y, m, d);
  return buf;
}

std::chrono::system_clock::time_point IsoDateTime::time() const {
  long long seconds = days_from_civil(year, static_cast<unsigned>(month),
                                      static_cast<unsigned>(day)) * 86400LL;
  seconds += hour * 3600LL + minute * 60LL + second - offset_minutes * 60LL;
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
}

std::optional<IsoDateTime> read_iso8601(std::string_view t) {
  IsoDateTime out;
  out.year = digits_at(t, 0, 4);
  if (out.year < 0 || t.size() < 10 || t[4] != '-' || t[7] != '-') return std::nullopt;
  out.month = digits_at(t, 5, 2);
  out.day = digits_at(t, 8, 2);
  if (!valid_date(out.year, out.month, out.day)) return std::nullopt;
  if (t.size() > 10 && is_digit(t[10])) return std::nullopt;
  out.length = 10;
  if (t.size() < 16 || (t[10] != 'T' && t[10] != ' ') || t[13] != ':') return out;
  const int hh = digits_at(t, 11, 2);
  const int mm = digits_at(t, 14, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59) return out;
  int ss = 0;
  std::size_t at = 16;
  if (at < t.size() && t[at] == ':') {
    ss = digits_at(t, at + 1, 2);
    if (ss < 0 || ss > 59) return out;
    at += 3;
    if (at < t.size() && t[at] == '.') {
      ++at;
      while (at < t.size() && is_digit(t[at])) ++at;
    }
  }
  out.has_time = true;
  out.hour = hh;
  out.minute = mm;
  out.second = ss;
  if (at < t.size() && t[at] == 'Z') {
    out.has_zone = true;
    ++at;
  } else if (at + 6 <= t.size() && (t[at] == '+' || t[at] == '-') && t[at + 3] == ':') {
    const int oh = digits_at(t, at + 1, 2);
    const int om = digits_at(t, at + 4, 2);
    if (oh >= 0 && oh < 24 && om >= 0 && om < 60) {
      out.has_zone = true;
      out.offset_minutes = (t[at] == '+' ? 1 : -1) * (oh * 60 + om);
      at += 6;
    }
  }
  out.length = at;
  return out;
}

std::optional<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  const auto read = read_iso8601(text);
  if (!read || read->length != text.size()) return std::nullopt;
  return read->time();
}

}  // namespace webdata::mock
