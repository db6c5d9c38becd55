#pragma once

// Pieces of the content pipeline shared by the cleaner and the renderers, and the parsed page
// (Parsed) that formats and search walk through content::Document::parsed().

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "content/document.hpp"
#include "content/dom.hpp"
#include "core/url.hpp"

namespace webdata::mock::content {

/// Per-node figures computed once after parsing (vectors indexed by node id).
struct TreeStats {
  std::vector<std::uint32_t> text;       // non-space bytes of visible text in the subtree
  std::vector<std::uint32_t> link_text;  // the part of `text` inside <a>
  std::vector<bool> has_block;           // some descendant element is block-level

  std::uint32_t content(const dom::Node& n) const { return text[n.id] - link_text[n.id]; }
};

/// The parsed page as every format sees it.
struct Parsed {
  dom::Tree tree;
  TreeStats stats;
  std::optional<Url> base;
};

TreeStats compute_stats(const dom::Tree& tree);

/// Elements rendered as blocks (they break the inline flow).
bool is_block_element(const dom::Node& n);

/// What survives cleaning: the roots whose content is output, and the removed elements.
struct View {
  struct Root {
    const dom::Node* node;
    bool children_only;  // true for <body>: output its children, not the element
  };
  std::vector<Root> roots;
  std::vector<bool> removed;  // by node id; a removed element hides its whole subtree

  bool is_removed(const dom::Node& n) const { return removed[n.id]; }
};

/// Applies the options (selectors, main content, ads, boilerplate). Throws SelectorError.
View make_view(const Parsed& parsed, const Options& options);

/// The main content element of the page (<body> when nothing narrower is convincing).
const dom::Node* detect_main_content(const Parsed& parsed);

/// A URL attribute value made absolute; references with a non-http(s) scheme stay as written.
std::string absolute_url(const Parsed& parsed, std::string_view reference);
/// A srcset value with each candidate URL made absolute; data: candidates dropped when asked.
std::string rewrite_srcset(const Parsed& parsed, std::string_view srcset, bool drop_data);
/// The URLs of a srcset value, as written.
std::vector<std::string> srcset_urls(std::string_view srcset);
bool is_data_image(std::string_view url);

std::string serialize_html(const Parsed& parsed, const View& view, const Options& options);
std::string render_markdown(const Parsed& parsed, const View& view, const Options& options);
std::string render_text(const Parsed& parsed, const View& view, const Options& options);

/// Replaces invalid UTF-8 sequences with U+FFFD (JSON output must be valid UTF-8).
std::string sanitize_utf8(std::string_view in);

}  // namespace webdata::mock::content
