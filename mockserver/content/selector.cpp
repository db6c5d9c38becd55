#include "content/selector.hpp"

#include <cstdint>
#include <unordered_set>

#include "content/document.hpp"

namespace webdata::mock::content {

SelectorError::SelectorError(std::string selector, const std::string& message)
    : std::invalid_argument("invalid selector \"" + selector + "\": " + message),
      selector_(std::move(selector)) {}

namespace selector {
namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::vector<SelectorList::Complex> parse_list() {
    std::vector<SelectorList::Complex> out;
    skip_space();
    if (at_end()) fail("empty selector");
    while (true) {
      out.push_back(parse_complex());
      skip_space();
      if (at_end()) break;
      if (peek() != ',') fail(std::string("unexpected '") + peek() + "'");
      ++pos_;
      skip_space();
      if (at_end()) fail("expected a selector after ','");
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw SelectorError(std::string(text_), what + " at offset " + std::to_string(pos_));
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool skip_space() {
    std::size_t start = pos_;
    while (!at_end() && dom::is_html_space(peek())) ++pos_;
    return pos_ != start;
  }

  static bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || static_cast<unsigned char>(c) >= 0x80;
  }
  bool starts_ident() const {
    if (at_end()) return false;
    char c = peek();
    if (c == '\\') return true;
    if (c >= '0' && c <= '9') return false;
    if (c == '-') {
      char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
      return next == '-' || next == '\\' || (is_name_char(next) && !(next >= '0' && next <= '9'));
    }
    return is_name_char(c);
  }

  void parse_escape(std::string& out) {
    ++pos_;  // the backslash
    if (at_end()) fail("unfinished escape");
    if (is_hex(peek())) {
      std::uint32_t cp = 0;
      for (int i = 0; i < 6 && !at_end() && is_hex(peek()); ++i) {
        cp = cp * 16 + static_cast<std::uint32_t>(std::stoul(std::string(1, peek()), nullptr, 16));
        ++pos_;
      }
      if (!at_end() && dom::is_html_space(peek())) ++pos_;
      append_utf8(out, cp);
    } else {
      out += peek();
      ++pos_;
    }
  }

  std::string parse_ident(const char* what) {
    if (!starts_ident()) fail(std::string("expected ") + what);
    std::string out;
    while (!at_end()) {
      char c = peek();
      if (c == '\\') {
        parse_escape(out);
      } else if (is_name_char(c)) {
        out += c;
        ++pos_;
      } else {
        break;
      }
    }
    return out;
  }

  std::string parse_string() {
    char quote = peek();
    ++pos_;
    std::string out;
    while (true) {
      if (at_end()) fail("unterminated string");
      char c = peek();
      if (c == quote) {
        ++pos_;
        return out;
      }
      if (c == '\\') {
        parse_escape(out);
      } else {
        out += c;
        ++pos_;
      }
    }
  }

  SelectorList::AttributeTest parse_attribute() {
    ++pos_;  // '['
    skip_space();
    SelectorList::AttributeTest test;
    test.name = to_lower(parse_ident("an attribute name"));
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return test;
    }
    char c = peek();
    if (c == '=') {
      test.op = '=';
      ++pos_;
    } else if ((c == '~' || c == '|' || c == '^' || c == '$' || c == '*') &&
               pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') {
      test.op = c;
      pos_ += 2;
    } else {
      fail("expected ']' or an attribute operator");
    }
    skip_space();
    if (peek() == '"' || peek() == '\'') {
      test.value = parse_string();
    } else {
      // Unquoted values are idents in CSS; digits first ([colspan=2]) are accepted as well,
      // as jQuery-style engines do.
      while (!at_end() && (is_name_char(peek()) || peek() == '\\')) {
        if (peek() == '\\') {
          parse_escape(test.value);
        } else {
          test.value += peek();
          ++pos_;
        }
      }
      if (test.value.empty()) fail("expected an attribute value");
    }
    skip_space();
    if (peek() == 'i' || peek() == 'I' || peek() == 's' || peek() == 'S') {
      test.case_insensitive = peek() == 'i' || peek() == 'I';
      ++pos_;
      skip_space();
    }
    if (peek() != ']') fail("expected ']'");
    ++pos_;
    return test;
  }

  SelectorList::Compound parse_compound() {
    SelectorList::Compound compound;
    std::size_t start = pos_;
    if (peek() == '*') {
      compound.type = "*";
      ++pos_;
    } else if (starts_ident()) {
      compound.type = to_lower(parse_ident("a tag name"));
    }
    while (!at_end()) {
      char c = peek();
      if (c == '.') {
        ++pos_;
        compound.classes.push_back(parse_ident("a class name after '.'"));
      } else if (c == '#') {
        ++pos_;
        std::string id;
        while (!at_end() && (is_name_char(peek()) || peek() == '\\')) {
          if (peek() == '\\') {
            parse_escape(id);
          } else {
            id += peek();
            ++pos_;
          }
        }
        if (id.empty()) fail("expected an id after '#'");
        compound.ids.push_back(std::move(id));
      } else if (c == '[') {
        compound.attributes.push_back(parse_attribute());
      } else if (c == ':') {
        std::size_t end = pos_ + 1;
        while (end < text_.size() && (text_[end] == ':' || is_name_char(text_[end]))) ++end;
        fail("pseudo-classes and pseudo-elements are not supported ('" +
             std::string(text_.substr(pos_, end - pos_)) + "')");
      } else {
        break;
      }
    }
    if (pos_ == start) {
      if (at_end()) fail("expected a selector");
      fail(std::string("unexpected '") + peek() + "'");
    }
    return compound;
  }

  SelectorList::Complex parse_complex() {
    SelectorList::Complex steps;
    steps.push_back({parse_compound(), 0});
    while (true) {
      bool had_space = skip_space();
      if (at_end() || peek() == ',') break;
      char combinator = ' ';
      if (peek() == '>' || peek() == '+' || peek() == '~') {
        combinator = peek();
        ++pos_;
        skip_space();
        if (at_end()) fail(std::string("expected a selector after '") + combinator + "'");
      } else if (!had_space) {
        fail(std::string("unexpected '") + peek() + "'");
      }
      steps.back().combinator = combinator;
      steps.push_back({parse_compound(), 0});
    }
    return steps;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

bool has_class(const dom::Node& el, std::string_view cls) {
  const std::string* value = el.attr("class");
  if (value == nullptr) return false;
  std::string_view rest = *value;
  while (!rest.empty()) {
    std::size_t i = 0;
    while (i < rest.size() && dom::is_html_space(rest[i])) ++i;
    std::size_t j = i;
    while (j < rest.size() && !dom::is_html_space(rest[j])) ++j;
    if (j > i && rest.substr(i, j - i) == cls) return true;
    rest.remove_prefix(j);
  }
  return false;
}

bool equals(std::string_view a, std::string_view b, bool ci) {
  return ci ? iequals(a, b) : a == b;
}

bool attribute_matches(const dom::Node& el, const SelectorList::AttributeTest& test) {
  const std::string* value = el.attr(test.name);
  if (value == nullptr) return false;
  std::string_view v = *value;
  std::string_view want = test.value;
  bool ci = test.case_insensitive;
  switch (test.op) {
    case 0:
      return true;
    case '=':
      return equals(v, want, ci);
    case '~': {
      if (want.empty()) return false;
      while (!v.empty()) {
        std::size_t i = 0;
        while (i < v.size() && dom::is_html_space(v[i])) ++i;
        std::size_t j = i;
        while (j < v.size() && !dom::is_html_space(v[j])) ++j;
        if (j > i && equals(v.substr(i, j - i), want, ci)) return true;
        v.remove_prefix(j);
      }
      return false;
    }
    case '|':
      return equals(v, want, ci) ||
             (v.size() > want.size() && v[want.size()] == '-' &&
              equals(v.substr(0, want.size()), want, ci));
    case '^':
      return !want.empty() && v.size() >= want.size() && equals(v.substr(0, want.size()), want, ci);
    case '$':
      return !want.empty() && v.size() >= want.size() &&
             equals(v.substr(v.size() - want.size()), want, ci);
    case '*':
      if (want.empty()) return false;
      if (!ci) return v.find(want) != std::string_view::npos;
      return to_lower(v).find(to_lower(want)) != std::string::npos;
    default:
      return false;
  }
}

bool compound_matches(const SelectorList::Compound& c, const dom::Node& el) {
  if (!el.is_element()) return false;
  if (!c.type.empty() && c.type != "*" && c.type != el.name) return false;
  for (const auto& id : c.ids) {
    const std::string* value = el.attr("id");
    if (value == nullptr || *value != id) return false;
  }
  for (const auto& cls : c.classes) {
    if (!has_class(el, cls)) return false;
  }
  for (const auto& a : c.attributes) {
    if (!attribute_matches(el, a)) return false;
  }
  return true;
}

const dom::Node* parent_element(const dom::Node& n) {
  const dom::Node* p = n.parent;
  return p != nullptr && p->is_element() ? p : nullptr;
}

const dom::Node* previous_element(const dom::Node& n) {
  if (n.parent == nullptr) return nullptr;
  const auto& siblings = n.parent->children;
  const dom::Node* prev = nullptr;
  for (const dom::Node* s : siblings) {
    if (s == &n) return prev;
    if (s->is_element()) prev = s;
  }
  return nullptr;
}

// Right-to-left matching; failures of (step, node) are remembered so that chains of descendant
// combinators stay linear in the tree depth instead of exponential.
class Matcher {
 public:
  explicit Matcher(const SelectorList::Complex& steps) : steps_(steps) {}

  bool match(std::size_t index, const dom::Node& el) {
    std::uint64_t key = (static_cast<std::uint64_t>(el.id) << 8) | index;
    if (failed_.count(key) != 0) return false;
    bool ok = match_uncached(index, el);
    if (!ok) failed_.insert(key);
    return ok;
  }

 private:
  bool match_uncached(std::size_t index, const dom::Node& el) {
    if (!compound_matches(steps_[index].compound, el)) return false;
    if (index == 0) return true;
    const std::size_t left = index - 1;
    switch (steps_[left].combinator) {
      case '>': {
        const dom::Node* p = parent_element(el);
        return p != nullptr && match(left, *p);
      }
      case '+': {
        const dom::Node* p = previous_element(el);
        return p != nullptr && match(left, *p);
      }
      case '~':
        for (const dom::Node* p = previous_element(el); p != nullptr; p = previous_element(*p)) {
          if (match(left, *p)) return true;
        }
        return false;
      default:
        for (const dom::Node* p = parent_element(el); p != nullptr; p = parent_element(*p)) {
          if (match(left, *p)) return true;
        }
        return false;
    }
  }

  const SelectorList::Complex& steps_;
  std::unordered_set<std::uint64_t> failed_;
};

}  // namespace

SelectorList SelectorList::parse(std::string_view text) {
  SelectorList list;
  list.complexes_ = Parser(text).parse_list();
  for (const auto& c : list.complexes_) {
    if (c.size() > 64) throw SelectorError(std::string(text), "more than 64 compound selectors");
  }
  return list;
}

bool SelectorList::matches(const dom::Node& element) const {
  if (!element.is_element()) return false;
  for (const auto& complex : complexes_) {
    if (complex.size() == 1) {
      if (compound_matches(complex[0].compound, element)) return true;
      continue;
    }
    if (Matcher(complex).match(complex.size() - 1, element)) return true;
  }
  return false;
}

SelectorList parse_all(const std::vector<std::string>& selectors) {
  SelectorList all;
  for (const auto& s : selectors) {
    if (dom::trim_html_space(s).empty()) continue;
    SelectorList one = SelectorList::parse(s);
    for (auto& c : one.complexes_) all.complexes_.push_back(std::move(c));
  }
  return all;
}

}  // namespace selector

std::optional<std::string> selector_error(std::string_view text) {
  try {
    selector::SelectorList::parse(text);
    return std::nullopt;
  } catch (const SelectorError& e) {
    return std::string(e.what());
  }
}

void validate_selectors(const Options& options) {
  selector::parse_all(options.include_tags);
  selector::parse_all(options.exclude_tags);
}

}  // namespace webdata::mock::content
