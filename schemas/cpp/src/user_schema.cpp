#include <webdata/contract/user_schema.hpp>

#include <cmath>
#include <mutex>
#include <regex>
#include <utility>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>
#include <webdata/contract/schema_walk.hpp>

#include "documents.hpp"

namespace webdata::contract {
namespace {

using nlohmann::json;
using Adapter = valijson::adapters::NlohmannJsonAdapter;

// The URI valijson reads every local `$ref` against (see Impl::prepare).
constexpr const char* kRootUri = "https://webdata.example/user-schema.json";

bool is_fraction(const json& number) {
  return number.is_number_float() && std::floor(number.get<double>()) != number.get<double>();
}

// A fractional `multipleOf` within a tolerance: valijson 1.0 compares the remainder with machine
// epsilon, so 12.5 is no multiple of 0.01 there. Nodes inside anyOf / oneOf are not reached
// (the walk does not choose a branch): there the keyword goes unchecked.
class FractionalMultiples : public SchemaVisitor {
 public:
  bool enter(const SchemaNode& node, const json& value) override {
    const json& schema = *node.schema;
    if (!value.is_number() || !schema.is_object()) return ok_;
    const auto divisor = schema.find("multipleOf");
    if (divisor == schema.end() || !is_fraction(*divisor) || divisor->get<double>() <= 0) {
      return ok_;
    }
    const double quotient = value.get<double>() / divisor->get<double>();
    if (std::fabs(quotient - std::round(quotient)) > 1e-9) ok_ = false;
    return ok_;
  }
  bool ok() const { return ok_; }

 private:
  bool ok_ = true;
};

bool regex_compiles(const json& pattern) {
  if (!pattern.is_string()) return false;
  try {
    std::regex re(pattern.get<std::string>(), std::regex::ECMAScript);
    return true;
  } catch (const std::regex_error&) {
    return false;
  }
}

}  // namespace

struct UserSchema::Impl {
  Impl(json root_in, std::map<std::string, std::string> formats_in)
      : root(std::move(root_in)), formats(std::move(formats_in)), walker(root) {
    prepared_root = prepare(root);
  }

  json prepare(const json& node) const;
  void prepare_ref(json& schema) const;
  static void prepare_regexes(json& schema);
  void prepare_format(json& schema) const;
  const valijson::Schema* compiled_for(const json& node);

  json root;
  std::map<std::string, std::string> formats;
  SchemaWalker walker;
  json prepared_root;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<valijson::Schema>> compiled;  // by the node's text
};

// The copy valijson compiles. valijson 1.0 caches fragment-only refs without their document and
// follows a `$ref` cycle until the stack ends, so every `$ref` that resolves becomes an absolute
// URI of the root and every other one goes; regexes std::regex refuses go; a checked format
// becomes an allOf part with its pattern (valijson's own format check refuses the null of a
// ["string", "null"] field); a fractional multipleOf is left to FractionalMultiples.
json UserSchema::Impl::prepare(const json& node) const {
  json copy = node;
  detail::for_each_schema(copy, [this](json& schema) {
    prepare_ref(schema);
    prepare_regexes(schema);
    prepare_format(schema);
    if (const auto divisor = schema.find("multipleOf");
        divisor != schema.end() && is_fraction(*divisor)) {
      schema.erase(divisor);
    }
  });
  return copy;
}

void UserSchema::Impl::prepare_ref(json& schema) const {
  const auto ref = schema.find("$ref");
  if (ref == schema.end()) return;
  // deref() stops at the last node it reached: one still holding a `$ref` is a dead end.
  const SchemaNode end = walker.deref(SchemaNode{nullptr, &schema});
  const bool resolves =
      ref->is_string() && !(end.schema->is_object() && end.schema->contains("$ref"));
  if (resolves) {
    *ref = kRootUri + ref->get<std::string>();
  } else {
    schema.erase(ref);
  }
}

void UserSchema::Impl::prepare_regexes(json& schema) {
  if (const auto pattern = schema.find("pattern");
      pattern != schema.end() && !regex_compiles(*pattern)) {
    schema.erase(pattern);
  }
  const auto patterns = schema.find("patternProperties");
  if (patterns == schema.end() || !patterns->is_object()) return;
  for (auto it = patterns->begin(); it != patterns->end();) {
    it = regex_compiles(it.key()) ? std::next(it) : patterns->erase(it);
  }
}

void UserSchema::Impl::prepare_format(json& schema) const {
  const auto format = schema.find("format");
  if (format == schema.end()) return;
  const auto checked =
      format->is_string() ? formats.find(format->get<std::string>()) : formats.end();
  schema.erase(format);
  if (checked == formats.end()) return;
  json& parts = schema["allOf"];
  if (parts.is_null()) parts = json::array();
  if (parts.is_array()) parts.push_back({{"pattern", checked->second}});
}

// The compiled schema of `node`, nullptr when valijson cannot compile it even so.
const valijson::Schema* UserSchema::Impl::compiled_for(const json& node) {
  std::string key = node.dump();
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = compiled.find(key); it != compiled.end()) return it->second.get();
  auto schema = std::make_unique<valijson::Schema>();
  const json doc = prepare(node);
  const auto fetch = [this](const std::string& uri) -> const json* {
    return uri == kRootUri ? new json(prepared_root) : nullptr;
  };
  const auto release = [](const json* fetched) { delete fetched; };
  try {
    valijson::SchemaParser(valijson::SchemaParser::kDraft7)
        .populateSchema(Adapter(doc), *schema, fetch, release);
  } catch (const std::exception&) {
    schema.reset();  // e.g. `"items": 5`: not a schema; the walker reads it as none either
  }
  return compiled.emplace(std::move(key), std::move(schema)).first->second.get();
}

UserSchema::UserSchema(json root, std::map<std::string, std::string> formats)
    : impl_(std::make_unique<Impl>(std::move(root), std::move(formats))) {}

UserSchema::~UserSchema() = default;

bool UserSchema::accepts(const json& value) const {
  return accepts(value, impl_->root);
}

bool UserSchema::accepts(const json& value, const json& node) const {
  const valijson::Schema* schema = impl_->compiled_for(node);
  if (schema == nullptr) return true;
  // A Validator caches compiled patterns, so each call gets its own.
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  if (!validator.validate(*schema, Adapter(value), nullptr)) return false;
  FractionalMultiples multiples;
  impl_->walker.walk(SchemaNode{nullptr, &node}, value, multiples);
  return multiples.ok();
}

}  // namespace webdata::contract
