#include "jobs/monitor_schedule.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <regex>
#include <sstream>
#include <vector>

namespace webdata::mock::jobs {

namespace {

using Clock = std::chrono::system_clock;

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, by)) out.push_back(part);
  if (!text.empty() && text.back() == by) out.emplace_back();
  return out;
}

bool read_number(const std::string& text, int& out) {
  if (text.empty() || text.size() > 3 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return false;
  }
  out = std::stoi(text);
  return true;
}

/// One comma-separated item of a field into `bits` (values lo..hi); false when malformed.
template <std::size_t N>
bool read_item(const std::string& item, int lo, int hi, std::bitset<N>& bits) {
  std::string range = item;
  int step = 1;
  if (const auto slash = item.find('/'); slash != std::string::npos) {
    range = item.substr(0, slash);
    if (!read_number(item.substr(slash + 1), step) || step == 0) return false;
  }
  int first = lo;
  int last = hi;
  if (range != "*") {
    const auto dash = range.find('-');
    if (dash == std::string::npos) {
      if (!read_number(range, first)) return false;
      last = item.find('/') == std::string::npos ? first : hi;
    } else if (!read_number(range.substr(0, dash), first) ||
               !read_number(range.substr(dash + 1), last)) {
      return false;
    }
  }
  if (first < lo || last > hi || first > last) return false;
  for (int v = first; v <= last; v += step) bits.set(static_cast<std::size_t>(v));
  return true;
}

template <std::size_t N>
bool read_field(const std::string& field, int lo, int hi, std::bitset<N>& bits) {
  if (field.empty()) return false;
  for (const auto& item : split(field, ',')) {
    if (!read_item(item, lo, hi, bits)) return false;
  }
  return true;
}

std::tm utc(Clock::time_point t) {
  const std::time_t seconds = Clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}

bool day_matches(const Cron& cron, const std::tm& tm) {
  const bool day = cron.days.test(static_cast<std::size_t>(tm.tm_mday));
  const bool weekday = cron.weekdays.test(static_cast<std::size_t>(tm.tm_wday));
  if (cron.any_day && cron.any_weekday) return true;
  if (cron.any_day) return weekday;
  if (cron.any_weekday) return day;
  return day || weekday;
}

}  // namespace

std::optional<Cron> parse_cron(const std::string& expression, std::string* error) {
  std::istringstream in(expression);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  if (fields.size() != 5) {
    *error = "Invalid cron expression: expected 5 fields (minute hour day month weekday), got " +
             std::to_string(fields.size());
    return std::nullopt;
  }
  Cron cron;
  std::bitset<8> weekdays;
  static const char* const kNames[] = {"minute", "hour", "day of month", "month", "day of week"};
  const bool ok[] = {read_field(fields[0], 0, 59, cron.minutes),
                     read_field(fields[1], 0, 23, cron.hours),
                     read_field(fields[2], 1, 31, cron.days),
                     read_field(fields[3], 1, 12, cron.months),
                     read_field(fields[4], 0, 7, weekdays)};
  for (int i = 0; i < 5; ++i) {
    if (!ok[i]) {
      *error = "Invalid cron expression: bad " + std::string(kNames[i]) + " field '" +
               fields[static_cast<std::size_t>(i)] + "'";
      return std::nullopt;
    }
  }
  for (std::size_t d = 0; d < 7; ++d) cron.weekdays[d] = weekdays[d];
  if (weekdays[7]) cron.weekdays.set(0);
  cron.any_day = fields[2] == "*";
  cron.any_weekday = fields[4] == "*";
  return cron;
}

std::optional<Clock::time_point> Cron::next_after(Clock::time_point after) const {
  using std::chrono::minutes;
  auto t = std::chrono::floor<minutes>(after) + minutes(1);
  const auto limit = after + std::chrono::hours(24 * 366 * 5);
  while (t < limit) {
    const std::tm tm = utc(t);
    if (!months.test(static_cast<std::size_t>(tm.tm_mon + 1)) || !day_matches(*this, tm)) {
      t += minutes(24 * 60 - tm.tm_hour * 60 - tm.tm_min);  // the next day's midnight
    } else if (!hours.test(static_cast<std::size_t>(tm.tm_hour))) {
      t += minutes(60 - tm.tm_min);
    } else if (!this->minutes.test(static_cast<std::size_t>(tm.tm_min))) {
      t += minutes(1);
    } else {
      return t;
    }
  }
  return std::nullopt;
}

std::optional<std::string> cron_from_text(const std::string& text) {
  std::string lower;
  for (const unsigned char c : text) lower += static_cast<char>(std::tolower(c));
  std::smatch m;
  static const std::regex every(R"(^\s*every\s+(\d+)\s*(minute|min|hour|day)s?\s*$)");
  static const std::regex at(R"(^\s*(daily|every day)\s+at\s+(\d{1,2})(?::(\d{2}))?\s*$)");
  if (std::regex_match(lower, m, every)) {
    const int n = std::stoi(m[1].str());
    const std::string unit = m[2].str();
    if (unit == "day") return n == 1 ? std::optional<std::string>("0 0 * * *") : std::nullopt;
    const int most = unit == "hour" ? 23 : 59;
    if (n < 1 || n > most) return std::nullopt;
    const std::string step = n == 1 ? "*" : "*/" + std::to_string(n);
    return unit == "hour" ? "0 " + step + " * * *" : step + " * * * *";
  }
  if (std::regex_match(lower, m, at)) {
    const int hour = std::stoi(m[2].str());
    const int minute = m[3].matched ? std::stoi(m[3].str()) : 0;
    if (hour > 23 || minute > 59) return std::nullopt;
    return std::to_string(minute) + " " + std::to_string(hour) + " * * *";
  }
  static const std::pair<const char*, const char*> kWords[] = {
      {"every minute", "* * * * *"}, {"hourly", "0 * * * *"}, {"every hour", "0 * * * *"},
      {"daily", "0 0 * * *"},        {"every day", "0 0 * * *"}, {"weekly", "0 0 * * 0"},
      {"every week", "0 0 * * 0"},   {"monthly", "0 0 1 * *"}};
  const auto start = lower.find_first_not_of(" \t");
  const auto end = lower.find_last_not_of(" \t");
  const std::string trimmed = start == std::string::npos ? "" : lower.substr(start, end - start + 1);
  for (const auto& [words, cron] : kWords) {
    if (trimmed == words) return std::string(cron);
  }
  return std::nullopt;
}

}  // namespace webdata::mock::jobs
