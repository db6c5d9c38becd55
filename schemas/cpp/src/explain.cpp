#include "explain.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <tuple>
#include <utility>

#include <webdata/contract/schema_walk.hpp>

namespace webdata::contract::detail {
namespace {

using nlohmann::json;
using Node = SchemaNode;  // the walker's node: a schema and its document

// An issue plus what branch selection needs to know about it.
struct Found {
  Issue issue;
  // A wrong value of a required enum/const property (a tag such as `type`): the branch was meant
  // for another kind of value.
  bool discriminator = false;
};

json child(const json& path, const json& key) {
  json out = path;
  out.push_back(key);
  return out;
}

std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "number";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "unknown";
  }
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

std::string quote(const json& value) {
  return value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump();
}

std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool regex_search_safe(const std::string& text, const std::string& pattern) {
  try {
    return std::regex_search(text, std::regex(pattern));
  } catch (const std::regex_error&) {
    return true;  // A pattern std::regex cannot compile is not something to report on the value.
  }
}

struct Score {
  bool root_type = false;
  bool discriminator = false;
  std::size_t type_issues = 0;
  std::size_t issues = 0;
  std::size_t depth = 0;

  auto key() const {
    return std::make_tuple(root_type, discriminator, type_issues, issues,
                           static_cast<long>(-static_cast<long>(depth)));
  }
};

Score score(const std::vector<Found>& found, std::size_t base_depth) {
  Score s;
  s.issues = found.size();
  for (const auto& f : found) {
    const std::size_t depth = f.issue.path.size();
    s.depth = std::max(s.depth, depth);
    if (f.issue.code == "invalid_type") {
      ++s.type_issues;
      if (depth == base_depth && f.issue.extra.value("received", "") != "undefined") {
        s.root_type = true;
      }
    }
    if (f.discriminator && depth == base_depth + 1) s.discriminator = true;
  }
  return s;
}

// The contract's $refs run across documents ("../common/x.json#/definitions/y").
SchemaWalker walker_for(const Documents& docs) {
  return SchemaWalker([&docs](const SchemaNode& from, const std::string& ref) {
    const auto target = docs.resolve(*from.doc, ref);  // throws for a dangling $ref
    return std::optional<SchemaNode>(SchemaNode{target.doc, target.schema});
  });
}

class Explainer {
 public:
  explicit Explainer(const Documents& docs) : walker_(walker_for(docs)) {}

  void check(Node node, const json& value, const json& path, std::vector<Found>& out) const {
    node = walker_.deref(node);
    const json& s = *node.schema;
    if (s.is_boolean()) {
      if (!s.get<bool>()) {
        out.push_back({make_issue("custom", path, "No value is allowed here"), false});
      }
      return;
    }
    if (!s.is_object()) return;

    if (const auto type = s.find("type"); type != s.end()) {
      const auto types = SchemaWalker::types(s);
      const bool ok = std::any_of(types.begin(), types.end(), [&](const std::string& t) {
        return SchemaWalker::has_type(t, value);
      });
      if (!types.empty() && !ok) {
        out.push_back({type_issue(path, join(types, " | "), value), false});
        return;
      }
    }
    if (const auto options = s.find("enum"); options != s.end() && options->is_array()) {
      if (std::find(options->begin(), options->end(), value) == options->end()) {
        out.push_back({enum_issue(path, *options, value), false});
        return;
      }
    }
    if (const auto constant = s.find("const"); constant != s.end() && *constant != value) {
      out.push_back({enum_issue(path, json::array({*constant}), value), false});
      return;
    }

    if (value.is_string()) check_string(s, value.get<std::string>(), path, out);
    if (value.is_number()) check_number(s, value, path, out);
    if (value.is_array()) check_array(node, value, path, out);
    if (value.is_object()) check_object(node, value, path, out);
    check_combinators(node, value, path, out);
  }

  // Fills absent properties that have a default, walking the value with the schema; an
  // anyOf / oneOf is followed into the first branch the value (as filled so far) satisfies.
  void fill(Node node, json& value) const {
    class Filler final : public SchemaEditor {
     public:
      explicit Filler(const Explainer& explainer) : explainer_(explainer) {}
      bool enter(const SchemaNode& node, json& value) override {
        if (!value.is_object()) return true;
        const json& s = *node.schema;
        if (const auto props = s.find("properties"); props != s.end() && props->is_object()) {
          for (const auto& [key, prop] : props->items()) {
            if (value.contains(key)) continue;
            if (const auto fallback = explainer_.default_of(SchemaNode{node.doc, &prop})) {
              value[key] = *fallback;
            }
          }
        }
        return true;
      }
      std::optional<std::size_t> choose(const SchemaNode&, const std::vector<SchemaNode>& branches,
                                        json& value) override {
        for (std::size_t i = 0; i < branches.size(); ++i) {
          std::vector<Found> found;
          explainer_.check(branches[i], value, json::array(), found);
          if (found.empty()) return i;
        }
        return std::nullopt;
      }

     private:
      const Explainer& explainer_;
    } filler(*this);
    walker_.walk(node, value, filler);
  }

 private:
  static Issue type_issue(const json& path, const std::string& expected, const json& value) {
    std::string received = type_name(value);
    if (value.is_number_float() && expected.find("integer") != std::string::npos) {
      received = "float";
    }
    return make_issue("invalid_type", path, "Expected " + expected + ", received " + received,
                      {{"expected", expected}, {"received", received}});
  }

  static Issue enum_issue(const json& path, const json& options, const json& value) {
    std::vector<std::string> shown;
    for (const auto& option : options) shown.push_back(quote(option));
    return make_issue(
        "invalid_enum_value", path,
        "Invalid enum value. Expected " + join(shown, " | ") + ", received " + quote(value),
        {{"options", options}, {"received", value}});
  }

  static Issue bound_issue(bool too_small, const json& path, const std::string& kind,
                           const json& limit, bool inclusive) {
    const std::string n = limit.dump();
    std::string text;
    if (kind == "number") {
      text = std::string("Number must be ") + (too_small ? "greater than " : "less than ") +
             (inclusive ? "or equal to " : "") + n;
    } else if (kind == "string") {
      text = "String must contain " + std::string(too_small ? "at least " : "at most ") + n +
             " character(s)";
    } else if (kind == "array") {
      text = "Array must contain " + std::string(too_small ? "at least " : "at most ") + n +
             " element(s)";
    } else {
      text =
          "Object must have " + std::string(too_small ? "at least " : "at most ") + n + " key(s)";
    }
    return make_issue(
        too_small ? "too_small" : "too_big", path, text,
        {{too_small ? "minimum" : "maximum", limit},
         {"type", kind},
         {"inclusive", inclusive},
         {"exact", false}});
  }

  static void check_string(const json& s, const std::string& text, const json& path,
                           std::vector<Found>& out) {
    const std::size_t length = code_points(text);
    if (const auto min = s.find("minLength");
        min != s.end() && min->is_number() && static_cast<double>(length) < min->get<double>()) {
      out.push_back({bound_issue(true, path, "string", *min, true), false});
    }
    if (const auto max = s.find("maxLength");
        max != s.end() && max->is_number() && static_cast<double>(length) > max->get<double>()) {
      out.push_back({bound_issue(false, path, "string", *max, true), false});
    }
    if (const auto pattern = s.find("pattern");
        pattern != s.end() && pattern->is_string() &&
        !regex_search_safe(text, pattern->get<std::string>())) {
      out.push_back(
          {make_issue("invalid_string", path,
                      "Invalid string: must match pattern /" + pattern->get<std::string>() + "/",
                      {{"validation", "regex"}, {"pattern", *pattern}}),
           false});
    }
    if (const auto format = s.find("format");
        format != s.end() && *format == "date-time" && !regex_search_safe(text, kDateTimePattern)) {
      out.push_back(
          {make_issue("invalid_string", path, "Invalid datetime", {{"validation", "datetime"}}),
           false});
    }
  }

  static void check_number(const json& s, const json& value, const json& path,
                           std::vector<Found>& out) {
    const double x = value.get<double>();
    const auto bound = [&](const char* keyword) -> const json* {
      const auto it = s.find(keyword);
      return it != s.end() && it->is_number() ? &*it : nullptr;
    };
    if (const json* min = bound("minimum"); min && x < min->get<double>()) {
      out.push_back({bound_issue(true, path, "number", *min, true), false});
    }
    if (const json* min = bound("exclusiveMinimum"); min && x <= min->get<double>()) {
      out.push_back({bound_issue(true, path, "number", *min, false), false});
    }
    if (const json* max = bound("maximum"); max && x > max->get<double>()) {
      out.push_back({bound_issue(false, path, "number", *max, true), false});
    }
    if (const json* max = bound("exclusiveMaximum"); max && x >= max->get<double>()) {
      out.push_back({bound_issue(false, path, "number", *max, false), false});
    }
    if (const json* step = bound("multipleOf"); step && step->get<double>() > 0) {
      const double q = x / step->get<double>();
      if (q != static_cast<double>(static_cast<long long>(q))) {
        out.push_back({make_issue("custom", path, "Number must be a multiple of " + step->dump(),
                                  {{"multipleOf", *step}}),
                       false});
      }
    }
  }

  void check_array(Node node, const json& value, const json& path, std::vector<Found>& out) const {
    const json& s = *node.schema;
    const double size = static_cast<double>(value.size());
    if (const auto min = s.find("minItems");
        min != s.end() && min->is_number() && size < min->get<double>()) {
      out.push_back({bound_issue(true, path, "array", *min, true), false});
    }
    if (const auto max = s.find("maxItems");
        max != s.end() && max->is_number() && size > max->get<double>()) {
      out.push_back({bound_issue(false, path, "array", *max, true), false});
    }
    if (const auto unique = s.find("uniqueItems"); unique != s.end() && *unique == true) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (value[i] == value[j]) {
            out.push_back(
                {make_issue("custom", child(path, i), "Duplicate of element " + std::to_string(j)),
                 false});
          }
        }
      }
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (const auto element = walker_.item(node, i)) {
        check(*element, value[i], child(path, i), out);
      }
    }
    if (const auto contains = s.find("contains"); contains != s.end()) {
      const bool any = std::any_of(value.begin(), value.end(), [&](const json& item) {
        std::vector<Found> found;
        check(Node{node.doc, &*contains}, item, path, found);
        return found.empty();
      });
      if (!any) {
        out.push_back(
            {make_issue("custom", path, "Array has no element of the required kind"), false});
      }
    }
  }

  void check_object(Node node, const json& value, const json& path, std::vector<Found>& out) const {
    const json& s = *node.schema;
    std::vector<std::string> required;
    if (const auto req = s.find("required"); req != s.end() && req->is_array()) {
      for (const auto& r : *req) {
        if (r.is_string()) required.push_back(r.get<std::string>());
      }
    }

    for (const auto& key : required) {
      if (value.contains(key)) continue;
      const auto prop = walker_.member(node, key).property;
      const std::string expected = prop ? describe(*prop) : "unknown";
      out.push_back({make_issue("invalid_type", child(path, key), "Required",
                                {{"expected", expected}, {"received", "undefined"}}),
                     false});
    }

    std::vector<std::string> unknown;
    for (const auto& [key, item] : value.items()) {
      const json key_path = child(path, key);
      const MemberSchemas schemas = walker_.member(node, key);
      if (schemas.property) {
        std::vector<Found> found;
        check(*schemas.property, item, key_path, found);
        const bool tag = std::find(required.begin(), required.end(), key) != required.end() &&
                         is_tag(*schemas.property);
        if (tag && found.size() == 1 && found[0].issue.code == "invalid_enum_value" &&
            found[0].issue.path == key_path) {
          found[0].discriminator = true;
        }
        out.insert(out.end(), found.begin(), found.end());
      }
      for (const Node& pattern : schemas.patterns) check(pattern, item, key_path, out);
      if (schemas.forbidden) unknown.push_back(key);
      if (schemas.additional) check(*schemas.additional, item, key_path, out);
    }
    if (!unknown.empty()) {
      std::vector<std::string> shown;
      for (const auto& key : unknown) shown.push_back("'" + key + "'");
      out.push_back(
          {make_issue("unrecognized_keys", path,
                      "Unrecognized key(s) in object: " + join(shown, ", "), {{"keys", unknown}}),
           false});
    }

    const double size = static_cast<double>(value.size());
    if (const auto min = s.find("minProperties");
        min != s.end() && min->is_number() && size < min->get<double>()) {
      out.push_back({bound_issue(true, path, "object", *min, true), false});
    }
    if (const auto max = s.find("maxProperties");
        max != s.end() && max->is_number() && size > max->get<double>()) {
      out.push_back({bound_issue(false, path, "object", *max, true), false});
    }
    if (const auto names = s.find("propertyNames"); names != s.end()) {
      for (const auto& [key, item] : value.items()) {
        (void)item;
        check(Node{node.doc, &*names}, json(key), child(path, key), out);
      }
    }
    if (const auto deps = s.find("dependencies"); deps != s.end() && deps->is_object()) {
      for (const auto& [key, dep] : deps->items()) {
        if (!value.contains(key)) continue;
        if (dep.is_array()) {
          for (const auto& other : dep) {
            if (other.is_string() && !value.contains(other.get<std::string>())) {
              out.push_back({make_issue("custom", child(path, other),
                                        "Required when '" + key + "' is present"),
                             false});
            }
          }
        } else {
          check(Node{node.doc, &dep}, value, path, out);
        }
      }
    }
  }

  void check_combinators(Node node, const json& value, const json& path,
                         std::vector<Found>& out) const {
    const json& s = *node.schema;
    for (const Node& branch : walker_.branches(node, "allOf")) check(branch, value, path, out);
    if (const auto any = s.find("anyOf"); any != s.end() && any->is_array()) {
      choose(node, *any, value, path, false, out);
    }
    if (const auto one = s.find("oneOf"); one != s.end() && one->is_array()) {
      choose(node, *one, value, path, true, out);
    }
    if (const auto never = s.find("not"); never != s.end()) {
      std::vector<Found> found;
      check(Node{node.doc, &*never}, value, path, found);
      if (found.empty()) {
        out.push_back(
            {make_issue("custom", path, "Value matches a schema it must not match"), false});
      }
    }
    if (const auto when = s.find("if"); when != s.end()) {
      std::vector<Found> found;
      check(Node{node.doc, &*when}, value, path, found);
      const auto next = s.find(found.empty() ? "then" : "else");
      if (next != s.end()) check(Node{node.doc, &*next}, value, path, out);
    }
  }

  // For a failed anyOf/oneOf: the issues of the branch that got furthest (see score()); ties of
  // single issues of one kind at one place are merged ("Expected string | object", or the options
  // of every tagged branch).
  void choose(Node node, const json& branches, const json& value, const json& path, bool one_of,
              std::vector<Found>& out) const {
    std::vector<std::vector<Found>> results;
    std::size_t matches = 0;
    for (const auto& branch : branches) {
      results.emplace_back();
      check(Node{node.doc, &branch}, value, path, results.back());
      if (results.back().empty()) ++matches;
    }
    if (matches == 1 || (matches > 1 && !one_of)) return;
    if (matches > 1) {
      out.push_back(
          {make_issue("custom", path, "Value matches more than one of the allowed shapes"), false});
      return;
    }
    if (results.empty()) return;

    const std::size_t base = path.size();
    std::vector<Score> scores;
    for (const auto& r : results) scores.push_back(score(r, base));
    std::size_t best = 0;
    for (std::size_t i = 1; i < results.size(); ++i) {
      if (scores[i].key() < scores[best].key()) best = i;
    }

    const bool all_root_types = std::all_of(results.begin(), results.end(), [&](const auto& r) {
      return r.size() == 1 && r[0].issue.code == "invalid_type" && r[0].issue.path == path;
    });
    if (all_root_types) {
      std::vector<std::string> expected;
      for (const auto& r : results) {
        for (const auto& t : split(r[0].issue.extra.value("expected", ""))) {
          if (std::find(expected.begin(), expected.end(), t) == expected.end()) {
            expected.push_back(t);
          }
        }
      }
      out.push_back({type_issue(path, join(expected, " | "), value), false});
      return;
    }

    std::vector<std::size_t> tied;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (scores[i].key() == scores[best].key()) tied.push_back(i);
    }
    const auto& lead = results[best];
    const bool mergeable =
        tied.size() > 1 && std::all_of(tied.begin(), tied.end(), [&](std::size_t i) {
          return results[i].size() == 1 && results[i][0].issue.code == "invalid_enum_value" &&
                 results[i][0].issue.path == lead[0].issue.path;
        });
    if (mergeable) {
      json options = json::array();
      for (std::size_t i : tied) {
        for (const auto& option : results[i][0].issue.extra["options"]) {
          if (std::find(options.begin(), options.end(), option) == options.end()) {
            options.push_back(option);
          }
        }
      }
      Found merged{enum_issue(lead[0].issue.path, options, lead[0].issue.extra["received"]),
                   lead[0].discriminator};
      out.push_back(std::move(merged));
      return;
    }
    out.insert(out.end(), lead.begin(), lead.end());
  }

  static std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    while (start <= text.size()) {
      auto end = text.find(" | ", start);
      if (end == std::string::npos) end = text.size();
      if (end > start) out.push_back(text.substr(start, end - start));
      start = end + 3;
    }
    return out;
  }

  // The type a schema wants, for "Required" issues: "string", "string | object", "unknown".
  std::string describe(Node node) const {
    node = walker_.deref(node);
    const json& s = *node.schema;
    if (!s.is_object()) return "unknown";
    if (const auto types = SchemaWalker::types(s); !types.empty()) return join(types, " | ");
    std::vector<std::string> parts;
    for (const char* keyword : {"anyOf", "oneOf", "allOf"}) {
      for (const Node& branch : walker_.branches(node, keyword)) {
        for (const auto& t : split(describe(branch))) {
          if (t != "unknown" && std::find(parts.begin(), parts.end(), t) == parts.end()) {
            parts.push_back(t);
          }
        }
      }
    }
    return parts.empty() ? "unknown" : join(parts, " | ");
  }

  bool is_tag(Node node) const {
    node = walker_.deref(node);
    return node.schema->is_object() &&
           (node.schema->contains("enum") || node.schema->contains("const"));
  }

  std::optional<json> default_of(Node node) const {
    for (int hops = 0; hops < 64 && node.schema->is_object(); ++hops) {
      if (const auto d = node.schema->find("default"); d != node.schema->end()) return *d;
      const auto ref = node.schema->find("$ref");
      if (ref == node.schema->end() || !ref->is_string()) break;
      const auto target = walker_.resolve(node, ref->get<std::string>());
      if (!target) break;
      node = *target;
    }
    return std::nullopt;
  }

  const SchemaWalker walker_;
};

Node root(const Documents& docs, const std::string& name) {
  const auto& all = docs.all();
  const auto it = all.find(name);
  return Node{&it->first, &it->second};
}

}  // namespace

std::string path_to_string(const nlohmann::json& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += '.';
    out += part.is_string() ? part.get<std::string>() : part.dump();
  }
  return out;
}

Issue make_issue(std::string code, nlohmann::json path, const std::string& text,
                 nlohmann::json extra) {
  Issue issue;
  issue.code = std::move(code);
  issue.message = path.empty() ? text : path_to_string(path) + ": " + text;
  issue.text = text;
  issue.path = std::move(path);
  issue.extra = std::move(extra);
  return issue;
}

std::vector<Issue> explain(const Documents& docs, const std::string& name,
                           const nlohmann::json& value) {
  std::vector<Found> found;
  Explainer(docs).check(root(docs, name), value, json::array(), found);
  std::vector<Issue> issues;
  issues.reserve(found.size());
  for (auto& f : found) issues.push_back(std::move(f.issue));
  return issues;
}

void fill_defaults(const Documents& docs, const std::string& name, nlohmann::json& value) {
  Explainer(docs).fill(root(docs, name), value);
}

}  // namespace webdata::contract::detail
