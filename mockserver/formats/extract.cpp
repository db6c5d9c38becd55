#include "formats/extract.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "formats/extract_internal.hpp"
#include "formats/summary.hpp"

namespace webdata::mock::formats {
namespace extraction {

void Extractor::prepare() {
  const Node* root = content_.tree().body != nullptr ? content_.tree().body : content_.tree().document;
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
  std::string description = str("description").empty() ? str("ogDescription") : str("description");
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
  for (const Node& n : page_.tree().nodes) {
    if (!n.is("script")) continue;
    const std::string* type = n.attr("type");
    if (type == nullptr || detail::lower(*type) != "application/ld+json") continue;
    std::string text;
    for (const Node* c : n.children) text += c->text;
    json ld = json::parse(text, nullptr, false);
    if (!ld.is_discarded()) flatten_json_ld(ld, {}, page_ev_.fields, 0);
  }
}

json Extractor::run(const json& root) {
  auto value = value_for({}, root, page_ev_, 0);
  if (value && conforms(*value, root, schema_)) return *value;
  return default_for(root, schema_, 0);
}

json Extractor::run_prompt(const std::string& prompt) {
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

}  // namespace extraction

nlohmann::json extract(const content::Document& doc, const content::Options& options,
                       const nlohmann::json& schema, const std::string& prompt) {
  using extraction::Extractor;
  detail::Html page = detail::Html::page(doc);
  detail::Html content = detail::Html::content(doc, options);
  if (schema.is_object() && !schema.empty()) {
    Extractor extractor(schema, page, content, doc, options);
    extractor.prepare();
    return extractor.run(schema);
  }
  nlohmann::json empty = nlohmann::json::object();
  Extractor extractor(empty, page, content, doc, options);
  extractor.prepare();
  return extractor.run_prompt(prompt);
}

bool conforms_to(const nlohmann::json& value, const nlohmann::json& schema) {
  if (!schema.is_object() || schema.empty()) return true;
  const extraction::Schema root(schema);
  return extraction::conforms(value, schema, root);
}

}  // namespace webdata::mock::formats
