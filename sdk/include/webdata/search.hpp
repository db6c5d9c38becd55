#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/metadata.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/scrape.hpp"

namespace webdata {

/// POST /v2/search. `query` supports the operators "...", -, site:, filetype:, inurl:,
/// allinurl:, intitle:, allintitle:, related:, imagesize:, larger:.
struct SearchRequest {
  std::string query;
  std::optional<int> limit;                          ///< 1..100 per source, default 5
  std::optional<std::vector<SearchSource>> sources;  ///< default {web}
  std::optional<std::vector<SearchCategory>> categories;
  std::optional<std::string> tbs;       ///< "qdr:d", or "cdr:1,cd_min:MM/DD/YYYY,cd_max:..."
  std::optional<std::string> filter;    ///< "1" leaves out results repeating another one
  std::optional<std::string> lang;      ///< language of web and news results, default "en"
  std::optional<std::string> location;  ///< e.g. "Berlin,Germany"
  std::optional<std::string> country;   ///< ISO code, default US
  std::optional<std::chrono::milliseconds> timeout;  ///< default 60 s
  std::optional<bool> ignore_invalid_urls;
  std::optional<bool> highlights;  ///< query-relevant highlights per result
  /// Only results on these hostnames (and their subdomains); not together with exclude_domains.
  std::optional<std::vector<std::string>> include_domains;
  std::optional<std::vector<std::string>> exclude_domains;  ///< no results on these hostnames
  std::optional<std::vector<std::string>> enterprise;  ///< "default", "anon", "zdr"
  std::optional<bool> async_scraping;
  /// Exchange tools (the service's tool catalogue): a team without Exchange gets 403.
  std::optional<bool> domain_tools;
  std::optional<std::string> tool_detail;  ///< with domain_tools: "compact", "summary" or "full"
  std::optional<Json> threat_protection;  ///< as ScrapeOptions::threat_protection
  std::optional<ScrapeOptions> scrape_options;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// A web result; the scrape outputs are present when scrapeOptions asked for them.
struct WebResult {
  std::string url;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> category;  ///< The category that produced the result.
  std::optional<int> position;
  std::optional<std::string> markdown;
  std::optional<std::string> html;
  std::optional<std::string> raw_html;
  std::optional<std::vector<std::string>> links;
  std::optional<std::string> screenshot;
  std::optional<Metadata> metadata;
  Extras extras;
};

struct ImageResult {
  std::optional<std::string> title;
  std::optional<std::string> image_url;
  std::optional<int> image_width;
  std::optional<int> image_height;
  std::optional<std::string> url;
  std::optional<int> position;
  Extras extras;
};

struct NewsResult {
  std::optional<std::string> title;
  std::optional<std::string> snippet;
  std::optional<std::string> url;
  std::optional<std::string> date;  ///< As the source gives it, often relative ("2 hours ago").
  std::optional<std::string> image_url;
  std::optional<int> position;
  std::optional<std::string> category;
  std::optional<std::string> markdown;
  std::optional<std::string> html;
  std::optional<std::string> raw_html;
  std::optional<std::vector<std::string>> links;
  std::optional<std::string> screenshot;
  std::optional<Metadata> metadata;
  Extras extras;
};

/// Answer of POST /v2/search: only the requested sources are present.
struct SearchResults {
  std::optional<bool> success;
  std::optional<std::vector<WebResult>> web;
  std::optional<std::vector<ImageResult>> images;
  std::optional<std::vector<NewsResult>> news;
  std::optional<std::string> warning;
  std::optional<std::string> id;
  std::optional<int> credits_used;
  /// Unknown keys of the response and of its `data` (prefixed `data.`).
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
