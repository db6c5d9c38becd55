// The deployment conditions the scrape pipeline imitates (Scraper::set_conditions), and the
// service's words for a scrape that timed out. Applied around the pipeline, so that the
// pipeline itself stays what a deployment with every capability does.
#include "scrape/scraper.hpp"

#include <utility>

#include "core/text.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

Failure all_engines_failed() {
  return Failure{500, "SCRAPE_ALL_ENGINES_FAILED",
                 "All scraping engines failed! -- Double check the URL to make sure it's not "
                 "broken. If the issue persists, contact us at help@firecrawl.com.",
                 json()};
}

void add_warning(json& data, const std::string& warning) {
  const auto it = data.find("warning");
  if (it != data.end() && it->is_string() && !it->get<std::string>().empty()) {
    *it = it->get<std::string>() + " " + warning;
  } else {
    data["warning"] = warning;
  }
}

}  // namespace

std::optional<Failure> Scraper::refused_by_conditions(
    const requests::ScrapeOptions& options) const {
  if (!conditions_.no_browser) return std::nullopt;
  // Only a browser runs actions, and the fetch engine's v1 path fails a screenshot outright
  // (wants() counts v1's screenshot@fullPage as a screenshot).
  const bool actions = options.actions && !options.actions->empty();
  const bool v1_screenshot = options.version == requests::Version::v1 && options.wants("screenshot");
  if (actions || v1_screenshot) return all_engines_failed();
  return std::nullopt;
}

std::optional<requests::ScrapeOptions> Scraper::options_under_conditions(
    const requests::ScrapeOptions& options) const {
  if (!conditions_.no_result_cache) return std::nullopt;
  requests::ScrapeOptions changed = options;
  changed.max_age = 0;
  changed.store_in_cache = false;
  changed.lockdown = false;  // nothing cached to serve
  return changed;
}

void Scraper::as_deployed(Outcome& out, requests::Version version) const {
  // The recorded deployment answered 500 without data to a PDF scrape: its only engine for a
  // PDF failed, which the service answers as every engine failing.
  if (conditions_.no_pdf_engine && !out.failure &&
      starts_with(out.content_type, "application/pdf")) {
    Outcome failed;
    failed.ready_at = out.ready_at;
    failed.failure = all_engines_failed();
    out = std::move(failed);
  }
  if (out.failure) {
    Failure& failure = *out.failure;
    // A fetch that ran out of time (waits that left no time already say so in these words).
    if (failure.code == "SCRAPE_TIMEOUT" && !starts_with(failure.message, "Scrape timed out")) {
      failure.message = "Scrape timed out";
    }
    if (conditions_.no_browser && failure.code == "SCRAPE_SITE_ERROR")
      failure = all_engines_failed();
    return;
  }
  json& data = out.document;
  if (!data.is_object()) return;
  if (conditions_.no_llm_key) {
    for (const char* field : {"json", "summary", "extract"}) data.erase(field);
  }
  if (conditions_.no_browser && version == requests::Version::v2 && data.erase("screenshot") > 0) {
    add_warning(data,
                "The engine used does not support the following features: screenshot -- "
                "your scrape may be partial.");
  }
  const auto metadata = data.find("metadata");
  if (metadata == data.end() || !metadata->is_object()) return;
  if (conditions_.no_result_cache) {
    metadata->erase("cacheState");
    metadata->erase("cachedAt");
  }
  if (conditions_.baseline_fields) metadata->erase("error");
}

}  // namespace webdata::mock::scrape
