#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/location.hpp"
#include "webdata/crawl.hpp"  // SitemapMode

namespace webdata {

/// POST /v2/map: the URLs of a site, without scraping it.
struct MapRequest {
  std::string url;
  std::optional<std::string> search;  ///< Orders the links by relevance to these words.
  std::optional<SitemapMode> sitemap;  ///< default include
  std::optional<bool> include_subdomains;       ///< default true
  std::optional<bool> ignore_query_parameters;  ///< default true
  std::optional<int> limit;                     ///< 1..100000, default 5000
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<Location> location;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// One URL of the site; title and description where the service read the page.
struct MapLink {
  std::string url;
  std::optional<std::string> title;
  std::optional<std::string> description;
  Extras extras;
};

struct MapResult {
  std::vector<MapLink> links;
  std::optional<std::string> warning;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
