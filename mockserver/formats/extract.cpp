#include "formats/extract.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include <webdata/contract/schema_walk.hpp>

#include "formats/scan.hpp"
#include "formats/summary.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

using detail::dom::Node;
using nlohmann::json;
using Tokens = std::vector<std::string>;

constexpr int kMaxDepth = 12;
constexpr std::size_t kMaxArrayItems = 100;
constexpr std::size_t kMaxGroupCandidates = 60;

std::string singular(std::string w) {
  if (w.size() > 4 && w.compare(w.size() - 3, 3, "ies") == 0)
    return w.substr(0, w.size() - 3) + "y";
  if (w.size() > 3 && w.back() == 's' && w[w.size() - 2] != 's') w.pop_back();
  return w;
}

Tokens normalize(const Tokens& tokens) {
  Tokens out;
  for (const auto& t : tokens) {
    std::string w = singular(t);
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
  }
  return out;
}

Tokens label_tokens(std::string_view text) {
  return normalize(detail::name_tokens(text));
}

// How well a property name matches a label: 1 when every property token is in the label.
double match_score(const Tokens& property, const Tokens& label) {
  if (property.empty() || label.empty()) return 0;
  std::size_t common = 0;
  for (const auto& p : property) {
    if (std::find(label.begin(), label.end(), p) != label.end()) ++common;
  }
  if (common == 0) return 0;
  double coverage = static_cast<double>(common) / static_cast<double>(property.size());
  double precision = static_cast<double>(common) / static_cast<double>(label.size());
  if (coverage == 1.0) return 0.7 + 0.3 * precision;
  double score = 0.7 * coverage + 0.3 * precision;
  return score >= 0.6 ? score : 0;
}

enum class Kind {
  kNone,
  kTitle,
  kDescription,
  kSummary,
  kPrice,
  kCurrency,
  kDate,
  kEmail,
  kPhone,
  kUrl,
  kImage,
  kAuthor,
  kLanguage,
  kKeywords,
  kHeadings,
  kStock,
  kRating,
  kCount,
  kAddress
};

Kind kind_of(const Tokens& name, const json& schema) {
  std::string format = schema.is_object() ? schema.value("format", "") : "";
  if (format == "email") return Kind::kEmail;
  if (format == "uri" || format == "url" || format == "iri") return Kind::kUrl;
  if (format == "date" || format == "date-time") return Kind::kDate;
  auto has = [&](std::initializer_list<const char*> words) {
    for (const auto& t : name) {
      for (const char* w : words) {
        if (t == w) return true;
      }
    }
    return false;
  };
  if (has({"email", "mail"})) return Kind::kEmail;
  if (has({"phone", "telephone", "tel", "mobile"})) return Kind::kPhone;
  if (has({"image", "img", "photo", "picture", "thumbnail", "logo", "icon", "avatar", "cover"})) {
    return Kind::kImage;
  }
  if (has({"currency"})) return Kind::kCurrency;
  if (has({"price", "cost", "fee", "msrp", "amount"})) return Kind::kPrice;
  if (has({"date", "published", "updated", "modified", "created", "datetime", "deadline",
           "timestamp"})) {
    return Kind::kDate;
  }
  if (has({"heading", "section", "toc"})) return Kind::kHeadings;
  if (has({"url", "link", "href", "website", "homepage", "uri", "permalink"})) {
    return Kind::kUrl;
  }
  if (has({"author", "writer", "creator", "byline"})) return Kind::kAuthor;
  if (has({"language", "lang", "locale"})) return Kind::kLanguage;
  if (has({"keyword", "tag", "topic", "category"})) return Kind::kKeywords;
  if (has({"stock", "instock", "available", "availability"})) return Kind::kStock;
  if (has({"rating", "stars", "score"})) return Kind::kRating;
  if (has({"count", "number", "quantity", "total", "num"})) return Kind::kCount;
  if (has({"address", "location"})) return Kind::kAddress;
  if (has({"summary", "tldr", "abstract"})) return Kind::kSummary;
  if (has({"description", "about", "excerpt", "overview", "intro", "content", "body", "text",
           "snippet", "detail", "bio"})) {
    return Kind::kDescription;
  }
  if (has({"title", "name", "heading", "headline", "product", "label", "subject"})) {
    return Kind::kTitle;
  }
  return Kind::kNone;
}

struct Field {
  Tokens label;
  std::string value;
  const Node* node = nullptr;  // the element holding the value (for href / src)
};
struct Link {
  std::string text;
  std::string url;
};
struct List {
  Tokens label;
  std::vector<std::string> items;
  std::vector<const Node*> nodes;
  const Node* node = nullptr;
};
struct Table {
  Tokens label;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<const Node*> row_nodes;
};

// What one context (the page, a table row, a list item, a card) offers.
struct Evidence {
  const Node* root = nullptr;
  std::string title;
  std::string description;
  std::string text;
  std::string url;
  std::string author;
  std::string language;
  std::string keywords;
  std::string summary_source_title;
  std::vector<std::string> headings;
  std::vector<std::string> paragraphs;
  std::vector<Field> fields;
  std::vector<Link> links;
  std::vector<Link> images;  // text = alt
  std::vector<List> lists;
  std::vector<Table> tables;
  std::vector<detail::Price> prices;
  std::vector<std::string> dates;
  std::vector<std::string> emails;
  std::vector<std::string> phones;
};

bool has_block_child(const Node& n) {
  for (const Node* c : n.children) {
    if (c->is_element() && !c->is("a") && !c->is("span") && !c->is("strong") && !c->is("b") &&
        !c->is("em") && !c->is("i") && !c->is("time") && !c->is("small") && !c->is("br") &&
        !c->is("sup") && !c->is("sub") && !c->is("code") && !c->is("abbr") && !c->is("data") &&
        !c->is("meta")) {
      return true;
    }
  }
  return false;
}

void add_name_fields(const Node& n, const std::string& value, Evidence& ev) {
  for (const char* attr : {"itemprop", "class", "id", "data-field", "name"}) {
    const std::string* v = n.attr(attr);
    if (v == nullptr || v->empty()) continue;
    if (std::string_view(attr) == "class") {
      for (const auto& cls : detail::split_words(*v)) {
        ev.fields.push_back({label_tokens(cls), value, &n});
      }
    } else {
      ev.fields.push_back({label_tokens(*v), value, &n});
    }
  }
}

// Walks a subtree (the page's cleaned content, or one item of a group) and records evidence.
void collect(const Node& root, const detail::Html& html, Evidence& ev) {
  ev.root = &root;
  ev.text = detail::text_of(root);
  std::string last_heading;
  std::vector<const Node*> stack{&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!n->is_element() || detail::is_invisible(*n)) continue;
    const std::string& tag = n->name;
    if (tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6') {
      std::string t = detail::text_of(*n);
      if (!t.empty()) {
        ev.headings.push_back(t);
        if (ev.title.empty() && (tag == "h1" || &root != html.tree.body)) ev.title = t;
        last_heading = t;
      }
    } else if (tag == "p") {
      std::string t = detail::text_of(*n);
      if (!t.empty()) ev.paragraphs.push_back(t);
    } else if (tag == "a") {
      if (const std::string* href = n->attr("href")) {
        std::string url = html.absolute(*href);
        std::string t = detail::text_of(*n);
        if (url.rfind("mailto:", 0) == 0) {
          std::string mail = url.substr(
              7, url.find('?') == std::string::npos ? std::string::npos : url.find('?') - 7);
          if (detail::looks_like_email(mail)) ev.emails.push_back(mail);
        } else if (url.rfind("tel:", 0) == 0) {
          ev.phones.push_back(url.substr(4));
        } else if (detail::looks_like_url(url)) {
          ev.links.push_back({t, url});
        }
      }
    } else if (tag == "img") {
      const std::string* src = n->attr("src");
      if (src == nullptr || src->empty() || src->rfind("data:", 0) == 0 ||
          src->find('<') != std::string::npos) {
        src = n->attr("data-src");
      }
      if (src != nullptr && !src->empty()) {
        std::string url = html.absolute(*src);
        if (detail::looks_like_url(url))
          ev.images.push_back({n->attr("alt") ? *n->attr("alt") : "", url});
      }
    } else if (tag == "time") {
      const std::string* dt = n->attr("datetime");
      auto dates = detail::find_dates(dt != nullptr ? *dt : detail::text_of(*n));
      if (!dates.empty()) ev.dates.push_back(dates.front());
    } else if (tag == "ul" || tag == "ol") {
      List list;
      list.node = n;
      list.label = label_tokens(last_heading);
      for (const std::string* a : {n->attr("class"), n->attr("id"), n->attr("aria-label")}) {
        if (a != nullptr) {
          for (auto& t : label_tokens(*a)) {
            if (std::find(list.label.begin(), list.label.end(), t) == list.label.end()) {
              list.label.push_back(t);
            }
          }
        }
      }
      for (const Node* c : n->children) {
        if (c->is("li")) {
          std::string t = detail::text_of(*c);
          if (!t.empty()) {
            list.items.push_back(t);
            list.nodes.push_back(c);
          }
        }
      }
      if (!list.items.empty()) ev.lists.push_back(std::move(list));
    } else if (tag == "dt") {
      // The dd elements that follow, up to the next dt.
      const Node* parent = n->parent;
      if (parent != nullptr) {
        auto it = std::find(parent->children.begin(), parent->children.end(), n);
        for (++it; it != parent->children.end() && !(*it)->is("dt"); ++it) {
          if ((*it)->is("dd")) {
            ev.fields.push_back({label_tokens(detail::text_of(*n)), detail::text_of(**it), *it});
            break;
          }
        }
      }
    } else if (tag == "table") {
      Table table;
      table.label = label_tokens(last_heading);
      std::vector<const Node*> rows;
      std::vector<const Node*> walk{n};
      while (!walk.empty()) {
        const Node* w = walk.back();
        walk.pop_back();
        if (w->is("tr")) {
          rows.push_back(w);
          continue;
        }
        if (w != n && w->is("table")) continue;
        for (auto it = w->children.rbegin(); it != w->children.rend(); ++it) walk.push_back(*it);
      }
      for (const Node* row : rows) {
        std::vector<std::string> cells;
        bool header = true;
        for (const Node* c : row->children) {
          if (c->is("td") || c->is("th")) {
            cells.push_back(detail::text_of(*c));
            if (c->is("td")) header = false;
          }
        }
        if (cells.empty()) continue;
        if (header && table.columns.empty() && table.rows.empty()) {
          table.columns = cells;
        } else {
          // A two-cell row "Label | value" (or th + td) reads as a labelled value too.
          if (cells.size() == 2) {
            const Node* value_cell = nullptr;
            for (auto it = row->children.rbegin(); it != row->children.rend(); ++it) {
              if ((*it)->is("td") || (*it)->is("th")) {
                value_cell = *it;
                break;
              }
            }
            ev.fields.push_back({label_tokens(cells[0]), cells[1], value_cell});
          }
          table.rows.push_back(std::move(cells));
          table.row_nodes.push_back(row);
        }
      }
      if (!table.rows.empty()) ev.tables.push_back(std::move(table));
    }
    if (n->has_attr("itemprop")) {
      std::string value;
      for (const char* a : {"content", "datetime", "href", "src", "value"}) {
        if (const std::string* v = n->attr(a)) {
          value = (std::string_view(a) == "href" || std::string_view(a) == "src")
                      ? html.absolute(*v)
                      : *v;
          break;
        }
      }
      if (value.empty()) value = detail::text_of(*n);
      ev.fields.push_back({label_tokens(*n->attr("itemprop")), value, n});
    }
    // Short leaf-ish elements: named by their class / id, and "Label: value" text.
    if (!has_block_child(*n)) {
      std::string t = detail::text_of(*n);
      if (!t.empty() && t.size() <= 300) {
        if (!n->has_attr("itemprop")) add_name_fields(*n, t, ev);
        std::size_t colon = t.find(':');
        if (colon != std::string::npos && colon > 0 && colon <= 40 && colon + 1 < t.size() &&
            t.compare(colon, 3, "://") != 0) {
          std::string label = t.substr(0, colon);
          if (detail::split_words(label).size() <= 5) {
            ev.fields.push_back({label_tokens(label), detail::trim(t.substr(colon + 1)), n});
          }
        }
      }
    }
    for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(*it);
  }
  ev.prices = detail::find_prices(ev.text);
  for (auto& d : detail::find_dates(ev.text)) ev.dates.push_back(d);
  for (auto& e : detail::find_emails(ev.text)) ev.emails.push_back(e);
  for (auto& p : detail::find_phones(ev.text)) ev.phones.push_back(p);
  if (ev.description.empty()) {
    for (const auto& p : ev.paragraphs) {
      if (detail::split_words(p).size() >= 5) {
        ev.description = p;
        break;
      }
    }
  }
}

// JSON-LD blocks of the page, flattened to labelled fields ("offers.price" -> offers, price).
void flatten_json_ld(const json& value, Tokens prefix, std::vector<Field>& out, int depth) {
  if (depth > 6) return;
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key().empty() || it.key()[0] == '@') continue;
      Tokens label = prefix;
      for (auto& t : label_tokens(it.key())) label.push_back(t);
      flatten_json_ld(it.value(), label, out, depth + 1);
    }
  } else if (value.is_array()) {
    for (const auto& v : value) flatten_json_ld(v, prefix, out, depth + 1);
  } else if (value.is_string()) {
    out.push_back({prefix, value.get<std::string>(), nullptr});
  } else if (value.is_number() || value.is_boolean()) {
    out.push_back({prefix, value.dump(), nullptr});
  }
}

// ---- Schema handling ----

// The schema as extraction reads it: one flattened object per node ($ref with its siblings,
// allOf folded in) and, for anyOf / oneOf, the first branch that is not only null (the value is
// what the caller wants filled).
class Schema {
 public:
  explicit Schema(const json& root) : walker_(root) {}

  json resolve(const json& schema) const {
    json flat = walker_.flatten(contract::SchemaNode{nullptr, &schema}, first_not_null);
    return flat.is_object() ? flat : json::object();
  }

 private:
  static std::optional<std::size_t> first_not_null(const std::vector<json>& branches) {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      const json& b = branches[i];
      if (!(b.is_object() && b.contains("type") && b["type"] == "null")) return i;
    }
    return 0;
  }

  contract::SchemaWalker walker_;
};

// The schema's types; without a `type` keyword, the type its other keywords imply.
std::vector<std::string> types_of(const json& s) {
  if (s.contains("type")) return contract::SchemaWalker::types(s);
  if (s.contains("properties")) return {"object"};
  if (s.contains("items")) return {"array"};
  if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty()) {
    const json& v = s["enum"][0];
    if (v.is_string()) return {"string"};
    if (v.is_boolean()) return {"boolean"};
    if (v.is_number_integer()) return {"integer"};
    if (v.is_number()) return {"number"};
    if (v.is_null()) return {"null"};
  }
  return {"string"};
}

bool allows(const json& s, const std::string& type) {
  auto types = types_of(s);
  if (std::find(types.begin(), types.end(), type) != types.end()) return true;
  return type == "integer" && std::find(types.begin(), types.end(), "number") != types.end();
}

bool matches_pattern(const std::string& value, const std::string& pattern) {
  try {
    std::regex re(pattern, std::regex::ECMAScript);
    return std::regex_search(value, re);
  } catch (const std::exception&) {
    return true;  // a pattern std::regex cannot read: not ours to enforce
  }
}

bool conforms(const json& v, const json& s, const Schema& schema, int depth = 0);

bool conforms_resolved(const json& v, const json& s, const Schema& schema, int depth) {
  if (depth > kMaxDepth + 4) return true;
  if (!contract::SchemaWalker::allowed_value(s, v)) return false;
  if (s.contains("type")) {
    bool ok = false;
    for (const auto& t : types_of(s)) {
      if ((t == "string" && v.is_string()) || (t == "number" && v.is_number()) ||
          (t == "integer" &&
           (v.is_number_integer() ||
            (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))) ||
          (t == "boolean" && v.is_boolean()) || (t == "null" && v.is_null()) ||
          (t == "array" && v.is_array()) || (t == "object" && v.is_object())) {
        ok = true;
      }
    }
    if (!ok) return false;
  }
  if (v.is_string()) {
    const std::string& str = v.get_ref<const std::string&>();
    std::size_t len = detail::utf8_length(str);
    if (s.contains("minLength") && s["minLength"].is_number() && len < s["minLength"].get<double>())
      return false;
    if (s.contains("maxLength") && s["maxLength"].is_number() && len > s["maxLength"].get<double>())
      return false;
    if (s.contains("pattern") && s["pattern"].is_string() &&
        !matches_pattern(str, s["pattern"].get<std::string>())) {
      return false;
    }
    std::string format = s.value("format", "");
    if (format == "email" && !detail::looks_like_email(str)) return false;
    if ((format == "uri" || format == "url") && !detail::looks_like_url(str)) return false;
    if (format == "date" && !detail::looks_like_date(str)) return false;
    if (format == "date-time" && !detail::looks_like_date_time(str)) return false;
  }
  if (v.is_number()) {
    double d = v.get<double>();
    auto num = [&](const char* k) -> std::optional<double> {
      if (s.contains(k) && s[k].is_number()) return s[k].get<double>();
      return std::nullopt;
    };
    if (auto m = num("minimum"); m && d < *m) return false;
    if (auto m = num("maximum"); m && d > *m) return false;
    if (auto m = num("exclusiveMinimum"); m && d <= *m) return false;
    if (auto m = num("exclusiveMaximum"); m && d >= *m) return false;
    if (auto m = num("multipleOf"); m && *m > 0) {
      double q = d / *m;
      if (std::fabs(q - std::round(q)) > 1e-9) return false;
    }
  }
  if (v.is_array()) {
    if (s.contains("minItems") && s["minItems"].is_number() &&
        v.size() < s["minItems"].get<double>())
      return false;
    if (s.contains("maxItems") && s["maxItems"].is_number() &&
        v.size() > s["maxItems"].get<double>())
      return false;
    if (s.value("uniqueItems", false)) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        for (std::size_t j = i + 1; j < v.size(); ++j) {
          if (v[i] == v[j]) return false;
        }
      }
    }
    if (s.contains("items") && s["items"].is_object()) {
      for (const auto& item : v) {
        if (!conforms(item, s["items"], schema, depth + 1)) return false;
      }
    }
  }
  if (v.is_object()) {
    if (s.contains("required") && s["required"].is_array()) {
      for (const auto& r : s["required"]) {
        if (r.is_string() && !v.contains(r.get<std::string>())) return false;
      }
    }
    const json* props =
        s.contains("properties") && s["properties"].is_object() ? &s["properties"] : nullptr;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (props != nullptr && props->contains(it.key())) {
        if (!conforms(it.value(), (*props)[it.key()], schema, depth + 1)) return false;
      } else if (s.contains("additionalProperties")) {
        const json& ap = s["additionalProperties"];
        if (ap.is_boolean() && !ap.get<bool>()) return false;
        if (ap.is_object() && !conforms(it.value(), ap, schema, depth + 1)) return false;
      }
    }
  }
  return true;
}

bool conforms(const json& v, const json& s, const Schema& schema, int depth) {
  if (s.is_boolean()) return s.get<bool>();
  if (!s.is_object()) return true;
  return conforms_resolved(v, schema.resolve(s), schema, depth);
}

// A number brought inside the schema's range and multipleOf (and integral for integers).
std::optional<json> fit_number(double d, const json& s) {
  if (!std::isfinite(d)) return std::nullopt;
  bool integer = !allows(s, "number") && allows(s, "integer");
  auto num = [&](const char* k) -> std::optional<double> {
    if (s.contains(k) && s[k].is_number()) return s[k].get<double>();
    return std::nullopt;
  };
  double step = integer ? 1 : 0;
  if (auto m = num("multipleOf"); m && *m > 0) step = integer ? std::max(1.0, std::ceil(*m)) : *m;
  if (auto m = num("multipleOf"); m && *m > 0 && integer && std::floor(*m) != *m)
    return std::nullopt;
  if (step > 0) d = std::round(d / step) * step;
  double lo = -INFINITY;
  double hi = INFINITY;
  if (auto m = num("minimum")) lo = *m;
  if (auto m = num("maximum")) hi = *m;
  if (auto m = num("exclusiveMinimum")) lo = std::max(lo, *m + (step > 0 ? step : 1e-6));
  if (auto m = num("exclusiveMaximum")) hi = std::min(hi, *m - (step > 0 ? step : 1e-6));
  if (step > 0) {
    if (std::isfinite(lo)) lo = std::ceil(lo / step) * step;
    if (std::isfinite(hi)) hi = std::floor(hi / step) * step;
  }
  if (lo > hi) return std::nullopt;
  d = std::min(std::max(d, lo), hi);
  if (integer) return json(static_cast<std::int64_t>(std::llround(d)));
  if (std::floor(d) == d && std::fabs(d) < 1e15) return json(static_cast<std::int64_t>(d));
  return json(d);
}

// The value used when the page has no evidence: the schema's default, else the type's zero.
json default_for(const json& raw, const Schema& schema, int depth) {
  if (raw.is_boolean() || !raw.is_object()) return nullptr;
  json s = schema.resolve(raw);
  if (s.contains("default") && conforms(s["default"], s, schema)) return s["default"];
  if (s.contains("const")) return s["const"];
  if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty()) return s["enum"][0];
  auto types = types_of(s);
  if (std::find(types.begin(), types.end(), "null") != types.end()) return nullptr;
  std::string type = types.empty() ? "string" : types[0];
  if (type == "object") {
    json out = json::object();
    if (depth > kMaxDepth) return out;
    const json* props =
        s.contains("properties") && s["properties"].is_object() ? &s["properties"] : nullptr;
    if (s.contains("required") && s["required"].is_array()) {
      for (const auto& r : s["required"]) {
        if (!r.is_string()) continue;
        std::string key = r.get<std::string>();
        out[key] = props != nullptr && props->contains(key)
                       ? default_for((*props)[key], schema, depth + 1)
                       : json(nullptr);
      }
    }
    return out;
  }
  if (type == "array") {
    json out = json::array();
    std::size_t min_items =
        s.contains("minItems") && s["minItems"].is_number() ? s["minItems"].get<std::size_t>() : 0;
    json items = s.contains("items") ? s["items"] : json::object();
    for (std::size_t i = 0; i < min_items && i < kMaxArrayItems && depth <= kMaxDepth; ++i) {
      out.push_back(default_for(items, schema, depth + 1));
    }
    return out;
  }
  if (type == "boolean") return false;
  if (type == "number" || type == "integer") {
    auto v = fit_number(0, s);
    return v ? *v : json(0);
  }
  std::string format = s.value("format", "");
  std::string str;
  // A format with no evidence still needs a valid value: the earliest one of that format.
  if (format == "date") str = "1970-01-01";
  if (format == "date-time") str = "1970-01-01T00:00:00Z";
  std::size_t min_len =
      s.contains("minLength") && s["minLength"].is_number() ? s["minLength"].get<std::size_t>() : 0;
  while (detail::utf8_length(str) < min_len && str.size() < 10000) str += ' ';
  return str;
}

// ---- Extraction ----

class Extractor {
 public:
  Extractor(const json& root_schema, const detail::Html& page, const detail::Html& content,
            const content::Document& doc, const content::Options& options)
      : schema_(root_schema), page_(page), content_(content), doc_(doc), options_(options) {}

  void prepare() {
    const Node* root = content_.tree.body != nullptr ? content_.tree.body : content_.tree.document;
    collect(*root, content_, page_ev_);
    json meta = doc_.metadata();
    auto str = [&](const char* key) -> std::string {
      if (meta.contains(key) && meta[key].is_string()) return meta[key].get<std::string>();
      return "";
    };
    std::string title = str("ogTitle").empty() ? str("title") : str("ogTitle");
    if (!title.empty())
      page_ev_.title = title;
    else if (!page_ev_.headings.empty() && page_ev_.title.empty())
      page_ev_.title = page_ev_.headings[0];
    std::string description =
        str("description").empty() ? str("ogDescription") : str("description");
    if (!description.empty()) page_ev_.description = description;
    page_ev_.url = doc_.base_url();
    page_ev_.language = str("language");
    page_ev_.keywords = str("keywords");
    page_ev_.author = str("author");
    for (const char* key : {"publishedTime", "modifiedTime", "dcTermsCreated", "dcDate"}) {
      auto d = detail::find_dates(str(key));
      if (!d.empty()) page_ev_.dates.insert(page_ev_.dates.begin(), d.front());
    }
    std::string og_image = str("ogImage");
    if (!og_image.empty()) {
      page_ev_.images.insert(page_ev_.images.begin(), {"", page_.absolute(og_image)});
    }
    for (auto it = meta.begin(); it != meta.end(); ++it) {
      if (it->is_string())
        page_ev_.fields.push_back({label_tokens(it.key()), it->get<std::string>(), nullptr});
    }
    // JSON-LD and microdata outside the content scope (head, header) still describe the page.
    for (const Node& n : page_.tree.nodes) {
      if (!n.is("script")) continue;
      const std::string* type = n.attr("type");
      if (type == nullptr || detail::lower(*type) != "application/ld+json") continue;
      std::string text;
      for (const Node* c : n.children) text += c->text;
      json ld = json::parse(text, nullptr, false);
      if (!ld.is_discarded()) flatten_json_ld(ld, {}, page_ev_.fields, 0);
    }
  }

  json run(const json& root) {
    auto value = value_for({}, root, page_ev_, 0);
    if (value && conforms(*value, root, schema_)) return *value;
    return default_for(root, schema_, 0);
  }

  json run_prompt(const std::string& prompt) {
    json props = json::object();
    props["title"] = {{"type", "string"}};
    props["description"] = {{"type", "string"}};
    std::set<std::string> seen = {"title", "description"};
    static const std::set<std::string> kPlural = {
        "links",      "images",   "emails", "headings",    "tags",    "keywords",
        "features",   "items",    "prices", "dates",       "phones",  "authors",
        "categories", "products", "steps",  "ingredients", "sections"};
    for (const auto& word : detail::word_tokens(prompt)) {
      if (word.size() < 3 || seen.count(word) > 0) continue;
      Tokens tokens = normalize({word});
      json sub = {{"type", "string"}};
      Kind kind = kind_of(tokens, sub);
      bool labelled = false;
      for (const auto& f : page_ev_.fields) {
        if (match_score(tokens, f.label) >= 0.7) labelled = true;
      }
      bool plural = kPlural.count(word) > 0;
      bool list = false;
      for (const auto& l : page_ev_.lists) {
        if (match_score(tokens, l.label) >= 0.7) list = true;
      }
      if (kind == Kind::kNone && !labelled && !list) continue;
      if (kind == Kind::kTitle || kind == Kind::kDescription) continue;  // already there
      if (plural || list || kind == Kind::kHeadings || kind == Kind::kKeywords) {
        sub = {{"type", "array"}, {"items", {{"type", "string"}}}};
      } else if (kind == Kind::kPrice || kind == Kind::kRating || kind == Kind::kCount) {
        sub = {{"type", "number"}};
      } else if (kind == Kind::kStock) {
        sub = {{"type", "boolean"}};
      }
      props[word] = sub;
      seen.insert(word);
    }
    if (seen.size() == 2) {
      props["url"] = {{"type", "string"}};
      props["headings"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
    }
    json schema = {{"type", "object"}, {"properties", props}};
    Extractor inner(schema, page_, content_, doc_, options_);
    inner.page_ev_ = page_ev_;
    json out = inner.fill_object({}, inner.schema_.resolve(schema), inner.page_ev_, 0)
                   .value_or(json::object());
    for (auto it = out.begin(); it != out.end();) {
      if (it->is_null())
        it = out.erase(it);
      else
        ++it;
    }
    return out;
  }

 private:
  // A labelled value of the context matching the property name (best score first).
  std::vector<const Field*> labelled(const Tokens& name, const Evidence& ev) const {
    std::vector<std::pair<double, const Field*>> scored;
    for (const auto& f : ev.fields) {
      double s = match_score(name, f.label);
      if (s > 0 && !f.value.empty()) scored.emplace_back(s, &f);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<const Field*> out;
    for (auto& [s, f] : scored) out.push_back(f);
    return out;
  }

  std::optional<json> accept(json v, const json& raw) const {
    if (conforms(v, raw, schema_)) return v;
    return std::nullopt;
  }

  // A string candidate converted to the schema's scalar type.
  std::optional<json> convert(const std::string& text, const Node* node, const json& s,
                              const json& raw, const std::string& type, Kind kind) const {
    std::string value = detail::trim(text);
    // "Phone: (555) 010-2000" named class="phone": the label is not part of the value.
    std::size_t colon = value.find(": ");
    if (colon != std::string::npos && colon <= 40 &&
        detail::split_words(value.substr(0, colon)).size() <= 4) {
      value = detail::trim(value.substr(colon + 2));
    }
    if (value.empty()) return std::nullopt;
    if (type == "string") {
      if (kind == Kind::kPhone) {
        auto phones = detail::find_phones("phone " + value);
        if (!phones.empty()) return accept(phones[0], raw);
      }
      std::string format = s.value("format", "");
      if (format == "date" || format == "date-time" || (kind == Kind::kDate && format.empty())) {
        auto dates = detail::find_dates(value);
        if (dates.empty()) return format.empty() ? accept(value, raw) : std::nullopt;
        if (format == "date") return accept(detail::as_date(dates[0]), raw);
        if (format == "date-time") return accept(detail::as_date_time(dates[0]), raw);
        return accept(dates[0], raw);
      }
      if (format == "email" || kind == Kind::kEmail) {
        auto e = detail::find_emails(value);
        if (!e.empty()) return accept(e[0], raw);
        return std::nullopt;
      }
      if (format == "uri" || format == "url" || kind == Kind::kUrl || kind == Kind::kImage) {
        if (node != nullptr) {
          for (const char* a : {"href", "src", "content"}) {
            if (const std::string* v = node->attr(a)) {
              std::string abs = content_.absolute(*v);
              if (detail::looks_like_url(abs)) return accept(abs, raw);
            }
          }
          for (const Node& d : content_.tree.nodes) {
            if (d.has_ancestor(*node) && d.is("a") && d.has_attr("href")) {
              std::string abs = content_.absolute(*d.attr("href"));
              if (detail::looks_like_url(abs)) return accept(abs, raw);
            }
          }
        }
        if (detail::looks_like_url(value)) return accept(value, raw);
        if (value.find(' ') == std::string::npos && value.find('.') != std::string::npos) {
          std::string abs = content_.absolute(value);
          if (detail::looks_like_url(abs)) return accept(abs, raw);
        }
        if (!format.empty()) return std::nullopt;
      }
      if (kind == Kind::kPrice && s.contains("pattern")) return accept(value, raw);
      if (s.contains("maxLength") && s["maxLength"].is_number()) {
        auto max = s["maxLength"].get<std::size_t>();
        if (detail::utf8_length(value) > max) {
          std::string cut;
          std::size_t i = 0;
          std::size_t n = 0;
          while (i < value.size() && n < max) {
            std::size_t start = i;
            detail::next_code_point(value, i);
            cut += value.substr(start, i - start);
            ++n;
          }
          value = cut;
        }
      }
      return accept(value, raw);
    }
    if (type == "number" || type == "integer") {
      std::optional<double> d;
      if (kind == Kind::kPrice) {
        auto prices = detail::find_prices(value);
        if (!prices.empty()) d = prices[0].amount;
      }
      if (!d) d = detail::parse_number(value);
      if (!d) return std::nullopt;
      auto fitted = fit_number(*d, s);
      if (!fitted) return std::nullopt;
      return accept(*fitted, raw);
    }
    if (type == "boolean") {
      auto b = detail::parse_bool(value);
      if (!b) return std::nullopt;
      return accept(*b, raw);
    }
    return std::nullopt;
  }

  // Evidence by kind, for a scalar type, when no label matched.
  std::optional<json> by_kind(Kind kind, const json& s, const json& raw, const std::string& type,
                              const Evidence& ev, const Tokens& name) const {
    auto first_of = [&](const std::vector<std::string>& values) -> std::optional<json> {
      for (const auto& v : values) {
        if (auto out = convert(v, nullptr, s, raw, type, kind)) return out;
      }
      return std::nullopt;
    };
    bool page = &ev == &page_ev_;
    switch (kind) {
      case Kind::kTitle: {
        std::vector<std::string> c = {ev.title};
        if (!page) {
          for (const auto& l : ev.links) c.push_back(l.text);
          for (const auto& h : ev.headings) c.push_back(h);
          if (ev.text.size() <= 120) c.push_back(ev.text);
        }
        return first_of(c);
      }
      case Kind::kDescription:
        return first_of({ev.description, ev.paragraphs.empty() ? "" : ev.paragraphs[0]});
      case Kind::kSummary: {
        std::string summary = page ? summarize(doc_, options_) : summarize_text(ev.text, ev.title);
        return first_of({summary, ev.description});
      }
      case Kind::kPrice: {
        if (type == "string") {
          std::vector<std::string> c;
          for (const auto& p : ev.prices) c.push_back(p.text);
          return first_of(c);
        }
        for (const auto& p : ev.prices) {
          if (auto f = fit_number(p.amount, s)) {
            if (auto out = accept(*f, raw)) return out;
          }
        }
        return std::nullopt;
      }
      case Kind::kCurrency: {
        std::vector<std::string> c;
        for (const auto& p : ev.prices) c.push_back(p.currency);
        return first_of(c);
      }
      case Kind::kDate:
        return first_of(ev.dates);
      // Contact details often sit in the page's footer, outside the main content.
      case Kind::kEmail:
        if (auto v = first_of(ev.emails); v || !page) return v;
        return first_of(whole_page().emails);
      case Kind::kPhone:
        if (auto v = first_of(ev.phones); v || !page) return v;
        return first_of(whole_page().phones);
      case Kind::kUrl: {
        std::vector<std::string> c;
        if (page) c.push_back(ev.url);
        for (const auto& l : ev.links) c.push_back(l.url);
        return first_of(c);
      }
      case Kind::kImage: {
        std::vector<std::string> c;
        bool logo = std::find(name.begin(), name.end(), "logo") != name.end();
        if (logo) {
          for (const auto& i : ev.images) {
            if (detail::lower(i.text + i.url).find("logo") != std::string::npos) c.push_back(i.url);
          }
        }
        for (const auto& i : ev.images) c.push_back(i.url);
        return first_of(c);
      }
      case Kind::kAuthor:
        return first_of({ev.author});
      case Kind::kLanguage:
        return first_of({ev.language});
      case Kind::kKeywords:
        return first_of({ev.keywords});
      case Kind::kStock: {
        if (type != "boolean") return std::nullopt;
        auto b = detail::parse_bool(ev.text);
        if (!b) return std::nullopt;
        return accept(*b, raw);
      }
      case Kind::kRating:
      case Kind::kCount:
      case Kind::kAddress:
      case Kind::kHeadings:
      case Kind::kNone:
        return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<json> enum_value(const Tokens& name, const json& s, const json& raw,
                                 const Evidence& ev) const {
    std::vector<std::string> candidates;
    for (const Field* f : labelled(name, ev)) candidates.push_back(detail::lower(f->value));
    for (const auto& c : candidates) {
      for (const auto& e : s["enum"]) {
        if (e.is_string() && detail::lower(e.get<std::string>()) == c) return accept(e, raw);
      }
    }
    for (const auto& c : candidates) {
      for (const auto& e : s["enum"]) {
        if (e.is_string() && !e.get<std::string>().empty() &&
            c.find(detail::lower(e.get<std::string>())) != std::string::npos) {
          return accept(e, raw);
        }
      }
    }
    // The enum value the context mentions most, as a whole word; ties go to the enum order.
    std::string text = detail::lower(ev.text);
    std::optional<json> best;
    std::size_t best_count = 0;
    for (const auto& e : s["enum"]) {
      if (!e.is_string() || e.get<std::string>().empty()) continue;
      std::string needle = detail::lower(e.get<std::string>());
      std::size_t count = 0;
      for (std::size_t p = text.find(needle); p != std::string::npos;
           p = text.find(needle, p + 1)) {
        bool left = p == 0 || !std::isalnum(static_cast<unsigned char>(text[p - 1]));
        std::size_t end = p + needle.size();
        bool right = end >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end]));
        if (left && right) ++count;
      }
      if (count > best_count) {
        best_count = count;
        best = e;
      }
    }
    if (best) return accept(*best, raw);
    return std::nullopt;
  }

 public:
  // The value of one property (or the root) from a context; nullopt when there is no evidence.
  std::optional<json> value_for(const Tokens& name, const json& raw, const Evidence& ev,
                                int depth) {
    if (depth > kMaxDepth || raw.is_boolean() || !raw.is_object()) return std::nullopt;
    json s = schema_.resolve(raw);
    if (s.contains("const")) return s["const"];
    if (s.contains("enum") && s["enum"].is_array()) return enum_value(name, s, raw, ev);
    Kind kind = kind_of(name, s);
    for (const auto& type : types_of(s)) {
      if (type == "null") continue;
      std::optional<json> v;
      if (type == "object") {
        v = fill_object(name, s, context_for(name, ev), depth);
      } else if (type == "array") {
        v = fill_array(name, s, ev, depth);
      } else {
        for (const Field* f : labelled(name, ev)) {
          if ((v = convert(f->value, f->node, s, raw, type, kind))) break;
        }
        if (!v) v = by_kind(kind, s, raw, type, ev, name);
      }
      if (v && conforms(*v, raw, schema_)) return v;
    }
    return std::nullopt;
  }

  // An element named like the property ("author": {name, email} -> <div class="author">).
  const Evidence& context_for(const Tokens& name, const Evidence& ev) {
    if (name.empty() || ev.root == nullptr) return ev;
    for (const auto& f : ev.fields) {
      if (f.node == nullptr || match_score(name, f.label) < 0.7) continue;
      if (!f.node->has_ancestor(*ev.root)) continue;
      auto& slot = sub_contexts_[f.node];
      if (!slot) {
        slot = std::make_unique<Evidence>();
        collect(*f.node, content_, *slot);
        slot->url = ev.url;
      }
      return *slot;
    }
    return ev;
  }

  std::optional<json> fill_object(const Tokens& /*name*/, const json& s, const Evidence& ev,
                                  int depth) {
    json out = json::object();
    bool found = false;
    std::set<std::string> required;
    if (s.contains("required") && s["required"].is_array()) {
      for (const auto& r : s["required"]) {
        if (r.is_string()) required.insert(r.get<std::string>());
      }
    }
    if (s.contains("properties") && s["properties"].is_object()) {
      for (auto it = s["properties"].begin(); it != s["properties"].end(); ++it) {
        Tokens prop = label_tokens(it.key());
        auto v = value_for(prop, it.value(), ev, depth + 1);
        if (v) {
          out[it.key()] = *v;
          // An empty array is an answer ("none found"), not evidence that the object is here.
          if (!(v->is_array() && v->empty())) found = true;
        } else if (required.count(it.key()) > 0) {
          out[it.key()] = default_for(it.value(), schema_, depth + 1);
        } else if (it.value().is_object() && allows(schema_.resolve(it.value()), "null")) {
          out[it.key()] = nullptr;
        }
      }
    }
    for (const auto& r : required) {
      if (!out.contains(r)) out[r] = nullptr;
    }
    if (!found && depth > 0) return std::nullopt;
    return out;
  }

  std::vector<std::string> strings_for(const Tokens& name, Kind kind, const Evidence& ev) const {
    std::vector<std::string> out;
    switch (kind) {
      case Kind::kUrl:
        for (const auto& l : ev.links) out.push_back(l.url);
        return out;
      case Kind::kImage:
        for (const auto& i : ev.images) out.push_back(i.url);
        return out;
      case Kind::kEmail:
        return ev.emails;
      case Kind::kPhone:
        return ev.phones;
      case Kind::kHeadings:
        return ev.headings;
      case Kind::kDate:
        return ev.dates;
      case Kind::kPrice:
        for (const auto& p : ev.prices) out.push_back(p.text);
        return out;
      case Kind::kKeywords: {
        std::string cur;
        for (char c : ev.keywords + ",") {
          if (c == ',') {
            if (!detail::trim(cur).empty()) out.push_back(detail::trim(cur));
            cur.clear();
          } else {
            cur += c;
          }
        }
        if (!out.empty()) return out;
        break;
      }
      default:
        break;
    }
    // A list whose heading or name matches; then a labelled value split at commas.
    const List* best = nullptr;
    double best_score = 0;
    for (const auto& l : ev.lists) {
      double sc = match_score(name, l.label);
      if (sc > best_score) {
        best_score = sc;
        best = &l;
      }
    }
    if (best != nullptr) return best->items;
    for (const Field* f : labelled(name, ev)) {
      std::vector<std::string> parts;
      std::string cur;
      for (char c : f->value) {
        if (c == ',' || c == ';' || c == '|') {
          if (!detail::trim(cur).empty()) parts.push_back(detail::trim(cur));
          cur.clear();
        } else {
          cur += c;
        }
      }
      if (!detail::trim(cur).empty()) parts.push_back(detail::trim(cur));
      if (!parts.empty()) return parts;
    }
    // A generic name ("features", "items"): the context's first real list.
    if (kind == Kind::kNone) {
      for (const auto& l : ev.lists) {
        if (l.items.size() >= 2) return l.items;
      }
    }
    return out;
  }

  // Candidate groups of contexts for an array of objects.
  struct Group {
    std::vector<std::unique_ptr<Evidence>> members;
    Tokens label;
    double score = 0;
  };

  std::vector<Group> groups_for(const Evidence& ev) {
    std::vector<Group> groups;
    for (const auto& t : ev.tables) {
      Group g;
      g.label = t.label;
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        auto m = std::make_unique<Evidence>();
        collect(*t.row_nodes[r], content_, *m);
        for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
          Tokens label = c < t.columns.size() ? label_tokens(t.columns[c]) : Tokens{};
          const Node* cell = nullptr;
          std::size_t k = 0;
          for (const Node* child : t.row_nodes[r]->children) {
            if (child->is("td") || child->is("th")) {
              if (k++ == c) cell = child;
            }
          }
          // Column labels first: they beat whatever the cell's own markup says.
          m->fields.insert(m->fields.begin() + static_cast<std::ptrdiff_t>(c),
                           Field{label, t.rows[r][c], cell});
        }
        m->title = t.rows[r].empty() ? "" : t.rows[r][0];
        g.members.push_back(std::move(m));
      }
      groups.push_back(std::move(g));
      if (groups.size() >= kMaxGroupCandidates) return groups;
    }
    for (const auto& l : ev.lists) {
      Group g;
      g.label = l.label;
      for (const Node* li : l.nodes) {
        auto m = std::make_unique<Evidence>();
        collect(*li, content_, *m);
        if (m->title.empty()) m->title = m->links.empty() ? m->text : m->links[0].text;
        g.members.push_back(std::move(m));
      }
      groups.push_back(std::move(g));
      if (groups.size() >= kMaxGroupCandidates) return groups;
    }
    // Repeated siblings sharing tag and class: product cards, article teasers.
    if (ev.root != nullptr) {
      std::vector<const Node*> stack{ev.root};
      while (!stack.empty() && groups.size() < kMaxGroupCandidates) {
        const Node* n = stack.back();
        stack.pop_back();
        std::map<std::string, std::vector<const Node*>> by_key;
        std::vector<std::string> order;
        for (const Node* c : n->children) {
          if (!c->is_element() || c->is("li") || c->is("tr")) continue;
          const std::string* cls = c->attr("class");
          if (cls == nullptr || detail::trim(*cls).empty()) continue;
          std::string key = c->name + "." + *cls;
          if (by_key[key].empty()) order.push_back(key);
          by_key[key].push_back(c);
        }
        for (const auto& key : order) {
          const auto& nodes = by_key[key];
          if (nodes.size() < 2) continue;
          Group g;
          g.label = label_tokens(key.substr(key.find('.') + 1));
          for (const Node* node : nodes) {
            auto m = std::make_unique<Evidence>();
            collect(*node, content_, *m);
            g.members.push_back(std::move(m));
          }
          groups.push_back(std::move(g));
        }
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) {
          if ((*it)->is_element()) stack.push_back(*it);
        }
      }
    }
    {
      Group g;
      g.label = {"link"};
      for (const auto& l : ev.links) {
        auto m = std::make_unique<Evidence>();
        m->title = l.text;
        m->text = l.text;
        m->url = l.url;
        m->links.push_back(l);
        m->fields.push_back({{"text"}, l.text, nullptr});
        m->fields.push_back({{"url"}, l.url, nullptr});
        m->fields.push_back({{"href"}, l.url, nullptr});
        g.members.push_back(std::move(m));
      }
      if (!g.members.empty()) groups.push_back(std::move(g));
    }
    {
      Group g;
      g.label = {"image"};
      for (const auto& i : ev.images) {
        auto m = std::make_unique<Evidence>();
        m->title = i.text;
        m->text = i.text;
        m->images.push_back(i);
        m->fields.push_back({{"alt"}, i.text, nullptr});
        m->fields.push_back({{"src"}, i.url, nullptr});
        m->fields.push_back({{"url"}, i.url, nullptr});
        g.members.push_back(std::move(m));
      }
      if (!g.members.empty()) groups.push_back(std::move(g));
    }
    return groups;
  }

  std::optional<json> fill_array(const Tokens& name, const json& s, const Evidence& ev, int depth) {
    json items_raw = s.contains("items") && s["items"].is_object() ? s["items"] : json::object();
    json items = schema_.resolve(items_raw);
    std::size_t max_items = kMaxArrayItems;
    if (s.contains("maxItems") && s["maxItems"].is_number()) {
      max_items = std::min(max_items, s["maxItems"].get<std::size_t>());
    }
    bool unique = s.value("uniqueItems", false);
    json out = json::array();
    auto push = [&](json v) {
      if (out.size() >= max_items) return;
      if (unique && std::find(out.begin(), out.end(), v) != out.end()) return;
      out.push_back(std::move(v));
    };
    auto item_types = types_of(items);
    bool object_items =
        std::find(item_types.begin(), item_types.end(), "object") != item_types.end();
    if (object_items && items.contains("properties")) {
      auto groups = groups_for(ev);
      Group* best = nullptr;
      for (auto& g : groups) {
        double score = 0;
        std::size_t sample = std::min<std::size_t>(g.members.size(), 3);
        for (std::size_t i = 0; i < sample; ++i) {
          for (auto it = items["properties"].begin(); it != items["properties"].end(); ++it) {
            if (value_for(label_tokens(it.key()), it.value(), *g.members[i], depth + 2)) score += 1;
          }
        }
        if (sample > 0) score /= static_cast<double>(sample);
        score += match_score(name, g.label);
        g.score = score;
        if (score > 0.5 && (best == nullptr || score > best->score)) best = &g;
      }
      if (best != nullptr) {
        for (auto& m : best->members) {
          auto v = fill_object({}, items, *m, depth + 1);
          if (v && conforms(*v, items_raw, schema_)) push(*v);
        }
      }
    } else {
      Kind kind = kind_of(name, items);
      if (kind == Kind::kNone || kind == Kind::kTitle || kind == Kind::kDescription) {
        kind = kind_of(name, json::object());
      }
      for (const auto& type : item_types) {
        if (type == "null" || type == "object" || type == "array") continue;
        for (const auto& text : strings_for(name, kind, ev)) {
          if (auto v = convert(text, nullptr, items, items_raw, type, kind)) push(*v);
        }
        if (!out.empty()) break;
      }
    }
    std::size_t min_items =
        s.contains("minItems") && s["minItems"].is_number() ? s["minItems"].get<std::size_t>() : 0;
    while (out.size() < min_items && out.size() < kMaxArrayItems) {
      out.push_back(default_for(items_raw, schema_, depth + 1));
    }
    return out;
  }

 private:
  Schema schema_;
  const detail::Html& page_;
  const detail::Html& content_;
  const content::Document& doc_;
  const content::Options& options_;
  Evidence page_ev_;
  mutable std::unique_ptr<Evidence> whole_page_;
  std::map<const Node*, std::unique_ptr<Evidence>> sub_contexts_;

  const Evidence& whole_page() const {
    if (!whole_page_) {
      whole_page_ = std::make_unique<Evidence>();
      const Node* root = page_.tree.body != nullptr ? page_.tree.body : page_.tree.document;
      collect(*root, page_, *whole_page_);
    }
    return *whole_page_;
  }
};

}  // namespace

nlohmann::json extract(const content::Document& doc, const content::Options& options,
                       const nlohmann::json& schema, const std::string& prompt) {
  detail::Html page = detail::parse_page(doc);
  detail::Html content = detail::parse_content(doc, options);
  if (schema.is_object() && !schema.empty()) {
    Extractor extractor(schema, page, content, doc, options);
    extractor.prepare();
    return extractor.run(schema);
  }
  json empty = json::object();
  Extractor extractor(empty, page, content, doc, options);
  extractor.prepare();
  return extractor.run_prompt(prompt);
}

bool conforms_to(const nlohmann::json& value, const nlohmann::json& schema) {
  if (!schema.is_object() || schema.empty()) return true;
  const Schema root(schema);
  return conforms(value, schema, root);
}

}  // namespace webdata::mock::formats
