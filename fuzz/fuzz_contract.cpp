// Request JSON as the mock reads it: parse untrusted text, validate it against every request
// schema (field-level issues), apply the defaults of those it passes, and render each issue.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

namespace {

const std::vector<std::string>& request_schemas() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& name : webdata::contract::SchemaSet::embedded().names()) {
      if (name.find(".request") != std::string::npos || name.find("scrape-options") != std::string::npos ||
          name.find("webhook-spec") != std::string::npos || name.find("action") != std::string::npos) {
        out.push_back(name);
      }
    }
    return out;
  }();
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto body = nlohmann::json::parse(text, nullptr, false);
  if (body.is_discarded()) return 0;
  const auto& schemas = webdata::contract::SchemaSet::embedded();
  for (const auto& name : request_schemas()) {
    const auto issues = schemas.validate(name, body);
    for (const auto& issue : issues) (void)issue.to_json().dump();
    if (issues.empty()) {
      const auto filled = schemas.with_defaults(name, body);
      // Defaults must never make a valid request invalid.
      if (!schemas.validate(name, filled).empty()) __builtin_trap();
    }
  }
  return 0;
}
