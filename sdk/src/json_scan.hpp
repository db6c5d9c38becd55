#pragma once

// A one-pass JSON scanner that validates text without building a tree and reports where the
// members of a top-level object sit, so a large answer (a 10 MB status chunk) can be decoded
// one piece at a time from its own text instead of through a DOM of the whole of it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace webdata::detail {

/// Byte range [begin, end) of one JSON value inside the scanned text.
struct JsonSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct ScannedMember {
  std::string key;  ///< Unescaped.
  JsonSpan value;
};

/// The shape of a scanned text.
struct ScannedJson {
  bool is_object = false;  ///< Otherwise `members` is empty.
  /// The top-level members in text order, duplicates included.
  std::vector<ScannedMember> members;
  /// Index in `members` of the last member named as asked (the one a DOM keeps), if any.
  std::optional<std::size_t> split;
  /// When that member's value is an array: the range of each element.
  std::vector<JsonSpan> elements;
};

/// Validates `text` as one JSON value (RFC 8259, as strict as nlohmann::json::parse: UTF-8 in
/// strings, escapes and surrogate pairs, number syntax; a leading UTF-8 byte order mark and
/// surrounding whitespace allowed). Returns nullopt for anything else, truncated text included.
/// `split_key` names the top-level member whose array elements are reported one by one.
/// Deep nesting costs heap, not stack.
std::optional<ScannedJson> scan_json(std::string_view text, std::string_view split_key = {});

}  // namespace webdata::detail
