#include "scrape/scraper.hpp"

#include <algorithm>
#include <set>

#include "app/util.hpp"
#include "content/document.hpp"
#include "http/message.hpp"
#include "web/url.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

// Formats whose behaviour arrives with the model-made formats (issue 8). Until then a request
// for them is refused with a clear 400 rather than answered with an invented value.
const std::set<std::string> kPendingFormats = {"summary",         "json",       "changeTracking",
                                               "branding",        "screenshot", "screenshot@fullPage",
                                               "extract"};

bool is_html_like(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  type.erase(std::remove(type.begin(), type.end(), ' '), type.end());
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return type.empty() || type == "text/html" || type == "application/xhtml+xml" ||
         type.rfind("text/", 0) == 0 || type == "application/json" || type == "application/xml" ||
         (type.size() > 5 && (type.compare(type.size() - 4, 4, "+xml") == 0 ||
                              type.compare(type.size() - 5, 5, "+json") == 0));
}

bool is_pdf(const std::string& content_type) {
  return content_type.rfind("application/pdf", 0) == 0;
}

content::Options content_options(const json& options) {
  content::Options out;
  out.only_main_content = options.value("onlyMainContent", true);
  if (options.contains("includeTags")) {
    out.include_tags = options.at("includeTags").get<std::vector<std::string>>();
  }
  if (options.contains("excludeTags")) {
    out.exclude_tags = options.at("excludeTags").get<std::vector<std::string>>();
  }
  out.remove_base64_images = options.value("removeBase64Images", true);
  out.block_ads = options.value("blockAds", true);
  return out;
}

std::string accept_language(const json& options) {
  if (!options.contains("location") || !options.at("location").is_object()) return "";
  const json& location = options.at("location");
  std::string out;
  if (location.contains("languages") && location.at("languages").is_array()) {
    double q = 1.0;
    for (const auto& language : location.at("languages")) {
      if (!language.is_string()) continue;
      if (!out.empty()) {
        q = std::max(0.1, q - 0.1);
        char weight[16];
        std::snprintf(weight, sizeof weight, ";q=%.1f", q);
        out += ", " + language.get<std::string>() + weight;
      } else {
        out = language.get<std::string>();
      }
    }
  }
  return out;
}

std::string cache_key(const json& options, const std::string& url) {
  std::string key = url;
  key += options.value("mobile", false) ? "|mobile" : "|desktop";
  key += "|" + accept_language(options);
  if (options.contains("location") && options.at("location").contains("country")) {
    key += "|" + options.at("location").at("country").get<std::string>();
  }
  return key;
}

Failure bad_request(std::string message) { return Failure{400, "BAD_REQUEST", std::move(message)}; }

}  // namespace

bool Formats::has(const std::string& name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Formats parse_formats(const json& formats) {
  Formats out;
  if (!formats.is_array()) {
    out.names.push_back("markdown");
    return out;
  }
  for (const auto& entry : formats) {
    std::string name;
    if (entry.is_string()) name = entry.get<std::string>();
    if (entry.is_object() && entry.contains("type") && entry.at("type").is_string()) {
      name = entry.at("type").get<std::string>();
    }
    if (!name.empty() && !out.has(name)) out.names.push_back(name);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// PageCache

PageCache::PageCache(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::optional<PageCache::Entry> PageCache::find(const std::string& key,
                                                std::chrono::system_clock::time_point now,
                                                std::chrono::milliseconds max_age) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return std::nullopt;
  if (now - it->second.entry.stored_at > max_age) return std::nullopt;
  lru_.splice(lru_.begin(), lru_, it->second.position);
  return it->second.entry;
}

void PageCache::store(const std::string& key, Entry entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    bytes_ -= it->second.entry.fetched.body.size();
    lru_.erase(it->second.position);
    slots_.erase(it);
  }
  bytes_ += entry.fetched.body.size();
  lru_.push_front(key);
  slots_.emplace(key, Slot{std::move(entry), lru_.begin()});
  evict_locked();
}

void PageCache::evict_locked() {
  while (!lru_.empty() && (slots_.size() > max_entries_ || bytes_ > max_bytes_)) {
    auto it = slots_.find(lru_.back());
    bytes_ -= it->second.entry.fetched.body.size();
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

// ---------------------------------------------------------------------------------------------
// Scraper

Scraper::Scraper(const web::VirtualWeb& web, const Clock& clock) : web_(web), clock_(clock) {}

std::optional<Failure> Scraper::check(const json& options, const std::string& version,
                                      const Team& team) const {
  for (const auto& name : parse_formats(options.value("formats", json())).names) {
    if (kPendingFormats.count(name) != 0) {
      return bad_request("The '" + name + "' format is not available in webdata-mock yet; " +
                         "available formats: markdown, html, rawHtml, links" +
                         (version == "v2" ? ", images" : ""));
    }
  }
  if (options.contains("actions") && !options.at("actions").empty()) {
    return bad_request("actions are not available in webdata-mock yet");
  }
  if (options.contains("jsonOptions") || options.contains("extract") ||
      options.contains("changeTrackingOptions")) {
    // v1 option objects only make sense with their (pending) formats.
    for (const char* key : {"jsonOptions", "extract", "changeTrackingOptions"}) {
      if (options.contains(key)) {
        return bad_request(std::string(key) + " is not available in webdata-mock yet");
      }
    }
  }
  if (options.value("zeroDataRetention", false) && !team.zero_data_retention) {
    return bad_request(
        "zeroDataRetention is not enabled for this team (set zeroDataRetention on the team in "
        "the mock's configuration)");
  }
  try {
    content::validate_selectors(content_options(options));
  } catch (const content::SelectorError& e) {
    return bad_request(std::string("Invalid CSS selector in includeTags/excludeTags: ") +
                       e.what());
  }
  return std::nullopt;
}

web::FetchResult Scraper::fetch(const json& options, const std::string& url,
                                const std::string& proxy, std::chrono::milliseconds timeout) const {
  web::FetchRequest request;
  request.url = url;
  if (options.contains("headers") && options.at("headers").is_object()) {
    for (const auto& [name, value] : options.at("headers").items()) {
      request.headers.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  request.mobile = options.value("mobile", false);
  request.accept_language = accept_language(options);
  request.timeout = timeout;
  request.skip_tls_verification = options.value("skipTlsVerification", true);
  request.proxy = proxy;
  return web_.fetch(request);
}

Outcome Scraper::scrape(const json& options, const std::string& version, const Team& team) {
  Outcome out;
  if (auto refused = check(options, version, team)) {
    out.failure = refused;
    return out;
  }
  const std::string url = options.value("url", "");
  const auto parsed = web::parse_url(url);
  if (!parsed) {
    out.failure = bad_request("Invalid URL '" + url + "': only absolute http and https URLs can be "
                              "scraped");
    return out;
  }

  const auto timeout = std::chrono::milliseconds(options.value("timeout", 30000));
  const auto wait_for = std::chrono::milliseconds(options.value("waitFor", 0));
  if (wait_for >= timeout) {
    out.failure = Failure{408, "SCRAPE_TIMEOUT",
                          "Scrape timed out: waitFor (" + std::to_string(wait_for.count()) +
                              " ms) leaves no time within timeout (" +
                              std::to_string(timeout.count()) + " ms)"};
    return out;
  }
  // The mock does not sleep for waitFor; it spends it from the timeout, as a browser would.
  const auto fetch_timeout = timeout - wait_for;

  const std::string requested_proxy =
      options.value("proxy", version == "v1" ? std::string("basic") : std::string("auto"));
  const bool sensitive = (options.contains("headers") && !options.at("headers").empty()) ||
                         (options.contains("actions") && !options.at("actions").empty());
  const bool zero_retention = options.value("zeroDataRetention", false);
  const bool store = options.value("storeInCache", true) && !sensitive && !zero_retention;
  const auto max_age = std::chrono::milliseconds(
      options.value("maxAge", version == "v1" ? 0LL : 172800000LL));
  const std::string key = cache_key(options, parsed->str()) + "|" +
                          (requested_proxy == "enhanced" ? "enhanced" : "basic");

  const auto now = clock_.now();
  std::optional<PageCache::Entry> cached;
  if (max_age.count() > 0 && !sensitive && !zero_retention) cached = cache_.find(key, now, max_age);

  web::FetchResult fetched;
  std::string proxy_used;
  bool hit = false;
  std::chrono::system_clock::time_point cached_at;
  if (cached) {
    fetched = std::move(cached->fetched);
    proxy_used = cached->proxy_used;
    cached_at = cached->stored_at;
    hit = true;
  } else {
    proxy_used = requested_proxy == "enhanced" ? "enhanced" : "basic";
    fetched = fetch(options, parsed->str(), proxy_used, fetch_timeout);
    // auto: a basic attempt that the site refused (anti-bot challenge, rate limit) is retried
    // through the enhanced proxy; only a successful retry is billed as enhanced.
    const bool refused = fetched.ok && (fetched.status == 401 || fetched.status == 403 ||
                                        fetched.status == 429);
    if (requested_proxy == "auto" && (refused || !fetched.ok) &&
        fetched.error_code != "SCRAPE_TIMEOUT" &&
        fetched.error_code != "SCRAPE_DNS_RESOLUTION_ERROR") {
      auto retry = fetch(options, parsed->str(), "enhanced", fetch_timeout);
      if (retry.ok && retry.status < 400) {
        fetched = std::move(retry);
        proxy_used = "enhanced";
      }
    }
  }

  if (!fetched.ok) {
    const bool timed_out = fetched.error_code == "SCRAPE_TIMEOUT";
    out.failure = Failure{timed_out ? 408 : 500,
                          fetched.error_code.empty() ? "SCRAPE_ALL_ENGINES_FAILED" : fetched.error_code,
                          fetched.error_message.empty() ? "The page could not be fetched"
                                                        : fetched.error_message};
    return out;
  }
  if (is_pdf(fetched.content_type)) {
    out.failure = Failure{500, "SCRAPE_UNSUPPORTED_FILE_ERROR",
                          "PDF documents are not available in webdata-mock yet (" + fetched.url +
                              ")"};
    return out;
  }
  if (!is_html_like(fetched.content_type)) {
    out.failure = Failure{500, "SCRAPE_UNSUPPORTED_FILE_ERROR",
                          "Unsupported content type '" + fetched.content_type + "' at " +
                              fetched.url};
    return out;
  }

  if (!hit && store && fetched.status >= 200 && fetched.status < 300) {
    cache_.store(key, PageCache::Entry{fetched, now, proxy_used});
  }

  content::Page page;
  page.url = fetched.url.empty() ? parsed->str() : fetched.url;
  page.content_type = fetched.content_type;
  page.status_code = fetched.status;
  page.body = fetched.body;
  const content::Document document = content::Document::parse(page);
  const content::Options extract = content_options(options);
  const Formats formats = parse_formats(options.value("formats", json()));

  json data = json::object();
  try {
    if (formats.has("markdown")) data["markdown"] = document.markdown(extract);
    if (formats.has("html")) data["html"] = document.html(extract);
  } catch (const content::SelectorError& e) {
    out.failure = bad_request(std::string("Invalid CSS selector in includeTags/excludeTags: ") +
                              e.what());
    return out;
  }
  if (formats.has("rawHtml")) data["rawHtml"] = document.raw_html();
  out.links = document.links();
  if (formats.has("links")) data["links"] = out.links;
  if (version == "v2" && formats.has("images")) data["images"] = document.images();

  out.credits = proxy_used == "enhanced" ? 5 : 1;
  if (hit) out.credits = 1;  // A cached page is billed as a basic page.

  json metadata = document.metadata();
  if (!metadata.is_object()) metadata = json::object();
  metadata["sourceURL"] = url;
  metadata["url"] = page.url;
  metadata["statusCode"] = fetched.status;
  metadata["scrapeId"] = uuid4();
  if (!fetched.content_type.empty()) metadata["contentType"] = fetched.content_type;
  metadata["proxyUsed"] = proxy_used;
  metadata["cacheState"] = hit ? "hit" : "miss";
  if (hit) metadata["cachedAt"] = iso8601(cached_at);
  metadata["creditsUsed"] = out.credits;
  if (fetched.status >= 400) metadata["error"] = http::reason_phrase(fetched.status);
  if (drop_status_code_) metadata.erase("statusCode");
  data["metadata"] = std::move(metadata);

  out.document = std::move(data);
  out.status_code = fetched.status;
  out.final_url = page.url;
  out.content_type = fetched.content_type;
  out.html = std::move(fetched.body);
  return out;
}

}  // namespace webdata::mock::scrape
