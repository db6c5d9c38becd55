#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/search.hpp"
#include "webdata/v1/scrape.hpp"

namespace webdata::v1 {

/// POST /v1/search.
struct SearchRequest {
  std::string query;
  std::optional<int> limit;
  std::optional<std::string> tbs;
  std::optional<std::string> filter;
  std::optional<std::string> lang;
  std::optional<std::string> country;
  std::optional<std::string> location;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<bool> ignore_invalid_urls;
  std::optional<ScrapeOptions> scrape_options;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// Answer of POST /v1/search: a flat list of web results.
struct SearchResults {
  std::optional<bool> success;
  std::vector<WebResult> data;
  std::optional<std::string> warning;
  std::optional<std::string> id;
  std::optional<int> credits_used;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata::v1
