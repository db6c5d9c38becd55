#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webdata/result.hpp"

namespace webdata {

/// A JSON value kept as its compact JSON text: json schemas, extraction results, javascript
/// return values, free-form metadata. The SDK never exposes a JSON library in its headers; read
/// `text()` with the library of your choice. See docs/adr/0002-sdk-json-values.md.
///
///     webdata::Json schema = webdata::Json::parse(R"({"type":"object"})").value();
///     std::cout << doc.json->text();
class Json {
 public:
  /// JSON `null`.
  Json() = default;

  /// Validates `text` and keeps it in compact form; a clear kInvalidArgument error otherwise.
  static Result<Json> parse(std::string_view text);
  /// A JSON string holding `value` (quoted and escaped).
  static Json string(std::string_view value);
  static Json number(double value);
  static Json integer(long long value);
  static Json boolean(bool value);
  /// A JSON object of string values, e.g. webhook metadata.
  static Json object(const std::map<std::string, std::string>& members);

  /// Compact JSON text; "null" for a default-constructed value.
  const std::string& text() const noexcept { return text_; }
  /// Indented JSON text for people.
  std::string pretty(int indent = 2) const;

  bool is_null() const noexcept { return text_ == "null"; }
  bool is_object() const noexcept { return !text_.empty() && text_.front() == '{'; }
  bool is_array() const noexcept { return !text_.empty() && text_.front() == '['; }
  bool is_string() const noexcept { return !text_.empty() && text_.front() == '"'; }
  /// The decoded string when this is a JSON string.
  std::optional<std::string> as_string() const;

  friend bool operator==(const Json& a, const Json& b) { return a.text_ == b.text_; }
  friend bool operator!=(const Json& a, const Json& b) { return !(a == b); }

  /// Wraps text the SDK itself produced from a parsed value; not validated again.
  static Json from_trusted_text(std::string compact_text);

 private:
  std::string text_ = "null";
};

/// Keys of a response object that the SDK has no field for, by wire name. Models keep them so a
/// newer service never loses data in an older SDK, and write them back when serialized.
using Extras = std::map<std::string, Json>;

/// What the SDK could not read into the field meant for it, one line each: a known key of an
/// unexpected type (`at error: expected a string, got an object`), whose value is kept as raw
/// JSON in the model's `extras` instead of failing the call. Empty when the answer had the
/// expected shape. Models that carry it never write it back (`to_json` leaves it out).
using Diagnostics = std::vector<std::string>;

}  // namespace webdata
