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
};

}  // namespace v1
}  // namespace webdata
