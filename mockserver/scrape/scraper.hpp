#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/clock.hpp"
#include "app/teams.hpp"
#include "formats/change_tracking.hpp"
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
  std::string html;                ///< The fetched body (crawler: sitemap/robots reading).
};

/// The format names a request asks for, v1 strings and v2 strings/objects alike.
struct Formats {
  std::vector<std::string> names;  ///< In request order, deduplicated.
  bool has(const std::string& name) const;
};
Formats parse_formats(const nlohmann::json& formats);

/// A cache of fetched pages keyed by URL and the options that change what a site answers
/// (mobile, languages, proxy). Hits within `maxAge` skip the fetch; the document is derived again
/// from the stored response, so every format stays consistent. Bounded (least recently used out).
class PageCache {
 public:
  struct Entry {
    web::FetchResult fetched;
    std::chrono::system_clock::time_point stored_at;
    std::string proxy_used;
  };
  explicit PageCache(std::size_t max_entries = 2048, std::size_t max_bytes = 256u << 20);
  std::optional<Entry> find(const std::string& key, std::chrono::system_clock::time_point now,
                            std::chrono::milliseconds max_age);
  void store(const std::string& key, Entry entry);
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
    Entry entry;
    std::list<std::string>::iterator position;
  };
  std::map<std::string, Slot> slots_;
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
  Outcome scrape(const nlohmann::json& options, const std::string& version, const Team& team);

  PageCache& cache() { return cache_; }
  formats::ChangeTracker& change_tracker() { return tracker_; }
  /// --inject-fault missing-status-code: documents lack `metadata.statusCode`.
  void set_drop_status_code(bool drop) { drop_status_code_ = drop; }

 private:
  web::FetchResult fetch(const nlohmann::json& options, const std::string& url,
                         const std::string& proxy, std::chrono::milliseconds timeout) const;

  const web::VirtualWeb& web_;
  const Clock& clock_;
  Outcome scrape_pdf(const nlohmann::json& options, const std::string& version,
                     const std::string& url, const web::FetchResult& fetched,
                     const std::string& proxy_used, bool hit,
                     std::chrono::system_clock::time_point cached_at,
                     std::chrono::system_clock::time_point now, const std::string& key, bool store);

  PageCache cache_;
  formats::ChangeTracker tracker_;  ///< previous scrapes per team + URL + tag
  bool drop_status_code_ = false;
};

}  // namespace webdata::mock::scrape
