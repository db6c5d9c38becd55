#include "core/json_text.hpp"

#include "core/text.hpp"

namespace webdata::mock {

namespace {

using json = nlohmann::json;

// Bytes that need an escape inside a JSON string: control characters, quote and backslash.
struct EscapeTable {
  bool needs[256] = {};
  constexpr EscapeTable() {
    for (int c = 0; c < 0x20; ++c) needs[c] = true;
    needs[static_cast<unsigned char>('"')] = true;
    needs[static_cast<unsigned char>('\\')] = true;
  }
};
constexpr EscapeTable kEscape;

void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  const char seq[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0x0f]};
  out.append(seq, 6);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  if (!is_valid_utf8(text)) {
    // Rare: nlohmann's own replacement rules, so the bytes stay exactly its.
    out += json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!kEscape.needs[c]) continue;
    out.append(text.data() + start, i - start);
    append_escape(out, c);
    start = i + 1;
  }
  out.append(text.data() + start, text.size() - start);
  out += '"';
}

void append_json_text(std::string& out, const json& value) {
  switch (value.type()) {
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, it.key());
        out += ':';
        append_json_text(out, it.value());
      }
      out += '}';
      return;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += ',';
        first = false;
        append_json_text(out, item);
      }
      out += ']';
      return;
    }
    case json::value_t::string:
      append_json_string(out, value.get_ref<const std::string&>());
      return;
    default:
      // Numbers, booleans, null, binary: nlohmann's formatting (number text is its own).
      out += value.dump(-1, ' ', false, json::error_handler_t::replace);
      return;
  }
}

std::string json_text(const json& value) {
  std::string out;
  append_json_text(out, value);
  return out;
}

}  // namespace webdata::mock
