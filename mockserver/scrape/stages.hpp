#pragma once

// The stages of a scrape and what each hands to the next (docs/architecture.md, "The scrape
// pipeline"; ADR 0025):
//
//   plan -> fetch -> decode -> [actions] -> parse (once) -> clean -> formats -> document
//
// Scraper (scraper.cpp) runs them in that order; each is a function here with its own file.
// Internal to the scrape layer.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "content/document.hpp"
#include "core/url.hpp"
#include "formats/pdf.hpp"
#include "requests/scrape_options.hpp"
#include "scrape/page_cache.hpp"
#include "scrape/scraper.hpp"
#include "scrape/versions.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::scrape {

/// A refusal of bad input: 400 with the service's issue shape at the option named.
Failure bad_option(std::string message, const std::string& field);
/// An include/exclude selector that does not parse, refused as bad input.
Failure bad_selector(const requests::ScrapeOptions& options, const content::SelectorError& error);
/// What waits used up (`spent`, never slept) leaves nothing of the scrape's `timeout`.
Failure no_time_left(const std::string& spent_by, const std::string& verb,
                     std::chrono::milliseconds spent, std::chrono::milliseconds timeout);
/// The content options (what cleaning reads) of a request.
content::Options content_options(const requests::ScrapeOptions& options);

/// Stage plan: what the options decide before anything is fetched (plan.cpp).
struct Plan {
  std::chrono::milliseconds timeout{0};
  std::chrono::milliseconds wait_for{0};
  /// The mock does not sleep for waitFor; it spends it from the timeout, as a browser would.
  std::chrono::milliseconds fetch_timeout{0};
  std::string proxy;  ///< basic | enhanced | auto
  /// Lockdown: the answer comes from the cache only (up to maxAge), nothing is fetched or stored.
  bool lockdown = false;
  bool zero_retention = false;
  bool store = false;  ///< The fetched page goes into the cache.
  std::chrono::milliseconds max_age{0};
  std::string key;  ///< Of the page cache.
};
std::optional<Failure> make_plan(const requests::ScrapeOptions& options, const Url& url,
                                 bool upload, Plan& out);

/// Stage fetch: the answer the page is made from: an upload, a cache hit or a fetch
/// (Scraper::obtain, fetch.cpp).
struct Fetched {
  web::FetchResult fetched;  ///< Empty on a hit (the cached answer is read in place).
  std::shared_ptr<const CachedPage> cached;
  std::string proxy_used;
  bool hit = false;
  std::chrono::system_clock::time_point cached_at;
  /// The answer, wherever it is now (once kept in the cache, the cached page holds it).
  const web::FetchResult& answer() const { return cached ? cached->fetched() : fetched; }
};

/// Stage decode: what the answer is, read from its content type (decode.cpp).
struct Decoded {
  enum class Kind { kPage, kPdf };  ///< A page: HTML, or text the content pipeline reads.
  Kind kind = Kind::kPage;
  /// A PDF whose text the request asked for (v2 `parsers`, v1 `parsePDF`).
  std::optional<formats::PdfResult> pdf;
};
std::optional<Failure> decode(const requests::ScrapeOptions& options,
                              const web::FetchResult& answer, Decoded& out);

/// Whether an answer of `content_type` is read as a page (HTML, text, JSON, XML).
bool reads_as_page(const std::string& content_type);
/// A fetched answer as the page the content pipeline and the action runner read.
content::Page page_of(web::FetchResult fetched, const std::string& requested_url);

/// Stage clean: the page, parsed once, seen through one set of content options. Its renderings
/// come from the cached page's memo when the page is cached (clean.cpp).
class Cleaned {
 public:
  Cleaned(const content::Document& document, const CachedPage* cached, const content::Page& page,
          content::Options options)
      : document_(document), cached_(cached), page_(page), options_(std::move(options)) {}

  const content::Document& document() const { return document_; }
  const content::Page& page() const { return page_; }
  const content::Options& options() const { return options_; }
  /// Throw content::SelectorError as content::Document's.
  std::string markdown() const;
  std::string html() const;
  /// Every link of the page, found once per scrape (the crawler's and the links format's).
  const std::vector<std::string>& links() const;
  /// The page's metadata, and the target's error when it answered one.
  nlohmann::json metadata() const;

 private:
  const content::Document& document_;
  const CachedPage* cached_;  ///< Whose renderings are memoized; or null.
  const content::Page& page_;
  content::Options options_;
  mutable std::optional<std::vector<std::string>> links_;
};

/// What the formats stage needs beyond the page to compare a scrape with the previous one.
struct ChangeHistory {
  formats::ChangeTracker* tracker = nullptr;
  std::string team;
  std::string url;
  bool store = true;  ///< Remember this scrape (not under zero data retention).
  std::chrono::system_clock::time_point now;
};

/// What every format producer reads (producers/registry.hpp).
struct FormatInput {
  const requests::ScrapeOptions& options;
  const VersionRules& version;
  const Cleaned& page;
  bool no_screenshot = false;  ///< --inject-fault no-screenshot
  ChangeHistory history;
};

/// Stage formats: every requested format of the registry, in its order, into `data`; `credits`
/// gains what the formats cost (producers/registry.cpp).
std::optional<Failure> produce_formats(const FormatInput& in, nlohmann::json& data,
                                       std::int64_t& credits);

}  // namespace webdata::mock::scrape
