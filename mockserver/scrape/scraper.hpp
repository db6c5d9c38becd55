#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/teams.hpp"
#include "core/url.hpp"
#include "content/document.hpp"
#include "formats/change_tracking.hpp"
#include "requests/scrape_options.hpp"
#include "scrape/scrape_store.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::scrape {

/// Why a scrape produced no document: the HTTP status, `code` and `error` of the API answer.
struct Failure {
  int http_status = 500;
  std::string code;
  std::string message;
  nlohmann::json details;  ///< A 400's issues (the option refused), in the service's shape.
};

/// What one scrape produced: a scrape document (specification 2.1) or a failure.
struct Outcome {
  std::optional<Failure> failure;
  nlohmann::json document;     ///< The `data` object, in the shape of the request's version.
  std::int64_t credits = 0;    ///< What the page costs (wire-decisions section 8).
  int status_code = 0;         ///< The target's HTTP status.
  std::string final_url;       ///< After redirects.
  std::string content_type;
  std::vector<std::string> links;  ///< Every link of the page, for the crawler, whatever the formats.
  /// When the answer is due: the delays of the pages fetched (fixture fixedDelayMilliseconds,
  /// slow synthetic pages) are not slept by scrape_deferred() but added up here; a scrape that
  /// timed out is due at its deadline. The epoch (default): due now.
  std::chrono::steady_clock::time_point ready_at{};
};

/// A page in the cache: the fetched answer, its parsed tree (made once, by the first scrape that
/// needs it) and the renderings asked for so far. Shared by every hit (immutable answer; the tree
/// and the memo are filled under their own locks), so a hit repeats neither the parse nor the
/// rendering: that work was most of a hit (bench/analysis.md).
class CachedPage {
 public:
  CachedPage(web::FetchResult fetched, std::chrono::system_clock::time_point stored_at,
             std::string proxy_used);

  const web::FetchResult& fetched() const { return fetched_; }
  std::chrono::system_clock::time_point stored_at() const { return stored_at_; }
  const std::string& proxy_used() const { return proxy_used_; }

  /// The parsed page; `page_url` is the URL the answer came from (its base for relative links).
  content::Document document(const std::string& page_url) const;
  /// Renderings of document(), memoized per content options (at most kMemoVariants of each).
  /// SelectorError as content::Document's.
  std::string markdown(const std::string& page_url, const content::Options& options) const;
  std::string html(const std::string& page_url, const content::Options& options) const;
  std::vector<std::string> links(const std::string& page_url) const;
  nlohmann::json metadata(const std::string& page_url) const;

  /// What the cache counts against its byte budget: the body, and room for the tree and the
  /// renderings made from it.
  std::size_t budget_bytes() const { return fetched_.body.size() * 4 + 1024; }

  static constexpr std::size_t kMemoVariants = 4;

 private:
  struct Derived {
    std::optional<std::vector<std::string>> links;
    std::optional<nlohmann::json> metadata;
    std::map<std::string, std::string> markdown;  ///< by options key
    std::map<std::string, std::string> html;
  };
  std::string memoized(std::map<std::string, std::string> Derived::*table,
                       const content::Options& options,
                       const std::function<std::string()>& render) const;

  web::FetchResult fetched_;
  std::chrono::system_clock::time_point stored_at_;
  std::string proxy_used_;
  mutable std::once_flag parsed_;
  mutable std::optional<content::Document> document_;
  mutable std::mutex mutex_;  ///< guards derived_
  mutable Derived derived_;
};

/// A cache of fetched pages keyed by URL and the options that change what a site answers
/// (mobile, languages, proxy). Hits within `maxAge` skip the fetch, the parse and the renderings
/// already made; every format is still derived from the one stored answer, so they stay
/// consistent. Bounded by entries and bytes (least recently used out).
class PageCache {
 public:
  explicit PageCache(std::size_t max_entries = 2048, std::size_t max_bytes = 256u << 20);
  /// A page whose fetch is not yet due (`fetched().ready_at` in the future: a deferred scrape
  /// stored it and is waiting to answer) is not found, as it would not be stored yet.
  std::shared_ptr<const CachedPage> find(const std::string& key,
                                         std::chrono::system_clock::time_point now,
                                         std::chrono::milliseconds max_age);
  /// Stores (or replaces) the page of `key` and returns it.
  std::shared_ptr<const CachedPage> store(const std::string& key, web::FetchResult fetched,
                                          std::chrono::system_clock::time_point stored_at,
                                          std::string proxy_used);
  void clear();
  std::size_t size() const;

 private:
  void evict_locked();
  mutable std::mutex mutex_;
  std::size_t max_entries_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  std::list<std::string> lru_;  ///< Most recently used first.
  struct Slot {
    std::shared_ptr<const CachedPage> page;
    std::list<std::string>::iterator position;
  };
  std::map<std::string, Slot> slots_;
};

/// A file handed to the pipeline instead of fetched (POST /v2/parse).
struct Upload {
  std::string url;           ///< Where the document came from: its `metadata.url`, and the base
                             ///< of its relative links.
  std::string content_type;  ///< Decides how it is read, as a page's Content-Type does.
  std::string body;
};

/// Conditions of a deployment that the pipeline imitates (--imitate; each is also an
/// --inject-fault of the same name, docs/mockserver.md#faults).
struct Conditions {
  bool no_result_cache = false;  ///< no-result-cache: every scrape fetches, no cacheState.
  /// no-browser: v1 screenshots and actions fail, and so does a page the fetch engine cannot
  /// reach, as SCRAPE_ALL_ENGINES_FAILED; a v2 screenshot is a warning.
  bool no_browser = false;
  bool no_llm_key = false;       ///< no-llm-key: json, summary and extract are left out.
  bool baseline_fields = false;  ///< baseline-fields: no metadata.error on a target's error page.
  /// no-pdf-engine: a PDF (by its Content-Type) fails as SCRAPE_ALL_ENGINES_FAILED.
  bool no_pdf_engine = false;
};

/// The scrape pipeline: options -> fetch (cache | virtual web) -> content -> document -> credits.
/// Shared by POST /scrape, batch scrape, crawl and search. Thread-safe.
class Scraper {
 public:
  Scraper(const web::VirtualWeb& web, const Clock& clock);

  /// Refusals that need no fetch: what this mock cannot make (--inject-fault no-llm), zero data
  /// retention not enabled for the team, invalid CSS selectors. Run before any job is created.
  std::optional<Failure> check(const requests::ScrapeOptions& options, const Team& team) const;

  /// Scrapes `url` with `options` (decoded from a request, so every default is in).
  /// Returns as soon as the scrape is made, without waiting for the pages' delays: the caller
  /// reveals it no sooner than `ready_at` (POST /scrape answers on a timer of the I/O thread,
  /// job pages wait in their engine's deferred queue; nothing sleeps: ADR 0015). The page cache
  /// does not serve a page before its `ready_at` either. `start` is when the scrape begins (the
  /// epoch: now); a scrape that follows another one of the same caller starts at its
  /// `ready_at`, so their delays add up as if each had waited for the one before.
  Outcome scrape_deferred(const requests::ScrapeOptions& options, const std::string& url,
                          const Team& team, std::chrono::steady_clock::time_point start = {});
  /// Makes the document of an uploaded file as scrape_deferred() makes one of a fetched page:
  /// the same formats, content options, PDF parsing and credits; nothing is fetched, read from
  /// or stored in the cache. Due at `ready_at` when its actions navigated to slow pages.
  Outcome scrape_upload(const requests::ScrapeOptions& options, const Upload& upload,
                        const Team& team);

  PageCache& cache() { return cache_; }
  formats::ChangeTracker& change_tracker() { return tracker_; }
  /// Past scrapes by id (GET /scrape/{id}): filled by the callers once a scrape is delivered
  /// (and paid for), read by the route.
  ScrapeStore& results() { return results_; }
  /// --inject-fault missing-status-code: documents lack `metadata.statusCode`.
  void set_drop_status_code(bool drop) { drop_status_code_ = drop; }
  /// --inject-fault no-llm: summary, json, extract, branding and json change tracking refused.
  void set_no_llm(bool on) { no_llm_ = on; }
  /// --inject-fault no-screenshot: a warning instead of a screenshot.
  void set_no_screenshot(bool on) { no_screenshot_ = on; }
  void set_conditions(const Conditions& conditions) { conditions_ = conditions; }

 private:
  struct Plan;  // what the options decide before the fetch (scraper.cpp)
  struct Got;   // the answer the formats are made from
  struct Made;  // the parsed page and what its formats read

  /// A deferred fetch (the virtual web's delays are returned in `ready_at`, not slept) that
  /// starts at `start` (epoch: now).
  web::FetchResult fetch(const requests::ScrapeOptions& options, const std::string& url,
                         const std::string& proxy, std::chrono::milliseconds timeout,
                         std::chrono::steady_clock::time_point start) const;

  /// What the conditions refuse before any fetch (scrape/conditions.cpp).
  std::optional<Failure> refused_by_conditions(const requests::ScrapeOptions& options) const;
  /// The options a scrape runs with under the conditions; nullopt when they are unchanged.
  std::optional<requests::ScrapeOptions> options_under_conditions(
      const requests::ScrapeOptions& options) const;
  /// The outcome in the service's words and as the conditions leave it.
  void as_deployed(Outcome& out, requests::Version version) const;

  /// scrape_deferred() and scrape_upload(): `upload` (when set) replaces the fetch and the cache.
  Outcome scrape_page(const requests::ScrapeOptions& options, const std::string& url,
                      const Team& team, const Upload* upload,
                      std::chrono::steady_clock::time_point start);
  /// Timeout, proxy, cache key and what may be read from or stored in the cache.
  std::optional<Failure> make_plan(const requests::ScrapeOptions& options, const Url& url,
                                   const Upload* upload, Plan& out) const;
  /// The page: the upload, a cache hit, or a fetch; a failure when none answered.
  std::optional<Failure> obtain(const requests::ScrapeOptions& options, const Plan& plan,
                                const std::string& url, const Upload* upload,
                                std::chrono::steady_clock::time_point start, Got& got,
                                Outcome& out);
  /// The fetch through the requested proxy (auto: basic, then enhanced when refused).
  void fetch_with_proxy(const requests::ScrapeOptions& options, const Plan& plan,
                        const std::string& url, std::chrono::steady_clock::time_point start,
                        Got& got, Outcome& out) const;
  /// The request's actions on `page`, which becomes the page they ended on.
  std::optional<Failure> run_actions(const requests::ScrapeOptions& options, const Plan& plan,
                                     const std::string& proxy_used,
                                     const content::Options& extract, content::Page& page,
                                     nlohmann::json& result, Outcome& out) const;
  Outcome scrape_pdf(const requests::ScrapeOptions& options, const std::string& url,
                     const Plan& plan, const Got& got, std::chrono::system_clock::time_point now);
  Outcome scrape_html(const requests::ScrapeOptions& options, const std::string& url,
                      const std::string& requested, const Team& team, const Plan& plan, Got& got,
                      Outcome out);
  /// markdown, html, rawHtml, links, images.
  std::optional<Failure> text_formats(const Made& made, nlohmann::json& data, Outcome& out) const;
  /// summary, json, deterministicJson, extract, branding, attributes and the answers.
  std::optional<Failure> model_formats(const Made& made, nlohmann::json& data,
                                       Outcome& out) const;
  /// question/query, highlights, rawBase64, the formats not made, redactPII.
  void answer_formats(const Made& made, nlohmann::json& data) const;
  void screenshot_format(const Made& made, nlohmann::json& data) const;
  nlohmann::json track_changes(const Made& made, const requests::ChangeTrackingSpec& spec,
                               const Team& team, const std::string& url, const Plan& plan,
                               const nlohmann::json& data,
                               std::chrono::system_clock::time_point now);
  /// The outcome with its document: `data` and the page's `metadata`, with what every
  /// document's metadata says about the scrape itself.
  Outcome finish(Outcome out, nlohmann::json data, nlohmann::json metadata, const std::string& url,
                 const content::Page& page, const Got& got) const;

  const web::VirtualWeb& web_;
  const Clock& clock_;
  PageCache cache_;
  formats::ChangeTracker tracker_;  ///< previous scrapes per team + URL + tag
  ScrapeStore results_;
  bool drop_status_code_ = false;
  bool no_llm_ = false;
  bool no_screenshot_ = false;
  Conditions conditions_;
};

}  // namespace webdata::mock::scrape
