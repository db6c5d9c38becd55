#pragma once

// One walker over JSON Schemas (draft-07) for the code that reads schemas beside valijson: the
// contract's issue explanations and defaults, the mock's `json` format extraction and the agent's
// schema filling. It knows how a schema is put together ($ref, allOf / anyOf / oneOf, type
// arrays, properties / patternProperties / additionalProperties, items / additionalItems,
// enum / const); what to do with it (report, extract, generate) stays with each caller, through a
// visitor or a branch chooser. Validity itself is valijson's job.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::contract {

/// A schema node and the document its relative `$ref`s are read in (`doc` is null for a schema
/// that stands alone, such as one sent in a request).
struct SchemaNode {
  const std::string* doc = nullptr;
  const nlohmann::json* schema = nullptr;
};

/// Finds the node `ref` (written at `from`) points to; nullopt when it points nowhere. May throw
/// for a reference its schemas must not contain (the contract's loader reports those).
using RefResolver =
    std::function<std::optional<SchemaNode>(const SchemaNode& from, const std::string& ref)>;

/// For a flattened anyOf / oneOf: which of the (flattened) branches stands for the node, or
/// nullopt to leave the keyword as it is.
using BranchChooser =
    std::function<std::optional<std::size_t>(const std::vector<nlohmann::json>& branches)>;

/// The subschemas that apply to one member of an object value.
struct MemberSchemas {
  std::optional<SchemaNode> property;    ///< from `properties`
  std::vector<SchemaNode> patterns;      ///< every `patternProperties` entry whose regex matches
  std::optional<SchemaNode> additional;  ///< `additionalProperties` when neither of the above
  bool forbidden = false;                ///< `additionalProperties: false` and neither of the above
};

template <typename Json>
class BasicSchemaVisitor;

class SchemaWalker {
 public:
  /// Hops along a `$ref` chain before it counts as a cycle; flatten() nesting bound too.
  static constexpr int kMaxRefHops = 64;
  static constexpr int kMaxFlattenDepth = 16;

  /// A walker over one schema that stands alone: `$ref`s are local ("#", "#/definitions/x",
  /// "#/$defs/x", any JSON pointer into `root`). `root` must outlive the walker.
  explicit SchemaWalker(const nlohmann::json& root);
  /// A walker whose `$ref`s are resolved by `resolve` (the contract's cross-document refs).
  explicit SchemaWalker(RefResolver resolve);

  /// The node `ref` (written at `from`) points to, nullopt when it points nowhere.
  std::optional<SchemaNode> resolve(const SchemaNode& from, const std::string& ref) const;

  /// Follows `$ref` from `node` until a node without one. A reference that points nowhere, or a
  /// chain longer than kMaxRefHops (a cycle), stops at the last node reached (which still holds
  /// its `$ref`), so user-supplied schemas never make the walk fail.
  SchemaNode deref(SchemaNode node) const;

  /// The node as one object schema: a `$ref` is replaced by its target with the node's other
  /// keywords over it; `allOf` parts are folded in (the node's own keywords first, then each part
  /// in order; `properties` and `required` are unioned, a property named twice keeps its first
  /// schema); with a chooser, `anyOf` / `oneOf` are replaced by the chosen branch's keywords
  /// where the node has none of its own. Nested schemas (properties, items) are not flattened:
  /// callers flatten them as they reach them. A schema that is not an object (`true`) is
  /// returned as it is; nesting deeper than kMaxFlattenDepth is returned unflattened.
  nlohmann::json flatten(const SchemaNode& node, const BranchChooser& choose = {}) const;

  /// The branches of `keyword` ("allOf", "anyOf", "oneOf") as nodes of the same document; empty
  /// when absent or not an array.
  std::vector<SchemaNode> branches(const SchemaNode& node, const char* keyword) const;

  /// The subschemas that apply to member `key` of an object value of `node` (after deref).
  MemberSchemas member(const SchemaNode& node, const std::string& key) const;

  /// The subschema for element `index` of an array value: `items` (one schema, or the tuple
  /// entry), else `additionalItems` past the tuple; nullopt when nothing constrains it.
  std::optional<SchemaNode> item(const SchemaNode& node, std::size_t index) const;

  /// The names in the `type` keyword (a string or an array), in order; empty when absent.
  static std::vector<std::string> types(const nlohmann::json& schema);

  /// Whether `value` has JSON Schema type `type` ("integer" is a number stored as an integer;
  /// an unknown type name accepts everything).
  static bool has_type(const std::string& type, const nlohmann::json& value);

  /// Whether `value` is one of `enum` and equals `const`, where those are present.
  static bool allowed_value(const nlohmann::json& schema, const nlohmann::json& value);

  /// Walks `value` and the schema together, depth first: at each (node, value) pair (after
  /// deref) the visitor's enter() runs; when it returns true the walk goes on into every allOf
  /// branch, the anyOf / oneOf branch the visitor chooses, each member of an object value (its
  /// property, matching patterns, else additionalProperties) and each element of an array value.
  /// `Json` is `const nlohmann::json` to read, `nlohmann::json` to change the value on the way
  /// (enter() runs before the walk reads the members, so members it adds are walked too).
  template <typename Json>
  void walk(const SchemaNode& node, Json& value, BasicSchemaVisitor<Json>& visitor) const;
  /// walk() over a value that is only read (a temporary too).
  void walk(const SchemaNode& node, const nlohmann::json& value,
            BasicSchemaVisitor<const nlohmann::json>& visitor) const {
    walk<const nlohmann::json>(node, value, visitor);
  }

 private:
  nlohmann::json flatten_at(const SchemaNode& node, const BranchChooser& choose, int depth) const;

  RefResolver resolve_;
};

/// What a caller does at each step of SchemaWalker::walk().
template <typename Json>
class BasicSchemaVisitor {
 public:
  virtual ~BasicSchemaVisitor() = default;
  /// A schema node (after deref) meets a value. Return false to go no deeper below it.
  virtual bool enter(const SchemaNode& node, Json& value) = 0;
  /// The anyOf / oneOf branch to walk into (an index into `branches`), nullopt for none (the
  /// default: which branch a value belongs to is a policy of the caller).
  virtual std::optional<std::size_t> choose(const SchemaNode& node,
                                            const std::vector<SchemaNode>& branches, Json& value) {
    (void)node;
    (void)branches;
    (void)value;
    return std::nullopt;
  }
};

using SchemaVisitor = BasicSchemaVisitor<const nlohmann::json>;
using SchemaEditor = BasicSchemaVisitor<nlohmann::json>;

template <typename Json>
void SchemaWalker::walk(const SchemaNode& start, Json& value,
                        BasicSchemaVisitor<Json>& visitor) const {
  const SchemaNode node = deref(start);
  if (node.schema == nullptr || !node.schema->is_object()) return;
  if (!visitor.enter(node, value)) return;
  for (const SchemaNode& branch : branches(node, "allOf")) walk(branch, value, visitor);
  for (const char* keyword : {"anyOf", "oneOf"}) {
    const auto options = branches(node, keyword);
    if (options.empty()) continue;
    const auto chosen = visitor.choose(node, options, value);
    if (chosen && *chosen < options.size()) walk(options[*chosen], value, visitor);
  }
  if (value.is_object()) {
    for (auto& entry : value.items()) {
      const MemberSchemas schemas = member(node, entry.key());
      if (schemas.property) walk(*schemas.property, entry.value(), visitor);
      for (const SchemaNode& pattern : schemas.patterns) walk(pattern, entry.value(), visitor);
      if (schemas.additional) walk(*schemas.additional, entry.value(), visitor);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (const auto element = item(node, i)) walk(*element, value[i], visitor);
    }
  }
}

}  // namespace webdata::contract
