#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/actions.hpp"
#include "webdata/json.hpp"
#include "webdata/location.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/webhook_spec.hpp"

namespace webdata::v1 {

/// v1 `jsonOptions` (and the older `extract`): what to extract with the json format.
struct JsonOptions {
  std::optional<Json> schema;
  std::optional<std::string> system_prompt;
  std::optional<std::string> prompt;
};

/// v1 `changeTrackingOptions` (beta); applies when "changeTracking" and "markdown" are both
/// in `formats`.
struct ChangeTrackingOptions {
  std::optional<std::vector<std::string>> modes;  ///< e.g. {"git-diff"}
  std::optional<Json> schema;
  std::optional<std::string> prompt;
  std::optional<std::string> tag;
};

/// v1 scrape options. Defaults differ from v2: maxAge 0 (no cache), skipTlsVerification false,
/// proxy basic.
struct ScrapeOptions {
  /// Strings: markdown, html, rawHtml, links, screenshot, screenshot@fullPage, json, extract,
  /// changeTracking.
  std::optional<std::vector<std::string>> formats;
  std::optional<bool> only_main_content;
  std::optional<std::vector<std::string>> include_tags;
  std::optional<std::vector<std::string>> exclude_tags;
  std::optional<std::chrono::milliseconds> max_age;
  std::optional<std::map<std::string, std::string>> headers;
  std::optional<std::chrono::milliseconds> wait_for;
  std::optional<bool> mobile;
  std::optional<bool> skip_tls_verification;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<bool> parse_pdf;  ///< default true
  std::optional<JsonOptions> json_options;
  std::optional<JsonOptions> extract;  ///< Older name of jsonOptions.
  std::optional<ChangeTrackingOptions> change_tracking_options;
  /// The first `wait` action may carry a selector (Action::wait_for).
  std::optional<std::vector<Action>> actions;
  std::optional<Location> location;
  std::optional<bool> remove_base64_images;
  std::optional<bool> block_ads;
  std::optional<ProxyMode> proxy;
  std::optional<bool> store_in_cache;
  std::optional<bool> zero_data_retention;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// POST /v1/scrape.
struct ScrapeRequest : ScrapeOptions {
  std::string url;
};

/// POST /v1/batch/scrape.
struct BatchScrapeRequest : ScrapeOptions {
  std::vector<std::string> urls;
  std::optional<WebhookSpec> webhook;
  std::optional<int> max_concurrency;
  std::optional<bool> ignore_invalid_urls;  ///< v1 default false
  /// Adds the URLs to this existing batch job of the team instead of starting a new one.
  std::optional<std::string> append_to_id;
};

}  // namespace webdata::v1
