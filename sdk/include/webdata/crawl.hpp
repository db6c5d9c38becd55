#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/scrape.hpp"
#include "webdata/time.hpp"
#include "webdata/webhook_spec.hpp"

namespace webdata {

/// POST /v2/crawl.
struct CrawlRequest {
  std::string url;
  std::optional<std::string> prompt;                      ///< Natural-language crawl instructions.
  std::optional<std::vector<std::string>> include_paths;  ///< Regexes.
  std::optional<std::vector<std::string>> exclude_paths;  ///< Regexes.
  std::optional<int> max_discovery_depth;
  std::optional<SitemapMode> sitemap;
  std::optional<bool> ignore_robots_txt;
  std::optional<bool> ignore_query_parameters;
  std::optional<bool> deduplicate_similar_urls;
  std::optional<bool> regex_on_full_url;
  std::optional<int> limit;  ///< default 10000 pages
  std::optional<bool> crawl_entire_domain;
  std::optional<bool> allow_external_links;
  std::optional<bool> allow_subdomains;
  /// Pause between scrapes (0..60 s); sent in seconds.
  std::optional<std::chrono::milliseconds> delay;
  std::optional<int> max_concurrency;
  std::optional<WebhookSpec> webhook;
  std::optional<ScrapeOptions> scrape_options;
  std::optional<bool> zero_data_retention;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// One entry of GET /v{1,2}/crawl/active.
struct ActiveCrawl {
  std::string id;
  std::string team_id;
  std::string url;
  std::optional<Timestamp> created_at;
  /// The crawl's options as the service reports them, kept whole.
  Json options;
  /// `options.scrapeOptions` read into the scrape options model (keys it does not know stay
  /// in `options`).
  std::optional<ScrapeOptions> scrape_options;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
