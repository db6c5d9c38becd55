#pragma once

// The contract's JSON schemas, compiled in or loaded from a directory, and a validator that
// reports field-level issues in the shape of the service's validation `details`
// (wire-decisions section 1).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::contract {

/// One reason a value does not match a schema, e.g.
/// `{"code": "invalid_type", "path": ["formats", 0], "message": "formats.0: Expected string,
/// received number", "expected": "string", "received": "number"}`.
struct Issue {
  /// invalid_type, unrecognized_keys, invalid_enum_value, too_big, too_small, invalid_string,
  /// or custom.
  std::string code;
  /// Keys (strings) and array indexes (integers) from the root of the value to the offending part.
  nlohmann::json path = nlohmann::json::array();
  /// Human text; starts with the dotted path ("formats.0.type: ...") unless the path is empty.
  std::string message;
  /// The same text without the path, worded as the service's validator (Zod 3) words it
  /// ("Expected string, received number").
  std::string text;
  /// Code-specific fields: expected/received, keys, options/received, maximum or minimum (with
  /// type and inclusive), validation/pattern.
  nlohmann::json extra = nlohmann::json::object();

  /// `{"code", "path", "message"}` with the fields of `extra` merged in.
  nlohmann::json to_json() const;
};

/// Why `schema` (a JSON Schema a request carries, such as an agent's `schema`) cannot be used:
/// what the validator's schema reader refused, or nullopt when it reads it.
std::optional<std::string> schema_problem(const nlohmann::json& schema);

/// Every schema of the contract, each compiled once. Immutable after construction, so one set can
/// be shared by any number of threads; copies share the compiled schemas.
///
///   const auto& schemas = webdata::contract::SchemaSet::embedded();
///   for (const auto& issue : schemas.validate("v2/scrape.request", body)) log(issue.message);
class SchemaSet {
 public:
  /// The schemas compiled into the library (the schemas/ tree of the source it was built from).
  static const SchemaSet& embedded();

  /// Loads every `*.json` one directory below `dir` (common/, v1/, v2/; `examples/` is skipped),
  /// e.g. an installed `share/webdata/schemas`. Throws std::runtime_error naming the file when a
  /// file is missing, is not JSON, or has a `$ref` that does not resolve.
  static SchemaSet load(const std::filesystem::path& dir);

  /// Names are paths under schemas/ without ".json": "v2/scrape.request", "common/metadata".
  bool has(const std::string& name) const;
  /// Every schema name, sorted.
  std::vector<std::string> names() const;
  /// The schema document as written (with its relative `$ref`s). Throws std::invalid_argument
  /// for an unknown name.
  const nlohmann::json& document(const std::string& name) const;

  /// Empty when `value` matches schema `name`; otherwise the most specific issues found. Throws
  /// std::invalid_argument for an unknown schema name.
  std::vector<Issue> validate(const std::string& name, const nlohmann::json& value) const;

  /// `value` with the `default` of every absent property filled in, following `$ref`s, into
  /// nested objects and array items (and into the branch of an anyOf/oneOf that the value
  /// matches). Meant for values that validate; throws std::invalid_argument for an unknown name.
  nlohmann::json with_defaults(const std::string& name, nlohmann::json value) const;

 private:
  struct Impl;
  explicit SchemaSet(std::shared_ptr<const Impl> impl);

  std::shared_ptr<const Impl> impl_;
};

}  // namespace webdata::contract
