#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/actions.hpp"
#include "webdata/formats.hpp"
#include "webdata/location.hpp"
#include "webdata/open_enum.hpp"

namespace webdata {

/// One entry of `parsers`: `"pdf"` / `"image"`, or `{type, maxPages?, mode?}` when an option
/// is set.
struct Parser {
  std::string type = "pdf";
  std::optional<int> max_pages;
  std::optional<std::string> mode;  ///< pdf: "fast", "auto" or "ocr"
  std::optional<bool> pages;         ///< pdf: per-page markdown
  std::optional<bool> page_markdown;  ///< pdf: older name of `pages`
  std::optional<bool> blocks;        ///< pdf: per-page layout blocks
  std::optional<bool> page_markers;  ///< pdf: page markers in the markdown

  Parser() = default;
  Parser(const char* parser_type) : type(parser_type) {}  // NOLINT(google-explicit-constructor)
  Parser(std::string parser_type)
      : type(std::move(parser_type)) {}  // NOLINT(google-explicit-constructor)
};

/// A named browser profile kept between scrapes (`profile`).
struct BrowserProfile {
  std::string name;                  ///< up to 128 characters
  std::optional<bool> save_changes;  ///< default true
};

/// v2 scrape options: the body of POST /v2/scrape without `url`, shared by batch scrape,
/// crawl `scrapeOptions` and search `scrapeOptions`. Every field is optional: an unset field
/// is not sent and the service default applies (shown in each comment).
struct ScrapeOptions {
  std::optional<std::vector<FormatEntry>> formats;  ///< default: markdown
  std::optional<bool> only_main_content;            ///< default true
  std::optional<std::vector<std::string>> include_tags;
  std::optional<std::vector<std::string>> exclude_tags;
  std::optional<std::chrono::milliseconds> max_age;  ///< default 2 days
  std::optional<std::map<std::string, std::string>> headers;
  std::optional<std::chrono::milliseconds> wait_for;  ///< default 0
  std::optional<bool> mobile;                         ///< default false
  std::optional<bool> skip_tls_verification;          ///< default true
  std::optional<std::chrono::milliseconds> timeout;   ///< default 30 s, max 300 s
  /// default {"pdf"}; empty: PDFs come back base64-encoded.
  std::optional<std::vector<Parser>> parsers;
  std::optional<std::vector<Action>> actions;
  std::optional<Location> location;
  std::optional<bool> remove_base64_images;  ///< default true
  std::optional<bool> block_ads;             ///< default true
  std::optional<ProxyMode> proxy;            ///< default auto
  std::optional<bool> store_in_cache;        ///< default true
  std::optional<bool> zero_data_retention;   ///< default false
  std::optional<bool> only_clean_content;    ///< default false
  std::optional<std::chrono::milliseconds> min_age;
  /// Answer from the cache only, never fetch (a miss is 404 SCRAPE_LOCKDOWN_CACHE_MISS).
  std::optional<bool> lockdown;
  /// `true`, or `{mode?, entities?, replaceStyle?}`: personal data in the text is replaced.
  std::optional<Json> redact_pii;
  std::optional<BrowserProfile> profile;
  /// Enterprise: `{mode?, riskScoreThreshold?, blacklist?, whitelist?, blockedTlds?,
  /// failurePolicy?}`, a per-request override of the team's threat protection policy.
  std::optional<Json> threat_protection;
  /// Enterprise: `{username}`, recorded in the team's audit log.
  std::optional<Json> audit_metadata;
  std::optional<bool> safe_mode;
  std::optional<std::string> origin;         ///< Accepted by every endpoint; names the caller.
  std::optional<std::string> integration;    ///< Accepted by every endpoint.
};

/// POST /v2/scrape.
///
///     webdata::ScrapeRequest req;
///     req.url = "https://example.com";
///     req.formats = {"markdown", "links"};
struct ScrapeRequest : ScrapeOptions {
  std::string url;
};

}  // namespace webdata
