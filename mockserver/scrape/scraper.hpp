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
#include "content/document.hpp"
#include "formats/change_tracking.hpp"
#include "scrape/scrape_store.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::scrape {

/// Why a scrape produced no document: the HTTP status, `code` and `error` of the API answer.
struct Failure {
  int http_status = 500;
  std::string code;
  std::string message;
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

/// The format names a request asks for, v1 strings and v2 strings/objects alike.
struct Formats {
  std::vector<std::string> names;  ///< In request order, deduplicated.
  bool has(const std::string& name) const;
};
Formats parse_formats(const nlohmann::json& formats);

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
};

/// The scrape pipeline: options -> fetch (cache | virtual web) -> content -> document -> credits.
/// Shared by POST /scrape, batch scrape, crawl and search. Thread-safe.
class Scraper {
 public:
  Scraper(const web::VirtualWeb& web, const Clock& clock);

  /// Refusals that need no fetch: formats and options this mock does not offer, zero data
  /// retention not enabled for the team, invalid CSS selectors. Run before any job is created.
  std::optional<Failure> check(const nlohmann::json& options, const std::string& version,
                               const Team& team) const;

  /// Scrapes `options["url"]`. `options` is a validated request body (or a job's scrape
  /// options plus `url`) with the version's defaults applied.
  /// Returns as soon as the scrape is made, without waiting for the pages' delays: the caller
  /// reveals it no sooner than `ready_at` (POST /scrape answers on a timer of the I/O thread,
  /// job pages wait in their engine's deferred queue; nothing sleeps: ADR 0015). The page cache
  /// does not serve a page before its `ready_at` either. `start` is when the scrape begins (the
  /// epoch: now); a scrape that follows another one of the same caller starts at its
  /// `ready_at`, so their delays add up as if each had waited for the one before.
  Outcome scrape_deferred(const nlohmann::json& options, const std::string& version,
                          const Team& team, std::chrono::steady_clock::time_point start = {});
  /// Makes the v2 document of an uploaded file as scrape_deferred() makes one of a fetched page:
  /// the same formats, content options, PDF parsing and credits; nothing is fetched, read from
  /// or stored in the cache. `options` is a validated parse options object (no `url`). Due at
  /// `ready_at` when its actions navigated to slow pages.
  Outcome scrape_upload(const nlohmann::json& options, const Upload& upload, const Team& team);

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
  /// A deferred fetch (the virtual web's delays are returned in `ready_at`, not slept) that
  /// starts at `start` (epoch: now).
  web::FetchResult fetch(const nlohmann::json& options, const std::string& url,
                         const std::string& proxy, std::chrono::milliseconds timeout,
                         std::chrono::steady_clock::time_point start) const;

  /// What the conditions refuse before any fetch (scrape/conditions.cpp).
  std::optional<Failure> refused_by_conditions(const nlohmann::json& options,
                                               const std::string& version) const;
  /// The options a scrape runs with under the conditions; nullopt when they are unchanged.
  std::optional<nlohmann::json> options_under_conditions(const nlohmann::json& options) const;
  /// The outcome in the service's words and as the conditions leave it.
  void finish(Outcome& out, const std::string& version) const;

  /// scrape_deferred() and scrape_upload(): `upload` (when set) replaces the fetch and the cache.
  Outcome scrape_page(const nlohmann::json& options, const std::string& version, const Team& team,
                      const Upload* upload, std::chrono::steady_clock::time_point start);

  const web::VirtualWeb& web_;
  const Clock& clock_;
  Outcome scrape_pdf(const nlohmann::json& options, const std::string& version,
                     const std::string& url, const web::FetchResult& fetched,
                     const std::string& proxy_used, bool hit,
                     std::chrono::system_clock::time_point cached_at,
                     std::chrono::system_clock::time_point now, const std::string& key, bool store);

  PageCache cache_;
  formats::ChangeTracker tracker_;  ///< previous scrapes per team + URL + tag
  ScrapeStore results_;
  bool drop_status_code_ = false;
  bool no_llm_ = false;
  bool no_screenshot_ = false;
  Conditions conditions_;
};

}  // namespace webdata::mock::scrape
