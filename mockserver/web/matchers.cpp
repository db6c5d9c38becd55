// GCC 12 reports a false -Wmaybe-uninitialized inside std::regex's compiler when sanitizers are
// on (GCC PR 105562); the warning is in libstdc++, not here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "web/matchers.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <variant>

#include "web/jsonpath.hpp"
#include "web/types.hpp"

namespace webdata::mock::web {

using nlohmann::json;

namespace {

// Java's DOTALL: '.' outside a character class also matches line breaks.
std::string dot_matches_all(const std::string& pattern) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += c;
      out += pattern[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    out += (c == '.' && !in_class) ? std::string("[\\s\\S]") : std::string(1, c);
  }
  return out;
}

}  // namespace

Regex::Regex(const std::string& pattern) : pattern_(pattern) {
  auto flags = std::regex::ECMAScript;
  std::string body = pattern;
  // Java inline flags at the start: (?i) case-insensitive, (?s) dot matches line breaks.
  if (body.size() > 3 && body.compare(0, 2, "(?") == 0) {
    const auto close = body.find(')');
    const std::string letters = close == std::string::npos ? "" : body.substr(2, close - 2);
    if (!letters.empty() && letters.find_first_not_of("is") == std::string::npos) {
      body = body.substr(close + 1);
      if (letters.find('i') != std::string::npos) flags |= std::regex::icase;
      if (letters.find('s') != std::string::npos) body = dot_matches_all(body);
    }
  }
  try {
    regex_ = std::regex(body, flags);
  } catch (const std::regex_error& e) {
    throw PatternError("invalid regular expression '" + pattern + "': " + e.what() +
                       " (ECMAScript syntax; the Java flags (?i) and (?s) are honoured)");
  }
}

bool Regex::full_match(const std::string& text) const {
  if (text.size() > kMaxRegexInput) return false;
  return std::regex_match(text, regex_);
}

// ---------------------------------------------------------------------------------------------
// equalToJson

namespace {

bool placeholder_matches(const std::string& placeholder, const json& actual) {
  static const std::string kRegex = "${json-unit.regex}";
  if (placeholder == "${json-unit.ignore}") return true;
  if (placeholder == "${json-unit.any-string}") return actual.is_string();
  if (placeholder == "${json-unit.any-number}") return actual.is_number();
  if (placeholder == "${json-unit.any-boolean}") return actual.is_boolean();
  if (placeholder.rfind(kRegex, 0) == 0) {
    if (!actual.is_string()) return false;
    try {
      return Regex(placeholder.substr(kRegex.size())).full_match(actual.get<std::string>());
    } catch (const PatternError&) {
      return false;
    }
  }
  return false;
}

bool is_placeholder(const json& expected) {
  if (!expected.is_string()) return false;
  const auto& s = expected.get_ref<const std::string&>();
  return s.rfind("${json-unit.regex}", 0) == 0 ||
         (s.rfind("${json-unit.", 0) == 0 && s.back() == '}');
}

bool json_equal(const json& expected, const json& actual, bool order, bool extra);

bool arrays_unordered(const json& expected, const json& actual, bool extra) {
  if (!extra && expected.size() != actual.size()) return false;
  if (expected.size() > actual.size()) return false;
  std::vector<bool> used(actual.size(), false);
  // Backtracking assignment of expected items to distinct actual items.
  std::function<bool(std::size_t)> assign = [&](std::size_t i) {
    if (i == expected.size()) return true;
    for (std::size_t j = 0; j < actual.size(); ++j) {
      if (used[j] || !json_equal(expected[i], actual[j], true, extra)) continue;
      used[j] = true;
      if (assign(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return assign(0);
}

bool json_equal(const json& expected, const json& actual, bool ignore_order, bool extra) {
  if (is_placeholder(expected)) {
    return placeholder_matches(expected.get<std::string>(), actual);
  }
  if (expected.is_number() && actual.is_number()) {
    if (expected.is_number_float() || actual.is_number_float()) {
      return expected.get<double>() == actual.get<double>();
    }
    if (expected.is_number_unsigned() || actual.is_number_unsigned()) {
      if ((expected.is_number_integer() && !expected.is_number_unsigned() &&
           expected.get<std::int64_t>() < 0) ||
          (actual.is_number_integer() && !actual.is_number_unsigned() &&
           actual.get<std::int64_t>() < 0)) {
        return false;
      }
      return expected.get<std::uint64_t>() == actual.get<std::uint64_t>();
    }
    return expected.get<std::int64_t>() == actual.get<std::int64_t>();
  }
  if (expected.type() != actual.type()) return false;
  if (expected.is_object()) {
    if (!extra && expected.size() != actual.size()) return false;
    for (const auto& [key, value] : expected.items()) {
      const auto it = actual.find(key);
      if (it == actual.end()) {
        if (is_placeholder(value) && value.get<std::string>() == "${json-unit.ignore}") continue;
        return false;
      }
      if (!json_equal(value, *it, ignore_order, extra)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (ignore_order) return arrays_unordered(expected, actual, extra);
    if (extra ? expected.size() > actual.size() : expected.size() != actual.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!json_equal(expected[i], actual[i], ignore_order, extra)) return false;
    }
    return true;
  }
  return expected == actual;
}

}  // namespace

bool json_equivalent(const json& expected, const json& actual, bool ignore_array_order,
                     bool ignore_extra_elements) {
  return json_equal(expected, actual, ignore_array_order, ignore_extra_elements);
}

// ---------------------------------------------------------------------------------------------
// String value patterns

namespace {

std::string require_string(const json& spec, const char* key) {
  const auto& v = spec.at(key);
  if (!v.is_string()) throw PatternError(std::string("'") + key + "' must be a string");
  return v.get<std::string>();
}

class EqualTo final : public ValuePattern {
 public:
  EqualTo(std::string expected, bool ci) : expected_(std::move(expected)), ci_(ci) {}
  bool matches(const std::optional<std::string>& v) const override {
    return v && (ci_ ? iequals(*v, expected_) : *v == expected_);
  }
  std::optional<std::string> example() const override { return expected_; }

 private:
  std::string expected_;
  bool ci_;
};

class Contains final : public ValuePattern {
 public:
  Contains(std::string needle, bool negate) : needle_(std::move(needle)), negate_(negate) {}
  bool matches(const std::optional<std::string>& v) const override {
    if (!v) return negate_;  // WireMock: a negative matcher accepts an absent value
    return (v->find(needle_) != std::string::npos) != negate_;
  }
  std::optional<std::string> example() const override {
    return negate_ ? std::nullopt : std::optional<std::string>(needle_);
  }

 private:
  std::string needle_;
  bool negate_;
};

class Matches final : public ValuePattern {
 public:
  Matches(const std::string& pattern, bool negate) : regex_(pattern), negate_(negate) {}
  bool matches(const std::optional<std::string>& v) const override {
    if (!v) return negate_;  // WireMock: a negative matcher accepts an absent value
    if (v->size() > kMaxRegexInput) return false;
    return regex_.full_match(*v) != negate_;
  }

 private:
  Regex regex_;
  bool negate_;
};

class Absent final : public ValuePattern {
 public:
  bool matches(const std::optional<std::string>& v) const override { return !v.has_value(); }
  bool is_absent() const override { return true; }
};

class EqualToJson final : public ValuePattern {
 public:
  EqualToJson(json expected, bool order, bool extra)
      : expected_(std::move(expected)), order_(order), extra_(extra) {}
  bool matches(const std::optional<std::string>& v) const override {
    if (!v) return false;
    const auto actual = json::parse(*v, nullptr, false);
    return !actual.is_discarded() && json_equivalent(expected_, actual, order_, extra_);
  }
  std::optional<std::string> example() const override { return expected_.dump(); }

 private:
  json expected_;
  bool order_;
  bool extra_;
};

std::string value_text(const json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// A stub's expression error is a stub error like any other.
std::shared_ptr<const JsonPath> compile_path(const std::string& expression) {
  try {
    return std::make_shared<JsonPath>(expression);
  } catch (const JsonPathError& e) {
    throw PatternError(e.what());
  }
}

class MatchesJsonPath final : public ValuePattern {
 public:
  MatchesJsonPath(const std::string& expression, std::shared_ptr<const ValuePattern> sub)
      : path_(compile_path(expression)), sub_(std::move(sub)) {}
  bool matches(const std::optional<std::string>& v) const override {
    if (!v) return false;
    const auto doc = json::parse(*v, nullptr, false);
    if (doc.is_discarded()) return false;
    const auto found = path_->select(doc);
    if (!sub_) {
      if (found.empty()) return false;
      // A definite path selecting null does not count as found.
      if (path_->definite()) return !found.front()->is_null();
      return true;
    }
    if (found.empty()) return sub_->matches(std::nullopt);
    if (path_->definite()) return sub_->matches(value_text(*found.front()));
    json list = json::array();
    for (const json* f : found) {
      if (sub_->matches(value_text(*f))) return true;
      list.push_back(*f);
    }
    return sub_->matches(list.dump());
  }

 private:
  std::shared_ptr<const JsonPath> path_;
  std::shared_ptr<const ValuePattern> sub_;
};

class Combined final : public ValuePattern {
 public:
  Combined(std::vector<std::shared_ptr<const ValuePattern>> parts, bool all)
      : parts_(std::move(parts)), all_(all) {}
  bool matches(const std::optional<std::string>& v) const override {
    auto pred = [&](const auto& p) { return p->matches(v); };
    return all_ ? std::all_of(parts_.begin(), parts_.end(), pred)
                : std::any_of(parts_.begin(), parts_.end(), pred);
  }

 private:
  std::vector<std::shared_ptr<const ValuePattern>> parts_;
  bool all_;
};

const std::vector<std::string> kOperators = {
    "equalTo", "contains",    "doesNotContain",  "matches", "doesNotMatch",
    "absent",  "equalToJson", "matchesJsonPath", "and",     "or"};
const std::vector<std::string> kModifiers = {"caseInsensitive", "ignoreArrayOrder",
                                             "ignoreExtraElements"};
const std::vector<std::string> kKnownUnsupported = {"binaryEqualTo",
                                                    "equalToXml",
                                                    "matchesXPath",
                                                    "before",
                                                    "after",
                                                    "equalToDateTime",
                                                    "hasExactly",
                                                    "includes",
                                                    "not",
                                                    "enablePlaceholders",
                                                    "placeholderOpeningDelimiterRegex",
                                                    "placeholderClosingDelimiterRegex",
                                                    "exemptedComparisons",
                                                    "namespaces",
                                                    "actualFormat",
                                                    "expectedOffset",
                                                    "truncateExpected",
                                                    "truncateActual"};

bool flag(const json& spec, const char* key) {
  if (!spec.contains(key)) return false;
  if (!spec.at(key).is_boolean()) throw PatternError(std::string("'") + key + "' must be boolean");
  return spec.at(key).get<bool>();
}

}  // namespace

std::shared_ptr<const ValuePattern> ValuePattern::compile(const json& spec) {
  if (!spec.is_object())
    throw PatternError("a value pattern must be an object such as {\"equalTo\": \"...\"}");
  std::string op;
  for (const auto& [key, value] : spec.items()) {
    if (std::find(kOperators.begin(), kOperators.end(), key) != kOperators.end()) {
      if (!op.empty())
        throw PatternError("pattern has two operators: '" + op + "' and '" + key + "'");
      op = key;
    } else if (std::find(kModifiers.begin(), kModifiers.end(), key) == kModifiers.end()) {
      if (std::find(kKnownUnsupported.begin(), kKnownUnsupported.end(), key) !=
          kKnownUnsupported.end()) {
        throw PatternError("matcher '" + key + "' is not supported");
      }
      throw PatternError("unknown matcher key '" + key + "'");
    }
  }
  if (op.empty()) throw PatternError("pattern has no operator (equalTo, contains, matches, ...)");
  const bool ci = flag(spec, "caseInsensitive");
  if (ci && op != "equalTo") throw PatternError("caseInsensitive applies only to equalTo");
  const bool order = flag(spec, "ignoreArrayOrder");
  const bool extra = flag(spec, "ignoreExtraElements");
  if ((order || extra) && op != "equalToJson") {
    throw PatternError("ignoreArrayOrder/ignoreExtraElements apply only to equalToJson");
  }
  if (op == "equalTo") return std::make_shared<EqualTo>(require_string(spec, "equalTo"), ci);
  if (op == "contains") return std::make_shared<Contains>(require_string(spec, "contains"), false);
  if (op == "doesNotContain") {
    return std::make_shared<Contains>(require_string(spec, "doesNotContain"), true);
  }
  if (op == "matches") return std::make_shared<Matches>(require_string(spec, "matches"), false);
  if (op == "doesNotMatch") {
    return std::make_shared<Matches>(require_string(spec, "doesNotMatch"), true);
  }
  if (op == "absent") {
    if (spec.at("absent") != true) throw PatternError("'absent' must be true");
    return std::make_shared<Absent>();
  }
  if (op == "equalToJson") {
    const auto& expected = spec.at("equalToJson");
    if (expected.is_string()) {
      auto parsed = json::parse(expected.get<std::string>(), nullptr, false);
      if (parsed.is_discarded()) throw PatternError("equalToJson string is not valid JSON");
      return std::make_shared<EqualToJson>(std::move(parsed), order, extra);
    }
    return std::make_shared<EqualToJson>(expected, order, extra);
  }
  if (op == "matchesJsonPath") {
    const auto& v = spec.at("matchesJsonPath");
    if (v.is_string()) return std::make_shared<MatchesJsonPath>(v.get<std::string>(), nullptr);
    if (!v.is_object() || !v.contains("expression") || !v.at("expression").is_string()) {
      throw PatternError("matchesJsonPath must be a string or {\"expression\": ..., <matcher>}");
    }
    json sub = v;
    sub.erase("expression");
    return std::make_shared<MatchesJsonPath>(v.at("expression").get<std::string>(), compile(sub));
  }
  const auto& list = spec.at(op);
  if (!list.is_array() || list.empty()) throw PatternError("'" + op + "' needs a list of patterns");
  std::vector<std::shared_ptr<const ValuePattern>> parts;
  for (const auto& item : list) parts.push_back(compile(item));
  return std::make_shared<Combined>(std::move(parts), op == "and");
}

}  // namespace webdata::mock::web
