#include <webdata/contract/schemas.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "documents.hpp"
#include "embedded.hpp"
#include "explain.hpp"

namespace webdata::contract {
namespace {

using nlohmann::json;

// The copy of a document valijson compiles. valijson 1.0 resolves a relative $ref against the
// scope of the document it started from (not the referenced file's), and caches fragment-only
// refs without the document, so every $ref becomes an absolute URI of its target. Its "format"
// check also rejects the null of a ["string", "null"] field, so "date-time" becomes the
// equivalent pattern and other formats stay annotations.
json prepare_for_valijson(const detail::Documents& docs, const std::string& name) {
  json copy = *docs.find(name);
  detail::for_each_schema(copy, [&](json& schema) {
    if (const auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
      const auto target = detail::parse_ref(name, ref->get<std::string>());
      *ref = std::string(detail::kIdBase) + target.doc + ".json#" + target.pointer;
    }
    if (const auto format = schema.find("format"); format != schema.end()) {
      const bool date_time = *format == "date-time";
      schema.erase(format);
      if (date_time && !schema.contains("pattern")) {
        schema["pattern"] = detail::kDateTimePattern;
      }
    }
  });
  return copy;
}

json parse_file(const std::string& label, const std::string& text) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw std::runtime_error(label + ": not valid JSON");
  if (!doc.is_object() && !doc.is_boolean()) {
    throw std::runtime_error(label + ": a schema must be an object or a boolean");
  }
  return doc;
}

// ["<root>", "[formats]", "[0]"] -> ["formats", 0]
json valijson_path(const std::vector<std::string>& context) {
  json path = json::array();
  for (const auto& part : context) {
    if (part.size() < 2 || part.front() != '[' || part.back() != ']') continue;
    std::string inner = part.substr(1, part.size() - 2);
    if (!inner.empty() &&
        std::all_of(inner.begin(), inner.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      path.push_back(std::stoull(inner));
    } else {
      if (inner.size() >= 2 && inner.front() == '"' && inner.back() == '"') {
        inner = inner.substr(1, inner.size() - 2);
      }
      path.push_back(inner);
    }
  }
  return path;
}

}  // namespace

json Issue::to_json() const {
  json out = extra.is_object() ? extra : json::object();
  out["code"] = code;
  out["path"] = path;
  out["message"] = message;
  return out;
}

struct SchemaSet::Impl {
  explicit Impl(std::map<std::string, json> files) : docs(std::move(files)) {
    docs.check_refs();
    std::map<std::string, json> prepared;
    for (const auto& entry : docs.all()) {
      prepared.emplace(entry.first, prepare_for_valijson(docs, entry.first));
    }
    using Adapter = valijson::adapters::NlohmannJsonAdapter;
    const auto prefix = std::string(detail::kIdBase);
    for (const auto& [name, doc] : prepared) {
      auto schema = std::make_unique<valijson::Schema>();
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      const auto fetch = [&](const std::string& uri) -> const json* {
        if (uri.compare(0, prefix.size(), prefix) != 0) return nullptr;
        std::string target = uri.substr(prefix.size());
        if (target.size() > 5) target.resize(target.size() - 5);  // ".json"
        const auto it = prepared.find(target);
        return it == prepared.end() ? nullptr : new json(it->second);
      };
      const auto release = [](const json* fetched) { delete fetched; };
      try {
        parser.populateSchema(Adapter(doc), *schema, fetch, release);
      } catch (const std::exception& e) {
        throw std::runtime_error(name + ".json: " + e.what());
      }
      compiled.emplace(name, std::move(schema));
    }
  }

  const valijson::Schema& schema(const std::string& name) const {
    const auto it = compiled.find(name);
    if (it == compiled.end()) throw std::invalid_argument("unknown schema '" + name + "'");
    return *it->second;
  }

  detail::Documents docs;
  std::map<std::string, std::unique_ptr<valijson::Schema>> compiled;
};

SchemaSet::SchemaSet(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const SchemaSet& SchemaSet::embedded() {
  static const SchemaSet set = [] {
    std::map<std::string, json> files;
    for (std::size_t i = 0; i < detail::kEmbeddedFileCount; ++i) {
      const auto& file = detail::kEmbeddedFiles[i];
      const std::string text(reinterpret_cast<const char*>(file.data), file.size);
      files.emplace(file.name, parse_file(std::string(file.name) + ".json", text));
    }
    return SchemaSet(std::make_shared<const Impl>(std::move(files)));
  }();
  return set;
}

SchemaSet SchemaSet::load(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw std::runtime_error(dir.string() + ": not a schema directory");
  }
  std::map<std::string, json> files;
  for (const auto& sub : fs::directory_iterator(dir)) {
    if (!sub.is_directory() || sub.path().filename() == "examples") continue;
    for (const auto& entry : fs::directory_iterator(sub.path())) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      const std::string name = sub.path().filename().string() + "/" + entry.path().stem().string();
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      if (!in) throw std::runtime_error(entry.path().string() + ": cannot be read");
      files.emplace(name, parse_file(entry.path().string(), text.str()));
    }
  }
  if (files.empty()) throw std::runtime_error(dir.string() + ": no schema files");
  return SchemaSet(std::make_shared<const Impl>(std::move(files)));
}

bool SchemaSet::has(const std::string& name) const {
  return impl_->docs.find(name) != nullptr;
}

std::vector<std::string> SchemaSet::names() const {
  std::vector<std::string> out;
  for (const auto& entry : impl_->docs.all()) out.push_back(entry.first);
  return out;
}

const nlohmann::json& SchemaSet::document(const std::string& name) const {
  const json* doc = impl_->docs.find(name);
  if (doc == nullptr) throw std::invalid_argument("unknown schema '" + name + "'");
  return *doc;
}

std::vector<Issue> SchemaSet::validate(const std::string& name, const nlohmann::json& value) const {
  const valijson::Schema& schema = impl_->schema(name);
  // A Validator caches compiled patterns, so each call gets its own: the set stays shareable.
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  const valijson::adapters::NlohmannJsonAdapter target(value);
  if (validator.validate(schema, target, nullptr)) return {};

  auto issues = detail::explain(impl_->docs, name, value);
  if (!issues.empty()) return issues;

  // valijson found something the explanation walk did not: report valijson's own words.
  valijson::ValidationResults results;
  valijson::Validator(valijson::Validator::kStrongTypes).validate(schema, target, &results);
  valijson::ValidationResults::Error error;
  json deepest_path = json::array();
  std::string deepest_text = "Invalid value";
  while (results.popError(error)) {
    json path = valijson_path(error.context);
    if (path.size() >= deepest_path.size()) {
      deepest_path = std::move(path);
      deepest_text = error.description;
    }
  }
  issues.push_back(detail::make_issue("custom", std::move(deepest_path), deepest_text));
  return issues;
}

std::optional<std::string> schema_problem(const nlohmann::json& schema) {
  if (!schema.is_object() && !schema.is_boolean()) return std::string("a schema is an object");
  // A user's schema reaches nothing outside itself: a $ref to another document is refused.
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::Schema compiled;
  const auto fetch = [](const std::string& uri) -> const json* {
    throw std::runtime_error("$ref to another document ('" + uri + "') is not supported");
  };
  const auto release = [](const json*) {};
  try {
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(schema), compiled, fetch,
                          release);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

nlohmann::json SchemaSet::with_defaults(const std::string& name, nlohmann::json value) const {
  if (!has(name)) throw std::invalid_argument("unknown schema '" + name + "'");
  detail::fill_defaults(impl_->docs, name, value);
  return value;
}

}  // namespace webdata::contract
