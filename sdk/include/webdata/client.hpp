#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "webdata/agent.hpp"
#include "webdata/batch_scrape.hpp"
#include "webdata/client_base.hpp"
#include "webdata/crawl.hpp"
#include "webdata/browser.hpp"
#include "webdata/crawl_preview.hpp"
#include "webdata/research.hpp"
#include "webdata/document.hpp"
#include "webdata/extract.hpp"
#include "webdata/monitors.hpp"
#include "webdata/jobs.hpp"
#include "webdata/map.hpp"
#include "webdata/options.hpp"
#include "webdata/parse.hpp"
#include "webdata/result.hpp"
#include "webdata/scrape.hpp"
#include "webdata/search.hpp"
#include "webdata/usage.hpp"

namespace webdata {

namespace detail {
/// The v2 request types of the calls both versions have (`BasicClient`).
struct ApiV2 {
  static constexpr ApiVersion kVersion = ApiVersion::kV2;
  using Format = FormatEntry;
  using ScrapeRequest = webdata::ScrapeRequest;
  using BatchScrapeRequest = webdata::BatchScrapeRequest;
  using CrawlRequest = webdata::CrawlRequest;
  using SearchRequest = webdata::SearchRequest;
  using SearchResults = webdata::SearchResults;
  using MapRequest = webdata::MapRequest;
  using ExtractRequest = webdata::ExtractRequest;
};
}  // namespace detail

extern template class BasicClient<detail::ApiV2>;

/// The v2 API. One method per endpoint, taking the endpoint's request; the common calls also
/// have a short form taking just the URL or query. The per-call options come last. The calls v1
/// has too are declared once in `BasicClient`. A client is cheap to copy (copies share one
/// connection pool) and safe to use from several threads.
///
///     webdata::Client client;  // WEBDATA_API_URL / WEBDATA_API_KEY
///     auto doc = client.scrape("https://example.com", {webdata::Format::markdown});
///     if (!doc) { std::cerr << doc.error() << "\n"; return 1; }
///     std::cout << doc->markdown.value_or("") << "\n";
class Client : public BasicClient<detail::ApiV2> {
 public:
  explicit Client(ClientOptions options = {});
  Client(std::string api_url, std::string api_key);

  /// POST /v2/parse: an uploaded file (HTML, PDF, plain text, Markdown) made into a document
  /// as a scrape makes one of a page (sdk/src/parse.cpp).
  Result<Document> parse(const ParseFile& file, const ParseOptions& parse_options = {},
                         const CallOptions& options = {}) const;
  /// POST /v2/parse of the file at `path` (read whole; its name is sent, its type follows its
  /// extension). An unreadable file is a kInvalidArgument error; nothing is sent.
  Result<Document> parse(const std::filesystem::path& path, const ParseOptions& parse_options = {},
                         const CallOptions& options = {}) const;

  /// POST /v2/agent. Deployments answer at once or with a job id; in the second case this
  /// polls GET /v2/agent/{id} per `policy` until the agent ends.
  Result<AgentResult> agent(const AgentRequest& request, const PollingPolicy& policy = {},
                            const CallOptions& options = {}) const;
  /// GET /v2/agent/{id}: the state of an agent job.
  Result<AgentResult> agent_status(const std::string& id, const CallOptions& options = {}) const;
  /// POST /v2/agent without waiting. A deployment that runs agents as jobs answers with the
  /// job's `id` (`status` "processing"): follow it with `agent_status`, stop it with
  /// `cancel_agent`. One that answers at once returns the answer (`status` "completed").
  Result<AgentResult> start_agent(const AgentRequest& request,
                                  const CallOptions& options = {}) const;
  /// DELETE /v2/agent/{id}: true when the job is cancelled (now or before), false when it had
  /// already completed or failed. An HTTP 404 error for an unknown or expired id.
  Result<bool> cancel_agent(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v2/agent: the team's agent runs, newest first, a page at a time. `before` (Unix
  /// milliseconds, `AgentList::next_before` of the previous page) asks for older runs.
  Result<AgentList> list_agents(std::optional<long long> before = std::nullopt,
                                const CallOptions& options = {}) const;
  /// GET /v2/agent/{id}/trace: what the run did, as events. `live_view` also asks for the run's
  /// open browser sessions.
  Result<AgentTrace> agent_trace(const std::string& id, bool live_view = false,
                                 const CallOptions& options = {}) const;
  /// GET /v2/agent/{id}/snapshots/{snapshot_id}: the content of an artifact a trace event
  /// names (`artifact.snapshotId`).
  Result<std::string> agent_snapshot(const std::string& id, const std::string& snapshot_id,
                                     const CallOptions& options = {}) const;
  /// GET /v2/agent/threads/{thread_id}: a thread and its runs; `include_data` adds each
  /// completed run's `data`.
  Result<AgentThread> agent_thread(const std::string& thread_id, bool include_data = false,
                                   const CallOptions& options = {}) const;

  // ---- Beyond the specification's core (sdk/src/client_surface.cpp).

  /// POST /v2/crawl/params-preview: the crawl a prompt implies, ready for `start_crawl`.
  Result<CrawlParamsPreview> crawl_params_preview(const CrawlParamsPreviewRequest& request,
                                                  const CallOptions& options = {}) const;

  // ---- Browser sessions and interact (sdk/src/client_browser.cpp; docs/reference/browser.md).

  /// POST /v2/browser: a new session.
  Result<BrowserSession> create_browser(const BrowserRequest& request = {},
                                        const CallOptions& options = {}) const;
  /// GET /v2/browser: the team's sessions; `status` "active" or "destroyed" filters.
  Result<std::vector<BrowserSession>> list_browsers(const std::string& status = "",
                                                    const CallOptions& options = {}) const;
  /// POST /v2/browser/{id}/execute: code on the session's page.
  Result<BrowserRun> browser_execute(const std::string& id, const BrowserExecuteRequest& request,
                                     const CallOptions& options = {}) const;
  /// DELETE /v2/browser/{id}: ends the session; its duration and the credits billed.
  Result<BrowserEnded> delete_browser(const std::string& id, const CallOptions& options = {}) const;
  /// POST /v2/scrape/{id}/interact: code or a prompt on the page of an earlier scrape.
  Result<BrowserRun> interact(const std::string& scrape_id, const InteractRequest& request,
                              const CallOptions& options = {}) const;
  /// DELETE /v2/scrape/{id}/interact: ends the scrape's interaction session.
  Result<BrowserEnded> stop_interaction(const std::string& scrape_id,
                                        const CallOptions& options = {}) const;

  // ---- Monitors (sdk/src/client_monitors.cpp, docs/reference/monitors.md).

  /// POST /v2/monitor: a monitor of `request.targets` on `request.schedule`.
  Result<Monitor> create_monitor(const CreateMonitorRequest& request,
                                 const CallOptions& options = {}) const;
  /// GET /v2/monitor: the team's monitors, oldest first.
  Result<std::vector<Monitor>> list_monitors(const MonitorListOptions& paging = {},
                                             const CallOptions& options = {}) const;
  /// GET /v2/monitor/{id}.
  Result<Monitor> get_monitor(const std::string& id, const CallOptions& options = {}) const;
  /// PATCH /v2/monitor/{id}: what `request` sets changes.
  Result<Monitor> update_monitor(const std::string& id, const UpdateMonitorRequest& request,
                                 const CallOptions& options = {}) const;
  /// DELETE /v2/monitor/{id}: true once deleted.
  Result<bool> delete_monitor(const std::string& id, const CallOptions& options = {}) const;
  /// POST /v2/monitor/{id}/run: a check queued now; wait for it with `wait_monitor_check`.
  Result<MonitorCheck> run_monitor(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v2/monitor/{id}/checks: the monitor's checks, newest first (without their pages).
  Result<std::vector<MonitorCheck>> monitor_checks(const std::string& id,
                                                   const MonitorListOptions& paging = {},
                                                   const CallOptions& options = {}) const;
  /// GET /v2/monitor/{id}/checks/{check_id}: the check and a page of its pages (`next` when
  /// there are more).
  Result<MonitorCheck> monitor_check(const std::string& id, const std::string& check_id,
                                     const MonitorCheckOptions& query = {},
                                     const CallOptions& options = {}) const;
  /// Waits for a check to finish (`MonitorCheck::finished()`): polls it `policy.interval` apart
  /// on the client's clock, within `policy.max_wait` and the call's deadline (kTimeout) unless
  /// `policy.cancel` fires (kCancelled); then the check with all its pages (every `next` read).
  ///
  ///     auto queued = client.run_monitor(id).value();
  ///     auto check = client.wait_monitor_check(id, queued.id).value();  // check.pages
  Result<MonitorCheck> wait_monitor_check(const std::string& id, const std::string& check_id,
                                          const PollingPolicy& policy = {},
                                          const CallOptions& options = {}) const;

  // ---- Research, developer search, feedback, support ask (sdk/src/client_research.cpp).

  /// GET /v2/search/research/papers: papers ranked by relevance to `request.query`.
  Result<PaperSearch> search_papers(const SearchPapersRequest& request,
                                    const CallOptions& options = {}) const;
  /// GET /v2/search/research/papers/{id}: a paper's metadata (id, arxiv:..., doi:...).
  Result<Paper> get_paper(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v2/search/research/papers/{id}?query=: the paper's passages answering `question`.
  Result<Paper> read_paper(const std::string& id, const std::string& question,
                           std::optional<std::int64_t> k = std::nullopt,
                           const CallOptions& options = {}) const;
  /// GET /v2/search/research/papers/{id}/similar: related papers through the citation graph.
  Result<SimilarPapers> similar_papers(const std::string& id, const SimilarPapersRequest& request,
                                       const CallOptions& options = {}) const;
  /// GET /v2/search/research/github (deprecated by the service for developer_search).
  Result<GithubSearch> search_github(const std::string& query,
                                     std::optional<std::int64_t> k = std::nullopt,
                                     const CallOptions& options = {}) const;
  /// POST /v2/search/developer: repositories and documentation, with passages.
  Result<DeveloperSearch> developer_search(const DeveloperSearchRequest& request,
                                           const CallOptions& options = {}) const;
  /// POST /v2/feedback: feedback on a scrape, parse, map or search job.
  Result<FeedbackReceipt> feedback(const FeedbackRequest& request,
                                   const CallOptions& options = {}) const;
  /// POST /v2/search/{id}/feedback (`request.endpoint` and `job_id` are not sent).
  Result<FeedbackReceipt> search_feedback(const std::string& search_id,
                                          const FeedbackRequest& request,
                                          const CallOptions& options = {}) const;
  /// POST /v2/support/ask: an answer about a job (`job_id` empty: a general question).
  Result<SupportAnswer> support_ask(const std::string& question, const std::string& job_id = "",
                                    const CallOptions& options = {}) const;
};

}  // namespace webdata
