#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/scrape.hpp"
#include "webdata/webhook_spec.hpp"

namespace webdata {

/// POST /v2/batch/scrape: every scrape option, applied to each URL.
struct BatchScrapeRequest : ScrapeOptions {
  std::vector<std::string> urls;
  std::optional<WebhookSpec> webhook;
  std::optional<int> max_concurrency;       ///< default: the team limit
  std::optional<bool> ignore_invalid_urls;  ///< default true
  /// Adds the URLs to this existing batch job of the team instead of starting a new one.
  std::optional<std::string> append_to_id;
};

}  // namespace webdata
