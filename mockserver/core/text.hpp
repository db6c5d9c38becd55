#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webdata::mock {

/// An ASCII digit (unlike std::isdigit: no locale, no undefined behaviour on negative chars).
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
/// Case-insensitive ASCII comparison (header names, host names, tag names).
bool iequals(std::string_view a, std::string_view b);
/// ASCII lower case; other bytes unchanged.
std::string to_lower(std::string_view text);
/// `text` without leading and trailing ASCII blanks (space, tab, CR, LF, FF, VT).
std::string_view trim(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
bool ends_with(std::string_view text, std::string_view suffix);

/// Appends code point `cp` as UTF-8; NUL, surrogates and values past U+10FFFF become U+FFFD.
void append_utf8(std::string& out, std::uint32_t cp);
/// Well-formed UTF-8: no overlong forms, surrogates or code points above U+10FFFF.
bool is_valid_utf8(std::string_view text);

/// Header (or query) lists keep order and duplicates; names compare case-insensitively.
using HeaderList = std::vector<std::pair<std::string, std::string>>;
/// First value of header `name`, if any.
std::optional<std::string> find_header(const HeaderList& headers, std::string_view name);
/// Every value of header `name`, in order.
std::vector<std::string> find_headers(const HeaderList& headers, std::string_view name);

/// The standard reason phrase of an HTTP status ("Not Found"); "" for an unusual one.
const char* reason_phrase(int status);

}  // namespace webdata::mock
