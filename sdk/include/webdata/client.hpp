#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "webdata/agent.hpp"
#include "webdata/batch_scrape.hpp"
#include "webdata/crawl.hpp"
#include "webdata/crawl_preview.hpp"
#include "webdata/document.hpp"
#include "webdata/extract.hpp"
#include "webdata/jobs.hpp"
#include "webdata/map.hpp"
#include "webdata/options.hpp"
#include "webdata/parse.hpp"
#include "webdata/result.hpp"
#include "webdata/scrape.hpp"
#include "webdata/search.hpp"
#include "webdata/usage.hpp"

namespace webdata {

/// The v2 API. One method per endpoint, taking the endpoint's request; the common calls also
/// have a short form taking just the URL or query. The per-call options come last. A client is
/// cheap to copy (copies share one connection pool) and safe to use from several threads.
///
///     webdata::Client client;  // WEBDATA_API_URL / WEBDATA_API_KEY
///     auto doc = client.scrape("https://example.com", {webdata::Format::markdown});
///     if (!doc) { std::cerr << doc.error() << "\n"; return 1; }
///     std::cout << doc->markdown.value_or("") << "\n";
class Client {
 public:
  explicit Client(ClientOptions options = {});
  Client(std::string api_url, std::string api_key);

  /// POST /v2/scrape.
  Result<Document> scrape(const ScrapeRequest& request, const CallOptions& options = {}) const;
  /// POST /v2/scrape of `url` with `formats` (empty: the service default, markdown) and every
  /// other option at its default.
  Result<Document> scrape(std::string url, std::vector<FormatEntry> formats = {},
                          const CallOptions& options = {}) const;
  /// GET /v2/scrape/{id}: a past scrape by its `metadata.scrapeId`, the document as that
  /// scrape returned it (its formats, in the shape of the version that made it; pages of batch
  /// scrapes and crawls too). Kept 24 hours. An HTTP error 404 for an unknown or expired id or a
  /// zero-data-retention scrape, 403 for another team's scrape, 400 for an id that is not a UUID;
  /// self-hosted deployments answer 404 for every id (the route needs the service's database).
  Result<Document> get_scrape(const std::string& id, const CallOptions& options = {}) const;

  /// POST /v2/parse: an uploaded file (HTML, PDF, plain text, Markdown) made into a document
  /// as a scrape makes one of a page (sdk/src/parse.cpp).
  Result<Document> parse(const ParseFile& file, const ParseOptions& parse_options = {},
                         const CallOptions& options = {}) const;
  /// POST /v2/parse of the file at `path` (read whole; its name is sent, its type follows its
  /// extension). An unreadable file is a kInvalidArgument error; nothing is sent.
  Result<Document> parse(const std::filesystem::path& path, const ParseOptions& parse_options = {},
                         const CallOptions& options = {}) const;

  /// POST /v2/batch/scrape: starts the job and returns its handle.
  Result<BatchScrapeJob> start_batch_scrape(const BatchScrapeRequest& request,
                                            const CallOptions& options = {}) const;
  /// Starts a batch scrape of `urls` with default options.
  Result<BatchScrapeJob> start_batch_scrape(std::vector<std::string> urls,
                                            const CallOptions& options = {}) const;
  /// Starts a batch scrape and waits for all its documents (`BatchScrapeJob::wait`).
  Result<JobStatus> batch_scrape(const BatchScrapeRequest& request,
                                 const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
  /// Batch-scrapes `urls` with default options and waits for all the documents.
  Result<JobStatus> batch_scrape(std::vector<std::string> urls, const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
  /// A handle on an existing batch scrape.
  BatchScrapeJob batch_scrape_job(std::string id) const;
  /// GET /v2/batch/scrape/{id}: one chunk.
  Result<JobStatus> batch_scrape_status(const std::string& id,
                                        const CallOptions& options = {}) const;
  /// DELETE /v2/batch/scrape/{id}.
  Result<JobState> cancel_batch_scrape(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// GET /v2/batch/scrape/{id}/errors.
  Result<JobErrors> batch_scrape_errors(const std::string& id,
                                        const CallOptions& options = {}) const;

  /// POST /v2/crawl: starts the job and returns its handle.
  Result<CrawlJob> start_crawl(const CrawlRequest& request, const CallOptions& options = {}) const;
  /// Starts a crawl from `url` with default options.
  Result<CrawlJob> start_crawl(std::string url, const CallOptions& options = {}) const;
  /// Starts a crawl and waits for all its documents (`CrawlJob::wait`).
  Result<JobStatus> crawl(const CrawlRequest& request, const PollingPolicy& policy = {},
                          const CallOptions& options = {}) const;
  /// Crawls from `url` with default options and waits for all the documents.
  Result<JobStatus> crawl(std::string url, const PollingPolicy& policy = {},
                          const CallOptions& options = {}) const;
  /// A handle on an existing crawl.
  CrawlJob crawl_job(std::string id) const;
  /// GET /v2/crawl/{id}: one chunk.
  Result<JobStatus> crawl_status(const std::string& id, const CallOptions& options = {}) const;
  /// DELETE /v2/crawl/{id}.
  Result<JobState> cancel_crawl(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v2/crawl/{id}/errors.
  Result<JobErrors> crawl_errors(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v2/crawl/active: the team's running crawls.
  Result<std::vector<ActiveCrawl>> active_crawls(const CallOptions& options = {}) const;

  /// POST /v2/search.
  Result<SearchResults> search(const SearchRequest& request, const CallOptions& options = {}) const;
  /// POST /v2/search of `query` with default options (5 web results, no scraping).
  Result<SearchResults> search(std::string query, const CallOptions& options = {}) const;

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

  /// POST /v2/map: the site's URLs, without scraping it.
  Result<MapResult> map(const MapRequest& request, const CallOptions& options = {}) const;
  /// POST /v2/crawl/params-preview: the crawl a prompt implies, ready for `start_crawl`.
  Result<CrawlParamsPreview> crawl_params_preview(const CrawlParamsPreviewRequest& request,
                                                  const CallOptions& options = {}) const;
  /// GET /v2/team/credit-usage.
  Result<CreditUsage> credit_usage(const CallOptions& options = {}) const;
  /// GET /v2/team/credit-usage/historical[?byApiKey=true].
  Result<UsageHistory> credit_usage_history(bool by_api_key = false,
                                            const CallOptions& options = {}) const;
  /// GET /v2/team/token-usage.
  Result<TokenUsage> token_usage(const CallOptions& options = {}) const;
  /// GET /v2/team/token-usage/historical[?byApiKey=true].
  Result<UsageHistory> token_usage_history(bool by_api_key = false,
                                           const CallOptions& options = {}) const;
  /// GET /v2/team/queue-status.
  Result<QueueStatus> queue_status(const CallOptions& options = {}) const;
  /// GET /v2/concurrency-check.
  Result<Concurrency> concurrency(const CallOptions& options = {}) const;
  /// POST /v2/extract: starts an extract job; read it with `extract_status`.
  Result<ExtractStarted> start_extract(const ExtractRequest& request,
                                       const CallOptions& options = {}) const;
  /// GET /v2/extract/{id}.
  Result<ExtractResult> extract_status(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// Starts an extract job and polls it (`policy.interval` apart) until it ends; a failed or
  /// cancelled job is returned as such (see `status`, `error`), not as an Error. kTimeout past
  /// `policy.max_wait`, kCancelled when `policy.cancel` fires.
  Result<ExtractResult> extract(const ExtractRequest& request, const PollingPolicy& policy = {},
                                const CallOptions& options = {}) const;

  /// The resolved base URL, e.g. "http://127.0.0.1:3002".
  const std::string& api_url() const;

 private:
  std::shared_ptr<const detail::ClientCore> core_;
};

}  // namespace webdata
