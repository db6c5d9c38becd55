#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Text handling shared by the index, the query parser and the agent.

namespace webdata::mock::search {

/// Splits text into index terms: runs of ASCII letters and digits and of non-ASCII UTF-8 bytes
/// (so accented and CJK words stay whole), ASCII lower-cased, with a light English plural
/// stemmer ("levels" -> "level", "libraries" -> "library") so a query and a page meet on the
/// same form. Stop words are kept; callers that rank drop them with is_stop_word().
std::vector<std::string> tokenize(std::string_view text);

/// The term form of one word (lower case, stemmed), as tokenize() makes it.
std::string normalize_term(std::string_view word);

/// Common English and German function words that carry no topic.
bool is_stop_word(std::string_view term);

/// Whitespace runs collapsed to single spaces, trimmed.
std::string collapse_space(std::string_view text);

/// At most `max_bytes` of text, cut at a word boundary (never inside a UTF-8 sequence), with
/// "..." when something was cut.
std::string clip(std::string_view text, std::size_t max_bytes);



/// How long ago `then` was, as search engines show it: "5 hours ago", "3 days ago",
/// "2 months ago", "1 year ago"; "just now" under a minute (and for future dates).
std::string age_text(std::chrono::system_clock::time_point then,
                     std::chrono::system_clock::time_point now);

}  // namespace webdata::mock::search
