#pragma once

// Instances of the contract's schemas for drift tests (the SDK's models, the mock's typed
// requests): the fullest value a schema allows (every property present) and the least (only what
// it requires). Both validate against their schema.

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

namespace webdata::testing {

class SchemaInstances {
 public:
  explicit SchemaInstances(const webdata::contract::SchemaSet& schemas =
                               webdata::contract::SchemaSet::embedded())
      : schemas_(schemas) {}

  /// Every property present, to a depth of 12; for anyOf/oneOf the first object branch.
  nlohmann::json maximal(const std::string& schema) {
    all_ = true;
    return gen(schema, schemas_.document(schema), 0);
  }
  /// Only required properties (and array items only where minItems asks for them).
  nlohmann::json minimal(const std::string& schema) {
    all_ = false;
    return gen(schema, schemas_.document(schema), 0);
  }

 private:
  using json = nlohmann::json;

  std::pair<std::string, const json*> resolve(const std::string& base, const std::string& ref) {
    const auto hash = ref.find('#');
    const std::string file = ref.substr(0, hash);
    std::string doc = base;
    if (!file.empty()) {
      std::filesystem::path p = std::filesystem::path(base).parent_path() / file;
      doc = p.lexically_normal().generic_string();
      if (doc.size() > 5 && doc.substr(doc.size() - 5) == ".json") doc.resize(doc.size() - 5);
    }
    const json& root = schemas_.document(doc);
    const std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
    return {doc, pointer.empty() ? &root : &root.at(json::json_pointer(pointer))};
  }

  static bool objectish(const json& node) {
    return node.contains("properties") || node.value("type", json()) == "object";
  }

  json gen(const std::string& base, const json& node, int depth) {
    if (depth > 12) return json::object();
    if (node.contains("$ref")) {
      auto [doc, target] = resolve(base, node["$ref"].get<std::string>());
      return gen(doc, *target, depth + 1);
    }
    if (node.contains("allOf")) {
      json out = json::object();
      for (const auto& part : node["allOf"]) {
        json value = gen(base, part, depth + 1);
        if (!value.is_object()) return value;  // a scalar wrapped to carry its own default
        out.update(value);
      }
      if (node.contains("properties")) out.update(object(base, node, depth));
      return out;
    }
    // An object with its own properties: anyOf/oneOf only add constraints (e.g. the wait
    // action's "milliseconds or selector"), and every property is wanted anyway.
    if (node.contains("properties")) return object(base, node, depth);
    for (const char* key : {"anyOf", "oneOf"}) {
      if (node.contains(key)) return gen(base, pick(base, node[key]), depth + 1);
    }
    if (node.contains("enum")) return node["enum"][0];
    return scalar(base, node, depth);
  }

  const json& pick(const std::string& base, const json& options) {
    for (const auto& option : options) {
      const json* resolved = &option;
      if (option.contains("$ref")) resolved = resolve(base, option["$ref"]).second;
      if (objectish(*resolved)) return option;
    }
    return options[0];
  }

  json scalar(const std::string& base, const json& node, int depth) {
    json type = node.value("type", json());
    if (type.is_array()) type = type[0];
    if (type == "string") {
      if (node.value("format", "") == "date-time") return "2025-01-01T00:00:00Z";
      if (node.value("format", "") == "uuid") return "00000000-0000-4000-8000-000000000000";
      if (node.contains("pattern")) return "US";
      return node.value("format", "") == "uri" ? "https://site.test/" : "text";
    }
    if (type == "integer") return node.value("minimum", 1);
    // A whole number where the schema's lower bound is one (a crawl `limit`), else a fraction.
    if (type == "number") return node.contains("minimum") ? node["minimum"] : json(1.5);
    if (type == "boolean") return true;
    if (type == "array") {
      const bool items = node.contains("items") && (all_ || node.value("minItems", 0) > 0);
      return items ? json::array({gen(base, node["items"], depth + 1)}) : json::array();
    }
    if (type == "object") return object(base, node, depth);
    return "any";
  }

  json object(const std::string& base, const json& node, int depth) {
    json out = json::object();
    if (node.contains("properties")) {
      const json required = node.value("required", json::array());
      for (const auto& [key, sub] : node["properties"].items()) {
        if (all_ || std::find(required.begin(), required.end(), key) != required.end()) {
          out[key] = gen(base, sub, depth + 1);
        }
      }
    } else if (all_ && node.contains("additionalProperties") &&
               node["additionalProperties"].is_object()) {
      out["key"] = gen(base, node["additionalProperties"], depth + 1);
    }
    return out;
  }

  const webdata::contract::SchemaSet& schemas_;
  bool all_ = true;
};

}  // namespace webdata::testing
