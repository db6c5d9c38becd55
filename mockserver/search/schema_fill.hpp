#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/index.hpp"

namespace webdata::mock::search {

/// What the agent read: the pages (best first) and the passages it chose (best first).
struct Evidence {
  std::vector<const PageRecord*> pages;
  std::vector<std::string> passages;
  std::string answer;  ///< The agent's result text.
};

/// A value valid against `schema` (draft-07 subset: type and type arrays, properties,
/// required, items, enum, const, default, string formats date / date-time / uri / email,
/// minLength / maxLength, numeric minimum / maximum / exclusive bounds / multipleOf,
/// minItems / maxItems, allOf / anyOf / oneOf, local `$ref`) filled from the evidence: each
/// property from what its name points at (title, url, date, a "Name: value" line, the passage
/// sharing most words with the name, numbers in that passage, enum values named in the text),
/// arrays of objects one element per page read. Deterministic.
nlohmann::json fill_schema(const nlohmann::json& schema, const Evidence& evidence);

}  // namespace webdata::mock::search
