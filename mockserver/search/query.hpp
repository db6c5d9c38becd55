#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webdata::mock::search {

/// Image dimensions in pixels.
struct Size {
  int width = 0;
  int height = 0;
};

/// A search query with its operators taken apart (specification 4.3). Terms and phrases are in
/// normalized term form (see tokenize()); hosts, paths and URL words are lower case.
///
///   parse_query("\"river level\" -site:github.example.test filetype:pdf larger:800x600")
struct Query {
  std::vector<std::string> terms;                          ///< Free words: every one must match.
  std::vector<std::vector<std::string>> phrases;           ///< "exact phrase": consecutive terms.
  std::vector<std::string> excluded_terms;                 ///< -word
  std::vector<std::vector<std::string>> excluded_phrases;  ///< -"phrase"
  std::vector<std::string> sites;                  ///< site: host (and subdomains) [+ path prefix]
  std::vector<std::string> excluded_sites;         ///< -site:
  std::vector<std::string> filetypes;              ///< filetype: / ext: (any of them)
  std::vector<std::string> excluded_filetypes;     ///< -filetype:
  std::vector<std::string> in_url;                 ///< inurl: and allinurl: words
  std::vector<std::string> excluded_in_url;        ///< -inurl:
  std::vector<std::vector<std::string>> in_title;  ///< intitle: / allintitle: (terms; a phrase
                                                   ///< is one entry of several terms)
  std::vector<std::vector<std::string>> excluded_in_title;  ///< -intitle:
  std::optional<std::string> related;                       ///< related: site or URL
  std::optional<Size> image_size;                           ///< imagesize:WxH (exact)
  std::optional<Size> larger;         ///< larger:WxH (both dimensions at least)
  std::vector<std::string> problems;  ///< Operators that could not be read.

  /// Nothing that would select pages by content (only filters, or nothing at all).
  bool has_content_terms() const { return !terms.empty() || !phrases.empty() || !in_title.empty(); }
  /// Every positive term of words, phrases and intitle:, for ranking and snippets.
  std::vector<std::string> ranking_terms() const;
};

/// Parses the query language: words, "phrases", a leading `-` negating a word, a phrase or an
/// operator (`-site:`, `-filetype:`, `-inurl:`, `-intitle:`), `site:`, `filetype:` (`ext:`),
/// `inurl:`, `allinurl:` and `allintitle:` (taking the rest of the query), `intitle:` (a word or
/// a "phrase"), `related:`, `imagesize:WxH`, `larger:WxH`. Anything else that looks like
/// `name:value` is text. Never throws; unreadable operator values are listed in `problems` (the
/// service reports them as a warning).
Query parse_query(std::string_view text);

}  // namespace webdata::mock::search
