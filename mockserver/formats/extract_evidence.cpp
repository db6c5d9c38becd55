#include "formats/extract_internal.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "formats/summary.hpp"

namespace webdata::mock::formats::extraction {

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

namespace {

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

void collect_link(const Node& n, const detail::Html& html, Evidence& ev) {
  const std::string* href = n.attr("href");
  if (href == nullptr) return;
  std::string url = html.absolute(*href);
  if (url.rfind("mailto:", 0) == 0) {
    std::string mail =
        url.substr(7, url.find('?') == std::string::npos ? std::string::npos : url.find('?') - 7);
    if (detail::looks_like_email(mail)) ev.emails.push_back(mail);
  } else if (url.rfind("tel:", 0) == 0) {
    ev.phones.push_back(url.substr(4));
  } else if (detail::looks_like_url(url)) {
    ev.links.push_back({detail::text_of(n), url});
  }
}

void collect_image(const Node& n, const detail::Html& html, Evidence& ev) {
  const std::string* src = n.attr("src");
  if (src == nullptr || src->empty() || src->rfind("data:", 0) == 0 ||
      src->find('<') != std::string::npos) {
    src = n.attr("data-src");
  }
  if (src == nullptr || src->empty()) return;
  std::string url = html.absolute(*src);
  if (detail::looks_like_url(url)) ev.images.push_back({n.attr("alt") ? *n.attr("alt") : "", url});
}

/// A list, labelled by the heading before it and its own class, id and aria-label.
void collect_list(const Node& n, const std::string& last_heading, Evidence& ev) {
  List list;
  list.node = &n;
  list.label = label_tokens(last_heading);
  for (const std::string* a : {n.attr("class"), n.attr("id"), n.attr("aria-label")}) {
    if (a == nullptr) continue;
    for (auto& t : label_tokens(*a)) {
      if (std::find(list.label.begin(), list.label.end(), t) == list.label.end()) {
        list.label.push_back(t);
      }
    }
  }
  for (const Node* c : n.children) {
    if (!c->is("li")) continue;
    std::string t = detail::text_of(*c);
    if (t.empty()) continue;
    list.items.push_back(t);
    list.nodes.push_back(c);
  }
  if (!list.items.empty()) ev.lists.push_back(std::move(list));
}

/// A dt labels the dd that follows it, up to the next dt.
void collect_definition(const Node& n, Evidence& ev) {
  const Node* parent = n.parent;
  if (parent == nullptr) return;
  auto it = std::find(parent->children.begin(), parent->children.end(), &n);
  for (++it; it != parent->children.end() && !(*it)->is("dt"); ++it) {
    if ((*it)->is("dd")) {
      ev.fields.push_back({label_tokens(detail::text_of(n)), detail::text_of(**it), *it});
      return;
    }
  }
}

/// The rows of a table, not those of tables inside it.
std::vector<const Node*> table_rows(const Node& table) {
  std::vector<const Node*> rows;
  std::vector<const Node*> walk{&table};
  while (!walk.empty()) {
    const Node* w = walk.back();
    walk.pop_back();
    if (w->is("tr")) {
      rows.push_back(w);
      continue;
    }
    if (w != &table && w->is("table")) continue;
    for (auto it = w->children.rbegin(); it != w->children.rend(); ++it) walk.push_back(*it);
  }
  return rows;
}

/// The last cell (td or th) of a row.
const Node* last_cell(const Node& row) {
  for (auto it = row.children.rbegin(); it != row.children.rend(); ++it) {
    if ((*it)->is("td") || (*it)->is("th")) return *it;
  }
  return nullptr;
}

/// A table: its header row as the columns, its other rows as values.
void collect_table(const Node& n, const std::string& last_heading, Evidence& ev) {
  Table table;
  table.label = label_tokens(last_heading);
  for (const Node* row : table_rows(n)) {
    std::vector<std::string> cells;
    bool header = true;
    for (const Node* c : row->children) {
      if (!c->is("td") && !c->is("th")) continue;
      cells.push_back(detail::text_of(*c));
      if (c->is("td")) header = false;
    }
    if (cells.empty()) continue;
    if (header && table.columns.empty() && table.rows.empty()) {
      table.columns = cells;
      continue;
    }
    // A two-cell row "Label | value" (or th + td) reads as a labelled value too.
    if (cells.size() == 2) ev.fields.push_back({label_tokens(cells[0]), cells[1], last_cell(*row)});
    table.rows.push_back(std::move(cells));
    table.row_nodes.push_back(row);
  }
  if (!table.rows.empty()) ev.tables.push_back(std::move(table));
}

/// A microdata property: its value attribute, else its text.
void collect_itemprop(const Node& n, const detail::Html& html, Evidence& ev) {
  std::string value;
  for (const char* a : {"content", "datetime", "href", "src", "value"}) {
    if (const std::string* v = n.attr(a)) {
      value = (std::string_view(a) == "href" || std::string_view(a) == "src") ? html.absolute(*v)
                                                                               : *v;
      break;
    }
  }
  if (value.empty()) value = detail::text_of(n);
  ev.fields.push_back({label_tokens(*n.attr("itemprop")), value, &n});
}

// Short leaf-ish elements: named by their class / id, and "Label: value" text.
void collect_leaf_fields(const Node& n, Evidence& ev) {
  if (has_block_child(n)) return;
  std::string t = detail::text_of(n);
  if (t.empty() || t.size() > 300) return;
  if (!n.has_attr("itemprop")) add_name_fields(n, t, ev);
  std::size_t colon = t.find(':');
  if (colon != std::string::npos && colon > 0 && colon <= 40 && colon + 1 < t.size() &&
      t.compare(colon, 3, "://") != 0) {
    std::string label = t.substr(0, colon);
    if (detail::split_words(label).size() <= 5) {
      ev.fields.push_back({label_tokens(label), detail::trim(t.substr(colon + 1)), &n});
    }
  }
}

/// What one element says, by its tag.
void collect_element(const Node& n, const Node& root, const detail::Html& html,
                     std::string& last_heading, Evidence& ev) {
  const std::string& tag = n.name;
  if (tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6') {
    std::string t = detail::text_of(n);
    if (t.empty()) return;
    ev.headings.push_back(t);
    if (ev.title.empty() && (tag == "h1" || &root != html.tree().body)) ev.title = t;
    last_heading = t;
  } else if (tag == "p") {
    std::string t = detail::text_of(n);
    if (!t.empty()) ev.paragraphs.push_back(t);
  } else if (tag == "a") {
    collect_link(n, html, ev);
  } else if (tag == "img") {
    collect_image(n, html, ev);
  } else if (tag == "time") {
    const std::string* dt = n.attr("datetime");
    auto dates = detail::find_dates(dt != nullptr ? *dt : detail::text_of(n));
    if (!dates.empty()) ev.dates.push_back(dates.front());
  } else if (tag == "ul" || tag == "ol") {
    collect_list(n, last_heading, ev);
  } else if (tag == "dt") {
    collect_definition(n, ev);
  } else if (tag == "table") {
    collect_table(n, last_heading, ev);
  }
}

/// What the whole text says: prices, dates, emails, phones, and a description.
void collect_from_text(Evidence& ev) {
  ev.prices = detail::find_prices(ev.text);
  for (auto& d : detail::find_dates(ev.text)) ev.dates.push_back(d);
  for (auto& e : detail::find_emails(ev.text)) ev.emails.push_back(e);
  for (auto& p : detail::find_phones(ev.text)) ev.phones.push_back(p);
  if (!ev.description.empty()) return;
  for (const auto& p : ev.paragraphs) {
    if (detail::split_words(p).size() >= 5) {
      ev.description = p;
      return;
    }
  }
}

}  // namespace

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
    collect_element(*n, root, html, last_heading, ev);
    if (n->has_attr("itemprop")) collect_itemprop(*n, html, ev);
    collect_leaf_fields(*n, ev);
    for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(*it);
  }
  collect_from_text(ev);
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

}  // namespace webdata::mock::formats::extraction
