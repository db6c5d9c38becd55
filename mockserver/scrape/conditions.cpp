// The deployment conditions the scrape pipeline imitates (Scraper::set_conditions), and the
// service's words for a scrape that timed out. Applied around the pipeline, so that the
// pipeline itself stays what a deployment with every capability does.
#include "scrape/scraper.hpp"

#include "core/text.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

Failure all_engines_failed() {
  return Failure{500, "SCRAPE_ALL_ENGINES_FAILED",
                 "All scraping engines failed! -- Double check the URL to make sure it's not "
                 "broken. If the issue persists, contact us at help@firecrawl.com."};
}

bool asks_screenshot_v1(const json& options) {
  const Formats formats = parse_formats(options.value("formats", json()));
  return formats.has("screenshot") || formats.has("screenshot@fullPage");
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

std::optional<Failure> Scraper::refused_by_conditions(const json& options,
                                                      const std::string& version) const {
  if (!conditions_.no_browser) return std::nullopt;
  // Only a browser runs actions, and the fetch engine's v1 path fails a screenshot outright.
  const bool actions = options.contains("actions") && options.at("actions").is_array() &&
                       !options.at("actions").empty();
  if (actions || (version == "v1" && asks_screenshot_v1(options))) return all_engines_failed();
  return std::nullopt;
}

std::optional<json> Scraper::options_under_conditions(const json& options) const {
  if (!conditions_.no_result_cache) return std::nullopt;
  json changed = options;
  changed["maxAge"] = 0;
  changed["storeInCache"] = false;
  if (changed.value("lockdown", false)) changed.erase("lockdown");  // nothing cached to serve
  return changed;
}

void Scraper::finish(Outcome& out, const std::string& version) const {
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
  if (conditions_.no_browser && version == "v2" && data.contains("screenshot")) {
    data.erase("screenshot");
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
