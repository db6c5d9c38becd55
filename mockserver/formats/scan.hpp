#pragma once

// Internal: scanners that find typed values in page text (numbers, prices, dates, emails,
// phones, booleans). Hand-written loops, linear in the text: no std::regex on page text.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webdata::mock::formats::detail {

/// The first number in text: "1,234.56" -> 1234.56, "12,99 €" -> 12.99, "-3" -> -3.
std::optional<double> parse_number(std::string_view text);

struct Price {
  double amount = 0;
  std::string currency;  ///< ISO 4217 code, empty when only a number was seen
  std::string text;      ///< as written ("$19.99")
};
/// Amounts with a currency symbol or code before or after them, in text order.
std::vector<Price> find_prices(std::string_view text);

/// Dates in text order, normalized: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS[Z|+hh:mm]". Reads ISO
/// 8601, "March 3, 2024", "3 March 2024", "Mar 3 2024".
std::vector<std::string> find_dates(std::string_view text);
/// A normalized date as a JSON Schema "date" ("YYYY-MM-DD").
std::string as_date(const std::string& normalized);
/// A normalized date as a JSON Schema "date-time" (UTC "Z" added when the zone is unknown).
std::string as_date_time(const std::string& normalized);

std::vector<std::string> find_emails(std::string_view text);
/// Phone numbers written with a leading '+' or '(' , or after a "phone"/"tel"/"call" label.
std::vector<std::string> find_phones(std::string_view text);
/// "yes", "true", "in stock", "available", "✓" -> true; "no", "false", "out of stock",
/// "sold out", "unavailable", "✗" -> false.
std::optional<bool> parse_bool(std::string_view text);

bool looks_like_email(std::string_view s);
bool looks_like_url(std::string_view s);

}  // namespace webdata::mock::formats::detail
