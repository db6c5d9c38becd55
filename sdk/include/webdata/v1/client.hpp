#pragma once

#include <memory>
#include <string>
#include <vector>

#include "webdata/crawl.hpp"
#include "webdata/document.hpp"
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

  /// POST /v1/batch/scrape.
  Result<BatchScrapeJob> start_batch_scrape(const BatchScrapeRequest& request,
                                            const CallOptions& options = {}) const;
  Result<JobStatus> batch_scrape(const BatchScrapeRequest& request,
                                 const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
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
  Result<JobStatus> crawl(const CrawlRequest& request, const PollingPolicy& policy = {},
                          const CallOptions& options = {}) const;
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

  const std::string& api_url() const;

 private:
  std::shared_ptr<const detail::ClientCore> core_;
};

}  // namespace webdata::v1
