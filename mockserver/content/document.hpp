#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::content {

/// A fetched response, as the scrape service hands it over.
struct Page {
  std::string url;  ///< final URL after redirects; base for relative URLs unless <base href>
  std::string content_type;
  int status_code = 200;
  std::string body;
};

/// The scrape options that change content (spec 4.1).
struct Options {
  bool only_main_content = true;
  std::vector<std::string> include_tags;  ///< CSS selectors; empty strings are ignored
  std::vector<std::string> exclude_tags;  ///< CSS selectors; empty strings are ignored
  bool remove_base64_images = true;
  bool block_ads = true;
};

/// Thrown by Document::html / markdown / text for an include or exclude selector that does not
/// parse; the scrape service answers it with 400 BAD_REQUEST. what() names the selector.
class SelectorError : public std::invalid_argument {
 public:
  SelectorError(std::string selector, const std::string& message);
  const std::string& selector() const { return selector_; }

 private:
  std::string selector_;
};

/// The error message for one CSS selector, or nullopt when it is supported and well formed.
std::optional<std::string> selector_error(std::string_view selector);

/// Throws SelectorError for the first bad selector of options.include_tags / exclude_tags.
void validate_selectors(const Options& options);

struct Parsed;  // content/pipeline.hpp: the tree, its per-node figures and its base URL

/// The replacement for a data: image URI when remove_base64_images is on (as the real service).
inline constexpr std::string_view kBase64ImagePlaceholder = "<Base64-Image-Removed>";

/// A page parsed once; every format is derived from the same tree. Immutable after parse():
/// copies share the tree and any number of threads may query one Document at the same time.
///
///   auto doc = Document::parse({"https://example.com/a", "text/html", 200, body});
///   std::string md = doc.markdown(Options{});
class Document {
 public:
  enum class Kind { kHtml, kText, kJson, kXml, kBinary };

  /// Never throws on bad input: malformed HTML, invalid UTF-8 and deep nesting are all parsed.
  /// Takes the page by value: pass an rvalue and its body is moved in, not copied.
  static Document parse(Page page);

  Kind kind() const;
  /// The base for relative URLs: <base href> resolved against Page::url, else Page::url.
  std::string base_url() const;

  std::string raw_html() const;  ///< the body exactly as fetched (may be invalid UTF-8)
  std::string html(const Options& options) const;  ///< cleaned HTML fragment
  std::string markdown(const Options& options) const;
  std::string text(const Options& options) const;  ///< plain text of the same content
  std::string title() const;

  /// Absolute http(s) URLs of a[href] and area[href] in the whole page (not only main content),
  /// fragments dropped, and mailto: links as written (as the service keeps them); duplicates
  /// removed, document order. Callers that fetch what they find keep to http(s).
  std::vector<std::string> links() const;
  /// Absolute http(s) image URLs (img src/srcset/data-src, picture source srcset, video poster,
  /// og:image, twitter:image), duplicates removed, document order; data: URIs are left out.
  std::vector<std::string> images() const;
  /// Page-derived metadata (spec 2.3, wire-decisions 7): the named keys plus every other
  /// <meta name|property|itemprop> under its own name. Never the keys the scrape service owns.
  /// `ogLocaleAlternate` is always there for a text document (an empty list without such tags),
  /// as the service sends it; a binary document has none.
  nlohmann::json metadata() const;

  /// The page as parsed once (charset-decoded, invalid UTF-8 as U+FFFD), its per-node figures and
  /// its base URL: what the formats walk instead of parsing the body again. An empty HTML
  /// document for the non-HTML kinds. Lives as long as any copy of this Document.
  const Parsed& parsed() const;

  struct Impl;

 private:
  explicit Document(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace webdata::mock::content
