#include "scrape/scraper.hpp"

#include <algorithm>
#include <set>

#include "core/base64.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "content/document.hpp"
#include "formats/actions.hpp"
#include "formats/branding.hpp"
#include "formats/change_tracking.hpp"
#include "formats/extract.hpp"
#include "formats/pdf.hpp"
#include "formats/queries.hpp"
#include "formats/screenshot.hpp"
#include "formats/summary.hpp"
#include "formats/tree.hpp"
#include "core/url.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

/// The format entry object named `type` (v2 objects carry options), or null.
json format_entry(const json& formats, const std::string& type) {
  if (!formats.is_array()) return nullptr;
  for (const auto& entry : formats) {
    if (entry.is_object() && entry.value("type", "") == type) return entry;
  }
  return nullptr;
}

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

/// What waits used up (`spent`, never slept) leaves nothing of the scrape's `timeout`.
Failure no_time_left(const std::string& spent_by, const std::string& verb,
                     std::chrono::milliseconds spent, std::chrono::milliseconds timeout) {
  return Failure{408, "SCRAPE_TIMEOUT",
                 "Scrape timed out: " + spent_by + " (" + std::to_string(spent.count()) + " ms) " +
                     verb + " no time within timeout (" + std::to_string(timeout.count()) +
                     " ms)"};
}

/// A fetched answer as the page the content pipeline and the action runner read.
content::Page page_of(web::FetchResult fetched, const std::string& requested_url) {
  content::Page page;
  page.url = fetched.url.empty() ? requested_url : std::move(fetched.url);
  page.content_type = std::move(fetched.content_type);
  page.status_code = fetched.status;
  page.body = std::move(fetched.body);
  return page;
}

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
// CachedPage

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

// ---------------------------------------------------------------------------------------------
// PageCache

PageCache::PageCache(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::shared_ptr<const CachedPage> PageCache::find(const std::string& key,
                                                  std::chrono::system_clock::time_point now,
                                                  std::chrono::milliseconds max_age) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return nullptr;
  if (now - it->second.page->stored_at() > max_age) return nullptr;
  if (it->second.page->fetched().ready_at > std::chrono::steady_clock::now()) return nullptr;
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

// ---------------------------------------------------------------------------------------------
// Scraper

Scraper::Scraper(const web::VirtualWeb& web, const Clock& clock) : web_(web), clock_(clock) {}

std::optional<Failure> Scraper::check(const json& options, const std::string& version,
                                      const Team& team) const {
  const Formats formats = parse_formats(options.value("formats", json()));
  if (formats.has("changeTracking") && !formats.has("markdown")) {
    return bad_request("The changeTracking format requires the markdown format to be specified as well");
  }
  (void)version;
  if (no_llm_) {
    // --inject-fault no-llm: a deployment without a language model refuses what one makes.
    for (const char* name : {"summary", "json", "extract", "branding"}) {
      if (formats.has(name)) {
        return bad_request(std::string("The ") + name +
                           " format needs a language model, and none is configured");
      }
    }
    json tracking = format_entry(options.value("formats", json::array()), "changeTracking");
    if (!tracking.is_object()) tracking = options.value("changeTrackingOptions", json());
    const json modes = tracking.is_object() ? tracking.value("modes", json::array()) : json();
    if (modes.is_array() && std::find(modes.begin(), modes.end(), json("json")) != modes.end()) {
      return bad_request("Change tracking in json mode needs a language model, and none is "
                         "configured");
    }
  }
  if (options.contains("actions") && options.at("actions").is_array()) {
    const formats::ActionSettings limits;
    if (options.at("actions").size() > limits.max_actions) {
      return bad_request("Too many actions: " + std::to_string(options.at("actions").size()) +
                         " given, at most " + std::to_string(limits.max_actions));
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
                                const std::string& proxy, std::chrono::milliseconds timeout,
                                std::chrono::steady_clock::time_point start) const {
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
  request.start = start;
  return web_.fetch_deferred(request);
}

Outcome Scraper::scrape_pdf(const json& options, const std::string& version,
                           const std::string& url, const web::FetchResult& fetched,
                           const std::string& proxy_used, bool hit,
                           std::chrono::system_clock::time_point cached_at,
                           std::chrono::system_clock::time_point now, const std::string& key,
                           bool store) {
  Outcome out;
  // v2 `parsers` (default ["pdf"]) and v1 `parsePDF` (default true): text as markdown billed per
  // page; otherwise the file itself, base64-encoded, for one credit.
  bool parse = true;
  if (version == "v1") {
    parse = options.value("parsePDF", true);
  } else if (options.contains("parsers")) {
    parse = false;
    for (const auto& parser : options.at("parsers")) {
      if ((parser.is_string() && parser.get<std::string>() == "pdf") ||
          (parser.is_object() && parser.value("type", "") == "pdf")) {
        parse = true;
      }
    }
  }
  json data = json::object();
  json metadata = json::object();
  const Formats formats = parse_formats(options.value("formats", json()));
  if (parse) {
    const formats::PdfResult pdf = formats::pdf_to_markdown(fetched.body);
    if (pdf.error) {
      out.failure = Failure{500, pdf.code.empty() ? "SCRAPE_UNSUPPORTED_FILE_ERROR" : pdf.code,
                            "The PDF at " + fetched.url + " cannot be read: " + *pdf.error};
      return out;
    }
    if (formats.has("markdown")) data["markdown"] = pdf.markdown;
    if (!pdf.title.empty()) metadata["title"] = pdf.title;
    metadata["numPages"] = pdf.num_pages;
    out.credits = std::max(1, pdf.num_pages);
  } else {
    const std::string encoded = base64_encode(fetched.body);
    data["markdown"] = encoded;
    out.credits = 1;
  }
  if (proxy_used == "enhanced" && !hit) out.credits = std::max<std::int64_t>(out.credits, 5);
  if (formats.has("rawHtml")) data["rawHtml"] = base64_encode(fetched.body);
  if (!hit && store && fetched.status >= 200 && fetched.status < 300) {
    cache_.store(key, fetched, now, proxy_used);
  }
  metadata["sourceURL"] = url;
  metadata["url"] = fetched.url;
  if (!drop_status_code_) metadata["statusCode"] = fetched.status;
  metadata["scrapeId"] = uuid4();
  metadata["contentType"] = fetched.content_type;
  metadata["proxyUsed"] = proxy_used;
  metadata["cacheState"] = hit ? "hit" : "miss";
  if (hit) metadata["cachedAt"] = iso8601(cached_at);
  metadata["creditsUsed"] = out.credits;
  data["metadata"] = std::move(metadata);
  out.document = std::move(data);
  out.status_code = fetched.status;
  out.final_url = fetched.url;
  out.content_type = fetched.content_type;
  return out;
}

Outcome Scraper::scrape_deferred(const json& options, const std::string& version,
                                 const Team& team, std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;
  out.failure = refused_by_conditions(options, version);
  if (out.failure) return out;
  const auto changed = options_under_conditions(options);
  out = scrape_page(changed ? *changed : options, version, team, nullptr, start);
  finish(out, version);
  return out;
}

Outcome Scraper::scrape_upload(const json& options, const Upload& upload, const Team& team) {
  json with_url = options;
  with_url["url"] = upload.url;
  Outcome out = scrape_page(with_url, "v2", team, &upload, {});
  finish(out, "v2");
  return out;
}

Outcome Scraper::scrape_page(const json& options, const std::string& version, const Team& team,
                             const Upload* upload, std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;  // what needs no fetch is known when the scrape begins
  if (auto refused = check(options, version, team)) {
    out.failure = refused;
    return out;
  }
  const std::string url = options.value("url", "");
  const auto parsed = parse_http_url(url);
  if (!parsed) {
    out.failure = bad_request("Invalid URL '" + url + "': only absolute http and https URLs can be "
                              "scraped");
    return out;
  }

  const auto timeout = std::chrono::milliseconds(options.value("timeout", 30000));
  const auto wait_for = std::chrono::milliseconds(options.value("waitFor", 0));
  if (wait_for >= timeout) {
    out.failure = no_time_left("waitFor", "leaves", wait_for, timeout);
    return out;
  }
  // The mock does not sleep for waitFor; it spends it from the timeout, as a browser would.
  const auto fetch_timeout = timeout - wait_for;

  std::string requested_proxy =
      options.value("proxy", version == "v1" ? std::string("basic") : std::string("auto"));
  // `stealth` is the service's older name of the enhanced proxy (v1's only name for it).
  if (requested_proxy == "stealth") requested_proxy = "enhanced";
  const bool sensitive = (options.contains("headers") && !options.at("headers").empty()) ||
                         (options.contains("actions") && !options.at("actions").empty());
  // Lockdown: the answer comes from the cache only (any age up to two years unless maxAge says
  // otherwise), nothing is fetched or stored, as the service documents.
  const bool lockdown = version == "v2" && options.value("lockdown", false);
  const bool zero_retention = keeps_nothing(options, version);
  const bool store =
      upload == nullptr && options.value("storeInCache", true) && !sensitive && !zero_retention;
  const auto max_age = std::chrono::milliseconds(options.value(
      "maxAge", lockdown ? 63072000000LL : version == "v1" ? 0LL : 172800000LL));
  const std::string key = cache_key(options, parsed->str()) + "|" +
                          (requested_proxy == "enhanced" ? "enhanced" : "basic");

  const auto now = clock_.now();
  // The cached page of a hit, or the one this scrape stores: either way the parse and the
  // renderings are made once and kept with it.
  std::shared_ptr<const CachedPage> cached;
  if (upload == nullptr && max_age.count() > 0 && !sensitive && (!zero_retention || lockdown)) {
    cached = cache_.find(key, now, max_age);
  }
  if (lockdown && !cached) {
    out.failure = Failure{404, "SCRAPE_LOCKDOWN_CACHE_MISS",
                          "No cached data is available for this request in lockdown mode. "
                          "Lockdown mode only serves previously cached responses and never makes "
                          "outbound requests."};
    return out;
  }

  web::FetchResult fetched;
  std::string proxy_used;
  bool hit = false;
  std::chrono::system_clock::time_point cached_at;
  if (upload != nullptr) {
    fetched.ok = true;
    fetched.status = 200;
    fetched.url = upload->url;
    fetched.content_type = upload->content_type;
    fetched.body = upload->body;
    proxy_used = "basic";
  } else if (cached) {
    // A hit reads the cached answer in place: its body is not copied (it can be megabytes).
    proxy_used = cached->proxy_used();
    cached_at = cached->stored_at();
    hit = true;
  } else {
    proxy_used = requested_proxy == "enhanced" ? "enhanced" : "basic";
    fetched = fetch(options, parsed->str(), proxy_used, fetch_timeout, start);
    out.ready_at = fetched.ready_at;
    // auto: a basic attempt that the site refused (anti-bot challenge, rate limit) is retried
    // through the enhanced proxy; only a successful retry is billed as enhanced.
    const bool refused = fetched.ok && (fetched.status == 401 || fetched.status == 403 ||
                                        fetched.status == 429);
    if (requested_proxy == "auto" && (refused || !fetched.ok) &&
        fetched.error_code != "SCRAPE_TIMEOUT" &&
        fetched.error_code != "SCRAPE_DNS_RESOLUTION_ERROR") {
      // The retry starts when the first attempt's answer came.
      auto retry = fetch(options, parsed->str(), "enhanced", fetch_timeout, fetched.ready_at);
      out.ready_at = retry.ready_at;
      if (retry.ok && retry.status < 400) {
        fetched = std::move(retry);
        proxy_used = "enhanced";
      }
    }
  }

  const web::FetchResult& got = hit ? cached->fetched() : fetched;
  if (!got.ok) {
    const bool timed_out = got.error_code == "SCRAPE_TIMEOUT";
    out.failure = Failure{timed_out ? 408 : 500,
                          got.error_code.empty() ? "SCRAPE_ALL_ENGINES_FAILED" : got.error_code,
                          got.error_message.empty() ? "The page could not be fetched"
                                                        : got.error_message};
    return out;
  }
  const bool has_actions = options.contains("actions") && options.at("actions").is_array() &&
                           !options.at("actions").empty();
  if (is_pdf(got.content_type)) {
    if (has_actions) {
      out.failure = Failure{500, "SCRAPE_ACTION_ERROR",
                            "Actions need an HTML page; " + got.url + " is a PDF"};
      return out;
    }
    Outcome pdf =
        scrape_pdf(options, version, url, got, proxy_used, hit, cached_at, now, key, store);
    pdf.ready_at = out.ready_at;
    return pdf;
  }
  if (!is_html_like(got.content_type)) {
    out.failure = Failure{500, "SCRAPE_UNSUPPORTED_FILE_ERROR",
                          "Unsupported content type '" + got.content_type + "' at " +
                              got.url};
    return out;
  }

  if (!hit && store && got.status >= 200 && got.status < 300) {
    cached = cache_.store(key, std::move(fetched), now, proxy_used);  // `got` is moved from
  }

  // The formats of a cached page come from its Document (parsed once, kept with it), so the page
  // here needs its body only when nothing is cached.
  const web::FetchResult& source = cached ? cached->fetched() : fetched;
  content::Page page;
  page.url = source.url.empty() ? parsed->str() : source.url;
  page.content_type = source.content_type;
  page.status_code = source.status;
  if (!cached) page.body = std::move(fetched.body);
  const content::Options extract = content_options(options);
  const Formats formats = parse_formats(options.value("formats", json()));

  // Actions run on the fetched page before capture; every format is then made from the page the
  // actions ended on (a click on a link navigates through the virtual web).
  json actions_result;
  if (has_actions) {
    formats::ActionSettings settings;
    if (options.value("mobile", false)) {
      settings.viewport_width = formats::kMobileWidth;
      settings.viewport_height = formats::kMobileHeight;
    }
    settings.options = extract;
    const std::string navigation_proxy = proxy_used;
    // Each navigation starts when the previous page arrived, so its delay adds to the answer's.
    formats::Navigator navigate =
        [this, &options, navigation_proxy, fetch_timeout,
         &ready_at = out.ready_at](const std::string& target) -> std::optional<content::Page> {
      web::FetchResult next = fetch(options, target, navigation_proxy, fetch_timeout, ready_at);
      ready_at = next.ready_at;
      if (!next.ok || !is_html_like(next.content_type)) return std::nullopt;
      return page_of(std::move(next), target);
    };
    const formats::ActionRunner runner(std::move(navigate), settings);
    formats::ActionsOutcome ran = runner.run(page, options.at("actions"));
    if (ran.error) {
      out.failure = Failure{500, ran.error->code, ran.error->message};
      return out;
    }
    // Waits are not slept but spent from the scrape's time, as a browser would spend them.
    if (wait_for + ran.waited >= timeout) {
      out.failure = no_time_left("waitFor and wait actions", "leave", wait_for + ran.waited, timeout);
      return out;
    }
    page = std::move(ran.final_page);
    actions_result = std::move(ran.result);
  }
  // Actions never run on a cached page (they make a request sensitive), so `cached` is the page
  // the formats are made from whenever it is set.
  const content::Document document =
      cached ? cached->document(page.url) : content::Document::parse(page);

  json data = json::object();
  if (!actions_result.is_null()) data["actions"] = std::move(actions_result);
  try {
    if (formats.has("markdown")) {
      data["markdown"] = cached ? cached->markdown(page.url, extract) : document.markdown(extract);
    }
    if (formats.has("html")) {
      data["html"] = cached ? cached->html(page.url, extract) : document.html(extract);
    }
  } catch (const content::SelectorError& e) {
    out.failure = bad_request(std::string("Invalid CSS selector in includeTags/excludeTags: ") +
                              e.what());
    return out;
  }
  if (formats.has("rawHtml")) data["rawHtml"] = document.raw_html();
  out.links = cached ? cached->links(page.url) : document.links();
  if (formats.has("links")) data["links"] = out.links;
  if (version == "v2" && formats.has("images")) data["images"] = document.images();

  out.credits = proxy_used == "enhanced" ? 5 : 1;
  if (hit) out.credits = 1;  // A cached page is billed as a basic page.

  // Model-made formats: deterministic stand-ins for what a model or a browser makes
  // (docs/mockserver/model-formats.md). Each is derived from the same parsed page.
  const json format_list = options.value("formats", json::array());
  if (version == "v2" && formats.has("summary")) {
    data["summary"] = formats::summarize(document, extract);
  }
  if (formats.has("json")) {
    json schema = nullptr;
    std::string prompt;
    if (version == "v2") {
      const json entry = format_entry(format_list, "json");
      if (entry.is_object()) {
        schema = entry.value("schema", json());
        prompt = entry.value("prompt", "");
      }
    } else if (options.contains("jsonOptions")) {
      schema = options.at("jsonOptions").value("schema", json());
      prompt = options.at("jsonOptions").value("prompt", "");
    }
    data["json"] = formats::extract(document, extract, schema, prompt);
    out.credits += 4;
  } else if (version == "v2" && formats.has("deterministicJson")) {
    // The newer service's json variant made without a model: it answers in `json` like the json
    // format, and the mock's extraction is deterministic anyway. No model, so no json surcharge.
    // With both formats the `json` entry's answer stands (one `json` field to fill).
    const json entry = format_entry(format_list, "deterministicJson");
    data["json"] = formats::extract(document, extract,
                                    entry.is_object() ? entry.value("schema", json()) : json(),
                                    entry.is_object() ? entry.value("prompt", "") : "");
  }
  if (version == "v1" && formats.has("extract")) {
    const json spec = options.value("extract", json::object());
    data["extract"] =
        formats::extract(document, extract, spec.value("schema", json()), spec.value("prompt", ""));
    out.credits += 4;
  }
  if (version == "v2" && formats.has("branding")) data["branding"] = formats::branding(document);
  if (version == "v2") {
    try {
      const json wanted = format_entry(format_list, "attributes");
      if (wanted.is_object()) {
        data["attributes"] = formats::attributes(document, wanted.value("selectors", json::array()));
      }
    } catch (const content::SelectorError& e) {
      out.failure = bad_request(std::string("Invalid CSS selector in attributes: ") + e.what());
      return out;
    }
    // `query` is the older form of `question`; both answer in `answer`.
    for (const char* type : {"question", "query"}) {
      const json wanted = format_entry(format_list, type);
      if (wanted.is_object()) {
        data["answer"] = formats::answer(
            document, extract, wanted.value(std::string(type) == "query" ? "prompt" : "question", ""));
      }
    }
    const json wanted_highlights = format_entry(format_list, "highlights");
    if (wanted_highlights.is_object()) {
      data["highlights"] =
          formats::highlights(document, extract, wanted_highlights.value("query", ""));
    }
    if (formats.has("rawBase64")) data["rawBase64"] = base64_encode(document.raw_html());
    // Formats the mock cannot make from a page without a browser or a model: accepted, as the
    // service accepts them, and named in a `warning` instead of an answer that would be made up.
    std::vector<std::string> not_made;
    for (const char* name : {"audio", "video", "product", "menu"}) {
      if (formats.has(name)) not_made.push_back(name);
    }
    if (!not_made.empty()) {
      std::string names;
      for (const auto& n : not_made) names += (names.empty() ? "" : ", ") + n;
      data["warning"] = "The mock does not produce these formats (they need the service's browser "
                        "or models): " + names;
    }
    // redactPII: personal data in the text formats is replaced (formats/queries.hpp).
    if (options.contains("redactPII")) {
      for (const char* field : {"markdown", "html", "summary", "answer", "highlights"}) {
        if (data.contains(field) && data.at(field).is_string()) {
          data[field] = formats::redact_pii(data.at(field).get<std::string>(),
                                            options.at("redactPII"));
        }
      }
    }
  }
  const bool full_v1 = formats.has("screenshot@fullPage");
  if ((formats.has("screenshot") || full_v1) && no_screenshot_) {
    // --inject-fault no-screenshot: the warning of an engine that cannot take screenshots.
    data["warning"] =
        "The engine used does not support the following features: screenshot -- your scrape may "
        "be partial.";
  } else if (formats.has("screenshot") || full_v1) {
    const bool mobile = options.value("mobile", false);
    formats::ScreenshotOptions shot;
    shot.viewport_width = mobile ? formats::kMobileWidth : formats::kDesktopWidth;
    shot.viewport_height = mobile ? formats::kMobileHeight : formats::kDesktopHeight;
    shot.full_page = full_v1;
    const json entry = format_entry(format_list, "screenshot");
    if (entry.is_object()) {
      shot.full_page = entry.value("fullPage", false);
      if (entry.contains("viewport")) {
        shot.viewport_width = entry.at("viewport").value("width", shot.viewport_width);
        shot.viewport_height = entry.at("viewport").value("height", shot.viewport_height);
      }
    }
    data["screenshot"] = formats::data_uri_png(formats::screenshot_png(document, extract, shot));
  }
  if (formats.has("changeTracking")) {
    formats::ChangeTrackingInput input;
    input.team = team.id;
    input.url = url;
    input.markdown = data.value("markdown", "");
    input.status_code = page.status_code;
    input.store = !zero_retention;
    input.now = now;
    json tracking_options = version == "v2" ? format_entry(format_list, "changeTracking")
                                            : options.value("changeTrackingOptions", json());
    if (tracking_options.is_object()) {
      if (tracking_options.contains("tag") && tracking_options.at("tag").is_string()) {
        input.tag = tracking_options.at("tag").get<std::string>();
      }
      if (tracking_options.contains("modes")) {
        input.modes = tracking_options.at("modes").get<std::vector<std::string>>();
      }
      if (std::find(input.modes.begin(), input.modes.end(), "json") != input.modes.end()) {
        input.json = formats::extract(document, extract, tracking_options.value("schema", json()),
                                      tracking_options.value("prompt", ""));
      }
    }
    data["changeTracking"] = tracker_.track(input);
  }

  json metadata = cached ? cached->metadata(page.url) : document.metadata();
  if (!metadata.is_object()) metadata = json::object();
  metadata["sourceURL"] = url;
  metadata["url"] = page.url;
  metadata["statusCode"] = page.status_code;
  metadata["scrapeId"] = uuid4();
  if (!page.content_type.empty()) metadata["contentType"] = page.content_type;
  metadata["proxyUsed"] = proxy_used;
  metadata["cacheState"] = hit ? "hit" : "miss";
  if (hit) metadata["cachedAt"] = iso8601(cached_at);
  metadata["creditsUsed"] = out.credits;
  if (page.status_code >= 400) metadata["error"] = reason_phrase(page.status_code);
  if (drop_status_code_) metadata.erase("statusCode");
  data["metadata"] = std::move(metadata);

  out.document = std::move(data);
  out.status_code = page.status_code;
  out.final_url = page.url;
  out.content_type = page.content_type;
  return out;
}

}  // namespace webdata::mock::scrape
