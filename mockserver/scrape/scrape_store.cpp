#include "scrape/scrape_store.hpp"

namespace webdata::mock::scrape {

std::string scrape_id_of(const nlohmann::json& document) {
  const auto metadata = document.find("metadata");
  if (metadata == document.end() || !metadata->is_object()) return {};
  const auto id = metadata->find("scrapeId");
  return id != metadata->end() && id->is_string() ? id->get<std::string>() : std::string();
}

void ScrapeStore::add(const std::string& scrape_id, const std::string& team_id,
                      std::shared_ptr<const std::string> document, TimePoint now) {
  if (scrape_id.empty() || !document || document->size() > limits_.max_bytes) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto known = by_id_.find(scrape_id);
  if (known != by_id_.end()) {  // ids are fresh UUIDs; a repeat replaces, never duplicates
    bytes_ -= known->second->document->size();
    order_.erase(known->second);
    by_id_.erase(known);
  }
  bytes_ += document->size();
  order_.push_back(Entry{scrape_id, team_id, std::move(document), now});
  by_id_[scrape_id] = std::prev(order_.end());
  prune_locked(now);
}

ScrapeStore::Lookup ScrapeStore::find(const std::string& scrape_id, const std::string& team_id,
                                      TimePoint now) {
  std::lock_guard<std::mutex> lock(mutex_);
  prune_locked(now);
  const auto it = by_id_.find(scrape_id);
  if (it == by_id_.end()) return {};
  if (it->second->team_id != team_id) return {Found::other_team, nullptr};
  return {Found::yes, it->second->document};
}

void ScrapeStore::prune_locked(TimePoint now) {
  while (!order_.empty() && (now >= order_.front().stored_at + limits_.retention ||
                             order_.size() > limits_.max_entries || bytes_ > limits_.max_bytes)) {
    drop_front_locked();
  }
}

void ScrapeStore::drop_front_locked() {
  bytes_ -= order_.front().document->size();
  by_id_.erase(order_.front().id);
  order_.pop_front();
}

void ScrapeStore::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  order_.clear();
  by_id_.clear();
  bytes_ = 0;
}

std::size_t ScrapeStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return order_.size();
}

std::size_t ScrapeStore::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace webdata::mock::scrape
