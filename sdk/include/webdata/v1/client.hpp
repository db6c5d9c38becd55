#pragma once

#include <memory>
#include <string>
#include <vector>

#include "webdata/client_base.hpp"
#include "webdata/crawl.hpp"
#include "webdata/document.hpp"
#include "webdata/extract.hpp"
#include "webdata/jobs.hpp"
#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/map.hpp"
#include "webdata/usage.hpp"
#include "webdata/v1/crawl.hpp"
#include "webdata/v1/jobs.hpp"
#include "webdata/v1/map.hpp"
#include "webdata/v1/scrape.hpp"
#include "webdata/v1/search.hpp"

namespace webdata {
namespace detail {
/// The v1 request types of the calls both versions have (`BasicClient`).
struct ApiV1 {
  static constexpr ApiVersion kVersion = ApiVersion::kV1;
  using Format = std::string;
  using ScrapeRequest = v1::ScrapeRequest;
  using BatchScrapeRequest = v1::BatchScrapeRequest;
  using CrawlRequest = v1::CrawlRequest;
  using SearchRequest = v1::SearchRequest;
  using SearchResults = v1::SearchResults;
  using MapRequest = v1::MapRequest;
  using ExtractRequest = v1::ExtractRequest;
};
}  // namespace detail

extern template class BasicClient<detail::ApiV1>;

namespace v1 {

/// The v1 API, for deployments and code that still use it: the calls of `webdata::Client` that
/// v1 has (all in `BasicClient`), with v1's request types. Results use the shared models (v1
/// documents may carry `llm_extraction` and `extract`, never `summary` or `branding`).
class Client : public BasicClient<detail::ApiV1> {
 public:
  explicit Client(ClientOptions options = {});
  Client(std::string api_url, std::string api_key);

  /// POST /v1/deep-research: starts a deep research job; read it with `deep_research_status`.
  Result<V1JobStarted> start_deep_research(const DeepResearchRequest& request,
                                           const CallOptions& options = {}) const;
  /// GET /v1/deep-research/{id}.
  Result<DeepResearchResult> deep_research_status(const std::string& id,
                                                  const CallOptions& options = {}) const;
  /// Starts a deep research job and polls it until it ends (a failed one is returned as such).
  Result<DeepResearchResult> deep_research(const DeepResearchRequest& request,
                                           const PollingPolicy& policy = {},
                                           const CallOptions& options = {}) const;
  /// POST /v1/llmstxt: starts an llms.txt generation; read it with `llms_txt_status`.
  Result<V1JobStarted> start_llms_txt(const LlmsTxtRequest& request,
                                      const CallOptions& options = {}) const;
  /// GET /v1/llmstxt/{id}.
  Result<LlmsTxtResult> llms_txt_status(const std::string& id,
                                        const CallOptions& options = {}) const;
  /// Starts an llms.txt generation and polls it until it ends.
  Result<LlmsTxtResult> llms_txt(const LlmsTxtRequest& request, const PollingPolicy& policy = {},
                                 const CallOptions& options = {}) const;
};

}  // namespace v1
}  // namespace webdata
