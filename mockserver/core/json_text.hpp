#pragma once

// JSON text of a value, byte for byte what nlohmann::json's
// `dump(-1, ' ', false, error_handler_t::replace)` writes, in a fraction of its time: a string
// that is valid UTF-8 (nearly every one) is copied span by span, with only `"`, `\` and control
// characters escaped, where nlohmann's serializer runs a UTF-8 decoder over every byte. Answers
// (a scrape document, a crawl page) are mostly one long markdown string, so this was the largest
// single cost of a cache hit.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace webdata::mock {

/// The compact JSON text of `value`; invalid UTF-8 in strings becomes U+FFFD, as nlohmann's
/// replace handler does.
std::string json_text(const nlohmann::json& value);
void append_json_text(std::string& out, const nlohmann::json& value);
/// A JSON string literal (quotes included) of `text`.
void append_json_string(std::string& out, std::string_view text);

}  // namespace webdata::mock
