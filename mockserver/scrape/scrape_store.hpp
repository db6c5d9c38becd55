#pragma once

#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace webdata::mock::scrape {

/// The document's `metadata.scrapeId`, or "" when it has none.
std::string scrape_id_of(const nlohmann::json& document);

/// Past scrapes by their `metadata.scrapeId`, for GET /v1|v2/scrape/{id}: the serialized
/// document, the team that made it and when. Every successful scrape goes in (POST /scrape, the
/// pages of batch scrapes and crawls, scraped search results), except those that keep nothing
/// (requests::ScrapeOptions::keeps_nothing(): neither cached nor readable later by its id).
///
/// Bounded: an entry is kept for `retention` after its scrape (24 hours, like job results), and
/// the oldest go first when the store holds more than `max_entries` documents or `max_bytes` of
/// document text (docs/reference/scrape.md#a-past-scrape-by-its-id). Entries are appended in the
/// clock's order, so both kinds of pruning only ever look at the front. Thread-safe.
class ScrapeStore {
 public:
  using TimePoint = std::chrono::system_clock::time_point;
  struct Limits {
    std::size_t max_entries = 10000;
    std::size_t max_bytes = std::size_t{128} << 20;
    std::chrono::milliseconds retention = std::chrono::hours(24);
  };

  ScrapeStore() : ScrapeStore(Limits{}) {}
  explicit ScrapeStore(Limits limits) : limits_(limits) {}

  /// Keeps `document` (serialized JSON) under `scrape_id` for `team_id`, scraped at `now`. A
  /// document larger than max_bytes on its own is not kept.
  void add(const std::string& scrape_id, const std::string& team_id,
           std::shared_ptr<const std::string> document, TimePoint now);

  enum class Found { yes, not_found, other_team };
  struct Lookup {
    Found found = Found::not_found;
    std::shared_ptr<const std::string> document;  ///< Set when `found` is yes.
  };
  /// The document of `scrape_id` if `team_id` made it and it is within its retention at `now`.
  Lookup find(const std::string& scrape_id, const std::string& team_id, TimePoint now);

  /// Forgets everything (the admin reset, which also moves the clock back).
  void clear();
  std::size_t size() const;
  std::size_t bytes() const;
  const Limits& limits() const { return limits_; }

 private:
  struct Entry {
    std::string id;
    std::string team_id;
    std::shared_ptr<const std::string> document;
    TimePoint stored_at;
  };
  void prune_locked(TimePoint now);
  void drop_front_locked();

  const Limits limits_;
  mutable std::mutex mutex_;
  std::list<Entry> order_;  ///< Oldest first.
  std::unordered_map<std::string, std::list<Entry>::iterator> by_id_;
  std::size_t bytes_ = 0;
};

}  // namespace webdata::mock::scrape
