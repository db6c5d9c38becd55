#pragma once

#include <optional>
#include <string>

#include "webdata/crawl.hpp"
#include "webdata/json.hpp"

namespace webdata {

/// POST /v2/crawl/params-preview: what a crawl prompt would do, without crawling.
struct CrawlParamsPreviewRequest {
  std::string url;
  std::string prompt;  ///< e.g. "only the blog, at most 50 pages"
};

/// The options the prompt implies, as a crawl request ready for `Client::start_crawl`.
struct CrawlParamsPreview {
  CrawlRequest request;
  std::optional<std::string> warning;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
