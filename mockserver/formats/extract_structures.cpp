#include "formats/extract_internal.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "formats/summary.hpp"

namespace webdata::mock::formats::extraction {

// An element named like the property ("author": {name, email} -> <div class="author">).
const Evidence& Extractor::context_for(const Tokens& name, const Evidence& ev) {
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

std::optional<json> Extractor::fill_object(const Tokens& /*name*/, const json& s,
                                           const Evidence& ev, int depth) {
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

std::vector<std::string> Extractor::strings_for(const Tokens& name, Kind kind,
                                                const Evidence& ev) const {
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

namespace {

/// The `c`th cell (td or th) of a table row; null when the row has fewer.
const Node* nth_cell(const Node& row, std::size_t c) {
  std::size_t k = 0;
  for (const Node* child : row.children) {
    if ((child->is("td") || child->is("th")) && k++ == c) return child;
  }
  return nullptr;
}

/// Each link of the context as a member of its own: its text and URL.
std::vector<std::unique_ptr<Evidence>> link_members(const Evidence& ev) {
  std::vector<std::unique_ptr<Evidence>> members;
  for (const auto& l : ev.links) {
    auto m = std::make_unique<Evidence>();
    m->title = l.text;
    m->text = l.text;
    m->url = l.url;
    m->links.push_back(l);
    m->fields.push_back({{"text"}, l.text, nullptr});
    m->fields.push_back({{"url"}, l.url, nullptr});
    m->fields.push_back({{"href"}, l.url, nullptr});
    members.push_back(std::move(m));
  }
  return members;
}

/// Each image of the context as a member of its own: its alt text and source.
std::vector<std::unique_ptr<Evidence>> image_members(const Evidence& ev) {
  std::vector<std::unique_ptr<Evidence>> members;
  for (const auto& i : ev.images) {
    auto m = std::make_unique<Evidence>();
    m->title = i.text;
    m->text = i.text;
    m->images.push_back(i);
    m->fields.push_back({{"alt"}, i.text, nullptr});
    m->fields.push_back({{"src"}, i.url, nullptr});
    m->fields.push_back({{"url"}, i.url, nullptr});
    members.push_back(std::move(m));
  }
  return members;
}

}  // namespace

std::vector<Extractor::Group> Extractor::groups_for(const Evidence& ev) {
  std::vector<Group> groups;
  for (const auto& t : ev.tables) {
    Group g;
    g.label = t.label;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      auto m = std::make_unique<Evidence>();
      collect(*t.row_nodes[r], content_, *m);
      for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
        Tokens label = c < t.columns.size() ? label_tokens(t.columns[c]) : Tokens{};
        const Node* cell = nth_cell(*t.row_nodes[r], c);
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
  for (const char* label : {"link", "image"}) {
    Group g;
    g.label = {label};
    g.members = std::string(label) == "link" ? link_members(ev) : image_members(ev);
    if (!g.members.empty()) groups.push_back(std::move(g));
  }
  return groups;
}

std::optional<json> Extractor::fill_array(const Tokens& name, const json& s, const Evidence& ev,
                                          int depth) {
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
  bool object_items = std::find(item_types.begin(), item_types.end(), "object") != item_types.end();
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

const Evidence& Extractor::whole_page() const {
  if (!whole_page_) {
    whole_page_ = std::make_unique<Evidence>();
    const Node* root = page_.tree().body != nullptr ? page_.tree().body : page_.tree().document;
    collect(*root, page_, *whole_page_);
  }
  return *whole_page_;
}

}  // namespace webdata::mock::formats::extraction
