#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/teams.hpp"
#include "scrape/scraper.hpp"
#include "web/virtual_web.hpp"

// v1 llms.txt (POST /v1/llmstxt, GET /v1/llmstxt/{id}): the site's pages found as map finds them
// (jobs::map_site), each scraped to markdown, make an llms.txt (a title, the home page's
// description and a line per page) and an llms-full.txt (every page's markdown). The pages are
// read at the start; the job shows `processing` for a `kLlmsTxtStep` a page on the mock's clock
// (the admin clock can skip ahead), then `completed`.

namespace webdata::mock::jobs {

constexpr std::chrono::milliseconds kLlmsTxtStep{300};

struct LlmsTxtJob {
  std::string id;
  std::string team_id;
  std::chrono::system_clock::time_point created_at;
  std::string llmstxt;
  std::string llmsfulltxt;
  bool show_full_text = false;
  std::optional<std::string> error;  ///< Failed: no page of the site could be read.
  std::int64_t credits = 0;          ///< What the pages read cost.
  std::chrono::milliseconds duration{0};
};

/// Keeps every generation a day after it starts. Thread-safe.
class LlmsTxtEngine {
 public:
  LlmsTxtEngine(scrape::Scraper& scraper, const web::VirtualWeb& web, const Clock& clock);

  /// Reads up to `max_urls` pages of the site at `url` for `team` and keeps the job.
  std::shared_ptr<const LlmsTxtJob> start(const Team& team, const std::string& url,
                                          std::size_t max_urls, bool show_full_text);
  std::shared_ptr<const LlmsTxtJob> find(const std::string& id, const std::string& team_id);
  void discard(const std::string& id);
  /// The GET /v1/llmstxt/{id} answer, as of now on the mock's clock.
  nlohmann::json status_body(const LlmsTxtJob& job) const;
  void reset();

 private:
  scrape::Scraper& scraper_;
  const web::VirtualWeb& web_;
  const Clock& clock_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const LlmsTxtJob>> jobs_;
};

}  // namespace webdata::mock::jobs
