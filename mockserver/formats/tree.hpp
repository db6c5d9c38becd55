#pragma once

// Internal: the DOM trees the model-made formats walk. The page's tree is the content::Document's
// own (parsed once, shared by every format and every copy of the Document), so node ids
// (pre-order positions) are the same for actions, screenshots and queries of one page.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "content/document.hpp"
#include "content/dom.hpp"
#include "core/url.hpp"

namespace webdata::mock::formats::detail {

namespace dom = content::dom;

/// An HTML tree plus the base URL its relative references resolve against: either the page's own
/// tree (shared with the Document it came from) or a tree of its own (the cleaned content).
class Html {
 public:
  /// The whole page as fetched (head included): for selectors, CSS, logos and layout. No parse:
  /// the Document's tree, kept alive by this Html.
  static Html page(const content::Document& doc);
  /// The cleaned content of the page under `options` (main content, tags, ads), parsed from its
  /// serialization: a document of its own, for evidence. SelectorError for a bad selector.
  static Html content(const content::Document& doc, const content::Options& options);

  const dom::Tree& tree() const { return owned_ ? *owned_ : *shared_; }
  const std::optional<Url>& base() const { return base_; }
  /// An attribute URL made absolute (non-http schemes stay as written).
  std::string absolute(std::string_view reference) const;

 private:
  Html() = default;
  std::optional<content::Document> doc_;  ///< keeps shared_ alive
  const dom::Tree* shared_ = nullptr;
  std::unique_ptr<dom::Tree> owned_;
  std::optional<Url> base_;
};

/// Text of a subtree with whitespace collapsed, skipping script/style/template/noscript.
std::string text_of(const dom::Node& node);
/// True for elements whose text is never shown (script, style, head, hidden...).
bool is_invisible(const dom::Node& node);

/// Every element of the tree matching the selector list, in document order.
/// Throws content::SelectorError for a selector that does not parse.
std::vector<const dom::Node*> select_all(const dom::Tree& tree, std::string_view selector);

/// Splits on ASCII whitespace.
std::vector<std::string> split_words(std::string_view s);
/// ASCII lower-case words of letters and digits ("Price (USD)" -> price, usd).
std::vector<std::string> word_tokens(std::string_view s);
/// Tokens of an identifier: camelCase, snake_case, kebab-case and spaces ("inStock" -> in, stock).
std::vector<std::string> name_tokens(std::string_view name);
/// Decodes one UTF-8 code point at s[i]; advances i (invalid bytes give U+FFFD).
char32_t next_code_point(std::string_view s, std::size_t& i);
/// Truncates to at most max_bytes without cutting a UTF-8 sequence.
std::string utf8_prefix(std::string_view s, std::size_t max_bytes);
std::size_t utf8_length(std::string_view s);
std::string trim(std::string_view s);
std::string lower(std::string_view s);

}  // namespace webdata::mock::formats::detail
