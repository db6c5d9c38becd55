#include "formats/extract_internal.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace webdata::mock::formats::extraction {

// The schema's types; without a `type` keyword, the type its other keywords imply.
std::vector<std::string> types_of(const json& s) {
  if (s.contains("type")) return contract::SchemaWalker::types(s);
  if (s.contains("properties")) return {"object"};
  if (s.contains("items")) return {"array"};
  if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty()) {
    const json& v = s["enum"][0];
    if (v.is_string()) return {"string"};
    if (v.is_boolean()) return {"boolean"};
    if (v.is_number_integer()) return {"integer"};
    if (v.is_number()) return {"number"};
    if (v.is_null()) return {"null"};
  }
  return {"string"};
}

bool allows(const json& s, const std::string& type) {
  auto types = types_of(s);
  if (std::find(types.begin(), types.end(), type) != types.end()) return true;
  return type == "integer" && std::find(types.begin(), types.end(), "number") != types.end();
}

std::map<std::string, std::string> Schema::checked_formats() {
  // What a string must look like to stand for a value of that format in an answer.
  static const std::string date = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])";
  static const std::string time =
      "T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})";
  static const std::string url = "^[A-Za-z0-9+.-]+://\\S+$";
  return {{"email", "^[^@\\s<>\"]+@[^@\\s<>\"]+\\.[^@\\s<>\".]+$"},
          {"uri", url},
          {"url", url},
          {"date", "^" + date + "$"},
          {"date-time", "^" + date + time + "$"}};
}

// A number brought inside the schema's range and multipleOf (and integral for integers).
std::optional<json> fit_number(double d, const json& s) {
  if (!std::isfinite(d)) return std::nullopt;
  bool integer = !allows(s, "number") && allows(s, "integer");
  auto num = [&](const char* k) -> std::optional<double> {
    if (s.contains(k) && s[k].is_number()) return s[k].get<double>();
    return std::nullopt;
  };
  double step = integer ? 1 : 0;
  if (auto m = num("multipleOf"); m && *m > 0) step = integer ? std::max(1.0, std::ceil(*m)) : *m;
  if (auto m = num("multipleOf"); m && *m > 0 && integer && std::floor(*m) != *m)
    return std::nullopt;
  if (step > 0) d = std::round(d / step) * step;
  double lo = -INFINITY;
  double hi = INFINITY;
  if (auto m = num("minimum")) lo = *m;
  if (auto m = num("maximum")) hi = *m;
  if (auto m = num("exclusiveMinimum")) lo = std::max(lo, *m + (step > 0 ? step : 1e-6));
  if (auto m = num("exclusiveMaximum")) hi = std::min(hi, *m - (step > 0 ? step : 1e-6));
  if (step > 0) {
    if (std::isfinite(lo)) lo = std::ceil(lo / step) * step;
    if (std::isfinite(hi)) hi = std::floor(hi / step) * step;
  }
  if (lo > hi) return std::nullopt;
  d = std::min(std::max(d, lo), hi);
  if (integer) return json(static_cast<std::int64_t>(std::llround(d)));
  if (std::floor(d) == d && std::fabs(d) < 1e15) return json(static_cast<std::int64_t>(d));
  return json(d);
}

// The value used when the page has no evidence: the schema's default, else the type's zero.
json default_for(const json& raw, const Schema& schema, int depth) {
  if (raw.is_boolean() || !raw.is_object()) return nullptr;
  json s = schema.resolve(raw);
  if (s.contains("default") && conforms(s["default"], s, schema)) return s["default"];
  if (s.contains("const")) return s["const"];
  if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty()) return s["enum"][0];
  auto types = types_of(s);
  if (std::find(types.begin(), types.end(), "null") != types.end()) return nullptr;
  std::string type = types.empty() ? "string" : types[0];
  if (type == "object") {
    json out = json::object();
    if (depth > kMaxDepth) return out;
    const json* props =
        s.contains("properties") && s["properties"].is_object() ? &s["properties"] : nullptr;
    if (s.contains("required") && s["required"].is_array()) {
      for (const auto& r : s["required"]) {
        if (!r.is_string()) continue;
        std::string key = r.get<std::string>();
        out[key] = props != nullptr && props->contains(key)
                       ? default_for((*props)[key], schema, depth + 1)
                       : json(nullptr);
      }
    }
    return out;
  }
  if (type == "array") {
    json out = json::array();
    std::size_t min_items =
        s.contains("minItems") && s["minItems"].is_number() ? s["minItems"].get<std::size_t>() : 0;
    json items = s.contains("items") ? s["items"] : json::object();
    for (std::size_t i = 0; i < min_items && i < kMaxArrayItems && depth <= kMaxDepth; ++i) {
      out.push_back(default_for(items, schema, depth + 1));
    }
    return out;
  }
  if (type == "boolean") return false;
  if (type == "number" || type == "integer") {
    auto v = fit_number(0, s);
    return v ? *v : json(0);
  }
  std::string format = s.value("format", "");
  std::string str;
  // A format with no evidence still needs a valid value: the earliest one of that format.
  if (format == "date") str = "1970-01-01";
  if (format == "date-time") str = "1970-01-01T00:00:00Z";
  std::size_t min_len =
      s.contains("minLength") && s["minLength"].is_number() ? s["minLength"].get<std::size_t>() : 0;
  while (detail::utf8_length(str) < min_len && str.size() < 10000) str += ' ';
  return str;
}

}  // namespace webdata::mock::formats::extraction
