#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::formats {

/// One scrape as change tracking sees it.
struct ChangeTrackingInput {
  std::string team;
  std::string url;                 ///< the URL as requested (the key, not the final URL)
  std::optional<std::string> tag;  ///< separate histories per tag; nullopt and "" are the same
  std::string markdown;            ///< the page's markdown (changeTracking requires markdown)
  nlohmann::json json = nullptr;   ///< extracted values (json mode), from formats::extract
  std::vector<std::string> modes;  ///< "git-diff", "json"; others are ignored
  int status_code = 200;           ///< 404 / 410 mean the page was removed
  bool hidden = false;             ///< crawl: the page exists but is no longer linked
  bool store = true;               ///< false (zero data retention): compare, remember nothing
  std::chrono::system_clock::time_point now;
};

/// The previous scrape per team + URL + tag, and what changed since (wire-decisions 7):
///   {previousScrapeAt: ISO 8601 | null, changeStatus: new|same|changed|removed,
///    visibility: visible|hidden, diff?: {text, json}, json?: {field: {previous, current}}}
/// - new: no previous scrape under this key (also a first scrape answering 404).
/// - same: markdown equal (and, in json mode, the extracted values equal); a removed page
///   still answering 404/410 is `same` too.
/// - changed: otherwise; a removed page that answers again is `changed`.
/// - removed: the page answers 404 or 410 now and did not before.
/// `diff` (git-diff mode, changed or removed) is a real unified diff of the markdown, `json` (json
/// mode, changed) holds every differing field, nested objects by dotted path. Bounded: the least
/// recently used keys are forgotten past max_entries. Thread-safe.
class ChangeTracker {
 public:
  explicit ChangeTracker(std::size_t max_entries = 10000);

  nlohmann::json track(const ChangeTrackingInput& input);

  std::size_t size() const;
  void clear();

 private:
  struct Snapshot {
    std::chrono::system_clock::time_point at;
    std::string markdown;
    nlohmann::json json;
    bool removed = false;
  };
  struct Slot {
    Snapshot snapshot;
    std::list<std::string>::iterator position;
  };

  mutable std::mutex mutex_;
  std::size_t max_entries_;
  std::list<std::string> lru_;  ///< most recently used first
  std::map<std::string, Slot> slots_;
};

}  // namespace webdata::mock::formats
