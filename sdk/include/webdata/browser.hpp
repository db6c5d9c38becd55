#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/scrape.hpp"  // BrowserProfile

// Browser sessions (POST/GET /v2/browser, execute, DELETE) and interact on the page of an
// earlier scrape (POST/DELETE /v2/scrape/{id}/interact); docs/reference/browser.md.

namespace webdata {

/// POST /v2/browser.
struct BrowserRequest {
  std::optional<std::int64_t> ttl;           ///< seconds the session lives at most (30..3600)
  std::optional<std::int64_t> activity_ttl;  ///< seconds it lives without an execute
  std::optional<bool> stream_web_view;
  /// The team's named profile it starts from; with `save_changes` (the service's default: true)
  /// its state goes back into the profile when it ends.
  std::optional<BrowserProfile> profile;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// A session as created or listed.
struct BrowserSession {
  std::string id;
  std::string status;  ///< "active" | "destroyed" (listed sessions)
  std::string cdp_url;
  std::string live_view_url;
  std::optional<std::string> interactive_live_view_url;
  std::optional<std::string> expires_at;  ///< in the create answer
  std::optional<bool> stream_web_view;
  std::optional<std::string> created_at;
  std::optional<std::string> last_activity;
  Extras extras;
  Diagnostics diagnostics;
};

/// POST /v2/browser/{id}/execute.
struct BrowserExecuteRequest {
  std::string code;
  std::string language = "bash";  ///< python | node | bash
  std::optional<std::int64_t> timeout;  ///< seconds
};

/// POST /v2/scrape/{id}/interact: `code` or `prompt`.
struct InteractRequest {
  std::optional<std::string> code;
  std::optional<std::string> prompt;
  std::string language = "node";
  std::optional<std::int64_t> timeout;
};

/// What code or a prompt printed and returned.
struct BrowserRun {
  std::string stdout_text;
  std::string result;
  std::string stderr_text;
  std::string output;
  long long exit_code = 0;
  bool killed = false;
  std::optional<std::string> error;
  Extras extras;
  Diagnostics diagnostics;
};

/// A session ended (DELETE /v2/browser/{id}, DELETE /v2/scrape/{id}/interact).
struct BrowserEnded {
  std::string status;
  long long session_duration_ms = 0;
  long long credits_billed = 0;
  Extras extras;
  Diagnostics diagnostics;
};

}  // namespace webdata
