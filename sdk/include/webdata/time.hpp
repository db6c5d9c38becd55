#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace webdata {

/// A point in time as the service reports it (ISO 8601 on the wire). The wire text is kept as
/// received, so a document read and written again is unchanged; `time()` gives the instant.
///
///     if (auto t = status.expires_at->time()) wait_until(*t);
class Timestamp {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  Timestamp() = default;
  /// The instant, written as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
  explicit Timestamp(TimePoint t);
  /// Keeps `text` as it is; `time()` is empty when it is not an ISO 8601 date-time.
  static Timestamp from_text(std::string text);

  const std::string& text() const noexcept { return text_; }
  std::optional<TimePoint> time() const noexcept { return time_; }

  friend bool operator==(const Timestamp& a, const Timestamp& b) { return a.text_ == b.text_; }
  friend bool operator!=(const Timestamp& a, const Timestamp& b) { return !(a == b); }

 private:
  std::string text_;
  std::optional<TimePoint> time_;
};

/// Parses ISO 8601 date-times such as `2025-01-31T12:00:00.123Z` or `...+02:00` (UTC result);
/// std::nullopt when the text is not one.
std::optional<Timestamp::TimePoint> parse_iso8601(std::string_view text);
/// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
std::string format_iso8601(Timestamp::TimePoint t);

}  // namespace webdata
