#pragma once

#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::web {

/// A stub mapping uses a feature this engine does not implement, or uses one wrongly.
class PatternError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Regex matchers look at no more than this many bytes: std::regex recurses per character and
/// would overflow the stack on large bodies. A longer value never matches `matches` and never
/// satisfies `doesNotMatch` (documented).
inline constexpr std::size_t kMaxRegexInput = 16 * 1024;

/// A compiled WireMock regex (ECMAScript syntax; a leading `(?i)` is honoured). Full match.
class Regex {
 public:
  explicit Regex(const std::string& pattern);  // throws PatternError
  bool full_match(const std::string& text) const;
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::regex regex_;
};

/// A WireMock string-value pattern (`equalTo`, `contains`, `doesNotContain`, `matches`,
/// `doesNotMatch`, `absent`, `equalToJson`, `matchesJsonPath` (web/jsonpath.hpp), `and`, `or`).
class ValuePattern {
 public:
  /// Compiles `{"equalTo": "x", "caseInsensitive": true}` and friends. Throws PatternError.
  static std::shared_ptr<const ValuePattern> compile(const nlohmann::json& spec);
  virtual ~ValuePattern() = default;
  /// `value` is nullopt when the header, parameter or body is absent.
  virtual bool matches(const std::optional<std::string>& value) const = 0;
  /// The literal a matching value would have (equalTo/contains), for building sample requests.
  virtual std::optional<std::string> example() const { return std::nullopt; }
  /// True for `{"absent": true}`.
  virtual bool is_absent() const { return false; }
};

/// WireMock `equalToJson`: numbers compare by value; `${json-unit.ignore}`,
/// `${json-unit.any-string}`, `${json-unit.any-number}`, `${json-unit.any-boolean}` and
/// `${json-unit.regex}<re>` placeholders in `expected` are honoured.
bool json_equivalent(const nlohmann::json& expected, const nlohmann::json& actual,
                     bool ignore_array_order, bool ignore_extra_elements);

}  // namespace webdata::mock::web
