// The format registry (scrape/producers/registry.cpp) against the contract: each version's rows
// are exactly the formats that version's schema accepts, so a format added to a schema without
// a producer, or a row that claims a format of the other version, fails here.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "scrape/producers/registry.hpp"
#include "webdata/contract/schemas.hpp"

namespace {

using webdata::contract::SchemaSet;
using webdata::mock::requests::Version;
namespace scrape = webdata::mock::scrape;

void add_enum(const nlohmann::json& schema, std::set<std::string>& out) {
  for (const auto& name : schema.at("enum")) out.insert(name.get<std::string>());
}

/// The format names a version's requests may carry (v1's screenshot@fullPage is its screenshot).
std::set<std::string> accepted(Version version) {
  const SchemaSet& schemas = SchemaSet::embedded();
  std::set<std::string> names;
  if (version == Version::v1) {
    add_enum(schemas.document("common/format.v1"), names);
    names.erase("screenshot@fullPage");
    return names;
  }
  const nlohmann::json& entry = schemas.document("common/format-entry.v2");
  add_enum(entry.at("anyOf").at(0), names);
  for (const auto& [kind, definition] : entry.at("definitions").items()) {
    add_enum(definition.at("properties").at("type"), names);
  }
  return names;
}

std::set<std::string> registered(Version version) {
  std::set<std::string> names;
  for (const auto& row : scrape::produce::rows()) {
    if ((row.versions & scrape::rules_of(version).bit) != 0) names.insert(row.name);
  }
  return names;
}

}  // namespace

TEST_CASE("the format registry has a producer for every format of each version, and no more",
          "[scrape][registry]") {
  for (const Version version : {Version::v1, Version::v2}) {
    INFO(webdata::mock::requests::version_name(version));
    const auto schema = accepted(version);
    REQUIRE(schema.size() >= 9);
    CHECK(registered(version) == schema);
  }
}

TEST_CASE("the format registry: one row per format, each answering in a field",
          "[scrape][registry]") {
  std::set<std::string> names;
  for (const auto& row : scrape::produce::rows()) {
    INFO(row.name);
    CHECK(names.insert(row.name).second);
    CHECK(std::string(row.field).size() > 0);
    CHECK(row.produce != nullptr);
  }
}
