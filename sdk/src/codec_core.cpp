#include <algorithm>
#include <cmath>
#include <limits>

#include "codec.hpp"

namespace webdata::detail {

std::string Path::str() const {
  std::vector<const Path*> chain;
  for (const Path* p = this; p != nullptr; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Path* p = *it;
    if (p->parent == nullptr && p->key == nullptr && p->index == 0 && it == chain.rbegin())
      continue;
    if (p->key != nullptr) {
      if (!out.empty()) out += '.';
      out += p->key;
    } else {
      out += '[' + std::to_string(p->index) + ']';
    }
  }
  return out.empty() ? "(top level)" : out;
}

ParseError::ParseError(const Path& path, const std::string& what)
    : std::runtime_error("at " + path.str() + ": " + what) {}

void fail(const Path& path, const std::string& what) {
  throw ParseError(path, what);
}

Reader::~Reader() {
  if (path_.diagnostics == nullptr || set_aside_.empty()) return;
  try {
    // Members of a model without extras: nowhere to keep them, but still said.
    for (const auto& [key, what] : set_aside_) path_.diagnostics->push_back(what + "; ignored");
  } catch (...) {  // out of memory in a destructor: the lines are lost, not the program
  }
}

bool Reader::seen(const std::string& key) const {
  for (const char* k : seen_) {
    if (key == k) return true;
  }
  return false;
}

void Reader::rest(Extras& out) {
  for (const auto& [key, value] : j_.items()) {
    if (!seen(key)) out[key] = from_tree(value);
  }
  for (const auto& [key, what] : set_aside_) {
    out[key] = from_tree(j_.at(key));
    path_.diagnostics->push_back(what + "; kept as raw JSON in extras");
  }
  set_aside_.clear();
}

void Reader::rest_under(const char* owner, Extras& out) {
  Extras inner;
  rest(inner);
  const std::string prefix = std::string(owner) + ".";
  for (auto& [key, value] : inner) out.emplace(prefix + key, std::move(value));
}

bool Writer::owned_by(const std::string& key, const char* owner) {
  const std::size_t n = std::strlen(owner);
  return key.compare(0, n, owner) == 0 && (key.size() == n || key[n] == '.');
}

const char* type_name(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

void decode(const json& j, std::string& out, const Path& p) {
  if (!j.is_string()) fail(p, std::string("expected a string, got ") + type_name(j));
  out = j.get<std::string>();
}

void decode(const json& j, bool& out, const Path& p) {
  if (!j.is_boolean()) fail(p, std::string("expected a boolean, got ") + type_name(j));
  out = j.get<bool>();
}

void decode(const json& j, long long& out, const Path& p) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() &&
        j.get<unsigned long long>() >
            static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
      fail(p, "integer out of range");
    }
    out = j.get<long long>();
    return;
  }
  // Some deployments write integral counters as 3.0.
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.0e15) {
      out = static_cast<long long>(d);
      return;
    }
  }
  fail(p, std::string("expected an integer, got ") + type_name(j));
}

void decode(const json& j, int& out, const Path& p) {
  long long wide = 0;
  decode(j, wide, p);
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
    fail(p, "integer out of range");
  }
  out = static_cast<int>(wide);
}

void decode(const json& j, double& out, const Path& p) {
  if (!j.is_number()) fail(p, std::string("expected a number, got ") + type_name(j));
  out = j.get<double>();
}

void decode(const json& j, Json& out, const Path& /*p*/) {
  out = from_tree(j);
}

void decode(const json& j, std::chrono::milliseconds& out, const Path& p) {
  long long ms = 0;
  decode(j, ms, p);
  out = std::chrono::milliseconds(ms);
}

void decode(const json& j, Timestamp& out, const Path& p) {
  if (!j.is_string()) fail(p, std::string("expected a date-time string, got ") + type_name(j));
  out = Timestamp::from_text(j.get<std::string>());
}

json encode(const std::string& v) {
  return v;
}
json encode(bool v) {
  return v;
}
json encode(int v) {
  return v;
}
json encode(long long v) {
  return v;
}
json encode(double v) {
  return v;
}
json encode(const Json& v) {
  return to_tree(v);
}
json encode(std::chrono::milliseconds v) {
  return static_cast<long long>(v.count());
}
json encode(const Timestamp& v) {
  return v.text();
}

json to_tree(const Json& v) {
  auto tree = json::parse(v.text(), nullptr, false);
  return tree.is_discarded() ? json() : tree;
}

Json from_tree(const json& j) {
  return Json::from_trusted_text(tree_text(j));
}

std::string tree_text(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Error shape_error(const char* what, const std::string& why, std::string_view text) {
  constexpr std::size_t kShown = 120;
  std::string start(text.substr(0, kShown));
  for (char& c : start) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (text.size() > kShown) start += "...";
  return error_of(ErrorKind::kParse,
                  std::string("unexpected ") + what + ": " + why + " (it begins: " + start + ")");
}

Error not_json_error(const std::string& body) {
  Error err = error_of(ErrorKind::kParse,
                       body.empty() ? "empty response body where JSON was expected"
                                    : "response body is not valid JSON (" +
                                          std::to_string(body.size()) + " bytes, truncated?)");
  err.raw_body = body.substr(0, 4096);
  return err;
}

Result<json> parse_body(const std::string& body) {
  auto tree = json::parse(body, nullptr, false);
  if (tree.is_discarded()) return not_json_error(body);
  return tree;
}

}  // namespace webdata::detail
