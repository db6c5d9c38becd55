#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/time.hpp"

namespace webdata {

/// GET /v2/team/credit-usage (v1: the same, read from snake_case fields).
struct CreditUsage {
  long long remaining_credits = 0;
  std::optional<long long> plan_credits;
  std::optional<Timestamp> billing_period_start;
  std::optional<Timestamp> billing_period_end;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// GET /v2/team/token-usage: extract tokens.
struct TokenUsage {
  long long remaining_tokens = 0;
  std::optional<long long> plan_tokens;
  std::optional<Timestamp> billing_period_start;
  std::optional<Timestamp> billing_period_end;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// One billing period of a usage history (and one API key, when asked by key).
struct UsagePeriod {
  std::optional<Timestamp> start_date;
  std::optional<Timestamp> end_date;
  std::optional<std::string> api_key;  ///< As the service shows it (masked by the mock).
  long long used = 0;                  ///< `creditsUsed` or `tokensUsed`.
  Extras extras;
};

/// GET /v2/team/{credit,token}-usage/historical[?byApiKey=true].
struct UsageHistory {
  std::vector<UsagePeriod> periods;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// GET /v2/team/queue-status.
struct QueueStatus {
  long long jobs_in_queue = 0;
  long long active_jobs_in_queue = 0;
  long long waiting_jobs_in_queue = 0;
  long long max_concurrency = 0;
  std::optional<Timestamp> most_recent_success;  ///< Unset when nothing succeeded in 24 h.
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// GET /v2/concurrency-check.
struct Concurrency {
  long long concurrency = 0;
  long long max_concurrency = 0;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
