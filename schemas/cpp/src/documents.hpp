#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace webdata::contract::detail {

/// Base of every schema's `$id`; `$ref`s may be written relative to it or as absolute URIs.
inline constexpr const char* kIdBase = "https://webdata.example/schemas/";

/// A schema node and the document it belongs to (the base of its relative `$ref`s).
struct Node {
  const std::string* doc;
  const nlohmann::json* schema;
};

/// Where a `$ref` points: a document name and a JSON pointer into it ("" for the root).
struct RefTarget {
  std::string doc;
  std::string pointer;
};

/// Resolves `ref` written in document `base` ("v2/scrape.request"). Throws std::runtime_error
/// for a form the contract does not use (another host, a plain-name fragment).
RefTarget parse_ref(const std::string& base, const std::string& ref);

/// Calls `fn` on every schema object in `schema` (itself included), following the keywords that
/// hold subschemas (properties, items, anyOf, ...) and never the data keywords (enum, default).
/// `Json` is `nlohmann::json` or `const nlohmann::json`.
template <typename Json, typename Fn>
void for_each_schema(Json& schema, const Fn& fn) {
  if (!schema.is_object()) return;
  fn(schema);
  for (const char* key : {"additionalProperties", "additionalItems", "contains", "not",
                          "propertyNames", "if", "then", "else"}) {
    const auto it = schema.find(key);
    if (it != schema.end()) for_each_schema(*it, fn);
  }
  for (const char* key : {"items", "allOf", "anyOf", "oneOf"}) {
    const auto it = schema.find(key);
    if (it == schema.end()) continue;
    if (it->is_array()) {
      for (auto& item : *it) for_each_schema(item, fn);
    } else {
      for_each_schema(*it, fn);
    }
  }
  for (const char* key :
       {"properties", "patternProperties", "definitions", "$defs", "dependencies"}) {
    const auto it = schema.find(key);
    if (it == schema.end() || !it->is_object()) continue;
    for (auto& entry : it->items()) for_each_schema(entry.value(), fn);
  }
}

/// The schema documents of a set, by name.
class Documents {
 public:
  explicit Documents(std::map<std::string, nlohmann::json> docs);

  const std::map<std::string, nlohmann::json>& all() const { return docs_; }
  const nlohmann::json* find(const std::string& name) const;

  /// The node `ref` (written in document `base`) points to. Throws std::runtime_error naming
  /// both documents when the target is missing.
  Node resolve(const std::string& base, const std::string& ref) const;

  /// Follows `$ref`s from `node` until a node without one.
  Node deref(Node node) const;

  /// Throws std::runtime_error ("<file>: $ref '...' does not resolve") for the first dangling
  /// `$ref` of any document.
  void check_refs() const;

 private:
  std::map<std::string, nlohmann::json> docs_;
};

}  // namespace webdata::contract::detail
