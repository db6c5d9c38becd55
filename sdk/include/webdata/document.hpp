#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/change_tracking.hpp"
#include "webdata/json.hpp"
#include "webdata/metadata.hpp"

namespace webdata {

/// One `{url, html}` entry of `actions.scrapes`.
struct ActionScrape {
  std::string url;
  std::string html;
};

/// One `{type, value}` entry of `actions.javascriptReturns`; `value` is any JSON.
struct JavascriptReturn {
  std::string type;
  Json value;
};

/// `actions` of a scrape document: outputs of the browser actions, each in action order.
struct ActionsResult {
  std::vector<std::string> screenshots;
  std::vector<ActionScrape> scrapes;
  std::vector<JavascriptReturn> javascript_returns;
  std::vector<std::string> pdfs;
  Extras extras;
};

/// A scraped page: the `data` of a scrape, and each element of crawl and batch results.
/// Fields are present only when the matching format was requested or applies.
struct Document {
  std::optional<std::string> markdown;
  std::optional<std::string> summary;  ///< v2
  std::optional<std::string> html;
  std::optional<std::string> raw_html;
  std::optional<std::string> screenshot;  ///< data: URI or https URL
  std::optional<std::vector<std::string>> links;
  std::optional<std::vector<std::string>> images;
  std::optional<Json> json;            ///< Structured extraction of the json format.
  std::optional<Json> llm_extraction;  ///< v1
  std::optional<Json> extract;         ///< v1 `extract` format
  std::optional<ActionsResult> actions;
  Metadata metadata;
  std::optional<std::string> warning;
  std::optional<ChangeTracking> change_tracking;
  /// v2 `branding`: an open object (colorScheme, colors, fonts, typography, logo, images, ...),
  /// kept whole so that no key is lost.
  std::optional<Json> branding;
  /// v2 `attributes` format: `[{selector, attribute, values: [...]}]`, kept whole.
  std::optional<Json> attributes;
  std::optional<std::string> answer;      ///< v2 `question` (or `query`) format
  std::optional<std::string> highlights;  ///< v2 `highlights` format
  std::optional<std::string> raw_base64;  ///< v2 `rawBase64` format: the page as fetched
  /// Top-level keys this SDK has no field for, by wire name.
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
