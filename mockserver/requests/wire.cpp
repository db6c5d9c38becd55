#include "requests/wire.hpp"

namespace webdata::mock::requests {

const char* version_name(Version version) { return version == Version::v1 ? "v1" : "v2"; }

Version version_of_path(std::string_view path) {
  return path.rfind("/v1/", 0) == 0 ? Version::v1 : Version::v2;
}

std::optional<Version> parse_version(std::string_view name) {
  if (name == "v1") return Version::v1;
  if (name == "v2") return Version::v2;
  return std::nullopt;
}

namespace wire {

using nlohmann::json;

Context Context::at(std::string_view key) const {
  Context out = *this;
  if (!out.path.empty()) out.path += '.';
  out.path.append(key);
  return out;
}

Context Context::at(std::size_t index) const { return at(std::to_string(index)); }

// Decoding runs on bodies the schema accepted, so a type that does not fit here is a drift
// between the schema and the typed request; the value is then left as it was (and the drift
// test, which decodes every schema's fullest instance, names it).

void read(const json& in, bool& out, const Context&) {
  if (in.is_boolean()) out = in.get<bool>();
}

void read(const json& in, std::int64_t& out, const Context&) {
  if (in.is_number_integer()) out = in.get<std::int64_t>();
}

void read(const json& in, double& out, const Context&) {
  if (in.is_number()) out = in.get<double>();
}

void read(const json& in, std::string& out, const Context&) {
  if (in.is_string()) out = in.get<std::string>();
}

void read(const json& in, json& out, const Context&) { out = in; }

void read(const json& in, std::map<std::string, std::string>& out, const Context&) {
  out.clear();
  if (!in.is_object()) return;
  for (const auto& [key, value] : in.items()) {
    if (value.is_string()) out.emplace(key, value.get<std::string>());
  }
}

json write(bool value, const Emit&) { return value; }
json write(std::int64_t value, const Emit&) { return value; }
json write(double value, const Emit&) {
  // A whole number is written as one (a crawl `limit` of 50 reads back as 50, not 50.0).
  constexpr double kExact = 9007199254740992.0;  // 2^53
  if (value == static_cast<double>(static_cast<std::int64_t>(value)) && value < kExact &&
      value > -kExact) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}
json write(const std::string& value, const Emit&) { return value; }
json write(const json& value, const Emit&) { return value; }
json write(const std::map<std::string, std::string>& value, const Emit&) { return value; }

}  // namespace wire
}  // namespace webdata::mock::requests
