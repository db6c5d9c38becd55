#include <webdata/contract/schema_walk.hpp>

#include <algorithm>
#include <regex>
#include <utility>

namespace webdata::contract {

using nlohmann::json;

namespace {

// A pattern std::regex cannot compile counts as matching: the schema author meant it to apply,
// and refusing the member over our regex engine's limits would be worse.
bool pattern_matches(const std::string& text, const std::string& pattern) {
  try {
    return std::regex_search(text, std::regex(pattern));
  } catch (const std::regex_error&) {
    return true;
  }
}

}  // namespace

SchemaWalker::SchemaWalker(const json& root)
    : resolve_([&root](const SchemaNode&, const std::string& ref) -> std::optional<SchemaNode> {
        if (ref == "#") return SchemaNode{nullptr, &root};
        if (ref.rfind("#/", 0) != 0) return std::nullopt;  // not local
        try {
          return SchemaNode{nullptr, &root.at(json::json_pointer(ref.substr(1)))};
        } catch (const json::exception&) {
          return std::nullopt;  // a malformed pointer or nothing there
        }
      }) {}

SchemaWalker::SchemaWalker(RefResolver resolve) : resolve_(std::move(resolve)) {}

std::optional<SchemaNode> SchemaWalker::resolve(const SchemaNode& from,
                                                const std::string& ref) const {
  return resolve_(from, ref);
}

SchemaNode SchemaWalker::deref(SchemaNode node) const {
  for (int hops = 0; hops < kMaxRefHops && node.schema != nullptr; ++hops) {
    if (!node.schema->is_object()) return node;
    const auto ref = node.schema->find("$ref");
    if (ref == node.schema->end() || !ref->is_string()) return node;
    const auto target = resolve_(node, ref->get<std::string>());
    if (!target || target->schema == nullptr) return node;
    node = *target;
  }
  return node;
}

json SchemaWalker::flatten(const SchemaNode& node, const BranchChooser& choose) const {
  if (node.schema == nullptr) return json::object();
  return flatten_at(node, choose, 0);
}

json SchemaWalker::flatten_at(const SchemaNode& node, const BranchChooser& choose,
                              int depth) const {
  const json& in = *node.schema;
  if (!in.is_object() || depth > kMaxFlattenDepth) return in;
  json s = in;

  if (const auto ref = s.find("$ref"); ref != s.end() && ref->is_string()) {
    const auto target = resolve_(node, ref->get<std::string>());
    s.erase("$ref");
    json resolved = target && target->schema != nullptr ? flatten_at(*target, choose, depth + 1)
                                                        : json::object();
    if (!resolved.is_object()) resolved = json::object();
    for (auto& [key, value] : s.items()) resolved[key] = std::move(value);
    s = std::move(resolved);
  }

  if (const auto all = s.find("allOf"); all != s.end() && all->is_array()) {
    const json parts = std::move(*all);
    s.erase("allOf");
    for (const auto& part_schema : parts) {
      const json part = flatten_at(SchemaNode{node.doc, &part_schema}, choose, depth + 1);
      if (!part.is_object()) continue;
      for (const auto& [key, value] : part.items()) {
        if (key == "properties" && value.is_object()) {
          json& props = s["properties"];
          if (!props.is_object()) props = json::object();
          for (const auto& [name, prop] : value.items()) {
            if (!props.contains(name)) props[name] = prop;
          }
        } else if (key == "required" && value.is_array()) {
          json& required = s["required"];
          if (!required.is_array()) required = json::array();
          for (const auto& name : value) {
            if (std::find(required.begin(), required.end(), name) == required.end()) {
              required.push_back(name);
            }
          }
        } else if (!s.contains(key)) {
          s[key] = value;
        }
      }
    }
  }

  if (choose) {
    for (const char* keyword : {"anyOf", "oneOf"}) {
      const auto it = s.find(keyword);
      if (it == s.end() || !it->is_array() || it->empty()) continue;
      std::vector<json> flat;
      for (const auto& branch : *it) {
        flat.push_back(flatten_at(SchemaNode{node.doc, &branch}, choose, depth + 1));
      }
      const auto chosen = choose(flat);
      if (!chosen || *chosen >= flat.size()) continue;
      s.erase(keyword);
      if (!flat[*chosen].is_object()) continue;
      for (auto& [key, value] : flat[*chosen].items()) {
        if (!s.contains(key)) s[key] = std::move(value);
      }
    }
  }
  return s;
}

std::vector<SchemaNode> SchemaWalker::branches(const SchemaNode& node, const char* keyword) const {
  std::vector<SchemaNode> out;
  if (node.schema == nullptr || !node.schema->is_object()) return out;
  const auto it = node.schema->find(keyword);
  if (it == node.schema->end() || !it->is_array()) return out;
  for (const auto& branch : *it) out.push_back(SchemaNode{node.doc, &branch});
  return out;
}

MemberSchemas SchemaWalker::member(const SchemaNode& start, const std::string& key) const {
  MemberSchemas out;
  const SchemaNode node = deref(start);
  if (node.schema == nullptr || !node.schema->is_object()) return out;
  const json& s = *node.schema;
  if (const auto props = s.find("properties"); props != s.end() && props->is_object()) {
    if (const auto prop = props->find(key); prop != props->end()) {
      out.property = SchemaNode{node.doc, &*prop};
    }
  }
  if (const auto patterns = s.find("patternProperties");
      patterns != s.end() && patterns->is_object()) {
    for (const auto& [pattern, sub] : patterns->items()) {
      if (pattern_matches(key, pattern)) out.patterns.push_back(SchemaNode{node.doc, &sub});
    }
  }
  if (out.property || !out.patterns.empty()) return out;
  if (const auto extra = s.find("additionalProperties"); extra != s.end()) {
    if (*extra == false) {
      out.forbidden = true;
    } else if (extra->is_object()) {
      out.additional = SchemaNode{node.doc, &*extra};
    }
  }
  return out;
}

std::optional<SchemaNode> SchemaWalker::item(const SchemaNode& start, std::size_t index) const {
  const SchemaNode node = deref(start);
  if (node.schema == nullptr || !node.schema->is_object()) return std::nullopt;
  const json& s = *node.schema;
  const auto items = s.find("items");
  if (items == s.end()) return std::nullopt;
  if (!items->is_array()) return SchemaNode{node.doc, &*items};
  if (index < items->size()) return SchemaNode{node.doc, &(*items)[index]};
  if (const auto more = s.find("additionalItems"); more != s.end()) {
    return SchemaNode{node.doc, &*more};
  }
  return std::nullopt;
}

std::vector<std::string> SchemaWalker::types(const json& schema) {
  std::vector<std::string> out;
  if (!schema.is_object()) return out;
  const auto type = schema.find("type");
  if (type == schema.end()) return out;
  if (type->is_string()) out.push_back(type->get<std::string>());
  if (type->is_array()) {
    for (const auto& t : *type) {
      if (t.is_string()) out.push_back(t.get<std::string>());
    }
  }
  return out;
}

bool SchemaWalker::has_type(const std::string& type, const json& value) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  return true;
}

bool SchemaWalker::allowed_value(const json& schema, const json& value) {
  if (!schema.is_object()) return true;
  if (const auto options = schema.find("enum"); options != schema.end() && options->is_array()) {
    if (std::find(options->begin(), options->end(), value) == options->end()) return false;
  }
  if (const auto constant = schema.find("const"); constant != schema.end()) {
    if (*constant != value) return false;
  }
  return true;
}

}  // namespace webdata::contract
