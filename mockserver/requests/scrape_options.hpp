#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/version.hpp"

// The scrape options of a request (scrape, batch scrape, crawl's scrapeOptions, search's
// scrapeOptions, extract's scrapeOptions, parse), typed. The fields are the wire's, of both
// versions (a field of one version only is marked); the methods below them are how the pipeline
// reads them whatever the version, so that no code outside this layer branches on it.
// Every field with a default in the schema is a plain value, filled from the schema when the
// request is decoded; a field without one is optional. Nothing here repeats a default.

namespace webdata::mock::requests {

struct Viewport {
  std::int64_t width{};
  std::int64_t height{};
};

/// One entry of `formats`: a name (v1 strings; v2 strings or `{type, ...}` objects).
struct Format {
  std::string type;
  bool as_object = false;  ///< Sent as an object (written back the same way).
  std::optional<bool> full_page;  ///< screenshot
  std::optional<std::int64_t> quality;
  std::optional<Viewport> viewport;
  std::optional<nlohmann::json> schema;  ///< json, deterministicJson, changeTracking: the user's
  std::optional<std::string> prompt;     ///< json, deterministicJson, changeTracking, query
  std::optional<bool> check_prompt_injection;
  std::optional<std::vector<std::string>> modes;  ///< changeTracking
  std::optional<nlohmann::json> tag;              ///< changeTracking: a string or null
  std::optional<nlohmann::json> selectors;        ///< attributes (read by formats::attributes)
  std::optional<std::string> question;
  std::optional<std::string> query;  ///< highlights
  std::optional<std::string> mode;   ///< query
};

/// One entry of v2 `parsers`: "pdf" | "image" | `{type, mode?, maxPages?, ...}`.
struct Parser {
  std::string type;
  bool as_object = false;
  std::optional<std::string> mode;
  std::optional<std::int64_t> max_pages;
  std::optional<bool> pages;
  std::optional<bool> page_markdown;
  std::optional<bool> blocks;
  std::optional<bool> page_markers;
};

struct Location {
  std::string country;
  std::optional<std::vector<std::string>> languages;
};

/// v1 `jsonOptions` and `extract`.
struct ExtractOptions {
  std::optional<nlohmann::json> schema;
  std::optional<std::string> system_prompt;
  std::optional<std::string> prompt;
};

/// v1 `changeTrackingOptions`.
struct ChangeTrackingOptions {
  std::optional<std::vector<std::string>> modes;
  std::optional<nlohmann::json> schema;
  std::optional<std::string> prompt;
  std::optional<nlohmann::json> tag;
};

/// What a model-made format works from, whichever version asked: a schema (null for none) and
/// the prompts.
struct ExtractSpec {
  nlohmann::json schema;
  std::string prompt;
  std::string system_prompt;
};

struct ChangeTrackingSpec {
  std::vector<std::string> modes;
  std::optional<std::string> tag;
  nlohmann::json schema;
  std::string prompt;
};

struct ScreenshotSpec {
  bool full_page = false;
  std::optional<Viewport> viewport;
};

struct ScrapeOptions {
  Version version = Version::v2;

  std::vector<Format> formats;
  bool only_main_content{};
  std::optional<std::vector<std::string>> include_tags;
  std::optional<std::vector<std::string>> exclude_tags;
  std::int64_t max_age{};
  std::optional<std::map<std::string, std::string>> headers;
  std::int64_t wait_for{};
  bool mobile{};
  bool skip_tls_verification{};
  std::int64_t timeout{};
  bool parse_pdf{};                                            ///< v1
  std::optional<ExtractOptions> json_options;                  ///< v1
  std::optional<ExtractOptions> extract;                       ///< v1
  std::optional<ChangeTrackingOptions> change_tracking_options;  ///< v1
  std::vector<Parser> parsers;                                 ///< v2
  /// Run by formats::ActionRunner, which reads each action; the schema checked their shape.
  std::optional<std::vector<nlohmann::json>> actions;
  Location location;
  bool remove_base64_images{};
  bool block_ads{};
  std::string proxy;
  bool store_in_cache{};
  bool zero_data_retention{};
  bool only_clean_content{};                    ///< v2
  std::optional<std::int64_t> min_age;          ///< v2
  bool lockdown{};                              ///< v2
  std::optional<nlohmann::json> redact_pii;     ///< v2: true or options (formats::redact_pii)
  std::optional<nlohmann::json> profile;        ///< v2, no effect
  std::optional<nlohmann::json> threat_protection;  ///< v2, no effect
  std::optional<nlohmann::json> audit_metadata;     ///< v2, no effect
  std::optional<bool> safe_mode;                    ///< v2, no effect
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// The options a request of `version` has when it sets none: every schema default
  /// (`vN/scrape-options`), decoded once.
  static const ScrapeOptions& defaults(Version version);

  /// Whether `name` is asked for (v1 `screenshot@fullPage` counts as `screenshot`).
  bool wants(std::string_view name) const;
  /// The format names asked for, in order, without repeats.
  std::vector<std::string> format_names() const;
  /// The entry of type `type`, or null.
  const Format* format(std::string_view type) const;

  /// PDF text as markdown (v1 `parsePDF`, v2 a `pdf` parser) or the file itself.
  bool parses_pdf() const;
  /// basic | enhanced | auto (`stealth` is the older name of enhanced).
  std::string proxy_mode() const;
  /// Headers or actions: the page may differ per request, so it is neither cached nor served
  /// from the cache.
  bool sensitive() const;
  /// Nothing of the scrape is kept (zero data retention, or v2 lockdown).
  bool keeps_nothing() const;
  /// `Accept-Language` from `location.languages` ("" without any).
  std::string accept_language() const;

  /// The `json` format's schema and prompts (v2 format entry, v1 `jsonOptions`).
  std::optional<ExtractSpec> json_format() const;
  /// v2 `deterministicJson`.
  std::optional<ExtractSpec> deterministic_json_format() const;
  /// v1 `extract` format with its `extract` options.
  std::optional<ExtractSpec> extract_format() const;
  /// `changeTracking` (v2 format entry, v1 `changeTrackingOptions`).
  std::optional<ChangeTrackingSpec> change_tracking() const;
  /// `screenshot` (v2 entry, v1 `screenshot` / `screenshot@fullPage`).
  std::optional<ScreenshotSpec> screenshot() const;

  /// These options asking for markdown and the `json` format with `spec` instead of their own
  /// formats, in their version's terms (an extract job's page).
  ScrapeOptions with_json_format(const ExtractSpec& spec) const;
};

/// v2 parse options (the `options` part of POST /v2/parse): the scrape options a file gets.
ScrapeOptions decode_parse_options(const nlohmann::json& body,
                                   std::vector<std::string>* unread = nullptr);

}  // namespace webdata::mock::requests
