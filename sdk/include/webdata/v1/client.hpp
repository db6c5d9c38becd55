#pragma once

#include <memory>
#include <string>
#include <vector>

#include "webdata/crawl.hpp"
#include "webdata/document.hpp"
#include "webdata/extract.hpp"
#include "webdata/jobs.hpp"
#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/map.hpp"
#include "webdata/usage.hpp"
#include "webdata/v1/crawl.hpp"
#include "webdata/v1/map.hpp"
#include "webdata/v1/scrape.hpp"
#include "webdata/v1/search.hpp"

namespace webdata::v1 {

/// The v1 API, for deployments and code that still use it. Same conventions as
/// `webdata::Client`; results use the shared models (v1 documents may carry `llm_extraction`
/// and `extract`, never `summary` or `branding`).
class Client {
 public:
  explicit Client(ClientOptions options = {});
  Client(std::string api_url, std::string api_key);

  /// POST /v1/scrape.
  Result<Document> scrape(const ScrapeRequest& request, const CallOptions& options = {}) const;
  /// POST /v1/scrape of `url` with `formats` (e.g. {webdata::Format::markdown}; empty: the
  /// service default) and every other option at its default.
  Result<Document> scrape(std::string url, std::vector<std::string> formats = {},
                          const CallOptions& options = {}) const;
  /// GET /v1/scrape/{id}: a past scrape by its `metadata.scrapeId`, the document as that
  /// scrape returned it (its formats, in the shape of the version that made it; pages of batch
  /// scrapes and crawls too). Kept 24 hours. An HTTP error 404 for an unknown or expired id or a
  /// zero-data-retention scrape, 403 for another team's scrape, 400 for an id that is not a UUID;
  /// self-hosted deployments answer 404 for every id (the route needs the service's database).
  Result<Document> get_scrape(const std::string& id, const CallOptions& options = {}) const;

  /// POST /v1/batch/scrape.
  Result<BatchScrapeJob> start_batch_scrape(const BatchScrapeRequest& request,
                                            const CallOptions& options = {}) const;
  /// Starts a batch scrape of `urls` with default options.
  Result<BatchScrapeJob> start_batch_scrape(std::vector<std::string> urls,
                                            const CallOptions& options = {}) const;
  /// Starts a batch scrape and waits for all its documents.
  Result<JobStatus> batch_scrape(const BatchScrapeRequest& request,
                                 const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
  /// Batch-scrapes `urls` with default options and waits for all the documents.
  Result<JobStatus> batch_scrape(std::vector<std::string> urls, const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
  /// A handle on an existing batch scrape.
  BatchScrapeJob batch_scrape_job(std::string id) const;
  /// GET /v1/batch/scrape/{id}.
  Result<JobStatus> batch_scrape_status(const std::string& id,
                                        const CallOptions& options = {}) const;
  /// DELETE /v1/batch/scrape/{id}.
  Result<JobState> cancel_batch_scrape(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// GET /v1/batch/scrape/{id}/errors.
  Result<JobErrors> batch_scrape_errors(const std::string& id,
                                        const CallOptions& options = {}) const;

  /// POST /v1/crawl.
  Result<CrawlJob> start_crawl(const CrawlRequest& request, const CallOptions& options = {}) const;
  /// Starts a crawl from `url` with default options.
  Result<CrawlJob> start_crawl(std::string url, const CallOptions& options = {}) const;
  /// Starts a crawl and waits for all its documents.
  Result<JobStatus> crawl(const CrawlRequest& request, const PollingPolicy& policy = {},
                          const CallOptions& options = {}) const;
  /// Crawls from `url` with default options and waits for all the documents.
  Result<JobStatus> crawl(std::string url, const PollingPolicy& policy = {},
                          const CallOptions& options = {}) const;
  /// A handle on an existing crawl.
  CrawlJob crawl_job(std::string id) const;
  /// GET /v1/crawl/{id}.
  Result<JobStatus> crawl_status(const std::string& id, const CallOptions& options = {}) const;
  /// DELETE /v1/crawl/{id}.
  Result<JobState> cancel_crawl(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v1/crawl/{id}/errors.
  Result<JobErrors> crawl_errors(const std::string& id, const CallOptions& options = {}) const;
  /// GET /v1/crawl/active.
  Result<std::vector<ActiveCrawl>> active_crawls(const CallOptions& options = {}) const;

  /// POST /v1/search.
  Result<SearchResults> search(const SearchRequest& request, const CallOptions& options = {}) const;
  /// POST /v1/search of `query` with default options.
  Result<SearchResults> search(std::string query, const CallOptions& options = {}) const;

  // ---- Beyond the specification's core (sdk/src/client_surface.cpp).

  /// POST /v1/map: links are plain URLs in v1 (`MapLink::url` only).
  Result<MapResult> map(const MapRequest& request, const CallOptions& options = {}) const;
  /// GET /v1/team/credit-usage.
  Result<CreditUsage> credit_usage(const CallOptions& options = {}) const;
  /// GET /v1/team/credit-usage/historical[?byApiKey=true].
  Result<UsageHistory> credit_usage_history(bool by_api_key = false,
                                            const CallOptions& options = {}) const;
  /// GET /v1/team/token-usage.
  Result<TokenUsage> token_usage(const CallOptions& options = {}) const;
  /// GET /v1/team/token-usage/historical[?byApiKey=true].
  Result<UsageHistory> token_usage_history(bool by_api_key = false,
                                           const CallOptions& options = {}) const;
  /// GET /v1/team/queue-status.
  Result<QueueStatus> queue_status(const CallOptions& options = {}) const;
  /// GET /v1/concurrency-check.
  Result<Concurrency> concurrency(const CallOptions& options = {}) const;
  /// POST /v1/extract.
  Result<ExtractStarted> start_extract(const ExtractRequest& request,
                                       const CallOptions& options = {}) const;
  /// GET /v1/extract/{id}.
  Result<ExtractResult> extract_status(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// Starts and polls until the job ends, as `webdata::Client::extract`.
  Result<ExtractResult> extract(const ExtractRequest& request, const PollingPolicy& policy = {},
                                const CallOptions& options = {}) const;

  /// The resolved base URL, e.g. "http://127.0.0.1:3002".
  const std::string& api_url() const;

 private:
  std::shared_ptr<const detail::ClientCore> core_;
};

}  // namespace webdata::v1
