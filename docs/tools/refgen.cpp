// webdata-refgen: keeps the generated parts of docs/reference/ in step with schemas/.
//
//   webdata-refgen --schemas schemas --pages docs/reference --write   regenerate in place
//   webdata-refgen --schemas schemas --pages docs/reference --check   exit 1 on a stale page
//   webdata-refgen --pages docs/reference --links README.md docs conformance ...
//                                            exit 1 on a link to a reference section that is gone
//
// A page marks each generated part with a pair of comments; everything outside them is prose
// and never touched:
//
//   <!-- refgen: fields v2/scrape.request -->
//   | field | type | default | constraints | description |
//   ...
//   <!-- /refgen -->
//
// Directives (SCHEMA is a schema's path under schemas/ without .json, optionally followed by
// #/json/pointer):
//   fields SCHEMA         field table of an object schema (allOf parts merged, $refs followed)
//   variants SCHEMA       one row per branch of a oneOf/anyOf (format entries, actions)
//   anchor SCHEMA         no output: links to SCHEMA from other tables point at this section
//   endpoints PREFIX...   the OpenAPI operations whose path is PREFIX or below it
//   parameters            the OpenAPI path, query and header parameters
//   responses             the OpenAPI error responses, by status
//   compare SCHEMA SCHEMA the fields whose type, default or values differ between two schemas
//   versions              which operations exist under /v1 and /v2
//   index                 every OpenAPI operation and the page that documents it
//   values SCHEMA         the allowed values of an enum, on one line
//
// Written with nlohmann::ordered_json so that tables keep the schemas' field order.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure("cannot read " + path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// GitHub's heading anchors: lower case, punctuation other than '-' and '_' dropped, spaces to
// '-'; a repeated heading gets -1, -2, ...
std::string slug(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c) || c == '-' || c == '_') {
      out += static_cast<char>(std::tolower(c));
    } else if (c == ' ') {
      out += '-';
    } else if (c >= 0x80) {
      out += static_cast<char>(c);  // letters of other scripts stay
    }
  }
  return out;
}

// The anchors of a markdown file's headings, in order (code fences skipped).
std::vector<std::string> anchors_of(const std::vector<std::string>& lines,
                                    std::vector<std::size_t>* line_numbers = nullptr) {
  std::vector<std::string> anchors;
  std::map<std::string, int> seen;
  bool fence = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (starts_with(trim(line), "```")) {
      fence = !fence;
      continue;
    }
    if (fence || line.empty() || line[0] != '#') continue;
    const auto text_start = line.find_first_not_of('#');
    if (text_start == std::string::npos || text_start > 6 || line[text_start] != ' ') continue;
    std::string anchor = slug(trim(line.substr(text_start)));
    const int n = seen[anchor]++;
    if (n > 0) anchor += "-" + std::to_string(n);
    anchors.push_back(anchor);
    if (line_numbers != nullptr) line_numbers->push_back(i);
  }
  return anchors;
}

std::string code(const std::string& s) { return "`" + s + "`"; }

// A cell of a markdown table: no line breaks, no bare '|'.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : sep) + parts[i];
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string number_text(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  const double d = v.get<double>();
  if (d == static_cast<double>(static_cast<long long>(d))) {
    return std::to_string(static_cast<long long>(d));
  }
  return v.dump();
}

// ---------------------------------------------------------------------------------------------
// The schemas.

struct Node {
  std::string file;     // schema name: "v2/scrape.request"
  std::string pointer;  // "" for the whole file, else "/properties/formats"
  const Json* value = nullptr;

  std::string name() const { return pointer.empty() ? file : file + "#" + pointer; }
};

std::string normalise(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const std::string part =
        path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return join(parts, "/");
}

class Schemas {
 public:
  explicit Schemas(const fs::path& root) {
    for (const char* dir : {"common", "v1", "v2"}) {
      if (!fs::is_directory(root / dir)) continue;
      for (const auto& entry : fs::directory_iterator(root / dir)) {
        if (entry.path().extension() != ".json") continue;
        const std::string name = std::string(dir) + "/" + entry.path().stem().string();
        files_[name] = parse(entry.path());
      }
    }
    for (const char* version : {"v1", "v2"}) {
      const auto path = root / ("openapi." + std::string(version) + ".json");
      if (fs::exists(path)) openapi_[version] = parse(path);
    }
    if (files_.empty()) throw Failure("no schemas under " + root.string());
  }

  Node get(const std::string& name) const {
    const auto hash = name.find('#');
    const std::string file = name.substr(0, hash);
    const std::string pointer = hash == std::string::npos ? "" : name.substr(hash + 1);
    const auto it = files_.find(file);
    if (it == files_.end()) throw Failure("unknown schema '" + file + "'");
    const Json* value = &it->second;
    if (!pointer.empty()) {
      try {
        value = &it->second.at(Json::json_pointer(pointer));
      } catch (const std::exception&) {
        throw Failure("no '" + pointer + "' in schema '" + file + "'");
      }
    }
    return Node{file, pointer, value};
  }

  // The node a "$ref" of `from` points at.
  Node ref(const Node& from, const std::string& ref) const {
    const auto hash = ref.find('#');
    const std::string path = ref.substr(0, hash);
    const std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
    std::string file = from.file;
    if (!path.empty()) {
      const auto slash = from.file.rfind('/');
      const std::string dir = slash == std::string::npos ? "" : from.file.substr(0, slash);
      file = normalise(dir + "/" + path);
      if (file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0) {
        file.resize(file.size() - 5);
      }
    }
    return get(pointer.empty() ? file : file + "#" + pointer);
  }

  // Follows $refs until a node without one.
  Node follow(Node n) const {
    for (int hops = 0; n.value->is_object() && n.value->contains("$ref"); ++hops) {
      if (hops > 32) throw Failure("$ref loop at " + n.name());
      n = ref(n, n.value->at("$ref").get<std::string>());
    }
    return n;
  }

  // A keyword of a property, looked up on the node, then through its $ref chain and single
  // allOf wrappers (where draft-07 files keep a default beside a shared $ref).
  const Json* keyword(Node n, const char* key) const {
    for (int hops = 0; hops < 32; ++hops) {
      const Json& v = *n.value;
      if (!v.is_object()) return nullptr;
      if (v.contains(key)) return &v.at(key);
      if (v.contains("$ref")) {
        n = ref(n, v.at("$ref").get<std::string>());
        // A whole schema file describes itself, not the field that uses it.
        if (n.pointer.empty()) return nullptr;
      } else if (v.contains("allOf") && v.at("allOf").size() == 1) {
        n = Node{n.file, n.pointer + "/allOf/0", &v.at("allOf").at(0)};
      } else {
        return nullptr;
      }
    }
    return nullptr;
  }

  const std::map<std::string, Json>& openapi() const { return openapi_; }
  const std::map<std::string, Json>& files() const { return files_; }

  // "../v2/scrape.request.json" (a $ref of an OpenAPI document) to "v2/scrape.request".
  static std::string openapi_ref(const std::string& ref) {
    std::string name = normalise(ref);
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
    return name;
  }

 private:
  static Json parse(const fs::path& path) {
    const Json j = Json::parse(read_text(path), nullptr, false);
    if (j.is_discarded()) throw Failure(path.string() + " is not valid JSON");
    return j;
  }
  std::map<std::string, Json> files_;
  std::map<std::string, Json> openapi_;
};

// ---------------------------------------------------------------------------------------------
// What the pages say about each other: where each schema's table is, which page lists which
// operation. Collected from every page before anything is rendered.

struct Registry {
  std::map<std::string, std::string> table_of;  // schema name -> "page.md#anchor"
  std::map<std::string, std::string> page_of;   // "POST /v2/scrape" -> "page.md#anchor"
};

struct Operation {
  std::string version;  // "v1", "v2"
  std::string method;   // "POST"
  std::string path;     // "/v2/scrape"
  const Json* op = nullptr;
  std::string key() const { return method + " " + path; }
};

std::vector<Operation> operations(const Schemas& s) {
  std::vector<Operation> out;
  for (const char* version : {"v2", "v1"}) {
    const auto it = s.openapi().find(version);
    if (it == s.openapi().end() || !it->second.contains("paths")) continue;
    for (const auto& [path, item] : it->second.at("paths").items()) {
      for (const auto& [method, op] : item.items()) {
        if (method == "parameters" || !op.is_object()) continue;
        std::string upper = method;
        for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        out.push_back(Operation{version, upper, path, &op});
      }
    }
  }
  return out;
}

bool under_prefix(const std::string& path, const std::string& prefix) {
  return path == prefix || starts_with(path, prefix + "/");
}

// The request body and 200 answer schemas of an OpenAPI operation ("" when it has none).
std::string body_schema(const Json& op) {
  if (!op.contains("requestBody")) return "";
  const Json content = op.at("requestBody").value("content", Json::object());
  if (!content.contains("application/json")) return "";
  const Json schema = content.at("application/json").value("schema", Json::object());
  if (!schema.contains("$ref")) return "";
  return Schemas::openapi_ref(schema.at("$ref").get<std::string>());
}

std::string answer_schema(const Json& op) {
  const Json responses = op.value("responses", Json::object());
  if (!responses.contains("200")) return "";
  const Json content = responses.at("200").value("content", Json::object());
  if (!content.contains("application/json")) return "";
  const Json schema = content.at("application/json").value("schema", Json::object());
  if (!schema.contains("$ref")) return "";
  return Schemas::openapi_ref(schema.at("$ref").get<std::string>());
}

// ---------------------------------------------------------------------------------------------
// Rendering.

class Renderer {
 public:
  Renderer(const Schemas& schemas, const Registry& registry, std::string page)
      : s_(schemas), reg_(registry), page_(std::move(page)) {}

  std::string render(const std::vector<std::string>& words) {
    const std::string& what = words.at(0);
    auto arg = [&](std::size_t i) -> const std::string& {
      if (words.size() <= i) throw Failure("'" + what + "' needs more arguments");
      return words[i];
    };
    if (what == "fields") return fields(arg(1));
    if (what == "variants") return variants(arg(1));
    if (what == "anchor") {
      s_.get(arg(1));
      return "";
    }
    if (what == "endpoints") {
      return endpoints(std::vector<std::string>(words.begin() + 1, words.end()));
    }
    if (what == "parameters") return parameters();
    if (what == "responses") return responses();
    if (what == "compare") return compare(arg(1), arg(2));
    if (what == "versions") return versions();
    if (what == "index") return index();
    if (what == "values") return values(arg(1));
    throw Failure("unknown directive '" + what + "'");
  }

  // A link to the table of a schema, or its name in code when no page has one.
  std::string schema_link(const std::string& name) const {
    const auto target = table_of(name);
    if (plain_links_ || !target) return code(name);
    return "[" + code(name) + "](" + relative(*target) + ")";
  }

  /// Where the table of a schema is: its own, or that of the one schema it wraps
  /// (`allOf: [{"$ref": ...}]`, the form of most answer files).
  std::optional<std::string> table_of(const std::string& name) const {
    const auto it = reg_.table_of.find(name);
    if (it != reg_.table_of.end()) return it->second;
    const Node n = s_.get(name);
    const Json& v = *n.value;
    if (v.is_object() && v.contains("allOf") && v.at("allOf").size() == 1 &&
        !v.contains("properties")) {
      const Node inner = s_.follow(Node{n.file, n.pointer + "/allOf/0", &v.at("allOf").at(0)});
      if (inner.name() != name) return table_of(inner.name());
    }
    return std::nullopt;
  }

 private:
  std::string relative(const std::string& target) const {
    if (starts_with(target, page_ + "#")) return target.substr(page_.size());
    return target;
  }

  // Whether a $ref target is a schema of its own (linked) rather than part of a file.
  bool linkable(const Node& target) const {
    return target.pointer.empty() || starts_with(target.pointer, "/definitions/");
  }

  bool is_simple_enum(const Node& n) const {
    const Json& v = *n.value;
    return v.is_object() && v.contains("enum") && !v.contains("properties");
  }

  std::string type_text(const Node& node, int depth = 0) const {
    if (depth > 8) return "any";
    const Json& v = *node.value;
    if (v.is_boolean()) return v.get<bool>() ? "any" : "nothing";
    if (!v.is_object()) return "any";
    if (v.contains("$ref")) {
      const Node target = s_.follow(node);
      if (linkable(target) && !is_simple_enum(target)) {
        return kind_text(target, depth) + ", " + schema_link(target.name());
      }
      return type_text(target, depth + 1);
    }
    if (v.contains("allOf") && v.at("allOf").size() == 1 && !v.contains("properties")) {
      return type_text(Node{node.file, node.pointer + "/allOf/0", &v.at("allOf").at(0)}, depth + 1);
    }
    // With a "type", an anyOf/oneOf beside it is a rule on the fields, not another type.
    for (const char* combinator : {"anyOf", "oneOf"}) {
      if (!v.contains(combinator) || v.contains("type")) continue;
      std::vector<std::string> kinds;
      std::size_t i = 0;
      for (const auto& branch : v.at(combinator)) {
        add_unique(kinds, type_text(Node{node.file,
                                         node.pointer + "/" + combinator + "/" + std::to_string(i++),
                                         &branch},
                                    depth + 1));
      }
      return join(kinds, " or ");
    }
    return plain_type(node, depth);
  }

  // The JSON type(s) of a node, for a linked schema ("object", "string or object").
  std::string kind_text(const Node& n, int depth) const {
    const Json& v = *n.value;
    for (const char* combinator : {"anyOf", "oneOf"}) {
      if (!v.contains(combinator) || v.contains("type")) continue;
      std::vector<std::string> kinds;
      for (const auto& branch : v.at(combinator)) {
        Node b{n.file, n.pointer, &branch};
        b = s_.follow(b);
        add_unique(kinds, kind_text(b, depth + 1));
      }
      return join(kinds, " or ");
    }
    if (v.contains("allOf") && !v.at("allOf").empty()) {
      return kind_text(s_.follow(Node{n.file, n.pointer + "/allOf/0", &v.at("allOf").at(0)}),
                       depth + 1);
    }
    if (v.contains("type")) {
      if (v.at("type").is_string()) return v.at("type").get<std::string>();
      std::vector<std::string> kinds;
      for (const auto& t : v.at("type")) kinds.push_back(t.get<std::string>());
      return join(kinds, " or ");
    }
    return v.contains("properties") ? "object" : "any";
  }

  /// The schema an inline object takes all its fields from, when every field is a `$ref` to a
  /// field of one other schema (an active crawl's `scrapeOptions`): linked, not repeated.
  std::optional<std::string> fields_of(const Node& node) const {
    const Json& v = *node.value;
    if (!v.is_object() || !v.contains("properties") || v.at("properties").empty()) return std::nullopt;
    std::optional<std::string> source;
    for (const auto& [name, prop] : v.at("properties").items()) {
      if (!prop.is_object() || !prop.contains("$ref")) return std::nullopt;
      const Node target = s_.ref(node, prop.at("$ref").get<std::string>());
      const std::string expected = "/properties/" + name;
      if (target.pointer != expected) return std::nullopt;
      if (source && *source != target.file) return std::nullopt;
      source = target.file;
    }
    return source;
  }

  std::string plain_type(const Node& node, int depth) const {
    const Json& v = *node.value;
    if (const auto source = fields_of(node)) return "object with fields of " + schema_link(*source);
    std::vector<std::string> types;
    if (v.contains("type")) {
      if (v.at("type").is_string()) {
        types.push_back(v.at("type").get<std::string>());
      } else {
        for (const auto& t : v.at("type")) types.push_back(t.get<std::string>());
      }
    } else if (v.contains("properties")) {
      types.push_back("object");
    } else if (v.contains("enum") && !v.at("enum").empty()) {
      types.push_back(v.at("enum").at(0).is_string() ? "string" : "any");
    }
    if (types.empty()) return "any";
    std::vector<std::string> out;
    for (const auto& t : types) {
      std::string text = t;
      if (t == "array" && v.contains("items")) {
        text = "array of " + type_text(Node{node.file, node.pointer + "/items", &v.at("items")},
                                       depth + 1);
      } else if (t == "object" && v.contains("additionalProperties") &&
                 v.at("additionalProperties").is_object()) {
        text = "object of " + type_text(Node{node.file, node.pointer + "/additionalProperties",
                                             &v.at("additionalProperties")},
                                        depth + 1);
      } else if (t == "string" && v.contains("format")) {
        text = "string (" + v.at("format").get<std::string>() + ")";
      }
      out.push_back(text);
    }
    return join(out, " or ");
  }

  // Enum values of a node, through $refs into parts of files, items and combinators.
  void collect_values(const Node& node, std::vector<std::string>& out, int depth = 0) const {
    if (depth > 8) return;
    const Json& v = *node.value;
    if (!v.is_object()) return;
    if (v.contains("$ref")) {
      const Node target = s_.follow(node);
      if (linkable(target) && !is_simple_enum(target)) return;  // its own table lists them
      collect_values(target, out, depth + 1);
      return;
    }
    if (v.contains("enum")) {
      for (const auto& e : v.at("enum")) add_unique(out, code(e.is_string() ? e.get<std::string>() : e.dump()));
    }
    if (v.contains("const")) add_unique(out, code(v.at("const").dump()));
    if (v.contains("items") && v.at("items").is_object()) {
      collect_values(Node{node.file, node.pointer + "/items", &v.at("items")}, out, depth + 1);
    }
    for (const char* key : {"anyOf", "oneOf", "allOf"}) {
      if (!v.contains(key)) continue;
      std::size_t i = 0;
      for (const auto& b : v.at(key)) {
        collect_values(Node{node.file, node.pointer + "/" + key + "/" + std::to_string(i++), &b},
                       out, depth + 1);
      }
    }
  }

  std::vector<std::string> constraints(const Node& prop, bool required) const {
    std::vector<std::string> out;
    if (required) out.push_back("required");
    auto num = [&](const char* key) -> std::optional<std::string> {
      const Json* k = s_.keyword(prop, key);
      if (k == nullptr || !k->is_number()) return std::nullopt;
      return number_text(*k);
    };
    const Node target = s_.follow(prop);
    const bool linked = prop.value->is_object() && prop.value->contains("$ref") &&
                        linkable(target) && !is_simple_enum(target);
    if (!linked) {
      const auto min = num("minimum");
      const auto max = num("maximum");
      const auto xmin = num("exclusiveMinimum");
      if (min && max) {
        out.push_back(*min + " to " + *max);
      } else if (min) {
        out.push_back("at least " + *min);
      } else if (max) {
        out.push_back("at most " + *max);
      }
      if (xmin) out.push_back("more than " + *xmin);
      auto counted = [](const std::string& n, const char* what) {
        return n + " " + what + (n == "1" ? "" : "s");
      };
      if (const auto n = num("minLength")) out.push_back("at least " + counted(*n, "character"));
      if (const auto n = num("maxLength")) out.push_back("at most " + counted(*n, "character"));
      if (const auto n = num("minItems")) out.push_back("at least " + counted(*n, "item"));
      if (const auto n = num("maxItems")) out.push_back("at most " + counted(*n, "item"));
      if (const Json* p = s_.keyword(prop, "pattern")) out.push_back("matches " + code(p->get<std::string>()));
      std::vector<std::string> vals;
      collect_values(prop, vals);
      if (!vals.empty()) out.push_back("one of " + join(vals, ", "));
      const Json& t = *target.value;
      if (t.is_object() && t.contains("properties") && t.value("additionalProperties", true) == false) {
        out.push_back("no other keys");
      }
      if (t.is_object() && t.contains("anyOf")) {
        // A required-one-of rule (a wait action needs milliseconds or selector).
        std::vector<std::string> needs;
        for (const auto& branch : t.at("anyOf")) {
          if (branch.is_object() && branch.size() == 1 && branch.contains("required")) {
            needs.push_back(code(join(branch.at("required").get<std::vector<std::string>>(), ", ")));
          }
        }
        if (!needs.empty()) out.push_back("needs " + join(needs, " or "));
      }
    }
    return out;
  }

  std::string default_text(const Node& prop) const {
    const Json* d = s_.keyword(prop, "default");
    if (d == nullptr) return "";
    return code(d->dump());
  }

  std::string description(const Node& prop) const {
    const Json* d = s_.keyword(prop, "description");
    if (d == nullptr || !d->is_string()) return "";
    return d->get<std::string>();
  }

  struct Property {
    std::string name;
    Node node;
    bool required = false;
  };

  // The properties of an object schema, allOf parts first, then its own.
  std::vector<Property> properties(const Node& start, int depth = 0) const {
    std::vector<Property> out;
    if (depth > 8) return out;
    const Node n = s_.follow(start);
    const Json& v = *n.value;
    if (!v.is_object()) return out;
    std::set<std::string> required;
    if (v.contains("required")) {
      for (const auto& r : v.at("required")) required.insert(r.get<std::string>());
    }
    if (v.contains("allOf")) {
      std::size_t i = 0;
      for (const auto& part : v.at("allOf")) {
        for (auto& p : properties(Node{n.file, n.pointer + "/allOf/" + std::to_string(i++), &part},
                                  depth + 1)) {
          auto same = std::find_if(out.begin(), out.end(),
                                   [&](const Property& q) { return q.name == p.name; });
          if (same == out.end()) out.push_back(std::move(p));
        }
      }
    }
    if (v.contains("properties")) {
      for (const auto& [name, prop] : v.at("properties").items()) {
        Property p{name, Node{n.file, n.pointer + "/properties/" + name, &prop},
                   required.count(name) != 0};
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const Property& q) { return q.name == name; });
        if (same == out.end()) {
          out.push_back(std::move(p));
        } else {
          *same = std::move(p);
        }
      }
    }
    for (auto& p : out) {
      if (required.count(p.name)) p.required = true;
    }
    return out;
  }

  // The object a property holds inline (not a linked schema), for its nested rows.
  std::optional<Node> inline_object(const Node& prop) const {
    const Json& raw = *prop.value;
    if (!raw.is_object()) return std::nullopt;
    if (raw.contains("$ref")) {
      const Node target = s_.follow(prop);
      if (linkable(target)) return std::nullopt;
      return inline_object(target);
    }
    if (raw.contains("properties") && !fields_of(prop)) return prop;
    return std::nullopt;
  }

  void field_rows(const Node& object, const std::string& prefix, int depth, std::string& out) const {
    for (const auto& p : properties(object)) {
      const std::string name = prefix + p.name;
      out += "| " + cell(code(name)) + " | " + cell(type_text(p.node)) + " | " +
             cell(default_text(p.node)) + " | " + cell(join(constraints(p.node, p.required), "; ")) +
             " | " + cell(description(p.node)) + " |\n";
      if (depth >= 3) continue;
      if (auto nested = inline_object(p.node)) {
        field_rows(*nested, name + ".", depth + 1, out);
        continue;
      }
      const Node followed = s_.follow(p.node);
      const Json& f = *followed.value;
      if (f.is_object() && f.contains("items") && f.at("items").is_object()) {
        const Node items{followed.file, followed.pointer + "/items", &f.at("items")};
        if (auto nested_items = inline_object(items)) {
          field_rows(*nested_items, name + "[].", depth + 1, out);
        }
      }
    }
  }

  std::string fields(const std::string& name) const {
    const Node n = s_.get(name);
    std::string out = "| field | type | default | constraints | description |\n|---|---|---|---|---|\n";
    const auto rows_before = out.size();
    field_rows(n, "", 0, out);
    if (out.size() == rows_before) throw Failure("'" + name + "' has no fields");
    return out;
  }

  std::string variants(const std::string& name) const {
    const Node n = s_.follow(s_.get(name));
    std::vector<Node> branches;
    std::function<void(const Node&)> flatten = [&](const Node& b) {
      const Node f = s_.follow(b);
      const Json& v = *f.value;
      bool nested = false;
      for (const char* key : {"anyOf", "oneOf"}) {
        if (!v.contains(key) || v.contains("properties")) continue;
        nested = true;
        std::size_t i = 0;
        for (const auto& x : v.at(key)) {
          flatten(Node{f.file, f.pointer + "/" + key + "/" + std::to_string(i++), &x});
        }
      }
      if (!nested) branches.push_back(f);
    };
    flatten(n);
    std::string out = "| form | other fields |\n|---|---|\n";
    for (const auto& b : branches) {
      const Json& v = *b.value;
      std::vector<std::string> kinds;
      std::vector<std::string> others;
      if (v.contains("properties")) {
        for (const auto& p : properties(b)) {
          if (p.name == "type") {
            collect_values(p.node, kinds);
            continue;
          }
          std::string text = code(p.name) + ": " + type_text(p.node);
          if (auto nested = inline_object(p.node)) {
            std::vector<std::string> inner;
            for (const auto& q : properties(*nested)) {
              std::vector<std::string> notes = constraints(q.node, q.required);
              inner.push_back(code(q.name) + ": " + type_text(q.node) +
                              (notes.empty() ? "" : " (" + join(notes, "; ") + ")"));
            }
            text += " {" + join(inner, ", ") + "}";
          }
          std::vector<std::string> notes = constraints(p.node, p.required);
          if (const auto d = default_text(p.node); !d.empty()) notes.push_back("default " + d);
          if (const auto d = description(p.node); !d.empty()) notes.push_back(d);
          if (!notes.empty()) text += " (" + join(notes, "; ") + ")";
          others.push_back(text);
        }
        for (const auto& c : constraints(b, false)) {
          if (starts_with(c, "needs ")) others.push_back(c);
        }
        out += "| object, `type` " + cell(join(kinds, ", ")) + " | " +
               cell(others.empty() ? "none" : join(others, "; ")) + " |\n";
      } else {
        collect_values(b, kinds);
        out += "| " + cell(plain_type(b, 0)) + (kinds.empty() ? "" : " " + cell(join(kinds, ", "))) +
               " | none |\n";
      }
    }
    return out;
  }

  std::string endpoints(const std::vector<std::string>& prefixes) const {
    if (prefixes.empty()) throw Failure("'endpoints' needs at least one path prefix");
    std::string out = "| operation | what | body | answer (200) | errors | parameters |\n"
                      "|---|---|---|---|---|---|\n";
    bool any = false;
    for (const auto& prefix : prefixes) {
      for (const auto& o : operations(s_)) {
        if (!under_prefix(o.path, prefix)) continue;
        any = true;
        const Json& op = *o.op;
        std::vector<std::string> errors;
        const Json statuses = op.value("responses", Json::object());
        for (const auto& [status, r] : statuses.items()) {
          (void)r;
          if (status != "200") errors.push_back(status);
        }
        std::vector<std::string> params;
        for (const auto& p : op.value("parameters", Json::array())) {
          const Json* def = &p;
          if (p.contains("$ref")) {
            const std::string ref = p.at("$ref").get<std::string>();
            const Json& doc = s_.openapi().at(o.version);
            def = &doc.at(Json::json_pointer(ref.substr(1)));
          }
          params.push_back(code(def->value("name", "?")));
        }
        const std::string body = body_schema(op);
        const std::string answer = answer_schema(op);
        out += "| " + cell(code(o.key())) + " | " + cell(op.value("summary", "")) + " | " +
               cell(body.empty() ? "" : schema_link(body)) + " | " +
               cell(answer.empty() ? "" : schema_link(answer)) + " | " +
               cell("[" + join(errors, ", ") + "](" + relative("errors.md#status-codes") + ")") +
               " | " + cell(join(params, ", ")) + " |\n";
      }
    }
    if (!any) throw Failure("no operation under " + join(prefixes, " "));
    return out;
  }

  std::string parameters() const {
    std::string out = "| name | in | type | default | constraints | description |\n"
                      "|---|---|---|---|---|---|\n";
    std::set<std::string> seen;
    for (const char* version : {"v2", "v1"}) {
      const auto it = s_.openapi().find(version);
      if (it == s_.openapi().end()) continue;
      const Json params = it->second.value("components", Json::object()).value("parameters", Json::object());
      for (const auto& [key, p] : params.items()) {
        const std::string name = p.value("name", key);
        if (!seen.insert(name + "/" + p.value("in", "")).second) continue;
        const Json& schema = p.value("schema", Json::object());
        std::vector<std::string> notes;
        if (p.value("required", false)) notes.push_back("required");
        if (schema.contains("minimum") && schema.contains("maximum")) {
          notes.push_back(number_text(schema.at("minimum")) + " to " + number_text(schema.at("maximum")));
        } else if (schema.contains("minimum")) {
          notes.push_back("at least " + number_text(schema.at("minimum")));
        }
        if (schema.contains("pattern")) notes.push_back("matches " + code(schema.at("pattern").get<std::string>()));
        std::string type = schema.value("type", "any");
        if (schema.contains("format")) type += " (" + schema.at("format").get<std::string>() + ")";
        out += "| " + cell(code(name)) + " | " + cell(p.value("in", "")) + " | " + cell(type) + " | " +
               cell(schema.contains("default") ? code(schema.at("default").dump()) : "") + " | " +
               cell(join(notes, "; ")) + " | " + cell(p.value("description", "")) + " |\n";
      }
    }
    return out;
  }

  std::string responses() const {
    // status -> (component name, description, headers)
    std::map<std::string, std::vector<std::string>> names;
    std::map<std::string, std::string> descriptions;
    for (const char* version : {"v2", "v1"}) {
      const auto it = s_.openapi().find(version);
      if (it == s_.openapi().end()) continue;
      const Json& doc = it->second;
      const Json components = doc.value("components", Json::object()).value("responses", Json::object());
      for (const auto& o : operations(s_)) {
        if (o.version != version) continue;
        const Json statuses = o.op->value("responses", Json::object());
        for (const auto& [status, r] : statuses.items()) {
          if (!r.contains("$ref")) continue;
          const std::string ref = r.at("$ref").get<std::string>();
          const std::string name = ref.substr(ref.rfind('/') + 1);
          add_unique(names[status], name);
          if (components.contains(name)) {
            std::string text = components.at(name).value("description", "");
            if (components.at(name).contains("headers")) {
              std::vector<std::string> headers;
              for (const auto& [h, def] : components.at(name).at("headers").items()) {
                headers.push_back(code(h) + ": " + def.value("description", ""));
              }
              text += " Headers: " + join(headers, "; ");
            }
            descriptions[name] = text;
          }
        }
      }
    }
    if (names.empty()) throw Failure("the OpenAPI documents have no error responses");
    std::string out = "| status | name | when |\n|---|---|---|\n";
    for (const auto& [status, list] : names) {
      for (const auto& name : list) {
        out += "| " + status + " | " + cell(name) + " | " + cell(descriptions[name]) + " |\n";
      }
    }
    return out;
  }

  // A short summary of one field for a comparison: type, default, values.
  std::string summary(const Node& prop) const {
    std::vector<std::string> parts = {type_text(prop)};
    if (const auto d = default_text(prop); !d.empty()) parts.push_back("default " + d);
    std::vector<std::string> vals;
    collect_values(prop, vals);
    if (!vals.empty()) parts.push_back("one of " + join(vals, ", "));
    for (const auto& c : constraints(prop, false)) {
      if (!starts_with(c, "one of")) add_unique(parts, c);
    }
    return join(parts, "; ");
  }

  std::string compare(const std::string& a, const std::string& b) const {
    const auto left = properties(s_.get(a));
    const auto right = properties(s_.get(b));
    std::vector<std::string> names;
    for (const auto& p : left) add_unique(names, p.name);
    for (const auto& p : right) add_unique(names, p.name);
    auto find = [](const std::vector<Property>& list, const std::string& name) -> const Property* {
      for (const auto& p : list) {
        if (p.name == name) return &p;
      }
      return nullptr;
    };
    std::string out = "| field | " + cell(code(a)) + " | " + cell(code(b)) + " |\n|---|---|---|\n";
    for (const auto& name : names) {
      const Property* l = find(left, name);
      const Property* r = find(right, name);
      // A version's own schemas differ in name only ("v1/..." vs "v2/..."): compare the plain,
      // unversioned text, show the linked one.
      auto unversioned = [&](const Property* p) {
        if (p == nullptr) return std::string("absent");
        plain_links_ = true;
        std::string text = summary(p->node);
        plain_links_ = false;
        for (const char* v : {"v1/", "v2/"}) {
          for (auto at = text.find(v); at != std::string::npos; at = text.find(v, at)) text.erase(at, 3);
        }
        return text;
      };
      if (unversioned(l) == unversioned(r)) continue;
      out += "| " + cell(code(name)) + " | " + cell(l ? summary(l->node) : "absent") + " | " +
             cell(r ? summary(r->node) : "absent") + " |\n";
    }
    return out;
  }

  std::string versions() const {
    std::vector<std::string> keys;
    std::map<std::string, std::set<std::string>> in;
    for (const auto& o : operations(s_)) {
      const std::string rest = o.path.substr(o.path.find('/', 1));
      const std::string key = o.method + " " + rest;
      add_unique(keys, key);
      in[key].insert(o.version);
    }
    std::string out = "| operation | v1 | v2 |\n|---|---|---|\n";
    for (const auto& key : keys) {
      out += "| " + cell(code(key)) + " | " + (in[key].count("v1") ? "yes" : "no") + " | " +
             (in[key].count("v2") ? "yes" : "no") + " |\n";
    }
    return out;
  }

  std::string index() const {
    std::string out = "| operation | what | page |\n|---|---|---|\n";
    for (const auto& o : operations(s_)) {
      const auto it = reg_.page_of.find(o.key());
      const std::string page = it == reg_.page_of.end() ? "" : it->second;
      std::string label = page.substr(0, page.find('#'));
      out += "| " + cell(code(o.key())) + " | " + cell(o.op->value("summary", "")) + " | " +
             (page.empty() ? "" : "[" + label + "](" + relative(page) + ")") + " |\n";
    }
    return out;
  }

  std::string values(const std::string& name) const {
    std::vector<std::string> vals;
    collect_values(s_.get(name), vals);
    if (vals.empty()) throw Failure("'" + name + "' has no enum");
    return join(vals, ", ") + "\n";
  }

  const Schemas& s_;
  const Registry& reg_;
  std::string page_;
  mutable bool plain_links_ = false;  ///< Names without links, for comparing versions.
};

// ---------------------------------------------------------------------------------------------
// Pages.

const std::string kBegin = "<!-- refgen: ";
const std::string kEnd = "<!-- /refgen -->";

struct Block {
  std::size_t begin_line = 0;  // the marker line
  std::size_t end_line = 0;    // the end marker line
  std::vector<std::string> words;
  std::string anchor;  // of the nearest heading above
};

struct Page {
  std::string name;  // "scrape.md"
  fs::path path;
  std::vector<std::string> lines;
  std::vector<Block> blocks;
};

Page read_page(const fs::path& path) {
  Page page;
  page.name = path.filename().string();
  page.path = path;
  page.lines = split_lines(read_text(path));
  std::vector<std::size_t> heading_lines;
  const auto anchors = anchors_of(page.lines, &heading_lines);
  for (std::size_t i = 0; i < page.lines.size(); ++i) {
    const std::string line = trim(page.lines[i]);
    if (!starts_with(line, kBegin)) continue;
    if (line.size() < kBegin.size() + 4 || line.compare(line.size() - 4, 4, " -->") != 0) {
      throw Failure(page.name + ":" + std::to_string(i + 1) + ": malformed refgen marker");
    }
    Block b;
    b.begin_line = i;
    b.words = split_words(line.substr(kBegin.size(), line.size() - kBegin.size() - 4));
    if (b.words.empty()) throw Failure(page.name + ":" + std::to_string(i + 1) + ": empty directive");
    for (std::size_t h = 0; h < heading_lines.size() && heading_lines[h] < i; ++h) b.anchor = anchors[h];
    std::size_t j = i + 1;
    while (j < page.lines.size() && trim(page.lines[j]) != kEnd) {
      if (starts_with(trim(page.lines[j]), kBegin)) break;
      ++j;
    }
    if (j >= page.lines.size() || trim(page.lines[j]) != kEnd) {
      throw Failure(page.name + ":" + std::to_string(i + 1) + ": '" + join(b.words, " ") +
                    "' has no " + kEnd);
    }
    b.end_line = j;
    page.blocks.push_back(b);
    i = j;
  }
  return page;
}

std::vector<Page> read_pages(const fs::path& dir) {
  std::vector<Page> pages;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".md") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) pages.push_back(read_page(p));
  if (pages.empty()) throw Failure("no pages under " + dir.string());
  return pages;
}

Registry build_registry(const Schemas& schemas, const std::vector<Page>& pages) {
  Registry reg;
  const auto ops = operations(schemas);
  for (const auto& page : pages) {
    for (const auto& b : page.blocks) {
      const std::string where = page.name + "#" + b.anchor;
      const std::string& what = b.words[0];
      if ((what == "fields" || what == "variants" || what == "anchor") && b.words.size() > 1) {
        if (reg.table_of.count(b.words[1]) == 0) reg.table_of[b.words[1]] = where;
      } else if (what == "endpoints") {
        for (std::size_t i = 1; i < b.words.size(); ++i) {
          for (const auto& o : ops) {
            if (under_prefix(o.path, b.words[i]) && reg.page_of.count(o.key()) == 0) {
              reg.page_of[o.key()] = where;
            }
          }
        }
      }
    }
  }
  return reg;
}

// The page with its generated blocks rewritten.
std::string regenerate(const Schemas& schemas, const Registry& reg, const Page& page) {
  Renderer r(schemas, reg, page.name);
  std::string out;
  std::size_t line = 0;
  for (const auto& b : page.blocks) {
    for (; line <= b.begin_line; ++line) out += page.lines[line] + "\n";
    std::string body;
    try {
      body = r.render(b.words);
    } catch (const Failure& e) {
      throw Failure(page.name + ":" + std::to_string(b.begin_line + 1) + ": " + e.what());
    }
    out += body;
    line = b.end_line;
  }
  for (; line < page.lines.size(); ++line) out += page.lines[line] + "\n";
  return out;
}

// What the pages leave out: operations no page lists, request and answer schemas without a table.
std::vector<std::string> coverage_problems(const Schemas& schemas, const Registry& reg) {
  std::vector<std::string> problems;
  Renderer probe(schemas, reg, "");
  for (const auto& o : operations(schemas)) {
    if (reg.page_of.count(o.key()) == 0) {
      problems.push_back(o.key() + " is in openapi." + o.version +
                         ".json but no page has an 'endpoints' block for it");
    }
    for (const char* where : {"body", "answer"}) {
      const std::string name =
          std::string(where) == "body" ? body_schema(*o.op) : answer_schema(*o.op);
      if (!name.empty() && !probe.table_of(name)) {
        problems.push_back("the " + std::string(where) + " of " + o.key() + " (" + name +
                           ") has no 'fields', 'variants' or 'anchor' block on any page");
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Links into the reference (and, from its pages, to any markdown file).

struct LinkCheck {
  fs::path pages;  // docs/reference, canonical
  std::map<fs::path, std::set<std::string>> anchor_cache;
  std::vector<std::string> problems;

  const std::set<std::string>& anchors(const fs::path& file) {
    auto it = anchor_cache.find(file);
    if (it != anchor_cache.end()) return it->second;
    const auto list = anchors_of(split_lines(read_text(file)));
    return anchor_cache[file] = std::set<std::string>(list.begin(), list.end());
  }

  bool inside_reference(const fs::path& p) const {
    const auto rel = p.lexically_relative(pages);
    return !rel.empty() && *rel.begin() != "..";
  }

  void check_target(const std::string& where, const fs::path& base, const std::string& target,
                    bool any_markdown) {
    const auto hash = target.find('#');
    const std::string file_part = target.substr(0, hash);
    const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
    fs::path file = file_part.empty() ? base : (base.parent_path() / file_part).lexically_normal();
    if (file_part.empty() && !any_markdown) return;
    if (!any_markdown && !inside_reference(file)) return;
    if (file.extension() != ".md" && !fs::is_directory(file)) {
      if (!file_part.empty() && !fs::exists(file)) problems.push_back(where + ": " + target + ": no such file");
      return;
    }
    if (!fs::exists(file)) {
      problems.push_back(where + ": " + target + ": no such file");
      return;
    }
    if (fs::is_directory(file)) return;
    if (!anchor.empty() && anchors(file).count(anchor) == 0) {
      problems.push_back(where + ": " + target + ": no heading with that anchor");
    }
  }

  void scan(const fs::path& root, const fs::path& file) {
    const std::string text = read_text(file);
    const bool markdown = file.extension() == ".md";
    const bool from_reference = markdown && inside_reference(fs::canonical(file));
    const fs::path canonical = fs::canonical(file);
    const auto lines = split_lines(text);
    bool fence = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& line = lines[i];
      const std::string where =
          fs::absolute(file).lexically_relative(root).string() + ":" + std::to_string(i + 1);
      if (markdown && starts_with(trim(line), "```")) {
        fence = !fence;
        continue;
      }
      if (markdown && !fence) {
        for (auto at = line.find("]("); at != std::string::npos; at = line.find("](", at + 2)) {
          const auto end = line.find(')', at + 2);
          if (end == std::string::npos) break;
          const std::string target = line.substr(at + 2, end - at - 2);
          if (target.empty() || target.find("://") != std::string::npos ||
              starts_with(target, "mailto:") || target.find(' ') != std::string::npos) {
            continue;
          }
          check_target(where, canonical, target, from_reference);
        }
      }
      // "docs/reference/<page>.md#<anchor>" written as text (code, comments, messages).
      const std::string needle = "docs/reference/";
      for (auto at = line.find(needle); at != std::string::npos; at = line.find(needle, at + 1)) {
        std::size_t end = at + needle.size();
        while (end < line.size() &&
               (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-' ||
                line[end] == '_' || line[end] == '.' || line[end] == '#')) {
          ++end;
        }
        std::string target = line.substr(at + needle.size(), end - at - needle.size());
        while (!target.empty() && (target.back() == '.' || target.back() == '#')) target.pop_back();
        if (target.empty() || target.find(".md") == std::string::npos) continue;
        check_target(where, pages / "README.md", target, false);
      }
    }
  }
};

void walk(const fs::path& path, const std::function<void(const fs::path&)>& visit) {
  static const std::set<std::string> extensions = {".md", ".hpp", ".cpp", ".h", ".json",
                                                   ".txt", ".sh", ".cmake"};
  if (fs::is_regular_file(path)) {
    visit(path);
    return;
  }
  if (!fs::is_directory(path)) throw Failure("no such file or directory: " + path.string());
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(path); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (starts_with(name, "build") || name == "node_modules" || name == ".git")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && extensions.count(it->path().extension().string())) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) visit(f);
}

int usage() {
  std::cerr << "usage: webdata-refgen --schemas DIR --pages DIR (--write | --check)\n"
               "       webdata-refgen --pages DIR --links PATH...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<fs::path> schemas_dir;
  std::optional<fs::path> pages_dir;
  std::string mode;
  std::vector<fs::path> link_roots;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--schemas" && i + 1 < argc) {
      schemas_dir = argv[++i];
    } else if (arg == "--pages" && i + 1 < argc) {
      pages_dir = argv[++i];
    } else if (arg == "--write" || arg == "--check") {
      mode = arg.substr(2);
    } else if (arg == "--links") {
      mode = "links";
      while (i + 1 < argc && starts_with(argv[i + 1], "--") == false) link_roots.emplace_back(argv[++i]);
    } else {
      return usage();
    }
  }
  if (!pages_dir || mode.empty()) return usage();
  try {
    if (mode == "links") {
      if (link_roots.empty()) return usage();
      LinkCheck check;
      check.pages = fs::canonical(*pages_dir);
      const fs::path root = fs::current_path();
      std::size_t files = 0;
      for (const auto& r : link_roots) {
        walk(r, [&](const fs::path& f) {
          ++files;
          check.scan(root, f);
        });
      }
      for (const auto& p : check.problems) std::cerr << p << "\n";
      if (!check.problems.empty()) {
        std::cerr << check.problems.size() << " broken link(s) into docs/reference/\n";
        return 1;
      }
      std::cout << "links into docs/reference/ resolve (" << files << " files)\n";
      return 0;
    }
    if (!schemas_dir) return usage();
    const Schemas schemas(*schemas_dir);
    const auto pages = read_pages(*pages_dir);
    const Registry reg = build_registry(schemas, pages);
    int stale = 0;
    for (const auto& page : pages) {
      const std::string fresh = regenerate(schemas, reg, page);
      const std::string current = read_text(page.path);
      if (fresh == current) continue;
      if (mode == "write") {
        std::ofstream out(page.path, std::ios::binary | std::ios::trunc);
        out << fresh;
        if (!out.flush()) throw Failure("cannot write " + page.path.string());
        std::cout << "updated " << page.path.string() << "\n";
        continue;
      }
      ++stale;
      const auto a = split_lines(current);
      const auto b = split_lines(fresh);
      std::size_t i = 0;
      while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
      std::cerr << page.path.string() << ":" << (i + 1)
                << ": generated table out of date with schemas/\n"
                << "  committed: " << (i < a.size() ? a[i] : "(end of file)") << "\n"
                << "  expected:  " << (i < b.size() ? b[i] : "(end of file)") << "\n";
    }
    const auto problems = coverage_problems(schemas, reg);
    for (const auto& p : problems) std::cerr << "not documented: " << p << "\n";
    if (stale > 0) {
      std::cerr << stale << " page(s) out of date; regenerate with "
                << "'cmake --build build --target reference-docs' and commit the result\n";
    }
    if (stale > 0 || !problems.empty()) return 1;
    std::cout << "docs/reference matches schemas/ (" << pages.size() << " pages)\n";
    return 0;
  } catch (const Failure& e) {
    std::cerr << "webdata-refgen: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "webdata-refgen: " << e.what() << "\n";
    return 2;
  }
}
