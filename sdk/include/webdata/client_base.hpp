#pragma once

#include <memory>
#include <string>
#include <vector>

#include "webdata/api_version.hpp"
#include "webdata/crawl.hpp"
#include "webdata/document.hpp"
#include "webdata/extract.hpp"
#include "webdata/jobs.hpp"
#include "webdata/map.hpp"
#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/usage.hpp"

namespace webdata {

/// The calls both API versions have, once: `webdata::Client` (v2) and `webdata::v1::Client`
/// derive from it with their version's request types (`Api`: `Client::Api`, `v1::Client::Api`),
/// which only choose the paths (`/v2/...` or `/v1/...`) and what each request sends. Use the
/// derived clients; this class is not meant to be named.
template <class Api>
class BasicClient {
 public:
  using ScrapeRequest = typename Api::ScrapeRequest;
  using BatchScrapeRequest = typename Api::BatchScrapeRequest;
  using CrawlRequest = typename Api::CrawlRequest;
  using SearchRequest = typename Api::SearchRequest;
  using SearchResults = typename Api::SearchResults;
  using MapRequest = typename Api::MapRequest;
  using ExtractRequest = typename Api::ExtractRequest;

  /// POST /{version}/scrape.
  Result<Document> scrape(const ScrapeRequest& request, const CallOptions& options = {}) const;
  /// POST /{version}/scrape of `url` with `formats` (e.g. {webdata::Format::markdown}; empty:
  /// the service default, markdown) and every other option at its default.
  Result<Document> scrape(std::string url, std::vector<typename Api::Format> formats = {},
                          const CallOptions& options = {}) const;
  /// GET /{version}/scrape/{id}: a past scrape by its `metadata.scrapeId`, the document as that
  /// scrape returned it (its formats, in the shape of the version that made it; pages of batch
  /// scrapes and crawls too). Kept 24 hours. An HTTP error 404 for an unknown or expired id or a
  /// zero-data-retention scrape, 403 for another team's scrape, 400 for an id that is not a UUID;
  /// self-hosted deployments answer 404 for every id (the route needs the service's database).
  Result<Document> get_scrape(const std::string& id, const CallOptions& options = {}) const;

  /// POST /{version}/batch/scrape: starts the job and returns its handle.
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
  /// GET /{version}/batch/scrape/{id}: one chunk.
  Result<JobStatus> batch_scrape_status(const std::string& id,
                                        const CallOptions& options = {}) const;
  /// DELETE /{version}/batch/scrape/{id}.
  Result<JobState> cancel_batch_scrape(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// GET /{version}/batch/scrape/{id}/errors.
  Result<JobErrors> batch_scrape_errors(const std::string& id,
                                        const CallOptions& options = {}) const;

  /// POST /{version}/crawl: starts the job and returns its handle.
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
  /// GET /{version}/crawl/{id}: one chunk.
  Result<JobStatus> crawl_status(const std::string& id, const CallOptions& options = {}) const;
  /// DELETE /{version}/crawl/{id}.
  Result<JobState> cancel_crawl(const std::string& id, const CallOptions& options = {}) const;
  /// GET /{version}/crawl/{id}/errors.
  Result<JobErrors> crawl_errors(const std::string& id, const CallOptions& options = {}) const;
  /// GET /{version}/crawl/active: the team's running crawls.
  Result<std::vector<ActiveCrawl>> active_crawls(const CallOptions& options = {}) const;

  /// POST /{version}/search.
  Result<SearchResults> search(const SearchRequest& request, const CallOptions& options = {}) const;
  /// POST /{version}/search of `query` with default options (5 web results, no scraping).
  Result<SearchResults> search(std::string query, const CallOptions& options = {}) const;

  // ---- Beyond the specification's core (sdk/src/client_surface.cpp).

  /// POST /{version}/map: the site's URLs, without scraping it (v1 links carry only `url`).
  Result<MapResult> map(const MapRequest& request, const CallOptions& options = {}) const;
  /// GET /{version}/team/credit-usage.
  Result<CreditUsage> credit_usage(const CallOptions& options = {}) const;
  /// GET /{version}/team/credit-usage/historical[?byApiKey=true].
  Result<UsageHistory> credit_usage_history(bool by_api_key = false,
                                            const CallOptions& options = {}) const;
  /// GET /{version}/team/token-usage.
  Result<TokenUsage> token_usage(const CallOptions& options = {}) const;
  /// GET /{version}/team/token-usage/historical[?byApiKey=true].
  Result<UsageHistory> token_usage_history(bool by_api_key = false,
                                           const CallOptions& options = {}) const;
  /// GET /{version}/team/queue-status.
  Result<QueueStatus> queue_status(const CallOptions& options = {}) const;
  /// GET /{version}/concurrency-check.
  Result<Concurrency> concurrency(const CallOptions& options = {}) const;
  /// POST /{version}/extract: starts an extract job; read it with `extract_status`.
  Result<ExtractStarted> start_extract(const ExtractRequest& request,
                                       const CallOptions& options = {}) const;
  /// GET /{version}/extract/{id}.
  Result<ExtractResult> extract_status(const std::string& id,
                                       const CallOptions& options = {}) const;
  /// Starts an extract job and polls it (`policy.interval` apart) until it ends; a failed or
  /// cancelled job is returned as such (see `status`, `error`), not as an Error. kTimeout past
  /// `policy.max_wait`, kCancelled when `policy.cancel` fires.
  Result<ExtractResult> extract(const ExtractRequest& request, const PollingPolicy& policy = {},
                                const CallOptions& options = {}) const;

  /// The resolved base URL, e.g. "http://127.0.0.1:3002".
  const std::string& api_url() const;

 protected:
  explicit BasicClient(ClientOptions options);
  BasicClient(std::string api_url, std::string api_key);

  std::shared_ptr<const detail::ClientCore> core_;
};

}  // namespace webdata
