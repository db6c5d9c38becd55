#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "webdata/json.hpp"
#include "webdata/time.hpp"

namespace webdata {

Result<Json> Json::parse(std::string_view text) {
  auto parsed = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (parsed.is_discarded()) {
    return detail::error_of(ErrorKind::kInvalidArgument, "not valid JSON text");
  }
  return from_trusted_text(parsed.dump());
}

Json Json::string(std::string_view value) {
  return from_trusted_text(nlohmann::json(std::string(value)).dump());
}
Json Json::number(double value) {
  return from_trusted_text(nlohmann::json(value).dump());
}
Json Json::integer(long long value) {
  return from_trusted_text(nlohmann::json(value).dump());
}
Json Json::boolean(bool value) {
  return from_trusted_text(value ? "true" : "false");
}
Json Json::object(const std::map<std::string, std::string>& members) {
  return from_trusted_text(nlohmann::json(members).dump());
}

std::string Json::pretty(int indent) const {
  return nlohmann::json::parse(text_, nullptr, false).dump(indent);
}

std::optional<std::string> Json::as_string() const {
  if (!is_string()) return std::nullopt;
  auto parsed = nlohmann::json::parse(text_, nullptr, false);
  if (!parsed.is_string()) return std::nullopt;
  return parsed.get<std::string>();
}

Json Json::from_trusted_text(std::string compact_text) {
  Json out;
  out.text_ = std::move(compact_text);
  return out;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

bool digits(std::string_view text, std::size_t pos, std::size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<Timestamp::TimePoint> parse_iso8601(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, year) || text.size() < 10 || text[4] != '-' ||
      !digits(text, 5, 2, month) || text[7] != '-' || !digits(text, 8, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  std::size_t pos = 10;
  long long nanos = 0;
  long long offset_seconds = 0;
  if (pos < text.size()) {
    if (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ') return std::nullopt;
    if (!digits(text, pos + 1, 2, hour) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !digits(text, pos + 4, 2, minute)) {
      return std::nullopt;
    }
    pos += 6;
    if (pos < text.size() && text[pos] == ':') {
      if (!digits(text, pos + 1, 2, second)) return std::nullopt;
      pos += 3;
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
    if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
      ++pos;
      long long scale = 100000000;
      const std::size_t start = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        nanos += (text[pos] - '0') * scale;
        scale /= 10;
        ++pos;
      }
      if (pos == start) return std::nullopt;
    }
    if (pos < text.size()) {
      if (text[pos] == 'Z' || text[pos] == 'z') {
        ++pos;
      } else if (text[pos] == '+' || text[pos] == '-') {
        int oh = 0, om = 0;
        if (!digits(text, pos + 1, 2, oh)) return std::nullopt;
        std::size_t mpos = pos + 3;
        if (mpos < text.size() && text[mpos] == ':') ++mpos;
        if (!digits(text, mpos, 2, om)) return std::nullopt;
        offset_seconds = (oh * 3600LL + om * 60LL) * (text[pos] == '-' ? -1 : 1);
        pos = mpos + 2;
      }
    }
    if (pos != text.size()) return std::nullopt;
  }
  const long long days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const long long seconds = days * 86400 + hour * 3600LL + minute * 60LL + second - offset_seconds;
  // Beyond what the clock holds (about years 1678..2262 with nanosecond ticks) there is no
  // instant to give: the text is kept, time() is empty (converting would overflow).
  constexpr long long kLimit =
      std::chrono::duration_cast<std::chrono::seconds>(Timestamp::TimePoint::duration::max())
          .count() - 1;
  if (seconds >= kLimit || seconds <= -kLimit) return std::nullopt;
  const auto since_epoch = std::chrono::seconds(seconds) + std::chrono::nanoseconds(nanos);
  return Timestamp::TimePoint(
      std::chrono::duration_cast<Timestamp::TimePoint::duration>(since_epoch));
}

std::string format_iso8601(Timestamp::TimePoint t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch());
  long long total_ms = ms.count();
  long long secs = total_ms / 1000;
  long long rem = total_ms % 1000;
  if (rem < 0) {
    rem += 1000;
    secs -= 1;
  }
  const std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, rem);
  return buf;
}

Timestamp::Timestamp(TimePoint t) : text_(format_iso8601(t)), time_(t) {}

Timestamp Timestamp::from_text(std::string text) {
  Timestamp out;
  out.time_ = parse_iso8601(text);
  out.text_ = std::move(text);
  return out;
}

}  // namespace webdata
