#pragma once

// The newer v2 formats that ask something of one page (attributes, question, highlights) and the
// `redactPII` option: deterministic stand-ins for what the service's browser and model make
// (docs/mockserver/model-formats.md).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// `attributes` format: for each `{selector, attribute}`, the attribute's values over every
/// element of the whole page the selector matches, in document order:
/// `[{selector, attribute, values: [...]}]`. Throws content::SelectorError for a bad selector.
nlohmann::json attributes(const content::Document& doc, const nlohmann::json& selectors);

/// `question` format (`answer`): the sentence of the page's content that shares the most words
/// with the question (ties: the earlier one); "" when no sentence shares a word.
std::string answer(const content::Document& doc, const content::Options& options,
                   std::string_view question);

/// `highlights` format: up to three sentences of the content that share words with the query,
/// in page order, joined by a blank line; "" when none does.
std::string highlights(const content::Document& doc, const content::Options& options,
                       std::string_view query);

/// `redactPII`: e-mail addresses and phone numbers in `text` replaced as the option asks:
/// `true` or `{}` tags them (`<EMAIL>`, `<PHONE>`), `replaceStyle: "mask"` writes `*` of the same
/// length, `"remove"` drops them; `entities` limits the kinds. The mock finds only these two
/// kinds (names, places and the rest need a model).
std::string redact_pii(std::string_view text, const nlohmann::json& option);

}  // namespace webdata::mock::formats
