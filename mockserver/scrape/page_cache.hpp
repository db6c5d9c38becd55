#pragma once

// The page cache: fetched answers kept with their parsed tree and the renderings made so far
// (the fetch stage reads and fills it; the clean stage reads its memoized renderings).

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "content/document.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::scrape {

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
  /// `now` is the mock clock's wall time, `steady_now` its monotonic time.
  std::shared_ptr<const CachedPage> find(const std::string& key,
                                         std::chrono::system_clock::time_point now,
                                         std::chrono::steady_clock::time_point steady_now,
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

}  // namespace webdata::mock::scrape
