#include "search/schema_fill.hpp"
#include "core/time.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <optional>
#include <regex>
#include <set>

#include <webdata/contract/schema_walk.hpp>

#include "search/text.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 16;

struct Filler {
  const json& root;
  const Evidence& evidence;

  contract::SchemaWalker walker{root};

  /// The node as one object schema: local $ref followed, allOf folded in (anyOf / oneOf are
  /// chosen by fill()).
  json merged(const json& input) const {
    return walker.flatten(contract::SchemaNode{nullptr, &input});
  }

  /// The type to fill: the first that is not null, else the one implied by the keywords.
  std::string type_of(const json& schema) const {
    const auto types = contract::SchemaWalker::types(schema);
    for (const auto& t : types) {
      if (t != "null") return t;
    }
    if (!types.empty()) return types.front();
    if (schema.contains("properties")) return "object";
    if (schema.contains("items")) return "array";
    return "string";
  }

  std::vector<std::string> words(const std::string& name) const {
    // camelCase and snake_case names: "publishedDate" -> published, date.
    std::string spaced;
    for (std::size_t i = 0; i < name.size(); ++i) {
      const char c = name[i];
      if (i > 0 && std::isupper(static_cast<unsigned char>(c)) &&
          std::islower(static_cast<unsigned char>(name[i - 1]))) {
        spaced += ' ';
      }
      spaced += (c == '_' || c == '-') ? ' ' : c;
    }
    std::vector<std::string> out;
    for (auto& term : tokenize(spaced)) {
      if (!is_stop_word(term)) out.push_back(term);
    }
    return out;
  }

  bool name_is(const std::vector<std::string>& w, std::initializer_list<const char*> names) const {
    for (const char* n : names) {
      if (std::find(w.begin(), w.end(), std::string(n)) != w.end()) return true;
    }
    return false;
  }

  /// The passage (or sentence of a page) sharing most words with the name, else the best passage.
  std::string passage_for(const std::vector<std::string>& w, const PageRecord* page,
                          bool with_number = false) const {
    std::vector<std::string> pool;
    if (page != nullptr) {
      pool = split_sentences(page->text);
    } else {
      pool = evidence.passages;
      for (const PageRecord* p : evidence.pages) {
        for (auto& sentence : split_sentences(p->text)) pool.push_back(std::move(sentence));
      }
    }
    const auto has_digit = [](const std::string& text) {
      return std::any_of(text.begin(), text.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
    };
    if (with_number) {
      pool.erase(std::remove_if(pool.begin(), pool.end(),
                                [&](const std::string& p) { return !has_digit(p); }),
                 pool.end());
    }
    std::string best = pool.empty() ? "" : pool.front();
    std::size_t best_hits = 0;
    for (const auto& passage : pool) {
      const auto terms = tokenize(passage);
      std::size_t hits = 0;
      for (const auto& word : w) hits += std::count(terms.begin(), terms.end(), word) > 0 ? 1 : 0;
      if (hits > best_hits) {
        best_hits = hits;
        best = passage;
      }
    }
    return best;
  }

  /// "Label: value" in the page text whose label has the name's words.
  std::optional<std::string> labelled(const std::vector<std::string>& w,
                                      const PageRecord* page) const {
    if (w.empty()) return std::nullopt;
    std::vector<const PageRecord*> pages =
        page ? std::vector<const PageRecord*>{page} : evidence.pages;
    for (const PageRecord* p : pages) {
      std::size_t start = 0;
      while (start < p->text.size()) {
        std::size_t end = p->text.find('\n', start);
        if (end == std::string::npos) end = p->text.size();
        const std::string line = p->text.substr(start, end - start);
        start = end + 1;
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon == 0 || colon > 40) continue;
        const auto label = tokenize(line.substr(0, colon));
        if (std::all_of(w.begin(), w.end(), [&](const std::string& x) {
              return std::find(label.begin(), label.end(), x) != label.end();
            })) {
          const std::string value = collapse_space(line.substr(colon + 1));
          if (!value.empty()) return value;
        }
      }
    }
    return std::nullopt;
  }

  std::string date_text(const PageRecord* page, bool with_time) const {
    const PageRecord* p = page;
    if (p == nullptr || !p->date) {
      for (const PageRecord* candidate : evidence.pages) {
        if (candidate->date) {
          p = candidate;
          break;
        }
      }
    }
    const auto when = p != nullptr && p->date
                          ? std::chrono::time_point_cast<std::chrono::seconds>(*p->date)
                          : std::chrono::system_clock::time_point{};
    return with_time ? iso8601_compact(when) : iso_date(when);
  }

  json string_value(const json& schema, const std::vector<std::string>& w,
                    const PageRecord* page) const {
    const PageRecord* first =
        page != nullptr ? page : (evidence.pages.empty() ? nullptr : evidence.pages.front());
    const std::string format = schema.value("format", "");
    std::string value;
    if (format == "date-time") {
      value = date_text(page, true);
    } else if (format == "date") {
      value = date_text(page, false);
    } else if (format == "uri" || format == "url" || format == "uri-reference") {
      value = first != nullptr ? first->url : "https://example.invalid/";
    } else if (format == "email") {
      value = "contact@example.invalid";
      static const std::regex kEmail(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})");
      for (const PageRecord* p : evidence.pages) {
        std::smatch match;
        if (std::regex_search(p->text, match, kEmail)) {
          value = match.str();
          break;
        }
      }
    } else if (auto label = labelled(w, page)) {
      value = *label;
    } else if (name_is(w, {"title", "name", "headline", "heading"}) && first != nullptr) {
      value = first->title;
    } else if (name_is(w, {"url", "link", "source", "href", "website"}) && first != nullptr) {
      value = first->url;
    } else if (name_is(w, {"date", "published", "time", "day"})) {
      value = date_text(page, false);
    } else if (name_is(w, {"answer", "result", "summary", "text", "content", "body", "overview"}) &&
               page == nullptr) {
      value = evidence.answer;
    } else if (name_is(w, {"description", "snippet", "abstract"}) && first != nullptr &&
               !first->description.empty()) {
      value = first->description;
    } else {
      value = passage_for(w, page);
    }
    const auto min_length = schema.value("minLength", 0);
    const auto max_length = schema.value("maxLength", -1);
    if (max_length >= 0 && value.size() > static_cast<std::size_t>(max_length)) {
      value = clip(value, static_cast<std::size_t>(std::max(0, max_length - 3)));
      while (value.size() > static_cast<std::size_t>(max_length)) value.pop_back();
      while (!value.empty() && (static_cast<unsigned char>(value.back()) & 0xC0) == 0x80)
        value.pop_back();
      if (!value.empty() && (static_cast<unsigned char>(value.back()) & 0x80) != 0)
        value.pop_back();
    }
    while (value.size() < static_cast<std::size_t>(min_length)) value += ' ';
    if (schema.contains("pattern") && schema.at("pattern").is_string()) {
      try {
        const std::regex pattern(schema.at("pattern").get<std::string>(), std::regex::ECMAScript);
        if (!std::regex_search(value, pattern)) {
          // A piece of the evidence that fits the pattern, else nothing can be promised.
          for (const auto& passage : evidence.passages) {
            std::smatch match;
            if (std::regex_search(passage, match, pattern)) {
              value = match.str();
              break;
            }
          }
        }
      } catch (const std::regex_error&) {
      }
    }
    return value;
  }

  json number_value(const json& schema, const std::vector<std::string>& w, const PageRecord* page,
                    bool integer) const {
    const std::string text = labelled(w, page).value_or(passage_for(w, page, true));
    static const std::regex kNumber(R"((-?\d+(?:[.,]\d+)*))");
    double value = 0;
    std::smatch match;
    if (std::regex_search(text, match, kNumber)) {
      std::string digits = match.str();
      // "38,000" is thirty-eight thousand; "6,5" (German decimal) is six and a half.
      const auto comma = digits.find(',');
      if (comma != std::string::npos && digits.size() - comma == 4) {
        digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
      } else {
        std::replace(digits.begin(), digits.end(), ',', '.');
      }
      value = std::strtod(digits.c_str(), nullptr);
    }
    // The bounds as an interval; a value outside it moves inside (to the middle when both ends
    // are set, else one step in from the end).
    auto bound = [&](const char* key) -> std::optional<double> {
      if (schema.contains(key) && schema.at(key).is_number()) return schema.at(key).get<double>();
      return std::nullopt;
    };
    const auto min = bound("minimum"), max = bound("maximum");
    const auto xmin = bound("exclusiveMinimum"), xmax = bound("exclusiveMaximum");
    const auto below = [&](double v) { return (min && v < *min) || (xmin && v <= *xmin); };
    const auto above = [&](double v) { return (max && v > *max) || (xmax && v >= *xmax); };
    if (below(value) || above(value)) {
      const std::optional<double> lo = min ? min : xmin;
      const std::optional<double> hi = max ? max : xmax;
      if (lo && hi) {
        value = (*lo + *hi) / 2;
      } else if (below(value)) {
        value = min ? *min : *xmin + 1;
      } else {
        value = max ? *max : *xmax - 1;
      }
    }
    if (integer) {
      double rounded = std::round(value);
      if (below(rounded)) rounded = std::ceil(value);
      if (above(rounded)) rounded = std::floor(value);
      value = rounded;
    }
    if (schema.contains("multipleOf") && schema.at("multipleOf").is_number()) {
      const double step = schema.at("multipleOf").get<double>();
      if (step > 0) value = std::floor(value / step) * step;
    }
    if (integer) return static_cast<long long>(std::llround(value));
    return value;
  }

  /// The enum value the evidence names, else the first.
  json enum_value(const json& options, const PageRecord* page) const {
    const auto text_terms = tokenize(evidence.answer + " " + (page ? page->text : ""));
    for (const auto& option : options) {
      if (!option.is_string()) continue;
      const auto option_terms = tokenize(option.get<std::string>());
      if (!option_terms.empty() &&
          std::search(text_terms.begin(), text_terms.end(), option_terms.begin(),
                      option_terms.end()) != text_terms.end()) {
        return option;
      }
    }
    return options.front();
  }

  /// True when the evidence has every word of the name.
  bool boolean_value(const std::vector<std::string>& w, const PageRecord* page) const {
    if (w.empty()) return true;
    const auto terms = tokenize(evidence.answer + " " + (page ? page->text : ""));
    return std::all_of(w.begin(), w.end(), [&](const std::string& x) {
      return std::find(terms.begin(), terms.end(), x) != terms.end();
    });
  }

  /// Another element like `element` (numbers and strings made distinct), or nullopt.
  static std::optional<json> distinct(const json& element, std::size_t salt) {
    if (element.is_number_integer()) return json(element.get<long long>() + 1);
    if (element.is_number()) return json(element.get<double>() + 1);
    if (element.is_string()) {
      return json(element.get<std::string>() + " (" + std::to_string(salt) + ")");
    }
    return std::nullopt;
  }

  /// Pads `out` to `min_items`; with uniqueItems, numbers and strings are made distinct.
  void pad_items(json& out, const json& items, const std::string& name, std::size_t min_items,
                 bool unique, int depth) const {
    std::size_t salt = 0;
    while (out.size() < min_items) {
      json element = fill(items, name, nullptr, depth + 1);
      while (unique && std::find(out.begin(), out.end(), element) != out.end() && salt < 1000) {
        ++salt;
        auto other = distinct(element, salt);
        if (!other) break;
        element = std::move(*other);
      }
      out.push_back(element);
    }
  }

  /// An array: one element per page read or passage found, padded to minItems.
  json array_value(const json& schema, const std::string& name, int depth) const {
    const json items = schema.contains("items") ? merged(schema.at("items")) : json::object();
    const std::size_t max_items = schema.value("maxItems", 10u);
    const bool unique = schema.value("uniqueItems", false);
    json out = json::array();
    const auto add = [&](json element) {
      if (!unique || std::find(out.begin(), out.end(), element) == out.end()) {
        out.push_back(std::move(element));
      }
    };
    const std::string item_type = type_of(items);
    if (item_type == "object" || item_type == "array") {
      // One element per page read ("the stories", "the repositories").
      for (const PageRecord* p : evidence.pages) {
        if (out.size() >= max_items) break;
        out.push_back(fill(items, name, p, depth + 1));
      }
    } else if (item_type == "string" && !items.contains("enum") && !items.contains("format")) {
      for (const auto& passage : evidence.passages) {
        if (out.size() >= max_items) break;
        add(string_value(items, tokenize(passage), nullptr));
      }
    } else {
      for (const PageRecord* p : evidence.pages) {
        if (out.size() >= max_items) break;
        add(fill(items, name, p, depth + 1));
      }
    }
    pad_items(out, items, name, schema.value("minItems", 0u), unique, depth);
    return out;
  }

  json fill(const json& input, const std::string& name, const PageRecord* page, int depth) const {
    const json schema = merged(input);
    if (!schema.is_object()) return nullptr;
    if (schema.contains("const")) return schema.at("const");
    if (schema.contains("enum") && schema.at("enum").is_array() && !schema.at("enum").empty()) {
      return enum_value(schema.at("enum"), page);
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      if (schema.contains(key) && schema.at(key).is_array() && !schema.at(key).empty()) {
        for (const auto& option : schema.at(key)) {
          const json resolved = merged(option);
          if (resolved.is_object() && resolved.value("type", json()) != "null") {
            return fill(option, name, page, depth + 1);
          }
        }
        return fill(schema.at(key).front(), name, page, depth + 1);
      }
    }
    if (depth > kMaxDepth) return schema.contains("default") ? schema.at("default") : json(nullptr);
    const std::string type = type_of(schema);
    if (type == "null") return nullptr;
    if (type == "boolean") return boolean_value(words(name), page);
    if (type == "integer" || type == "number") {
      return number_value(schema, words(name), page, type == "integer");
    }
    if (type == "string") return string_value(schema, words(name), page);
    if (type == "object") {
      json out = json::object();
      if (schema.contains("properties") && schema.at("properties").is_object()) {
        for (const auto& [key, prop] : schema.at("properties").items()) {
          out[key] = fill(prop, key, page, depth + 1);
        }
      }
      return out;
    }
    if (type == "array") return array_value(schema, name, depth);
    return schema.contains("default") ? schema.at("default") : json(nullptr);
  }
};

}  // namespace

json fill_schema(const json& schema, const Evidence& evidence) {
  Filler filler{schema, evidence};
  return filler.fill(schema, "", nullptr, 0);
}

}  // namespace webdata::mock::search
