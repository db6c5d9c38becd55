// The failures more than one stage answers, in the service's words.
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

Failure bad_option(std::string message, const std::string& field) {
  json details = json::array(
      {{{"code", "custom"}, {"message", message}, {"path", json::array({field})}}});
  return Failure{400, "BAD_REQUEST", std::move(message), std::move(details)};
}

Failure bad_selector(const requests::ScrapeOptions& options, const content::SelectorError& error) {
  return bad_option(std::string("Invalid CSS selector in includeTags/excludeTags: ") + error.what(),
                    options.include_tags ? "includeTags" : "excludeTags");
}

Failure no_time_left(const std::string& spent_by, const std::string& verb,
                     std::chrono::milliseconds spent, std::chrono::milliseconds timeout) {
  return Failure{408, "SCRAPE_TIMEOUT",
                 "Scrape timed out: " + spent_by + " (" + std::to_string(spent.count()) + " ms) " +
                     verb + " no time within timeout (" + std::to_string(timeout.count()) +
                     " ms)",
                 nullptr};
}

}  // namespace webdata::mock::scrape
