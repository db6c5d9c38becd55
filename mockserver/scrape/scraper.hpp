#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
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
#include "scrape/page_cache.hpp"
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

struct Plan;
struct Fetched;
struct Decoded;

/// The scrape pipeline: plan -> fetch (cache | virtual web | upload) -> decode -> actions ->
/// parse -> clean -> formats (the registry) -> document (stages.hpp; ADR 0025). Shared by
/// POST /scrape, batch scrape, crawl, search and parse. Thread-safe.
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
  /// The mock clock the scrapes read (`ready_at` is on its `steady_now()`).
  const Clock& clock() const { return clock_; }
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
  /// The outcome of scrape_deferred() and scrape_upload() before the conditions apply: the
  /// stages of stages.hpp in order; `upload` (when set) replaces the fetch and the cache.
  Outcome scrape_page(const requests::ScrapeOptions& options, const std::string& url,
                      const Team& team, const Upload* upload,
                      std::chrono::steady_clock::time_point start);

  /// Stage fetch (fetch.cpp): the page from the upload, a cache hit, or a fetch; a failure when
  /// none answered.
  std::optional<Failure> obtain(const requests::ScrapeOptions& options, const Plan& plan,
                                const std::string& url, const Upload* upload,
                                std::chrono::steady_clock::time_point start, Fetched& got,
                                Outcome& out);
  /// The fetch through the requested proxy (auto: basic, then enhanced when refused).
  void fetch_with_proxy(const requests::ScrapeOptions& options, const Plan& plan,
                        const std::string& url, std::chrono::steady_clock::time_point start,
                        Fetched& got, Outcome& out) const;
  /// A deferred fetch (the virtual web's delays are returned in `ready_at`, not slept) that
  /// starts at `start` (epoch: now).
  web::FetchResult fetch(const requests::ScrapeOptions& options, const std::string& url,
                         const std::string& proxy, std::chrono::milliseconds timeout,
                         std::chrono::steady_clock::time_point start) const;
  /// Moves a fetched answer into the page cache (`got.cached`) when the plan says so and the
  /// target answered 2xx.
  void keep(const Plan& plan, Fetched& got, std::chrono::system_clock::time_point now);

  /// Stage actions (actions.cpp): the request's actions on `page`, which becomes the page they
  /// ended on.
  std::optional<Failure> run_actions(const requests::ScrapeOptions& options, const Plan& plan,
                                     const std::string& proxy_used,
                                     const content::Options& extract, content::Page& page,
                                     nlohmann::json& result, Outcome& out) const;

  /// A PDF's document (pdf.cpp): its text as markdown, or the file itself.
  Outcome scrape_pdf(const requests::ScrapeOptions& options, const std::string& url,
                     const Plan& plan, Fetched& got, const Decoded& decoded);
  /// A page's document: actions, parse, clean, formats.
  Outcome scrape_html(const requests::ScrapeOptions& options, const std::string& url,
                      const std::string& requested, const Team& team, const Plan& plan,
                      Fetched& got, Outcome out);
  /// Stage document (document.cpp): the outcome with its document: `data` and the page's
  /// `metadata`, with what every document's metadata says about the scrape itself.
  Outcome finish(Outcome out, nlohmann::json data, nlohmann::json metadata, const std::string& url,
                 const content::Page& page, const Fetched& got) const;

  /// What the conditions refuse before any fetch (scrape/conditions.cpp).
  std::optional<Failure> refused_by_conditions(const requests::ScrapeOptions& options) const;
  /// The options a scrape runs with under the conditions; nullopt when they are unchanged.
  std::optional<requests::ScrapeOptions> options_under_conditions(
      const requests::ScrapeOptions& options) const;
  /// The outcome in the service's words and as the conditions leave it.
  void as_deployed(Outcome& out, requests::Version version) const;

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
