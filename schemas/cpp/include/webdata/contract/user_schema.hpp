#pragma once

// A JSON Schema that stands alone, such as one sent in a request (the json format's, extract's),
// checked by the same validator as the contract (valijson, draft-07).

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace webdata::contract {

/// A user's schema, compiled by valijson on first use of each node and kept. What valijson
/// cannot compile is left out instead of failing the caller's request (as SchemaWalker does): a
/// `$ref` that points nowhere, outside the document or round in a cycle, a `pattern` or
/// `patternProperties` regex that std::regex cannot read; a schema that still does not compile
/// accepts every value. A fractional `multipleOf` is met within 1e-9 of a whole quotient (valijson
/// wants the remainder under machine epsilon, which 12.5 and 0.01 miss). Thread-safe.
///
///   webdata::contract::UserSchema schema(request.at("schema"));
///   if (!schema.accepts(answer)) answer = fallback;
class UserSchema {
 public:
  /// `formats`: the `format` names to check, each with an ECMAScript pattern that a string of
  /// that format matches; other formats are annotations (draft-07's default).
  explicit UserSchema(nlohmann::json root, std::map<std::string, std::string> formats = {});
  ~UserSchema();
  UserSchema(const UserSchema&) = delete;
  UserSchema& operator=(const UserSchema&) = delete;

  /// Whether `value` matches the whole schema.
  bool accepts(const nlohmann::json& value) const;
  /// Whether `value` matches `node`: a schema written inside the root (or a copy of one, such as
  /// SchemaWalker::flatten() makes), whose `$ref`s are read against the root.
  bool accepts(const nlohmann::json& value, const nlohmann::json& node) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace webdata::contract
