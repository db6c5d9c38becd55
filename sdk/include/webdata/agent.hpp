#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/time.hpp"

namespace webdata {

/// POST /v2/agent.
struct AgentRequest {
  std::string prompt;
  std::optional<std::vector<std::string>> urls;  ///< Start from these pages.
  std::optional<Json> schema;                    ///< Shape of the wanted result.
  std::optional<int> max_credits;
  std::optional<std::string> model;   ///< "spark-1-pro", "spark-1-mini" or "spark-2"
  std::optional<std::string> effort;  ///< "low", "medium" or "high"
  /// Read only the given `urls`, never pages found by searching.
  std::optional<bool> strict_constrain_to_urls;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// The agent's answer. Deployments answer synchronously or run the agent as a job; the
/// client polls the job form until it ends, so both arrive here.
struct AgentResult {
  std::optional<bool> success;
  std::optional<std::string> id;  ///< Job id (job form only).
  JobState status;                ///< "completed" for the synchronous form.
  /// `data.result`: a JSON string in the specification's form, an object when `schema` shaped
  /// it. `result.as_string()` gives the text.
  Json result;
  std::vector<std::string> sources;
  std::optional<int> credits_used;
  std::optional<std::string> error;     ///< Set when the job failed.
  /// Why a failed job stopped early: "credit_limit_reached" when `max_credits` would have been
  /// exceeded (the job fails rather than spend more).
  std::optional<std::string> stop_reason;
  std::optional<Timestamp> expires_at;  ///< Job form only.
  std::optional<std::string> model;     ///< The model the request named.
  std::optional<std::string> effort;    ///< The effort the request named, when the service echoes it.
  Extras extras;
};

}  // namespace webdata
