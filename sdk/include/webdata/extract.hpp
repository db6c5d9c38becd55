#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/scrape.hpp"
#include "webdata/v1/scrape.hpp"

namespace webdata {

/// POST /v2/extract: one structured answer from a set of pages. A URL ending in `/*` stands for
/// the pages of that section of the site. Give a `schema`, a `prompt`, or both.
struct ExtractRequest {
  std::vector<std::string> urls;  ///< 1..10
  std::optional<std::string> prompt;
  std::optional<Json> schema;  ///< A JSON Schema object; `data` validates against it.
  std::optional<std::string> system_prompt;
  std::optional<bool> allow_external_links;  ///< default false
  std::optional<bool> enable_web_search;     ///< default false
  std::optional<bool> show_sources;          ///< default false: no `sources` in the status
  std::optional<bool> ignore_invalid_urls;   ///< default false: an invalid URL is a 400
  std::optional<ScrapeOptions> scrape_options;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// The answer of the start call.
struct ExtractStarted {
  std::string id;
  std::vector<std::string> invalid_urls;  ///< Skipped with `ignore_invalid_urls`.
  std::optional<std::string> warning;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// An extract job's state (GET /v2/extract/{id}). `status` is "processing", "completed",
/// "failed" or "cancelled" (kept as the service sends it, so a newer value is not lost).
struct ExtractResult {
  bool success = false;  ///< false when the job failed
  std::string status;
  Json data;  ///< The extraction once completed (`[]` before, as deployments answer).
  /// With `show_sources`: for each top-level field of `data`, the pages it came from.
  std::map<std::string, std::vector<std::string>> sources;
  std::optional<std::string> expires_at;  ///< ISO 8601
  long long credits_used = 0;
  std::optional<long long> tokens_used;
  std::optional<std::string> warning;
  std::optional<std::string> error;  ///< Why a failed job failed.
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;

  /// Whether the job ended (any status but "processing").
  bool done() const { return status != "processing"; }
};

namespace v1 {

/// POST /v1/extract: as v2, with v1 scrape options and `includeSubdomains`.
struct ExtractRequest {
  std::vector<std::string> urls;
  std::optional<std::string> prompt;
  std::optional<Json> schema;
  std::optional<std::string> system_prompt;
  std::optional<bool> allow_external_links;
  std::optional<bool> enable_web_search;
  std::optional<bool> include_subdomains;  ///< default true: a `/*` URL takes subdomains too
  std::optional<bool> show_sources;
  std::optional<bool> ignore_invalid_urls;
  std::optional<ScrapeOptions> scrape_options;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

}  // namespace v1
}  // namespace webdata
