#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/job_runner.hpp"
#include "core/teams.hpp"
#include "requests/scrape_options.hpp"
#include "scrape/scraper.hpp"
#include "web/virtual_web.hpp"

// Extract jobs (POST /v1|v2/extract, GET /v1|v2/extract/{id}): structured data from a set of
// pages. A URL ending in `/*` stands for the pages of the site below that path, found the way
// map finds them (jobs::map_site). Each page goes through the same scraper with the `json`
// format, so a page gives exactly what `formats: [{type: json}]` gives; the pages' answers are
// merged into one `data` that still validates against the request's schema.

namespace webdata::mock::jobs {

enum class ExtractState { processing, completed, failed, cancelled };
const char* extract_state_name(ExtractState state);  ///< The wire value.

/// What a job has done so far; reached only through ExtractJob::lock().
struct ExtractProgress {
  ExtractState state = ExtractState::processing;
  nlohmann::json data = nlohmann::json::array();  ///< `[]` until completed, as deployments answer.
  std::map<std::string, std::vector<std::string>> sources;  ///< Top-level field -> page URLs.
  std::int64_t credits_used = 0;
  std::int64_t tokens_used = 0;
  std::vector<std::string> warnings;
  std::optional<std::string> error;
  std::optional<std::chrono::system_clock::time_point> finished_at;
};

/// What the caller asks for, already validated (the API layer checks URLs and options).
struct ExtractRequest {
  std::vector<std::string> urls;  ///< Absolute http(s) URLs; a trailing `/*` is a glob.
  /// The schema (null: an answer keyed by what the prompt names) and the prompts.
  requests::ExtractSpec spec;
  bool allow_external_links = false;
  bool include_subdomains = true;
  bool show_sources = false;
  /// The request's scrape options (its version's); each page gets them with markdown and json.
  requests::ScrapeOptions scrape_options;
  std::vector<std::string> warnings;  ///< Known at start (skipped invalid URLs).
};

/// One extract job: the request part is fixed at start; the progress is reached only through
/// lock() (Guarded).
class ExtractJob : public Guarded<ExtractProgress> {
 public:
  std::string id;
  std::string team_id;
  const Team* team = nullptr;  ///< The team as configured (Teams outlives the engine).
  std::string api_key;  ///< Usage is billed to the key that started the job.
  ExtractRequest request;
  std::chrono::system_clock::time_point created_at;
};

struct ExtractSettings {
  std::size_t glob_pages = 20;  ///< Pages one `/*` URL stands for, at most.
  std::size_t max_pages = 50;   ///< Pages one job reads, at most.
  std::chrono::milliseconds pacing{20};  ///< A job's next page starts this long after one ends.
  int workers = 2;                       ///< Jobs run at once; the rest wait in order.
  /// --inject-fault no-llm-key: a deployment without a model key fails every job.
  bool no_model = false;
  /// --inject-fault baseline-fields: the status without creditsUsed and tokensUsed.
  bool baseline_fields = false;
  /// --inject-fault extract-error-object: a failed job answers `"error": {}` (the Aug-2025
  /// server) instead of its reason.
  bool fault_error_object = false;
};

/// Runs extract jobs on its own workers and keeps them for 24 h after they end. Thread-safe.
class ExtractEngine {
 public:
  ExtractEngine(scrape::Scraper& scraper, const web::VirtualWeb& web, Teams& teams,
                const Clock& clock, ExtractSettings settings);
  ~ExtractEngine();  ///< Running jobs end `cancelled` at their next page.
  ExtractEngine(const ExtractEngine&) = delete;
  ExtractEngine& operator=(const ExtractEngine&) = delete;

  /// Queues a job for `team`; billed to the key in effect (UsageAttribution).
  std::shared_ptr<ExtractJob> start(const Team& team, ExtractRequest request);
  /// The team's job, or null (unknown, another team's, or past its retention).
  std::shared_ptr<ExtractJob> find(const std::string& id, const std::string& team_id);
  /// The status answer (GET /v1|v2/extract/{id}).
  nlohmann::json status_body(const ExtractJob& job) const;

  void set_pacing(std::chrono::milliseconds pacing) { pacing_ms_ = pacing.count(); }
  /// Blocks until no job is queued or running, or `timeout` passes; true when idle.
  bool wait_idle(std::chrono::milliseconds timeout);
  /// Forgets every job; running ones end `cancelled` at their next page.
  void reset();

 private:
  void run(ExtractJob& job);
  /// What a job does without a model: it fails after its first step.
  void fail_without_model(ExtractJob& job);
  /// The job's `data`, merged from the pages' answers, and the pages each field came from.
  static void complete(ExtractProgress& progress, const std::vector<nlohmann::json>& answers,
                       const std::vector<std::string>& answer_urls, const nlohmann::json& schema);
  /// Pages of other sites that `page` links to, queued while the job's bounds allow.
  void add_external_links(const std::string& page, const std::vector<std::string>& links,
                          std::vector<std::string>& pages, std::set<std::string>& external) const;
  /// The pages the request stands for: plain URLs as given, globs expanded (deduplicated).
  std::vector<std::string> expand(const ExtractRequest& request,
                                  std::vector<std::string>& warnings) const;
  static bool ended(const ExtractJob& job);

  scrape::Scraper& scraper_;
  const web::VirtualWeb& web_;
  Teams& teams_;
  const Clock& clock_;
  ExtractSettings settings_;
  std::atomic<long long> pacing_ms_;
  JobRunner<ExtractJob> runner_;  // last: its workers run jobs with the members above
};

/// The answers of several pages as one (first non-empty value of a field wins, objects merge
/// field by field, arrays concatenate without repeats up to `maxItems`). When the merged value
/// does not satisfy `schema` (say a `maxLength` or `uniqueItems` the merge broke), the first
/// page's answer is kept: each page's answer satisfies the schema by itself.
nlohmann::json merge_answers(const std::vector<nlohmann::json>& answers,
                             const nlohmann::json& schema);

}  // namespace webdata::mock::jobs
