#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

#include "documents.hpp"

namespace webdata::contract::detail {

/// RFC 3339 date-time, the check behind `"format": "date-time"` (valijson's own check rejects the
/// null of a `["string", "null"]` field, so the loader turns the format into this pattern).
inline constexpr const char* kDateTimePattern =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt "
    "][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$";

/// "formats.0.type" for ["formats", 0, "type"].
std::string path_to_string(const nlohmann::json& path);

/// Builds an issue whose message is prefixed with the dotted path.
Issue make_issue(std::string code, nlohmann::json path, const std::string& text,
                 nlohmann::json extra = nlohmann::json::object());

/// Walks schema `name` against `value` and describes what does not match, Zod-style: one issue per
/// offending leaf, and for anyOf/oneOf only the branch that got furthest. Validity itself is
/// decided by valijson; this only explains a value valijson rejected.
std::vector<Issue> explain(const Documents& docs, const std::string& name,
                           const nlohmann::json& value);

/// Fills absent properties that have a `default`, following $ref, nested objects, array items and
/// the matching anyOf/oneOf branch.
void fill_defaults(const Documents& docs, const std::string& name, nlohmann::json& value);

}  // namespace webdata::contract::detail
