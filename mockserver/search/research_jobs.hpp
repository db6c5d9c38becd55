#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "search/service.hpp"

// v1 deep research (POST /v1/deep-research, GET /v1/deep-research/{id}). The mock runs no model:
// a research is rounds of searches over the index (the first for the query, each next one for
// the query and the best new source's title), each round's new pages its sources, and a final
// analysis written from them. Everything is worked out at the start; the job then shows it as
// it would happen, one step a `kResearchStep` apart on the mock's clock (the admin clock can
// skip ahead), so `processing` with a growing list of activities can be observed.

namespace webdata::mock::search {

/// The time between two steps of a research (one activity each).
constexpr std::chrono::milliseconds kResearchStep{500};

/// What a research asks for (the request's fields, read by the route).
struct ResearchSpec {
  std::string query;
  std::int64_t max_depth = 7;
  std::int64_t max_urls = 20;
  bool json = false;            ///< The `json` format: data.json from the sources.
  nlohmann::json schema;        ///< jsonOptions.schema, or null.
  std::string json_prompt;      ///< jsonOptions.prompt, else the query.
  std::string analysis_prompt;  ///< analysisPrompt: quoted at the top of the analysis.
};

/// One step of a research, shown once its time has come.
struct ResearchActivity {
  std::string type;  ///< search | analyze | synthesis
  std::string message;
  std::int64_t depth = 0;
  std::int64_t step = 0;  ///< Shown from created_at + step * kResearchStep.
};

struct ResearchSource {
  std::string url;
  std::string title;
  std::string description;
  std::int64_t step = 0;  ///< The step of the search that found it.
};

/// One research, fixed at its start.
struct ResearchJob {
  std::string id;
  std::string team_id;
  std::chrono::system_clock::time_point created_at;
  std::int64_t max_depth = 0;
  std::vector<ResearchActivity> activities;
  std::vector<ResearchSource> sources;
  std::vector<std::string> summaries;  ///< One a round.
  std::string final_analysis;
  std::optional<nlohmann::json> json;  ///< With the json format.
  std::int64_t done_step = 0;          ///< Completed from created_at + done_step * kResearchStep.
};

/// Keeps every research a day after it starts. Thread-safe.
class ResearchEngine {
 public:
  ResearchEngine(SearchService& service, const Clock& clock);

  /// Researches `spec` for `team_id` and keeps the job.
  std::shared_ptr<const ResearchJob> start(const std::string& team_id, const ResearchSpec& spec);
  /// The team's research, or null (unknown, another team's, or past its day).
  std::shared_ptr<const ResearchJob> find(const std::string& id, const std::string& team_id);
  /// Forgets a research (its start could not be paid for).
  void discard(const std::string& id);
  /// The GET /v1/deep-research/{id} answer, as of now on the mock's clock.
  nlohmann::json status_body(const ResearchJob& job) const;
  void reset();

 private:
  /// One round: searches `query`, adds its new pages to `job`'s sources; false when none.
  bool round(ResearchJob& job, const ResearchSpec& spec, const std::string& query,
             std::int64_t depth);
  std::string analysis(const ResearchJob& job, const ResearchSpec& spec) const;

  SearchService& service_;
  const Clock& clock_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ResearchJob>> jobs_;
};

}  // namespace webdata::mock::search
