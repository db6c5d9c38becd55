// GCC 12 reports a false -Wmaybe-uninitialized inside std::regex's compiler when sanitizers are
// on (GCC PR 105562); the warning is in libstdc++, not here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "web/jsonpath.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

// The engine compares values as WireMock's equalToJson does and reads regexes as WireMock's
// `matches` does, so it uses those two pieces of the matchers.
#include "web/matchers.hpp"

namespace webdata::mock::web {

using nlohmann::json;

// Named, not anonymous: JsonPath::Impl (external linkage) holds these types, which GCC refuses
// for anonymous-namespace types once the file is compiled inside a unity source.
namespace jsonpath_detail {

struct Filter;

struct Step {
  enum class Kind { name, index, wildcard, names, indexes, filter };
  Kind kind = Kind::name;
  bool recursive = false;  // `..` before this step
  std::string name;
  long index = 0;
  std::vector<std::string> names;
  std::vector<long> indexes;
  std::shared_ptr<const Filter> filter;
};

struct Operand {
  bool is_path = false;
  std::vector<Step> path;  // relative to @
  json literal;
};

struct Filter {
  enum class Kind { exists, not_exists, compare, regex, all, any };
  Kind kind = Kind::exists;
  Operand left;
  std::string op;
  Operand right;
  std::shared_ptr<Regex> regex;
  std::vector<std::shared_ptr<const Filter>> children;
};

class PathParser {
 public:
  explicit PathParser(const std::string& text) : s_(text) {}

  std::vector<Step> parse_root() {
    skip_ws();
    if (!consume('$')) fail("must start with '$'");
    auto steps = parse_steps();
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected '" + s_.substr(pos_) + "'");
    return steps;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw JsonPathError("unsupported JSONPath '" + s_ + "': " + why);
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool consume(const std::string& token) {
    if (s_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }
  void skip_ws() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  }

  std::vector<Step> parse_steps() {
    std::vector<Step> steps;
    for (;;) {
      if (consume("..")) {
        Step step;
        step.recursive = true;
        if (consume('*')) {
          step.kind = Step::Kind::wildcard;
        } else if (peek() == '[') {
          step = parse_bracket();
          step.recursive = true;
        } else {
          step.kind = Step::Kind::name;
          step.name = parse_name();
        }
        steps.push_back(std::move(step));
      } else if (consume('.')) {
        Step step;
        if (consume('*')) {
          step.kind = Step::Kind::wildcard;
        } else {
          step.name = parse_name();
          if (consume("()")) fail("functions such as " + step.name + "() are not supported");
        }
        steps.push_back(std::move(step));
      } else if (peek() == '[') {
        steps.push_back(parse_bracket());
      } else {
        return steps;
      }
    }
  }

  std::string parse_name() {
    const auto start = pos_;
    while (!at_end() && name_char(s_[pos_])) ++pos_;
    if (pos_ == start) fail("expected a member name at offset " + std::to_string(start));
    return s_.substr(start, pos_ - start);
  }

  std::string parse_quoted() {
    const char quote = peek();
    ++pos_;
    std::string out;
    while (!at_end() && s_[pos_] != quote) {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out += s_[pos_++];
    }
    if (!consume(quote)) fail("unterminated string");
    return out;
  }

  long parse_int() {
    const auto start = pos_;
    if (peek() == '-') ++pos_;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == start || (pos_ == start + 1 && s_[start] == '-')) fail("expected an index");
    try {
      return std::stol(s_.substr(start, pos_ - start));
    } catch (const std::out_of_range&) {
      fail("index " + s_.substr(start, pos_ - start) + " is out of range");
    }
  }

  Step parse_bracket() {
    consume('[');
    skip_ws();
    Step step;
    if (consume('*')) {
      step.kind = Step::Kind::wildcard;
    } else if (consume("?(")) {
      step.kind = Step::Kind::filter;
      step.filter = parse_or();
      skip_ws();
      if (!consume(')')) fail("expected ')' closing the filter");
    } else if (peek() == '\'' || peek() == '"') {
      step.kind = Step::Kind::names;
      step.names.push_back(parse_quoted());
      skip_ws();
      while (consume(',')) {
        skip_ws();
        if (peek() != '\'' && peek() != '"') fail("expected a quoted name");
        step.names.push_back(parse_quoted());
        skip_ws();
      }
      if (step.names.size() == 1) {
        step.kind = Step::Kind::name;
        step.name = step.names.front();
      }
    } else {
      step.kind = Step::Kind::indexes;
      step.indexes.push_back(parse_int());
      skip_ws();
      if (peek() == ':') fail("array slices are not supported");
      while (consume(',')) {
        skip_ws();
        step.indexes.push_back(parse_int());
        skip_ws();
      }
      if (step.indexes.size() == 1) {
        step.kind = Step::Kind::index;
        step.index = step.indexes.front();
      }
    }
    skip_ws();
    if (!consume(']')) fail("expected ']'");
    return step;
  }

  std::shared_ptr<const Filter> parse_or() {
    // Parentheses and filters inside filters recurse; a bound keeps a hostile expression from
    // exhausting the stack.
    if (++depth_ > kMaxNesting) fail("filters nest deeper than " + std::to_string(kMaxNesting));
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    auto first = parse_and();
    skip_ws();
    if (s_.compare(pos_, 2, "||") != 0) return first;
    auto node = std::make_shared<Filter>();
    node->kind = Filter::Kind::any;
    node->children.push_back(first);
    while (consume("||")) {
      node->children.push_back(parse_and());
      skip_ws();
    }
    return node;
  }

  std::shared_ptr<const Filter> parse_and() {
    auto first = parse_unary();
    skip_ws();
    if (s_.compare(pos_, 2, "&&") != 0) return first;
    auto node = std::make_shared<Filter>();
    node->kind = Filter::Kind::all;
    node->children.push_back(first);
    while (consume("&&")) {
      node->children.push_back(parse_unary());
      skip_ws();
    }
    return node;
  }

  std::shared_ptr<const Filter> parse_unary() {
    skip_ws();
    if (consume('(')) {
      auto inner = parse_or();
      skip_ws();
      if (!consume(')')) fail("expected ')'");
      return inner;
    }
    auto node = std::make_shared<Filter>();
    if (consume('!')) {
      skip_ws();
      node->kind = Filter::Kind::not_exists;
      node->left = parse_operand();
      if (!node->left.is_path) fail("'!' needs a path");
      return node;
    }
    node->left = parse_operand();
    skip_ws();
    static const char* kOps[] = {"==", "!=", "<=", ">=", "=~", "<", ">"};
    for (const char* op : kOps) {
      if (consume(std::string(op))) {
        node->op = op;
        break;
      }
    }
    if (node->op.empty()) {
      if (!node->left.is_path) fail("a filter term must be a path or a comparison");
      node->kind = Filter::Kind::exists;
      return node;
    }
    skip_ws();
    if (node->op == "=~") {
      if (!consume('/')) fail("=~ needs /regex/");
      std::string pattern;
      while (!at_end() && s_[pos_] != '/') {
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) pattern += s_[pos_++];
        pattern += s_[pos_++];
      }
      if (!consume('/')) fail("unterminated /regex/");
      if (consume('i')) pattern = "(?i)" + pattern;
      node->kind = Filter::Kind::regex;
      try {
        node->regex = std::make_shared<Regex>(pattern);
      } catch (const PatternError& e) {
        throw JsonPathError(e.what());
      }
      return node;
    }
    node->kind = Filter::Kind::compare;
    node->right = parse_operand();
    return node;
  }

  Operand parse_operand() {
    skip_ws();
    Operand operand;
    if (consume('@')) {
      operand.is_path = true;
      operand.path = parse_steps();
      return operand;
    }
    if (peek() == '$') fail("filters may only refer to '@'");
    if (peek() == '\'' || peek() == '"') {
      operand.literal = parse_quoted();
      return operand;
    }
    if (consume("true")) {
      operand.literal = true;
    } else if (consume("false")) {
      operand.literal = false;
    } else if (consume("null")) {
      operand.literal = nullptr;
    } else {
      const auto start = pos_;
      while (!at_end() &&
             (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
              s_[pos_] == '+' || s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) {
        ++pos_;
      }
      auto parsed = json::parse(s_.substr(start, pos_ - start), nullptr, false);
      if (pos_ == start || parsed.is_discarded() || !parsed.is_number()) {
        fail("expected a literal at offset " + std::to_string(start));
      }
      operand.literal = parsed;
    }
    return operand;
  }

  static constexpr int kMaxNesting = 64;
  std::string s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

void select_steps(const std::vector<Step>& steps, std::size_t i, const json& node,
                  std::vector<const json*>& out);

bool filter_holds(const Filter& filter, const json& node);

void apply_step(const Step& step, const json& node, std::vector<const json*>& out) {
  switch (step.kind) {
    case Step::Kind::name:
      if (node.is_object()) {
        const auto it = node.find(step.name);
        if (it != node.end()) out.push_back(&*it);
      }
      break;
    case Step::Kind::names:
      if (node.is_object()) {
        for (const auto& name : step.names) {
          const auto it = node.find(name);
          if (it != node.end()) out.push_back(&*it);
        }
      }
      break;
    case Step::Kind::index:
    case Step::Kind::indexes: {
      if (!node.is_array()) break;
      const std::vector<long> single{step.index};
      for (long index : step.kind == Step::Kind::index ? single : step.indexes) {
        const long size = static_cast<long>(node.size());
        const long at = index < 0 ? size + index : index;
        if (at >= 0 && at < size) out.push_back(&node[static_cast<std::size_t>(at)]);
      }
      break;
    }
    case Step::Kind::wildcard:
      if (node.is_object() || node.is_array()) {
        for (const auto& child : node) out.push_back(&child);
      }
      break;
    case Step::Kind::filter:
      // As in WireMock (Jayway JsonPath): a filter on an array tests each element, a filter on
      // an object tests the object itself (`$[?(@.url =~ /x/)]` on a request body).
      if (node.is_array()) {
        for (const auto& child : node) {
          if (filter_holds(*step.filter, child)) out.push_back(&child);
        }
      } else if (node.is_object() && filter_holds(*step.filter, node)) {
        out.push_back(&node);
      }
      break;
  }
}

void descendants(const json& node, std::vector<const json*>& out) {
  out.push_back(&node);
  if (node.is_object() || node.is_array()) {
    for (const auto& child : node) descendants(child, out);
  }
}

void select_steps(const std::vector<Step>& steps, std::size_t i, const json& node,
                  std::vector<const json*>& out) {
  if (i == steps.size()) {
    out.push_back(&node);
    return;
  }
  const Step& step = steps[i];
  std::vector<const json*> roots;
  if (step.recursive) {
    descendants(node, roots);
  } else {
    roots.push_back(&node);
  }
  for (const json* root : roots) {
    std::vector<const json*> next;
    apply_step(step, *root, next);
    for (const json* n : next) select_steps(steps, i + 1, *n, out);
  }
}

std::optional<json> operand_value(const Operand& operand, const json& node) {
  if (!operand.is_path) return operand.literal;
  std::vector<const json*> found;
  select_steps(operand.path, 0, node, found);
  if (found.empty()) return std::nullopt;
  return *found.front();
}

bool compare(const json& a, const std::string& op, const json& b) {
  if (op == "==") return json_equivalent(b, a, false, false);
  if (op == "!=") return !json_equivalent(b, a, false, false);
  int order = 0;
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>();
    const double y = b.get<double>();
    order = x < y ? -1 : (x > y ? 1 : 0);
  } else if (a.is_string() && b.is_string()) {
    order = a.get_ref<const std::string&>().compare(b.get_ref<const std::string&>());
  } else {
    return false;
  }
  if (op == "<") return order < 0;
  if (op == "<=") return order <= 0;
  if (op == ">") return order > 0;
  return order >= 0;
}

bool filter_holds(const Filter& filter, const json& node) {
  switch (filter.kind) {
    case Filter::Kind::exists:
      return operand_value(filter.left, node).has_value();
    case Filter::Kind::not_exists:
      return !operand_value(filter.left, node).has_value();
    case Filter::Kind::all:
      return std::all_of(filter.children.begin(), filter.children.end(),
                         [&](const auto& c) { return filter_holds(*c, node); });
    case Filter::Kind::any:
      return std::any_of(filter.children.begin(), filter.children.end(),
                         [&](const auto& c) { return filter_holds(*c, node); });
    case Filter::Kind::regex: {
      const auto value = operand_value(filter.left, node);
      return value && value->is_string() && filter.regex->full_match(value->get<std::string>());
    }
    case Filter::Kind::compare: {
      const auto left = operand_value(filter.left, node);
      const auto right = operand_value(filter.right, node);
      return left && right && compare(*left, filter.op, *right);
    }
  }
  return false;
}

}  // namespace jsonpath_detail

struct JsonPath::Impl {
  std::vector<jsonpath_detail::Step> steps;
};

JsonPath::JsonPath(const std::string& expression) : impl_(std::make_unique<Impl>()) {
  impl_->steps = jsonpath_detail::PathParser(expression).parse_root();
}

JsonPath::~JsonPath() = default;

std::vector<const json*> JsonPath::select(const json& document) const {
  std::vector<const json*> out;
  jsonpath_detail::select_steps(impl_->steps, 0, document, out);
  return out;
}

bool JsonPath::definite() const {
  return std::all_of(impl_->steps.begin(), impl_->steps.end(), [](const jsonpath_detail::Step& s) {
    using Kind = jsonpath_detail::Step::Kind;
    return !s.recursive && (s.kind == Kind::name || s.kind == Kind::index);
  });
}

}  // namespace webdata::mock::web
