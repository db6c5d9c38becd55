#pragma once

// The json format's extraction (formats/extract.hpp), inside: shared by its parts.
//   extract_evidence.cpp    what a page offers: labelled fields, tables, lists, links, JSON-LD
//   extract_schema.cpp      how extraction reads a schema: types, checked formats, defaults
//   extract_values.cpp      scalar values: labels, kinds, enums, conversion to the schema's type
//   extract_structures.cpp  objects and arrays: sub-contexts, repeated groups, table rows
//   extract.cpp             the Extractor's set-up, prompt-only extraction and the public functions

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <webdata/contract/schema_walk.hpp>
#include <webdata/contract/user_schema.hpp>

#include "content/document.hpp"
#include "formats/scan.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats::extraction {

using detail::dom::Node;
using nlohmann::json;
using Tokens = std::vector<std::string>;

constexpr int kMaxDepth = 12;
constexpr std::size_t kMaxArrayItems = 100;
constexpr std::size_t kMaxGroupCandidates = 60;

std::string singular(std::string w);
Tokens normalize(const Tokens& tokens);
Tokens label_tokens(std::string_view text);
// How well a property name matches a label (0 = not at all, 1 = the same words).
double match_score(const Tokens& property, const Tokens& label);

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

// The kind of evidence a property's name and format point at.
Kind kind_of(const Tokens& name, const json& schema);

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

// Gathers the evidence under `root` (fields, tables, lists, links, images, prices, dates...).
void collect(const Node& root, const detail::Html& html, Evidence& ev);
// JSON-LD values as labelled fields ("offers price" -> "19.99").
void flatten_json_ld(const json& value, Tokens prefix, std::vector<Field>& out, int depth);

// The schema as extraction reads it: one flattened object per node ($ref with its siblings,
// allOf folded in) and, for anyOf / oneOf, the first branch that is not only null (the value is
// what the caller wants filled). Whether a value conforms is valijson's answer (ADR 0021).
class Schema {
 public:
  explicit Schema(const json& root) : walker_(root), checker_(root, checked_formats()) {}

  json resolve(const json& schema) const {
    json flat = walker_.flatten(contract::SchemaNode{nullptr, &schema}, first_not_null);
    return flat.is_object() ? flat : json::object();
  }

  // Whether `v` satisfies `s`, a node of the root schema (or a resolved copy of one).
  bool conforms(const json& v, const json& s) const { return checker_.accepts(v, s); }

  // The formats an answer must have (the others are annotations), as ECMAScript patterns.
  static std::map<std::string, std::string> checked_formats();

 private:
  static std::optional<std::size_t> first_not_null(const std::vector<json>& branches) {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      const json& b = branches[i];
      if (!(b.is_object() && b.contains("type") && b["type"] == "null")) return i;
    }
    return 0;
  }

  contract::SchemaWalker walker_;
  contract::UserSchema checker_;
};

// The schema's types; without a `type` keyword, the type its other keywords imply.
std::vector<std::string> types_of(const json& s);
bool allows(const json& s, const std::string& type);
// Whether `v` satisfies `s` (a node of `schema`'s root).
inline bool conforms(const json& v, const json& s, const Schema& schema) {
  return schema.conforms(v, s);
}
// A number brought inside the schema's range and multipleOf (and integral for integers).
std::optional<json> fit_number(double d, const json& s);
// The value used when the page has no evidence: the schema's default, else the type's zero.
json default_for(const json& raw, const Schema& schema, int depth);

class Extractor {
 public:
  Extractor(const json& root_schema, const detail::Html& page, const detail::Html& content,
            const content::Document& doc, const content::Options& options)
      : schema_(root_schema), page_(page), content_(content), doc_(doc), options_(options) {}

  void prepare();

  json run(const json& root);

  json run_prompt(const std::string& prompt);

 private:
  // A labelled value of the context matching the property name (best score first).
  std::vector<const Field*> labelled(const Tokens& name, const Evidence& ev) const;

  std::optional<json> accept(json v, const json& raw) const;

  // A string candidate converted to the schema's scalar type.
  std::optional<json> convert(const std::string& text, const Node* node, const json& s,
                              const json& raw, const std::string& type, Kind kind) const;

  // Evidence by kind, for a scalar type, when no label matched.
  std::optional<json> by_kind(Kind kind, const json& s, const json& raw, const std::string& type,
                              const Evidence& ev, const Tokens& name) const;

  std::optional<json> enum_value(const Tokens& name, const json& s, const json& raw,
                                 const Evidence& ev) const;

 public:
  // The value of one property (or the root) from a context; nullopt when there is no evidence.
  std::optional<json> value_for(const Tokens& name, const json& raw, const Evidence& ev, int depth);

  // An element named like the property ("author": {name, email} -> <div class="author">).
  const Evidence& context_for(const Tokens& name, const Evidence& ev);

  std::optional<json> fill_object(const Tokens& /*name*/, const json& s, const Evidence& ev,
                                  int depth);

  std::vector<std::string> strings_for(const Tokens& name, Kind kind, const Evidence& ev) const;

  // Candidate groups of contexts for an array of objects.
  struct Group {
    std::vector<std::unique_ptr<Evidence>> members;
    Tokens label;
    double score = 0;
  };

  std::vector<Group> groups_for(const Evidence& ev);

  std::optional<json> fill_array(const Tokens& name, const json& s, const Evidence& ev, int depth);

 private:
  Schema schema_;
  const detail::Html& page_;
  const detail::Html& content_;
  const content::Document& doc_;
  const content::Options& options_;
  Evidence page_ev_;
  mutable std::unique_ptr<Evidence> whole_page_;
  std::map<const Node*, std::unique_ptr<Evidence>> sub_contexts_;

  const Evidence& whole_page() const;
};

}  // namespace webdata::mock::formats::extraction
