#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/v1/scrape.hpp"
#include "webdata/webhook_spec.hpp"

namespace webdata::v1 {

/// POST /v1/crawl. v1 has maxDepth, ignoreSitemap and allowBackwardLinks where v2 has
/// maxDiscoveryDepth, sitemap and crawlEntireDomain.
struct CrawlRequest {
  std::string url;
  std::optional<std::vector<std::string>> include_paths;
  std::optional<std::vector<std::string>> exclude_paths;
  std::optional<int> max_depth;
  std::optional<int> max_discovery_depth;
  std::optional<bool> ignore_sitemap;
  std::optional<bool> ignore_robots_txt;
  std::optional<bool> ignore_query_parameters;
  std::optional<bool> deduplicate_similar_urls;
  std::optional<bool> regex_on_full_url;
  std::optional<int> limit;
  std::optional<bool> allow_backward_links;
  std::optional<bool> allow_external_links;
  std::optional<bool> allow_subdomains;
  std::optional<std::chrono::milliseconds> delay;  ///< Sent in seconds.
  std::optional<int> max_concurrency;
  std::optional<WebhookSpec> webhook;
  std::optional<ScrapeOptions> scrape_options;
  std::optional<bool> zero_data_retention;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

}  // namespace webdata::v1
