#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::web {

/// A JSONPath expression outside the supported subset, or malformed. The message names the
/// expression and what is wrong with it.
class JsonPathError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A compiled JSONPath expression (the engine behind WireMock's `matchesJsonPath`), following
/// Jayway JsonPath where the subset overlaps: `$`, `.name`, `['name']`, `[n]` (negative from the
/// end), `[*]`, `.*`, `..name`, `..*`, `..[...]`, `[a,b]` (names or indexes) and filters
/// `[?(<cond>)]` where <cond> combines with `&&`, `||` and parentheses: `@.path` (exists),
/// `!@.path`, `@.path <op> <literal or @.path>` with ==, !=, <, <=, >, >= and `@.path =~ /re/`
/// (`i` flag allowed; the regex must match the whole string). Literals: numbers, 'strings',
/// "strings", true, false, null. A filter on an array tests each element; on an object it tests
/// the object itself (`$[?(@.url =~ /x/)]` on a request body). Slices, functions and `$` inside
/// filters are refused. Immutable after construction, so one instance may be used from several
/// threads.
class JsonPath {
 public:
  explicit JsonPath(const std::string& expression);  // throws JsonPathError
  ~JsonPath();
  JsonPath(const JsonPath&) = delete;
  JsonPath& operator=(const JsonPath&) = delete;
  /// Every value the expression selects, in document order.
  std::vector<const nlohmann::json*> select(const nlohmann::json& document) const;
  /// Whether the path selects at most one value by construction (no wildcard, filter,
  /// recursion or union).
  bool definite() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace webdata::mock::web
