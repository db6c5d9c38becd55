// HTML tree -> Markdown (CommonMark + GFM tables and strikethrough) and plain text.

#include <algorithm>
#include <cstdlib>

#include "content/pipeline.hpp"

namespace webdata::mock::content {
namespace {

using dom::Node;

// Lists and blockquotes deeper than this are rendered without further indentation: it keeps
// the cost of re-prefixing lines linear on hostile input.
constexpr int kMaxPrefixNesting = 16;

bool is_ascii_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}
bool is_word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The characters Inline::word may escape inside a word.
struct SpecialTable {
  bool set[256] = {};
  constexpr SpecialTable() {
    for (char c : std::string_view("\\*`[]~_<&|")) set[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool operator[](unsigned char c) const { return set[c]; }
};
constexpr SpecialTable kMaySpecial;

std::size_t longest_run(std::string_view s, char c) {
  std::size_t best = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// The inline content of one block: collapses whitespace like a browser, escapes Markdown
// syntax in text, and opens emphasis and link brackets lazily, so that whitespace at the edges
// of <strong> ends up outside the delimiters and empty elements leave no trace.
class Inline {
 public:
  Inline(bool plain, bool table_cell) : plain_(plain), table_cell_(table_cell) {}

  void text(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
      if (dom::is_html_space(s[i])) {
        pending_space_ = true;
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < s.size() && !dom::is_html_space(s[j])) ++j;
      word(s.substr(i, j - i));
      i = j;
    }
  }

  void space() { pending_space_ = true; }

  void line_break() {
    if (table_cell_) {
      pending_space_ = true;
    } else if (!out_.empty()) {
      pending_breaks_ = std::min(pending_breaks_ + 1, 2);
    }
  }

  // Content that is already Markdown (an image, a code span).
  void literal(std::string_view s) {
    if (s.empty()) return;
    flush_pending();
    out_ += s;
  }

  void code(std::string_view code_text) {
    std::string collapsed;
    bool space = false;
    for (char c : code_text) {
      if (dom::is_html_space(c)) {
        space = true;
        continue;
      }
      if (space && !collapsed.empty()) collapsed += ' ';
      space = false;
      collapsed += c;
    }
    if (collapsed.empty()) return;
    if (plain_) {
      literal(collapsed);
      return;
    }
    if (table_cell_) {
      std::string escaped;
      for (char c : collapsed) {
        if (c == '|') escaped += '\\';
        escaped += c;
      }
      collapsed = std::move(escaped);
    }
    std::string fence(longest_run(collapsed, '`') + 1, '`');
    bool pad = collapsed.front() == '`' || collapsed.back() == '`';
    literal(fence + (pad ? " " : "") + collapsed + (pad ? " " : "") + fence);
  }

  void open(std::string delimiter) { pending_opens_.push_back(std::move(delimiter)); }

  // Closes the innermost open(); `closing` is emitted only if something was written since.
  void close(std::string_view closing) {
    if (!pending_opens_.empty()) {
      pending_opens_.pop_back();
      return;
    }
    out_ += closing;
    last_close_end_ = out_.size();
    last_close_.assign(closing.data(), closing.size());
  }

  std::string take() {
    std::string result(content());
    clear();
    return result;
  }

  // What take() would return, valid until the next change; clear() then starts the next block
  // in the same buffer, so a page's paragraphs do not each grow a string of their own.
  std::string_view content() const {
    std::string_view result = out_;
    while (!result.empty() && (result.back() == ' ' || result.back() == '\n')) {
      result.remove_suffix(1);
    }
    return result;
  }

  void clear() {
    out_.clear();
    pending_space_ = false;
    pending_breaks_ = 0;
    pending_opens_.clear();
    last_close_.clear();
    last_close_end_ = 0;
  }

 private:
  void flush_pending() {
    if (pending_breaks_ > 0 && !out_.empty()) {
      if (plain_) {
        out_ += pending_breaks_ > 1 ? "\n\n" : "\n";
      } else {
        out_ += pending_breaks_ > 1 ? "\n\n" : "  \n";
      }
    } else if (pending_space_ && !out_.empty() && out_.back() != '\n') {
      out_ += ' ';
    }
    pending_breaks_ = 0;
    pending_space_ = false;
    for (auto& d : pending_opens_) {
      // "**a****b**" does not parse: two adjacent runs of the same emphasis become one.
      if (!last_close_.empty() && d == last_close_ && last_close_end_ == out_.size()) {
        out_.resize(out_.size() - d.size());
      } else {
        out_ += d;
      }
      last_close_.clear();
    }
    pending_opens_.clear();
  }

  void word(std::string_view w) {
    flush_pending();
    if (plain_) {
      out_ += w;
      return;
    }
    bool line_start = out_.empty() || out_.back() == '\n';
    std::size_t from = 0;
    if (line_start) from = escape_line_start(w);
    for (std::size_t k = from; k < w.size(); ++k) {
      // Runs of characters that are never escaped are copied at once.
      std::size_t plain_end = k;
      while (plain_end < w.size() && !kMaySpecial[static_cast<unsigned char>(w[plain_end])]) {
        ++plain_end;
      }
      out_.append(w.data() + k, plain_end - k);
      k = plain_end;
      if (k == w.size()) break;
      char c = w[k];
      char prev = k > 0 ? w[k - 1] : ' ';
      char next = k + 1 < w.size() ? w[k + 1] : ' ';
      bool escape = false;
      switch (c) {
        case '\\':
          escape = is_ascii_punct(next) || next == ' ';
          break;
        case '*':
        case '`':
        case '[':
        case ']':
        case '~':
          escape = true;
          break;
        case '_':
          escape = !is_word_byte(prev) || !is_word_byte(next);
          break;
        case '<':
          escape = is_alpha(next) || next == '/' || next == '!' || next == '?';
          break;
        case '&':
          escape = is_alpha(next) || next == '#';
          break;
        case '|':
          escape = table_cell_;
          break;
        default:
          break;
      }
      if (escape) out_ += '\\';
      out_ += c;
    }
  }

  // Escapes what would start a block construct at the beginning of a line; returns how many
  // characters of w it wrote.
  std::size_t escape_line_start(std::string_view w) {
    char c = w.front();
    if (c == '#' && w.size() <= 6 && longest_run(w, '#') == w.size()) {
      out_ += "\\";
      return 0;
    }
    if (c == '>' || ((c == '-' || c == '+' || c == '=') && (w.size() == 1 || longest_run(w, c) == w.size()))) {
      out_ += '\\';
      out_ += c;
      return 1;
    }
    std::size_t digits = 0;
    while (digits < w.size() && digits < 10 && w[digits] >= '0' && w[digits] <= '9') ++digits;
    if (digits > 0 && digits < 10 && digits + 1 == w.size() && (w[digits] == '.' || w[digits] == ')')) {
      out_ += w.substr(0, digits);
      out_ += '\\';
      return digits;
    }
    return 0;
  }

  bool plain_;
  bool table_cell_;
  std::string out_;
  bool pending_space_ = false;
  int pending_breaks_ = 0;
  std::vector<std::string> pending_opens_;
  std::string last_close_;
  std::size_t last_close_end_ = 0;
};

// Blocks separated by one blank line; a list right after a paragraph inside a list item
// follows on the next line, so nested lists stay tight.
class Blocks {
 public:
  explicit Blocks(bool list_item = false) : list_item_(list_item) {}

  void add(std::string_view block, bool is_list = false) {
    if (block.empty()) return;
    if (!out_.empty()) out_ += (list_item_ && is_list) ? "\n" : "\n\n";
    out_ += block;
  }
  std::string take() { return std::move(out_); }

 private:
  bool list_item_;
  std::string out_;
};

// Prefixes the first line with `first` and the other non-empty lines with `rest`.
std::string prefix_lines(std::string_view text, std::string_view first, std::string_view rest,
                         std::string_view empty_line) {
  std::string out;
  bool first_line = true;
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t nl = text.find('\n', i);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(i, nl - i);
    if (!first_line) out += '\n';
    if (first_line) {
      out += first;
    } else if (line.empty()) {
      out += empty_line;
    } else {
      out += rest;
    }
    out += line;
    first_line = false;
    i = nl + 1;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string link_destination(std::string_view url) {
  int depth = 0;
  bool balanced = true;
  bool needs_angle = false;
  for (char c : url) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) balanced = false;
    if (c == ' ' || c == '\n') needs_angle = true;
  }
  if (depth != 0) balanced = false;
  if (!needs_angle && balanced) return std::string(url);
  std::string out = "<";
  for (char c : url) {
    if (c == '<') {
      out += "%3C";
    } else if (c == '>') {
      out += "%3E";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + ">";
}

std::string link_title(const Node& n) {
  const std::string* title = n.attr("title");
  if (title == nullptr) return "";
  std::string t;
  bool space = false;
  for (char c : *title) {
    if (dom::is_html_space(c)) {
      space = true;
      continue;
    }
    if (space && !t.empty()) t += ' ';
    space = false;
    if (c == '"' || c == '\\') t += '\\';
    t += c;
  }
  return t.empty() ? "" : " \"" + t + "\"";
}

std::string alt_text(std::string_view alt) {
  std::string out;
  bool space = false;
  for (char c : alt) {
    if (dom::is_html_space(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

int heading_level(const Node& n) {
  if (n.ns != dom::Namespace::kHtml || n.name.size() != 2 || n.name[0] != 'h') return 0;
  char d = n.name[1];
  return d >= '1' && d <= '6' ? d - '0' : 0;
}

bool is_one_of(const Node& n, std::initializer_list<std::string_view> names) {
  if (!n.is_element() || n.ns != dom::Namespace::kHtml) return false;
  return std::find(names.begin(), names.end(), n.name) != names.end();
}

// Elements whose content is not text a reader sees on the page.
bool is_skipped(const Node& n) {
  if (n.ns == dom::Namespace::kSvg || n.ns == dom::Namespace::kMathMl) return true;
  return is_one_of(n, {"svg", "math", "canvas", "iframe", "frame", "frameset", "video", "audio",
                       "object", "embed", "select", "input", "textarea", "map", "datalist",
                       "option", "optgroup", "colgroup", "col", "source", "track", "param",
                       "script", "style", "noscript", "template", "head", "title", "meta",
                       "link", "base"});
}

std::string class_language(const Node& n) {
  const std::string* cls = n.attr("class");
  if (cls != nullptr) {
    std::string_view rest = *cls;
    while (!rest.empty()) {
      std::size_t i = 0;
      while (i < rest.size() && dom::is_html_space(rest[i])) ++i;
      std::size_t j = i;
      while (j < rest.size() && !dom::is_html_space(rest[j])) ++j;
      std::string_view token = rest.substr(i, j - i);
      for (std::string_view prefix : {"language-", "lang-"}) {
        if (token.size() > prefix.size() && token.substr(0, prefix.size()) == prefix) {
          return std::string(token.substr(prefix.size()));
        }
      }
      rest.remove_prefix(j);
    }
  }
  for (const char* attr : {"data-lang", "data-language"}) {
    if (const std::string* v = n.attr(attr); v != nullptr && !v->empty()) return *v;
  }
  return "";
}

class Renderer {
 public:
  Renderer(const Parsed& parsed, const View& view, const Options& options, bool plain)
      : parsed_(parsed), view_(view), options_(options), plain_(plain) {}

  std::string run() {
    Blocks out;
    Inline in(plain_, false);
    for (const auto& root : view_.roots) {
      if (root.children_only) {
        children(*root.node, out, in);
      } else {
        child(*root.node, out, in);
      }
    }
    flush(in, out);
    return out.take();
  }

 private:
  bool visible(const Node& n) const { return !(n.is_element() && view_.is_removed(n)); }

  void flush(Inline& in, Blocks& out) {
    out.add(in.content());
    in.clear();
  }

  void children(const Node& n, Blocks& out, Inline& in) {
    for (const Node* c : n.children) child(*c, out, in);
  }

  void child(const Node& c, Blocks& out, Inline& in) {
    if (c.type == dom::NodeType::kText) {
      in.text(c.text);
      return;
    }
    if (!c.is_element() || !visible(c) || is_skipped(c)) return;
    if (is_block_element(c)) {
      flush(in, out);
      block(c, out, in);
      flush(in, out);
    } else if (parsed_.stats.has_block[c.id] && !c.is("a")) {
      children(c, out, in);  // an inline wrapper around blocks (custom elements, <span>)
    } else {
      inline_node(c, in);
    }
  }

  void block(const Node& el, Blocks& out, Inline& in) {
    if (int level = heading_level(el)) {
      Inline h(plain_, true);
      inline_children(el, h);
      std::string text = h.take();
      if (text.empty()) return;
      out.add(plain_ ? text : std::string(static_cast<std::size_t>(level), '#') + " " + text);
    } else if (is_one_of(el, {"pre", "listing", "xmp", "plaintext"})) {
      out.add(code_block(el));
    } else if (el.is("blockquote") && !plain_ && nesting_ < kMaxPrefixNesting) {
      ++nesting_;
      Blocks inner;
      Inline inner_in(plain_, false);
      children(el, inner, inner_in);
      flush(inner_in, inner);
      --nesting_;
      std::string text = inner.take();
      if (!text.empty()) out.add(prefix_lines(text, "> ", "> ", ">"));
    } else if (is_one_of(el, {"ul", "ol", "menu", "dir"}) && nesting_ < kMaxPrefixNesting) {
      out.add(list(el), true);
    } else if (el.is("dl") && nesting_ < kMaxPrefixNesting) {
      out.add(definition_list(el));
    } else if (el.is("table")) {
      table(el, out);
    } else if (el.is("hr")) {
      if (!plain_) out.add("---");
    } else {
      children(el, out, in);
    }
  }

  void inline_children(const Node& n, Inline& in) {
    for (const Node* c : n.children) inline_node(*c, in);
  }

  // Inline rendering; blocks met here (inside a heading, a link, a table cell) become spaces.
  void inline_node(const Node& n, Inline& in) {
    if (n.type == dom::NodeType::kText) {
      in.text(n.text);
      return;
    }
    if (!n.is_element() || !visible(n) || is_skipped(n)) return;
    if (n.ns != dom::Namespace::kHtml) return;
    const std::string& tag = n.name;
    if (tag == "br") {
      in.line_break();
    } else if (tag == "img") {
      image(n, in);
    } else if (tag == "a") {
      link(n, in);
    } else if (tag == "strong" || tag == "b") {
      formatted(n, in, strong_, "**");
    } else if (tag == "em" || tag == "i" || tag == "cite" || tag == "dfn" || tag == "var") {
      formatted(n, in, em_, "*");
    } else if (tag == "del" || tag == "s" || tag == "strike") {
      formatted(n, in, del_, "~~");
    } else if (tag == "code" || tag == "kbd" || tag == "samp" || tag == "tt") {
      in.code(raw_text(n));
    } else if (is_one_of(n, {"pre", "listing", "xmp", "plaintext"})) {
      in.space();
      in.code(raw_text(n));
      in.space();
    } else if (is_block_element(n) || tag == "hr") {
      in.space();
      inline_children(n, in);
      in.space();
    } else {
      inline_children(n, in);
    }
  }

  void formatted(const Node& n, Inline& in, int& depth, const char* delimiter) {
    if (plain_ || depth > 0) {
      inline_children(n, in);
      return;
    }
    ++depth;
    in.open(delimiter);
    inline_children(n, in);
    in.close(delimiter);
    --depth;
  }

  void link(const Node& a, Inline& in) {
    const std::string* href = a.attr("href");
    std::string_view h = href != nullptr ? dom::trim_html_space(*href) : std::string_view();
    bool scripted = h.size() >= 11 && iequals(h.substr(0, 11), "javascript:");
    if (plain_ || in_link_ || href == nullptr || scripted) {
      inline_children(a, in);
      return;
    }
    std::string tail = "](" + link_destination(absolute_url(parsed_, h)) + link_title(a) + ")";
    in_link_ = true;
    in.open("[");
    inline_children(a, in);
    in.close(tail);
    in_link_ = false;
  }

  std::string image_source(const Node& img) const {
    for (const char* attr : {"src", "data-src"}) {
      if (const std::string* v = img.attr(attr); v != nullptr && !dom::trim_html_space(*v).empty()) {
        return std::string(dom::trim_html_space(*v));
      }
    }
    if (const std::string* srcset = img.attr("srcset")) {
      auto urls = srcset_urls(*srcset);
      if (!urls.empty()) return urls.front();
    }
    return "";
  }

  void image(const Node& img, Inline& in) {
    if (plain_) return;
    std::string src = image_source(img);
    if (src.empty()) return;
    std::string dest;
    if (is_data_image(src) && options_.remove_base64_images) {
      dest = std::string(kBase64ImagePlaceholder);
    } else {
      dest = link_destination(absolute_url(parsed_, src));
    }
    const std::string* alt = img.attr("alt");
    in.literal("![" + alt_text(alt != nullptr ? *alt : "") + "](" + dest + link_title(img) + ")");
  }

  // Text of a subtree as written (for code), <br> as a newline.
  std::string raw_text(const Node& n) const {
    std::string out;
    std::vector<const Node*> stack{&n};
    while (!stack.empty()) {
      const Node* x = stack.back();
      stack.pop_back();
      if (x->type == dom::NodeType::kText) {
        out += x->text;
      } else if (x->is_element() && visible(*x)) {
        if (x->is("br")) out += '\n';
        for (auto it = x->children.rbegin(); it != x->children.rend(); ++it) stack.push_back(*it);
      }
    }
    return out;
  }

  std::string code_block(const Node& pre) const {
    std::string text = raw_text(pre);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (dom::trim_html_space(text).empty()) return "";
    if (plain_) return text;
    std::string language = class_language(pre);
    if (language.empty()) {
      for (const Node* c : pre.children) {
        if (c->is("code")) {
          language = class_language(*c);
          break;
        }
      }
    }
    std::string fence(std::max<std::size_t>(3, longest_run(text, '`') + 1), '`');
    return fence + language + "\n" + text + "\n" + fence;
  }

  std::string list(const Node& el) {
    const bool ordered = el.is("ol");
    const bool reversed = ordered && el.has_attr("reversed");
    long number = 1;
    std::size_t item_count = 0;
    for (const Node* c : el.children) item_count += c->is("li") ? 1 : 0;
    if (reversed) number = static_cast<long>(item_count);
    if (const std::string* start = el.attr("start"); ordered && start != nullptr) {
      char* end = nullptr;
      long v = std::strtol(start->c_str(), &end, 10);
      if (end != start->c_str()) number = v;
    }
    ++nesting_;
    std::string result;
    std::size_t last_indent = 2;
    for (const Node* c : el.children) {
      bool loose_text = c->type == dom::NodeType::kText && !dom::trim_html_space(c->text).empty();
      if (!loose_text && (!c->is_element() || !visible(*c) || is_skipped(*c))) continue;
      if (c->is("li")) {
        if (const std::string* value = c->attr("value"); ordered && value != nullptr) {
          char* end = nullptr;
          long v = std::strtol(value->c_str(), &end, 10);
          if (end != value->c_str()) number = v;
        }
      }
      Blocks item(true);
      Inline item_in(plain_, false);
      if (c->is("li")) {
        children(*c, item, item_in);
      } else {
        child(*c, item, item_in);
      }
      flush(item_in, item);
      std::string content = item.take();
      bool nested_list_only = is_one_of(*c, {"ul", "ol"});
      if (!c->is("li") && content.empty()) continue;
      std::string marker = ordered ? std::to_string(number) + "." : "-";
      if (c->is("li")) number += reversed ? -1 : 1;
      if (content.empty()) continue;
      bool first = result.empty();
      if (!first) result += '\n';
      if (plain_) {
        result += content;
      } else if (nested_list_only && !first) {
        // <ul><li>a</li><ul>...</ul></ul>: a list directly in a list belongs to the item above.
        std::string indent(last_indent, ' ');
        result += prefix_lines(content, indent, indent, "");
      } else {
        last_indent = marker.size() + 1;
        result += prefix_lines(content, marker + " ", std::string(last_indent, ' '), "");
      }
    }
    --nesting_;
    return result;
  }

  std::string definition_list(const Node& dl) {
    std::string result;
    bool last_was_definition = false;
    ++nesting_;
    std::vector<const Node*> entries;
    for (const Node* c : dl.children) {
      if (c->is("div")) {
        for (const Node* g : c->children) entries.push_back(g);
      } else {
        entries.push_back(c);
      }
    }
    for (const Node* c : entries) {
      if (!c->is_element() || !visible(*c)) continue;
      std::string entry;
      if (c->is("dt")) {
        Inline term(plain_, true);
        inline_children(*c, term);
        std::string t = term.take();
        if (t.empty()) continue;
        entry = plain_ ? t : "**" + t + "**";
      } else if (c->is("dd")) {
        Blocks body(true);
        Inline body_in(plain_, false);
        children(*c, body, body_in);
        flush(body_in, body);
        std::string d = body.take();
        if (d.empty()) continue;
        entry = plain_ ? d : prefix_lines(d, ": ", "  ", "");
      } else {
        continue;
      }
      // A term after a definition starts a new paragraph; terms and their definitions
      // stay on consecutive lines.
      if (!result.empty()) result += (c->is("dt") && last_was_definition) ? "\n\n" : "\n";
      result += entry;
      last_was_definition = c->is("dd");
    }
    --nesting_;
    return result;
  }

  struct Cell {
    const Node* node;
    std::string text;
  };

  void table(const Node& t, Blocks& out) {
    std::vector<const Node*> rows;
    const Node* caption = nullptr;
    for (const Node* c : t.children) {
      if (!c->is_element() || !visible(*c)) continue;
      if (c->is("tr")) rows.push_back(c);
      if (c->is("caption")) caption = c;
      if (c->is("thead") || c->is("tbody") || c->is("tfoot")) {
        for (const Node* r : c->children) {
          if (r->is("tr") && visible(*r)) rows.push_back(r);
        }
      }
    }
    if (!is_data_table(t, rows)) {
      // A layout table, or one whose rows were flattened by the depth cap: plain blocks.
      Inline layout_in(plain_, false);
      children(t, out, layout_in);
      flush(layout_in, out);
      return;
    }
    if (caption != nullptr) {
      Inline cap(plain_, true);
      inline_children(*caption, cap);
      out.add(cap.take());
    }
    // Grid with colspan and rowspan filled by empty cells.
    std::vector<std::vector<Cell>> grid;
    std::vector<int> pending_rowspan;
    for (const Node* r : rows) {
      std::vector<Cell> row;
      auto fill_spanned = [&] {
        while (row.size() < pending_rowspan.size() && pending_rowspan[row.size()] > 0) {
          --pending_rowspan[row.size()];
          row.push_back({nullptr, ""});
        }
      };
      for (const Node* c : r->children) {
        if (!(c->is("td") || c->is("th")) || !visible(*c)) continue;
        fill_spanned();
        long colspan = 1, rowspan = 1;
        if (const std::string* v = c->attr("colspan")) colspan = std::clamp(std::strtol(v->c_str(), nullptr, 10), 1L, 100L);
        if (const std::string* v = c->attr("rowspan")) rowspan = std::clamp(std::strtol(v->c_str(), nullptr, 10), 1L, 1000L);
        for (long k = 0; k < colspan; ++k) {
          if (pending_rowspan.size() <= row.size()) pending_rowspan.resize(row.size() + 1, 0);
          pending_rowspan[row.size()] = static_cast<int>(rowspan - 1);
          row.push_back({k == 0 ? c : nullptr, ""});
        }
      }
      fill_spanned();
      if (!row.empty()) grid.push_back(std::move(row));
    }
    std::size_t columns = 0;
    for (const auto& row : grid) columns = std::max(columns, row.size());
    if (grid.empty()) return;
    if (columns == 1 || plain_) {
      // A one-column table is a layout; plain text has no tables: the cells are just blocks.
      for (const auto& row : grid) {
        for (const auto& cell : row) {
          if (cell.node == nullptr) continue;
          Inline cin(plain_, false);
          Blocks cell_blocks;
          children(*cell.node, cell_blocks, cin);
          flush(cin, cell_blocks);
          out.add(cell_blocks.take());
        }
      }
      return;
    }
    std::string text;
    for (std::size_t r = 0; r < grid.size(); ++r) {
      auto& row = grid[r];
      row.resize(columns, {nullptr, ""});
      text += '|';
      for (auto& cell : row) {
        if (cell.node != nullptr) {
          Inline cin(false, true);
          inline_children(*cell.node, cin);
          cell.text = cin.take();
        }
        text += ' ';
        text += cell.text;
        text += cell.text.empty() ? "|" : " |";
      }
      text += '\n';
      if (r == 0) {
        text += '|';
        for (const auto& cell : row) text += ' ' + alignment(cell.node) + " |";
        text += '\n';
      }
    }
    text.pop_back();
    out.add(text);
  }

  // A table of data, not of layout: no nested table, and nothing but rows and cells where
  // rows and cells belong (loose text there comes from depth flattening).
  bool is_data_table(const Node& t, const std::vector<const Node*>& rows) const {
    for (std::size_t id = t.id + 1; id < t.id + t.subtree_size; ++id) {
      if (parsed_.tree.nodes[id].is("table")) return false;
    }
    auto loose = [](const Node& n) {
      return n.type == dom::NodeType::kText && !dom::trim_html_space(n.text).empty();
    };
    for (const Node* c : t.children) {
      if (loose(*c)) return false;
      if (c->is("thead") || c->is("tbody") || c->is("tfoot")) {
        for (const Node* r : c->children) {
          if (loose(*r)) return false;
        }
      }
    }
    for (const Node* r : rows) {
      for (const Node* c : r->children) {
        if (loose(*c) || (c->is_element() && !c->is("td") && !c->is("th"))) return false;
      }
    }
    return true;
  }

  static std::string alignment(const Node* cell) {
    if (cell == nullptr) return "---";
    std::string align;
    if (const std::string* a = cell->attr("align")) align = to_lower(*a);
    if (const std::string* style = cell->attr("style")) {
      std::string s = to_lower(*style);
      std::size_t p = s.find("text-align");
      if (p != std::string::npos) {
        for (const char* v : {"center", "right", "left"}) {
          if (s.find(v, p) != std::string::npos) {
            align = v;
            break;
          }
        }
      }
    }
    if (align == "center") return ":---:";
    if (align == "right") return "---:";
    if (align == "left") return ":---";
    return "---";
  }

  const Parsed& parsed_;
  const View& view_;
  const Options& options_;
  const bool plain_;
  int nesting_ = 0;
  int strong_ = 0;
  int em_ = 0;
  int del_ = 0;
  bool in_link_ = false;
};

}  // namespace

std::string render_markdown(const Parsed& parsed, const View& view, const Options& options) {
  return Renderer(parsed, view, options, false).run();
}

std::string render_text(const Parsed& parsed, const View& view, const Options& options) {
  return Renderer(parsed, view, options, true).run();
}

}  // namespace webdata::mock::content
