#include <algorithm>
#include <cmath>
#include <limits>

#include "codec.hpp"
#include "json_scan.hpp"

namespace webdata::detail {

std::string Path::str() const {
  std::vector<const Path*> chain;
  for (const Path* p = this; p != nullptr; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Path* p = *it;
    if (p->parent == nullptr && p->key == nullptr && p->index == 0 && it == chain.rbegin())
      continue;
    if (p->key != nullptr) {
      if (!out.empty()) out += '.';
      out += p->key;
    } else {
      out += '[' + std::to_string(p->index) + ']';
    }
  }
  return out.empty() ? "(top level)" : out;
}

ParseError::ParseError(const Path& path, const std::string& what)
    : std::runtime_error("at " + path.str() + ": " + what) {}

void fail(const Path& path, const std::string& what) {
  throw ParseError(path, what);
}

Reader::~Reader() {
  if (path_.diagnostics == nullptr || set_aside_.empty()) return;
  try {
    // Members of a model without extras: nowhere to keep them, but still said.
    for (const auto& [key, what] : set_aside_) path_.diagnostics->push_back(what + "; ignored");
  } catch (...) {  // out of memory in a destructor: the lines are lost, not the program
  }
}

void Reader::rest(Extras& out) {
  for (const auto& [key, value] : j_.items()) {
    if (!seen(key)) out[key] = from_tree(value);
  }
  for (const auto& [key, what] : set_aside_) {
    out[key] = from_tree(j_.at(key));
    path_.diagnostics->push_back(what + "; kept as raw JSON in extras");
  }
  set_aside_.clear();
}

const char* type_name(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

void decode(const json& j, std::string& out, const Path& p) {
  if (!j.is_string()) fail(p, std::string("expected a string, got ") + type_name(j));
  out = j.get<std::string>();
}

void decode(const json& j, bool& out, const Path& p) {
  if (!j.is_boolean()) fail(p, std::string("expected a boolean, got ") + type_name(j));
  out = j.get<bool>();
}

void decode(const json& j, long long& out, const Path& p) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() &&
        j.get<unsigned long long>() >
            static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
      fail(p, "integer out of range");
    }
    out = j.get<long long>();
    return;
  }
  // Some deployments write integral counters as 3.0.
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15) {
      out = static_cast<long long>(d);
      return;
    }
  }
  fail(p, std::string("expected an integer, got ") + type_name(j));
}

void decode(const json& j, int& out, const Path& p) {
  long long wide = 0;
  decode(j, wide, p);
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
    fail(p, "integer out of range");
  }
  out = static_cast<int>(wide);
}

void decode(const json& j, double& out, const Path& p) {
  if (!j.is_number()) fail(p, std::string("expected a number, got ") + type_name(j));
  out = j.get<double>();
}

void decode(const json& j, Json& out, const Path& /*p*/) {
  out = from_tree(j);
}

void decode(const json& j, std::chrono::milliseconds& out, const Path& p) {
  long long ms = 0;
  decode(j, ms, p);
  out = std::chrono::milliseconds(ms);
}

void decode(const json& j, Timestamp& out, const Path& p) {
  if (!j.is_string()) fail(p, std::string("expected a date-time string, got ") + type_name(j));
  out = Timestamp::from_text(j.get<std::string>());
}

json encode(const std::string& v) {
  return v;
}
json encode(bool v) {
  return v;
}
json encode(int v) {
  return v;
}
json encode(long long v) {
  return v;
}
json encode(double v) {
  return v;
}
json encode(const Json& v) {
  return to_tree(v);
}
json encode(std::chrono::milliseconds v) {
  return static_cast<long long>(v.count());
}
json encode(const Timestamp& v) {
  return v.text();
}

json to_tree(const Json& v) {
  auto tree = json::parse(v.text(), nullptr, false);
  return tree.is_discarded() ? json() : tree;
}

Json from_tree(const json& j) {
  return Json::from_trusted_text(tree_text(j));
}

std::string tree_text(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Error shape_error(const char* what, const std::string& why, std::string_view text) {
  constexpr std::size_t kShown = 120;
  std::string start(text.substr(0, kShown));
  for (char& c : start) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (text.size() > kShown) start += "...";
  Error err;
  err.kind = ErrorKind::kParse;
  err.message = std::string("unexpected ") + what + ": " + why + " (it begins: " + start + ")";
  return err;
}

Error not_json_error(const std::string& body) {
  Error err;
  err.kind = ErrorKind::kParse;
  err.message = body.empty() ? "empty response body where JSON was expected"
                             : "response body is not valid JSON (" + std::to_string(body.size()) +
                                   " bytes, truncated?)";
  err.raw_body = body.substr(0, 4096);
  return err;
}

Result<json> parse_body(const std::string& body) {
  auto tree = json::parse(body, nullptr, false);
  if (tree.is_discarded()) return not_json_error(body);
  return tree;
}

namespace {

bool is_digit(int c) { return c >= '0' && c <= '9'; }

int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The grammar of RFC 8259 over a string_view. Every method leaves the position after what it
// accepted; after a failure the position means nothing and the scan is abandoned.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  std::size_t pos() const { return i_; }
  bool at_end() const { return i_ >= s_.size(); }
  /// After the top-level value: nlohmann's lexer takes a NUL byte for the end of the input.
  bool at_input_end() const { return at_end() || s_[i_] == '\0'; }
  int peek() const { return i_ < s_.size() ? byte(i_) : -1; }
  bool eat(char c) {
    if (peek() != static_cast<unsigned char>(c)) return false;
    ++i_;
    return true;
  }
  void skip_bom() {
    if (s_.size() >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF) i_ = 3;
  }
  void skip_ws() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++i_;
    }
  }

  /// A string at the position; `escaped` tells whether it held a backslash escape.
  bool string(bool* escaped = nullptr) {
    if (!eat('"')) return false;
    const std::size_t n = s_.size();
    while (i_ < n) {
      const int c = byte(i_);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c == '\\') {
        if (escaped != nullptr) *escaped = true;
        if (!escape()) return false;
      } else if (c < 0x20) {
        return false;
      } else if (c < 0x80) {
        ++i_;
      } else if (!utf8()) {
        return false;
      }
    }
    return false;
  }

  /// One complete value, nested containers included; iterative, so depth costs heap only.
  bool value() {
    const std::size_t base = stack_.size();
    for (;;) {
      skip_ws();
      const int c = peek();
      if (c == '{') {
        ++i_;
        skip_ws();
        if (!eat('}')) {
          stack_.push_back('}');
          if (!member_key()) return false;
          continue;
        }
      } else if (c == '[') {
        ++i_;
        skip_ws();
        if (!eat(']')) {
          stack_.push_back(']');
          continue;
        }
      } else if (c == '"') {
        if (!string()) return false;
      } else if (c == 't') {
        if (!literal("true")) return false;
      } else if (c == 'f') {
        if (!literal("false")) return false;
      } else if (c == 'n') {
        if (!literal("null")) return false;
      } else if (c == '-' || is_digit(c)) {
        if (!number()) return false;
      } else {
        return false;
      }
      // A value ended: close what it ended, or go on to the next element or member.
      for (;;) {
        if (stack_.size() == base) return true;
        skip_ws();
        if (eat(',')) {
          if (stack_.back() == '}' && !member_key()) return false;
          break;
        }
        if (!eat(stack_.back())) return false;
        stack_.pop_back();
      }
    }
  }

  /// `"key" :` inside an object.
  bool member_key() {
    skip_ws();
    if (!string()) return false;
    skip_ws();
    return eat(':');
  }

 private:
  int byte(std::size_t at) const { return static_cast<unsigned char>(s_[at]); }

  bool hex4(unsigned& out) {
    if (i_ + 4 > s_.size()) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) {
      const int v = hex_value(byte(i_++));
      if (v < 0) return false;
      out = out * 16 + static_cast<unsigned>(v);
    }
    return true;
  }

  // At a backslash. Surrogates must come in pairs, as nlohmann requires.
  bool escape() {
    ++i_;
    if (i_ >= s_.size()) return false;
    switch (s_[i_++]) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        return true;
      case 'u': {
        unsigned code = 0;
        if (!hex4(code)) return false;
        if (code >= 0xDC00 && code <= 0xDFFF) return false;
        if (code < 0xD800 || code > 0xDBFF) return true;
        if (!eat('\\') || !eat('u')) return false;
        unsigned low = 0;
        return hex4(low) && low >= 0xDC00 && low <= 0xDFFF;
      }
      default:
        return false;
    }
  }

  // One multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF).
  bool utf8() {
    const int c = byte(i_);
    int more = 0;
    int lo = 0x80;
    int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c == 0xE0) {
      more = 2;
      lo = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
      more = 2;
    } else if (c == 0xED) {
      more = 2;
      hi = 0x9F;
    } else if (c == 0xF0) {
      more = 3;
      lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
      more = 3;
    } else if (c == 0xF4) {
      more = 3;
      hi = 0x8F;
    } else {
      return false;
    }
    if (i_ + 1 + static_cast<std::size_t>(more) > s_.size()) return false;
    for (int k = 1; k <= more; ++k) {
      const int b = byte(i_ + static_cast<std::size_t>(k));
      if (b < lo || b > hi) return false;
      lo = 0x80;
      hi = 0xBF;
    }
    i_ += 1 + static_cast<std::size_t>(more);
    return true;
  }

  bool digits() {
    if (!is_digit(peek())) return false;
    while (is_digit(peek())) ++i_;
    return true;
  }

  bool number() {
    eat('-');
    if (!eat('0') && !digits()) return false;
    if (eat('.') && !digits()) return false;
    if (peek() == 'e' || peek() == 'E') {
      ++i_;
      if (peek() == '+' || peek() == '-') ++i_;
      if (!digits()) return false;
    }
    return true;
  }

  bool literal(std::string_view word) {
    if (s_.compare(i_, word.size(), word) != 0) return false;
    i_ += word.size();
    return true;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string stack_;  ///< The closing bracket of each open container.
};

}  // namespace

std::optional<ScannedJson> scan_json(std::string_view text, std::string_view split_key) {
  Scanner sc(text);
  sc.skip_bom();
  sc.skip_ws();
  ScannedJson out;
  if (!sc.eat('{')) {
    if (!sc.value()) return std::nullopt;
    sc.skip_ws();
    if (!sc.at_input_end()) return std::nullopt;
    return out;
  }
  out.is_object = true;
  sc.skip_ws();
  if (!sc.eat('}')) {
    for (;;) {
      sc.skip_ws();
      const std::size_t key_begin = sc.pos();
      bool escaped = false;
      if (!sc.string(&escaped)) return std::nullopt;
      const std::size_t key_end = sc.pos();
      sc.skip_ws();
      if (!sc.eat(':')) return std::nullopt;
      ScannedMember member;
      if (escaped) {
        // Rare; the scanner has validated it, so nlohmann cannot refuse it.
        member.key = json::parse(text.substr(key_begin, key_end - key_begin)).get<std::string>();
      } else {
        member.key = std::string(text.substr(key_begin + 1, key_end - key_begin - 2));
      }
      sc.skip_ws();
      member.value.begin = sc.pos();
      const bool split = !split_key.empty() && member.key == split_key;
      if (split && sc.eat('[')) {
        std::vector<JsonSpan> elements;
        sc.skip_ws();
        if (!sc.eat(']')) {
          for (;;) {
            sc.skip_ws();
            JsonSpan element;
            element.begin = sc.pos();
            if (!sc.value()) return std::nullopt;
            element.end = sc.pos();
            elements.push_back(element);
            sc.skip_ws();
            if (sc.eat(',')) continue;
            if (sc.eat(']')) break;
            return std::nullopt;
          }
        }
        out.elements = std::move(elements);
      } else {
        if (!sc.value()) return std::nullopt;
        if (split) out.elements.clear();
      }
      member.value.end = sc.pos();
      if (split) out.split = out.members.size();
      out.members.push_back(std::move(member));
      sc.skip_ws();
      if (sc.eat(',')) continue;
      if (sc.eat('}')) break;
      return std::nullopt;
    }
  }
  sc.skip_ws();
  if (!sc.at_input_end()) return std::nullopt;
  return out;
}


namespace {

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

unsigned hex4_at(std::string_view s, std::size_t at) {
  unsigned code = 0;
  for (std::size_t k = 0; k < 4; ++k) code = code * 16 + static_cast<unsigned>(hex_value(s[at + k]));
  return code;
}

}  // namespace

std::string unescape_json_string(std::string_view quoted) {
  const std::string_view body = quoted.substr(1, quoted.size() - 2);
  std::size_t i = body.find('\\');
  if (i == std::string_view::npos) return std::string(body);
  std::string out;
  out.reserve(body.size());
  out.append(body.substr(0, i));
  // The scanner accepted the text: every escape is complete and surrogates come in pairs.
  while (i < body.size()) {
    const char e = body[i + 1];
    i += 2;
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code = hex4_at(body, i);
        i += 4;
        if (code >= 0xD800 && code <= 0xDBFF) {
          const unsigned low = hex4_at(body, i + 2);
          i += 6;
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(out, code);
        break;
      }
      default:  // '"', '\\', '/'
        out += e;
    }
    const std::size_t next = body.find('\\', i);
    out.append(body.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i));
    i = next == std::string_view::npos ? body.size() : next;
  }
  return out;
}

}  // namespace webdata::detail
