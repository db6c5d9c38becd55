#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// The `json` format (v2 `{type: json, schema, prompt}`, v1 `jsonOptions` / `extract`): what a
/// language model would extract, made deterministically from page evidence.
///
/// With a schema (draft-07 subset: type incl. type arrays, properties, required,
/// additionalProperties, items, enum, const, default, string formats and length, pattern, number
/// ranges and multipleOf, minItems / maxItems / uniqueItems, allOf / anyOf / oneOf, local $ref):
/// every property is filled from the evidence its name and type point at (labelled values of
/// tables, definition lists, "Label: value" lines, microdata, JSON-LD and class names; title,
/// description, prices, dates, emails, phones, links, images, lists, tables, booleans such as
/// "in stock"). Arrays of objects come from tables (columns matched by name), lists or repeated
/// page elements. Where there is no evidence a property is left out, or null when its type allows
/// null; required properties are always present with the schema's default, else the type's
/// zero value adjusted to the schema's constraints. The result always validates against the
/// schema when the schema is satisfiable.
///
/// Without a schema (null or not an object): an object keyed by what the prompt asks for (nouns
/// that name a kind of evidence or a label on the page), plus `title` and `description`.
/// Deterministic and thread-safe; the content is taken under `options` (main content etc.).
nlohmann::json extract(const content::Document& doc, const content::Options& options,
                       const nlohmann::json& schema, const std::string& prompt);

/// Whether `value` satisfies `schema`, as far as the subset above reaches (the check extract()
/// makes of its own answers). Used to keep a result made from several pages' answers valid.
bool conforms_to(const nlohmann::json& value, const nlohmann::json& schema);

}  // namespace webdata::mock::formats
