#pragma once
// One schema check for the surface tests (they share a unity build, so one definition).

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "webdata/contract/schemas.hpp"

namespace surface_test {

/// Checks `body` against the embedded schema `schema` ("v2/map.response"), listing every issue.
inline void check_schema(const std::string& schema, const nlohmann::json& body) {
  const auto issues = webdata::contract::SchemaSet::embedded().validate(schema, body);
  INFO(schema << ": " << body.dump());
  for (const auto& issue : issues) INFO(issue.to_json().dump());
  CHECK(issues.empty());
}

}  // namespace surface_test
