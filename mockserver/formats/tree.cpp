#include "formats/tree.hpp"

#include <cctype>

#include "content/pipeline.hpp"
#include "content/selector.hpp"

namespace webdata::mock::formats::detail {

std::string Html::absolute(std::string_view reference) const {
  return resolve_url_string(base_, reference);
}

Html Html::page(const content::Document& doc) {
  Html out;
  out.doc_ = doc;
  out.shared_ = &doc.parsed().tree;
  out.base_ = doc.parsed().base;
  return out;
}

Html Html::content(const content::Document& doc, const content::Options& options) {
  Html out;
  // The cleaned fragment has absolute URLs already, so the base only matters for leftovers.
  out.owned_ = std::make_unique<dom::Tree>(
      dom::parse_html(doc.kind() == content::Document::Kind::kHtml ? doc.html(options) : ""));
  out.base_ = doc.parsed().base;
  return out;
}

bool is_invisible(const dom::Node& n) {
  if (!n.is_element()) return false;
  if (n.ns != dom::Namespace::kHtml) return n.name == "svg" || n.name == "math";
  static const char* const kHidden[] = {"script", "style", "template", "noscript", "head",
                                        "title",  "meta",  "link",     "base",     "iframe"};
  for (const char* tag : kHidden) {
    if (n.name == tag) return true;
  }
  if (n.has_attr("hidden")) return true;
  if (const std::string* style = n.attr("style")) {
    std::string s = lower(*style);
    std::string compact;
    for (char c : s) {
      if (c != ' ') compact += c;
    }
    if (compact.find("display:none") != std::string::npos ||
        compact.find("visibility:hidden") != std::string::npos) {
      return true;
    }
  }
  if (n.is("input")) {
    const std::string* type = n.attr("type");
    if (type != nullptr && iequals(*type, "hidden")) return true;
  }
  return false;
}

std::string text_of(const dom::Node& node) {
  std::string out;
  bool pending_space = false;
  std::vector<const dom::Node*> stack{&node};
  while (!stack.empty()) {
    const dom::Node* n = stack.back();
    stack.pop_back();
    if (n->type == dom::NodeType::kText) {
      for (char c : n->text) {
        if (dom::is_html_space(c)) {
          pending_space = true;
        } else {
          if (pending_space && !out.empty()) out += ' ';
          pending_space = false;
          out += c;
        }
      }
      continue;
    }
    if (n != &node && is_invisible(*n)) continue;
    if (n->is("br") || (n->is_element() && content::is_block_element(*n))) pending_space = true;
    for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(*it);
  }
  return out;
}

std::vector<const dom::Node*> select_all(const dom::Tree& tree, std::string_view selector) {
  auto list = content::selector::SelectorList::parse(selector);
  std::vector<const dom::Node*> out;
  for (const dom::Node& n : tree.nodes) {
    if (n.is_element() && list.matches(n)) out.push_back(&n);
  }
  return out;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<std::string> word_tokens(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80) {
      cur += static_cast<char>(std::tolower(u));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::vector<std::string> name_tokens(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    auto u = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(u) && u < 0x80) {
      flush();
      continue;
    }
    bool upper = std::isupper(u) != 0;
    // "inStock" -> in|stock, "HTMLParser" -> html|parser, "item2" stays one token.
    if (upper && !cur.empty()) {
      bool prev_lower = std::islower(static_cast<unsigned char>(name[i - 1])) != 0 ||
                        std::isdigit(static_cast<unsigned char>(name[i - 1])) != 0;
      bool next_lower =
          i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1])) != 0;
      if (prev_lower || next_lower) flush();
    }
    cur += static_cast<char>(std::tolower(u));
  }
  flush();
  return out;
}

char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc >> 6) != 0x2) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  i += len;
  return cp;
}

std::string utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end));
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string trim(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string_view s) {
  return to_lower(s);
}

}  // namespace webdata::mock::formats::detail
