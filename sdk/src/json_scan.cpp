// The one-pass JSON scanner (json_scan.hpp) and the unescaping of the strings it accepted.
#include "json_scan.hpp"

#include "codec.hpp"

namespace webdata::detail {
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
