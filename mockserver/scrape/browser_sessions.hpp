#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "content/document.hpp"
#include "core/clock.hpp"
#include "web/virtual_web.hpp"

// Browser sessions (POST /v2/browser) and the interactive sessions on the page of an earlier
// scrape (POST /v2/scrape/{id}/interact); docs/reference/browser.md. A session holds one page of
// the virtual web; code and prompts become the scrape pipeline's actions (formats::ActionRunner)
// run on it. Time is the mock's clock: a session ends at its ttl, or activityTtl after its last
// execute, when next looked at. A session made with a named profile starts on the page the team's
// profile holds; one with saveChanges puts its page back there when it ends. Thread-safe.

namespace webdata::mock::scrape {

/// What a run of code or of a prompt printed and returned.
struct BrowserRun {
  std::string stdout_text;
  std::string result;  ///< the value of the last command that had one
  std::string stderr_text;
  int exit_code = 0;
};

/// Reads `code` (one command a line, docs/reference/browser.md#code) and runs it on `page`,
/// which becomes the page it ended on. `navigate` fetches a page of the virtual web.
using PageFetcher = std::function<std::optional<content::Page>(const std::string& url)>;
BrowserRun run_browser_code(const std::string& code, std::optional<content::Page>& page,
                            const PageFetcher& navigate);
/// Runs a prompt in words (docs/reference/browser.md#prompts) clause by clause on `page`; the
/// result is the page it ended on in words (describe_page). A clause not understood stops it
/// with exit code 1.
BrowserRun run_browser_prompt(const std::string& prompt, std::optional<content::Page>& page,
                              const PageFetcher& navigate);
/// The page in words: its title, URL and the start of its markdown (an interact prompt's answer).
std::string describe_page(const content::Page& page);

/// What a new browser session is made with.
struct BrowserSessionOptions {
  std::chrono::seconds ttl{600};
  std::chrono::seconds activity_ttl{300};
  bool stream_web_view = false;
  std::optional<std::string> profile;  ///< the team's named profile it starts from
  bool save_profile = false;           ///< whether its page goes back to the profile at its end
};

struct BrowserSession {
  std::string id;
  std::string team_id;
  std::string scrape_id;  ///< set for the interactive session of a scrape
  std::chrono::system_clock::time_point created_at;
  std::chrono::system_clock::time_point last_activity;
  std::chrono::system_clock::time_point expires_at;
  std::chrono::seconds activity_ttl{300};
  bool stream_web_view = false;
  bool destroyed = false;
  std::chrono::system_clock::time_point ended_at;
  std::int64_t credits_billed = 0;
  std::optional<content::Page> page;
  std::optional<std::string> profile;
  bool save_profile = false;
};

class BrowserSessions {
 public:
  /// `bill` charges a team for a session that ended (2 credits a started minute).
  using Bill = std::function<void(const std::string& team_id, std::int64_t credits)>;
  BrowserSessions(const web::VirtualWeb& web, const Clock& clock, Bill bill);

  static constexpr std::int64_t kCreditsPerMinute = 2;

  /// A new session of `team_id`; with a profile the team saved, it starts on the profile's page
  /// (as the session that saved it left it).
  BrowserSession create(const std::string& team_id, const BrowserSessionOptions& options);

  /// The session `id` of `team_id` (ended ones too: `destroyed`); nullopt for another team's.
  std::optional<BrowserSession> find(const std::string& id, const std::string& team_id);
  /// The session `id` whatever its team: for the session's own URLs (live view, CDP), whose
  /// unguessable id is the credential.
  std::optional<BrowserSession> find_by_id(const std::string& id);
  /// The team's browser sessions (not the interactive ones), newest first; `status` filters.
  std::vector<BrowserSession> list(const std::string& team_id, const std::string& status);
  enum class Ran { ok, not_found, ended };
  /// Runs `code` (or the prompt, `is_prompt`) in the session; `ended` when it is destroyed or
  /// expired.
  Ran execute(const std::string& id, const std::string& team_id, const std::string& code,
              BrowserRun& out, bool is_prompt = false);
  /// Ends the session and bills it; nullopt when the team has no session `id`.
  std::optional<BrowserSession> destroy(const std::string& id, const std::string& team_id);

  /// The interactive session of scrape `scrape_id`, made on `url` when there is none live.
  BrowserSession interact_session(const std::string& scrape_id, const std::string& team_id,
                                  const std::string& url);
  /// The live interactive session of a scrape, if any.
  std::optional<std::string> interact_id(const std::string& scrape_id,
                                         const std::string& team_id);
  /// A page of the virtual web, as a browser session opens it.
  std::optional<content::Page> open(const std::string& url) const;
  void clear();

 private:
  /// Ends sessions past their ttl or idle past activityTtl, billing them.
  void expire_locked(std::chrono::system_clock::time_point now);
  void end_locked(BrowserSession& session, std::chrono::system_clock::time_point at);

  const web::VirtualWeb& web_;
  const Clock& clock_;
  Bill bill_;
  mutable std::mutex mutex_;
  std::map<std::string, BrowserSession> sessions_;
  std::map<std::string, std::string> by_scrape_;  ///< team + "/" + scrape id -> session id
  std::map<std::string, content::Page> profiles_;  ///< team + "/" + profile name -> its page
};

}  // namespace webdata::mock::scrape
