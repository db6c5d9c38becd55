// redactPII: not a format but a step of the formats stage, between the formats made from the
// page and those made from the delivered formats: personal data in the text formats is replaced
// (formats/queries.hpp).
#include <set>

#include "formats/queries.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

void redact_delivered(const requests::ScrapeOptions& options, nlohmann::json& data) {
  if (!options.redact_pii) return;
  static const std::set<std::string> kText = {"markdown", "html", "summary", "answer",
                                              "highlights"};
  for (auto& [field, value] : data.items()) {
    if (kText.count(field) != 0 && value.is_string()) {
      value = formats::redact_pii(value.get<std::string>(), *options.redact_pii);
    }
  }
}

}  // namespace webdata::mock::scrape::produce
