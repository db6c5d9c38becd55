#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"

namespace webdata {

/// The format names as constants, for the short forms (v2 and v1) and for v1's string formats.
///
///     auto doc = client.scrape("https://example.com", {webdata::Format::markdown,
///                                                      webdata::Format::links});
struct Format {
  static constexpr const char* markdown = "markdown";
  static constexpr const char* summary = "summary";  ///< v2
  static constexpr const char* html = "html";
  static constexpr const char* raw_html = "rawHtml";
  static constexpr const char* links = "links";
  static constexpr const char* images = "images";  ///< v2
  static constexpr const char* screenshot = "screenshot";
  static constexpr const char* json = "json";
  static constexpr const char* change_tracking = "changeTracking";
  static constexpr const char* branding = "branding";  ///< v2
};

/// Browser viewport in CSS pixels.
struct Viewport {
  int width = 0;
  int height = 0;
};

/// One `{selector, attribute}` of the attributes format.
struct AttributeSelector {
  std::string selector;   ///< CSS selector over the whole page
  std::string attribute;  ///< attribute whose values are returned
};

/// One entry of v2 `formats`. Sent as the bare type string when no option is set, otherwise
/// as an object `{type, ...options}`.
///
///     req.formats = {"markdown", "links",
///                    webdata::FormatEntry::json_extraction(schema, "The price")};
struct FormatEntry {
  FormatType type;

  // json
  std::optional<Json> schema;         ///< json, changeTracking
  std::optional<std::string> prompt;  ///< json, changeTracking

  // screenshot
  std::optional<bool> full_page;
  std::optional<int> quality;
  std::optional<Viewport> viewport;

  // changeTracking
  std::optional<std::vector<std::string>> modes;  ///< e.g. "git-diff", "json"
  std::optional<std::string> tag;

  // json
  std::optional<bool> check_prompt_injection;
  // attributes
  std::optional<std::vector<AttributeSelector>> selectors;
  // question (answered in the document's `answer`)
  std::optional<std::string> question;
  // highlights (`query`); the older `query` format sends `prompt` and `mode` instead
  std::optional<std::string> query;
  std::optional<std::string> mode;  ///< query format: "freeform" or "directQuote"

  FormatEntry() = default;
  FormatEntry(const char* type_name) : type(type_name) {}  // NOLINT(google-explicit-constructor)
  FormatEntry(std::string type_name)
      : type(std::move(type_name)) {}                // NOLINT(google-explicit-constructor)
  FormatEntry(FormatType t) : type(std::move(t)) {}  // NOLINT(google-explicit-constructor)

  /// `{type: json, schema?, prompt?}`.
  static FormatEntry json_extraction(std::optional<Json> schema,
                                     std::optional<std::string> prompt = std::nullopt);
  /// `{type: screenshot, fullPage?, quality?, viewport?}`.
  static FormatEntry screenshot(std::optional<bool> full_page, std::optional<int> quality = {},
                                std::optional<Viewport> viewport = {});
  /// `{type: changeTracking, modes?, schema?, prompt?, tag?}`.
  static FormatEntry change_tracking(std::optional<std::vector<std::string>> modes,
                                     std::optional<Json> schema = {},
                                     std::optional<std::string> prompt = {},
                                     std::optional<std::string> tag = {});

  /// True when the entry carries options (and is therefore sent as an object).
  bool has_options() const;
};

}  // namespace webdata
