#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace webdata::mock {

/// ISO 8601 UTC with milliseconds: 2026-11-23T09:00:00.123Z.
std::string iso8601(std::chrono::system_clock::time_point t);
/// ISO 8601 UTC to the second, milliseconds written as zero: 2026-11-23T09:00:00.000Z. The real
/// service zeroes them in `expiresAt`.
std::string iso8601_seconds(std::chrono::system_clock::time_point t);
/// ISO 8601 UTC without fractions: 2026-11-23T09:00:00Z.
std::string iso8601_compact(std::chrono::system_clock::time_point t);
/// The UTC calendar date: 2026-11-23.
std::string iso_date(std::chrono::system_clock::time_point t);

/// Days since 1970-01-01 of a proleptic Gregorian date (negative before the epoch).
long long days_from_civil(long long year, unsigned month, unsigned day);
/// The date `days` after 1970-01-01, as YYYY-MM-DD.
std::string date_from_days(long long days);

/// An ISO 8601 date or date-time read from the start of a text.
struct IsoDateTime {
  int year = 0;
  int month = 0;
  int day = 0;
  bool has_time = false;
  int hour = 0;
  int minute = 0;
  int second = 0;
  bool has_zone = false;   ///< `Z` or an offset was written.
  int offset_minutes = 0;  ///< East of UTC (+02:00 is 120).
  std::size_t length = 0;  ///< Characters read.

  /// The instant (a text without a zone is read as UTC).
  std::chrono::system_clock::time_point time() const;
};

/// Reads `YYYY-MM-DD`, then optionally `(T| )hh:mm[:ss[.fraction]]` and `Z` or `±hh:mm`, from the
/// start of `text`. The date must exist (leap years checked) and must not run on into more digits.
/// A time part that is not valid leaves the date alone (length 10). Nullopt without a valid date.
std::optional<IsoDateTime> read_iso8601(std::string_view text);
/// A whole text (surrounding blanks allowed) that is an ISO 8601 date or date-time.
std::optional<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text);

}  // namespace webdata::mock
