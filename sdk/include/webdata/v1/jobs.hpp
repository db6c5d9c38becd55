#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"

// The v1-only jobs of the official v1 client: deep research and llms.txt (both deprecated by the
// service; docs/reference/v1-jobs.md).

namespace webdata::v1 {

/// The `json` format's prompt and schema.
struct DeepResearchJsonOptions {
  std::optional<std::string> prompt;
  std::optional<Json> schema;
  std::optional<std::string> system_prompt;
};

/// POST /v1/deep-research.
struct DeepResearchRequest {
  std::string query;
  std::optional<int> max_depth;   ///< 1..10, default 7
  std::optional<int> time_limit;  ///< seconds, 30..300, default 270
  std::optional<int> max_urls;    ///< 1..1000, default 20
  std::optional<std::string> analysis_prompt;
  std::optional<std::string> system_prompt;
  std::vector<std::string> formats;  ///< "markdown" (default), "json"
  std::optional<DeepResearchJsonOptions> json_options;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// The answer of a v1 job's start call.
struct V1JobStarted {
  std::string id;
  std::vector<std::string> warnings;
  Extras extras;
  Diagnostics diagnostics;
};

struct ResearchActivity {
  std::string type;  ///< search, analyze, synthesis, ...
  std::string status;
  std::string message;
  std::string timestamp;  ///< ISO 8601
  long long depth = 0;
  Extras extras;
};

struct ResearchSource {
  std::string url;
  std::optional<std::string> title;
  std::optional<std::string> description;
  Extras extras;
};

/// GET /v1/deep-research/{id}. `status`: "processing", "completed" or "failed".
struct DeepResearchResult {
  bool success = false;
  std::string status;
  std::string final_analysis;  ///< Markdown; empty until completed.
  std::optional<Json> json;    ///< With the json format, once completed.
  std::vector<ResearchActivity> activities;
  std::vector<ResearchSource> sources;
  std::vector<std::string> summaries;
  long long current_depth = 0;
  long long max_depth = 0;
  std::optional<std::string> expires_at;
  std::optional<std::string> error;
  Extras extras;
  Diagnostics diagnostics;

  bool done() const { return status != "processing"; }
};

/// POST /v1/llmstxt.
struct LlmsTxtRequest {
  std::string url;
  std::optional<int> max_urls;  ///< 1..100, default 10
  std::optional<bool> show_full_text;
  std::optional<bool> cache;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// GET /v1/llmstxt/{id}. `status`: "processing", "completed" or "failed".
struct LlmsTxtResult {
  bool success = false;
  std::string status;
  std::string llmstxt;
  std::optional<std::string> llmsfulltxt;  ///< With `show_full_text`.
  std::optional<std::string> expires_at;
  std::optional<std::string> error;
  Extras extras;
  Diagnostics diagnostics;

  bool done() const { return status != "processing"; }
};

}  // namespace webdata::v1
