#include "scrape/page_cache.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

/// The memo key of a set of content options: every field, separated by bytes no selector has.
std::string options_key(const content::Options& options) {
  std::string key;
  key += options.only_main_content ? 'M' : 'm';
  key += options.remove_base64_images ? 'B' : 'b';
  key += options.block_ads ? 'A' : 'a';
  for (const auto& tag : options.include_tags) key += std::string("\x1f" "i") + tag;
  for (const auto& tag : options.exclude_tags) key += std::string("\x1f" "e") + tag;
  return key;
}

}  // namespace

CachedPage::CachedPage(web::FetchResult fetched, std::chrono::system_clock::time_point stored_at,
                       std::string proxy_used)
    : fetched_(std::move(fetched)), stored_at_(stored_at), proxy_used_(std::move(proxy_used)) {}

content::Document CachedPage::document(const std::string& page_url) const {
  std::call_once(parsed_, [&] {
    content::Page page;
    page.url = fetched_.url.empty() ? page_url : fetched_.url;
    page.content_type = fetched_.content_type;
    page.status_code = fetched_.status;
    page.body = fetched_.body;
    document_ = content::Document::parse(std::move(page));
  });
  return *document_;
}

std::string CachedPage::memoized(std::map<std::string, std::string> Derived::*table,
                                 const content::Options& options,
                                 const std::function<std::string()>& render) const {
  const std::string key = options_key(options);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto& memo = derived_.*table;
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  // Rendered outside the lock: two first hits may both render; the answers are the same.
  std::string rendered = render();
  std::lock_guard<std::mutex> lock(mutex_);
  auto& memo = derived_.*table;
  if (memo.size() < kMemoVariants) memo.emplace(key, rendered);
  return rendered;
}

std::string CachedPage::markdown(const std::string& page_url,
                                 const content::Options& options) const {
  return memoized(&Derived::markdown, options,
                  [&] { return document(page_url).markdown(options); });
}

std::string CachedPage::html(const std::string& page_url, const content::Options& options) const {
  return memoized(&Derived::html, options, [&] { return document(page_url).html(options); });
}

std::vector<std::string> CachedPage::links(const std::string& page_url) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (derived_.links) return *derived_.links;
  }
  std::vector<std::string> links = document(page_url).links();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!derived_.links) derived_.links = links;
  return links;
}

json CachedPage::metadata(const std::string& page_url) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (derived_.metadata) return *derived_.metadata;
  }
  json metadata = document(page_url).metadata();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!derived_.metadata) derived_.metadata = metadata;
  return metadata;
}

PageCache::PageCache(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::shared_ptr<const CachedPage> PageCache::find(const std::string& key,
                                                  std::chrono::system_clock::time_point now,
                                                  std::chrono::steady_clock::time_point steady_now,
                                                  std::chrono::milliseconds max_age) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return nullptr;
  if (now - it->second.page->stored_at() > max_age) return nullptr;
  if (it->second.page->fetched().ready_at > steady_now) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second.position);
  return it->second.page;
}

std::shared_ptr<const CachedPage> PageCache::store(const std::string& key,
                                                   web::FetchResult fetched,
                                                   std::chrono::system_clock::time_point stored_at,
                                                   std::string proxy_used) {
  auto page = std::make_shared<const CachedPage>(std::move(fetched), stored_at,
                                                 std::move(proxy_used));
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    bytes_ -= it->second.page->budget_bytes();
    lru_.erase(it->second.position);
    slots_.erase(it);
  }
  bytes_ += page->budget_bytes();
  lru_.push_front(key);
  slots_.emplace(key, Slot{page, lru_.begin()});
  evict_locked();
  return page;
}

void PageCache::evict_locked() {
  while (!lru_.empty() && (slots_.size() > max_entries_ || bytes_ > max_bytes_)) {
    auto it = slots_.find(lru_.back());
    bytes_ -= it->second.page->budget_bytes();
    slots_.erase(it);
    lru_.pop_back();
  }
}

void PageCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  slots_.clear();
  lru_.clear();
  bytes_ = 0;
}

std::size_t PageCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

}  // namespace webdata::mock::scrape
