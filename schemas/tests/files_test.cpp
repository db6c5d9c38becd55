#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <webdata/contract/schemas.hpp>

#include "source_dir.hpp"

using nlohmann::json;
using webdata::contract::SchemaSet;
namespace fs = std::filesystem;
using webdata::contract::testing::kSource;

namespace {

json read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE(in);
  const json doc = json::parse(in, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

// Every "$ref" string anywhere in `node` (a schema or an OpenAPI document), with its JSON pointer.
void collect_refs(const json& node, const std::string& where,
                  std::vector<std::pair<std::string, std::string>>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (key == "$ref" && value.is_string()) out.emplace_back(where, value.get<std::string>());
      if (key == "enum" || key == "const" || key == "default" || key == "example") continue;
      collect_refs(value, where + "/" + key, out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      collect_refs(node[i], where + "/" + std::to_string(i), out);
    }
  }
}

// Resolves `ref` written in `file` with the filesystem, independently of the library.
bool resolves(const fs::path& file, const std::string& ref) {
  const auto hash = ref.find('#');
  const std::string uri = ref.substr(0, hash);
  const std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
  const fs::path target = uri.empty() ? file : (file.parent_path() / uri).lexically_normal();
  if (!fs::is_regular_file(target)) return false;
  const json doc = read_json(target);
  if (pointer.empty()) return true;
  try {
    return doc.contains(json::json_pointer(pointer));
  } catch (const json::exception&) {
    return false;
  }
}

std::vector<fs::path> json_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every $ref of every schema file resolves", "[files]") {
  std::size_t refs = 0;
  for (const char* dir : {"common", "v1", "v2"}) {
    for (const auto& file : json_files(kSource / dir)) {
      std::vector<std::pair<std::string, std::string>> found;
      collect_refs(read_json(file), "", found);
      for (const auto& [where, ref] : found) {
        INFO(file.string() << " at " << where << ": " << ref);
        CHECK(resolves(file, ref));
        ++refs;
      }
    }
  }
  CHECK(refs > 50);
}

TEST_CASE("no $ref has siblings, which draft-07 would ignore", "[files]") {
  const auto& schemas = SchemaSet::embedded();
  for (const auto& name : schemas.names()) {
    std::vector<std::pair<std::string, std::string>> refs;
    collect_refs(schemas.document(name), "", refs);
    for (const auto& [where, ref] : refs) {
      INFO(name << " at " << where);
      const json& node = where.empty() ? schemas.document(name)
                                       : schemas.document(name).at(json::json_pointer(where));
      CHECK(node.size() == 1);
    }
  }
}

TEST_CASE("every schema file is draft-07 with an $id matching its path", "[files]") {
  const auto& schemas = SchemaSet::embedded();
  for (const auto& name : schemas.names()) {
    INFO(name);
    const json& doc = schemas.document(name);
    CHECK(doc.value("$schema", "") == "http://json-schema.org/draft-07/schema#");
    CHECK(doc.value("$id", "") == "https://webdata.example/schemas/" + name + ".json");
    CHECK(doc.contains("title"));
  }
}

namespace {

struct Example {
  fs::path file;
  std::string schema;  // "v2/scrape.request"
  bool valid = false;
};

// examples/<dir>/<schema>.<valid|invalid>[.<tag>].json
std::vector<Example> examples() {
  std::vector<Example> out;
  for (const auto& file : json_files(kSource / "examples")) {
    const std::string stem = file.stem().string();
    Example example;
    example.file = file;
    std::string::size_type at = std::string::npos;
    for (const char* label : {".valid", ".invalid"}) {
      for (auto pos = stem.find(label); pos != std::string::npos; pos = stem.find(label, pos + 1)) {
        const auto end = pos + std::string(label).size();
        if (end == stem.size() || stem[end] == '.') {
          at = pos;
          example.valid = std::string(label) == ".valid";
        }
      }
    }
    if (at == std::string::npos) {
      FAIL_CHECK(file.string() << ": name has no .valid or .invalid label");
      continue;
    }
    example.schema = file.parent_path().filename().string() + "/" + stem.substr(0, at);
    out.push_back(example);
  }
  return out;
}

}  // namespace

TEST_CASE("every example validates or fails as its name says", "[files][examples]") {
  const auto& schemas = SchemaSet::embedded();
  const auto all = examples();
  CHECK(all.size() > 100);
  for (const auto& example : all) {
    INFO(example.file.string());
    REQUIRE(schemas.has(example.schema));
    const auto issues = schemas.validate(example.schema, read_json(example.file));
    std::string shown;
    for (const auto& issue : issues) shown += "\n  " + issue.to_json().dump();
    INFO("issues:" << shown);
    CHECK(issues.empty() == example.valid);
    for (const auto& issue : issues) {
      CHECK_FALSE(issue.code.empty());
      CHECK(issue.path.is_array());
      CHECK_FALSE(issue.message.empty());
    }
  }
}

TEST_CASE("every schema has a valid and an invalid example", "[files][examples]") {
  const auto all = examples();
  for (const auto& name : SchemaSet::embedded().names()) {
    INFO(name);
    CHECK(std::any_of(all.begin(), all.end(),
                      [&](const Example& e) { return e.schema == name && e.valid; }));
    CHECK(std::any_of(all.begin(), all.end(),
                      [&](const Example& e) { return e.schema == name && !e.valid; }));
  }
}

TEST_CASE("the OpenAPI documents are well-formed", "[files][openapi]") {
  const std::vector<std::string> methods = {"get", "put", "post", "delete", "patch"};
  for (const char* version : {"v1", "v2"}) {
    const fs::path file = kSource / (std::string("openapi.") + version + ".json");
    INFO(file.string());
    const json doc = read_json(file);
    CHECK(doc.value("openapi", "").rfind("3.0.", 0) == 0);
    CHECK(doc.at("info").contains("title"));
    CHECK(doc.at("info").contains("version"));
    REQUIRE(doc.at("paths").is_object());
    CHECK(doc.at("paths").size() >= 9);

    std::vector<std::pair<std::string, std::string>> refs;
    collect_refs(doc, "", refs);
    for (const auto& [where, ref] : refs) {
      INFO(where << ": " << ref);
      if (ref.rfind("#/", 0) == 0) {
        CHECK(doc.contains(json::json_pointer(ref.substr(1))));
      } else {
        CHECK(resolves(file, ref));
      }
    }

    std::vector<std::string> operation_ids;
    for (const auto& [path, item] : doc.at("paths").items()) {
      INFO(path);
      CHECK(path.rfind(std::string("/") + version + "/", 0) == 0);
      bool any_operation = false;
      for (const auto& method : methods) {
        if (!item.contains(method)) continue;
        any_operation = true;
        const json& operation = item.at(method);
        INFO(method);
        operation_ids.push_back(operation.value("operationId", ""));
        REQUIRE(operation.contains("responses"));
        const json& responses = operation.at("responses");
        CHECK(responses.contains("200"));
        CHECK(responses.contains("401"));
        CHECK(responses.contains("429"));
        CHECK(responses.contains("500"));
        if (method == "post") {
          CHECK(operation.contains("requestBody"));
          CHECK(responses.contains("400"));
          CHECK(responses.contains("402"));
        }
        if (path.find("{id}") != std::string::npos) {
          CHECK(responses.contains("404"));
          bool declares_id = false;
          for (const auto& parameter : operation.value("parameters", json::array())) {
            declares_id =
                declares_id || parameter.value("$ref", "") == "#/components/parameters/id";
          }
          CHECK(declares_id);
        }
      }
      CHECK(any_operation);
    }
    std::sort(operation_ids.begin(), operation_ids.end());
    CHECK(std::adjacent_find(operation_ids.begin(), operation_ids.end()) == operation_ids.end());

    // Examples named by the documents exist, and match the schema beside them.
    std::vector<json> stack = {doc};
    std::size_t examples_seen = 0;
    while (!stack.empty()) {
      const json node = stack.back();
      stack.pop_back();
      if (node.is_object() && node.contains("schema") && node.contains("examples") &&
          node.at("schema").contains("$ref")) {
        const std::string ref = node.at("schema").at("$ref");
        if (ref.rfind("#", 0) != 0) {
          const std::string schema = ref.substr(0, ref.size() - 5);
          for (const auto& [label, example] : node.at("examples").items()) {
            INFO(label << " " << example.dump());
            const fs::path example_file = kSource / example.value("externalValue", "");
            REQUIRE(fs::is_regular_file(example_file));
            CHECK(SchemaSet::embedded().validate(schema, read_json(example_file)).empty());
            ++examples_seen;
          }
        }
      }
      if (node.is_structured()) {
        for (const auto& child : node) stack.push_back(child);
      }
    }
    CHECK(examples_seen >= 10);
  }
}

TEST_CASE("the OpenAPI documents cover every endpoint schema", "[files][openapi]") {
  for (const char* version : {"v1", "v2"}) {
    const std::string text =
        read_json(kSource / (std::string("openapi.") + version + ".json")).dump();
    for (const auto& name : SchemaSet::embedded().names()) {
      if (name.rfind(std::string(version) + "/", 0) != 0 ||
          name.find("scrape-options") != std::string::npos) {
        continue;
      }
      INFO(name);
      CHECK(text.find("\"" + name + ".json\"") != std::string::npos);
    }
  }
}
