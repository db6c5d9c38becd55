#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "webdata/formats.hpp"
#include "webdata/json.hpp"
#include "webdata/result.hpp"
#include "webdata/scrape.hpp"  // Parser, ProxyMode

namespace webdata {

/// A file for POST /v2/parse: its bytes, the name it is sent under and its media type.
///
///     webdata::ParseFile file{html_text, "report.html", "text/html"};
///     auto doc = client.parse(file);
struct ParseFile {
  std::string data;      ///< The file's bytes (any bytes, NULs included).
  std::string filename;  ///< Sent as the part's filename; the document's `metadata.sourceURL`.
  /// e.g. "application/pdf". Empty: from the filename's extension (.html .htm .xhtml .pdf .txt
  /// .md .markdown), else application/octet-stream, which leaves the type to the service.
  std::string content_type;
};

/// The `options` of a parse: the scrape options that apply to a file (nothing is fetched, so
/// there are no browser or network options).
struct ParseOptions {
  std::optional<std::vector<FormatEntry>> formats;  ///< default: markdown
  std::optional<bool> only_main_content;            ///< default true
  std::optional<std::vector<std::string>> include_tags;
  std::optional<std::vector<std::string>> exclude_tags;
  /// default {"pdf"}; empty: a PDF comes back base64-encoded for one credit.
  std::optional<std::vector<Parser>> parsers;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<bool> remove_base64_images;  ///< default true
  std::optional<bool> block_ads;             ///< default true
  std::optional<ProxyMode> proxy;            ///< The service takes auto or basic for a file.
  std::optional<bool> zero_data_retention;   ///< default false
  /// `true`, or `{mode?, entities?, replaceStyle?}`: personal data in the text is replaced.
  std::optional<Json> redact_pii;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// The media type the SDK sends for a filename: by extension (.html .htm .xhtml .pdf .txt .md
/// .markdown, any case), else "application/octet-stream".
std::string parse_content_type_for(const std::string& filename);

/// The file at `path` read whole, named by its filename, its type by parse_content_type_for.
/// An unreadable path (missing, a directory, no permission) is a kInvalidArgument error.
Result<ParseFile> read_parse_file(const std::filesystem::path& path);

}  // namespace webdata
