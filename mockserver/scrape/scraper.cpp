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
using requests::ScrapeOptions;

namespace {

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

content::Options content_options(const ScrapeOptions& options) {
  content::Options out;
  out.only_main_content = options.only_main_content;
  if (options.include_tags) out.include_tags = *options.include_tags;
  if (options.exclude_tags) out.exclude_tags = *options.exclude_tags;
  out.remove_base64_images = options.remove_base64_images;
  out.block_ads = options.block_ads;
  return out;
}

/// The page cache's key: the URL and what changes what a site answers (device, languages,
/// country, the proxy a page came through).
std::string cache_key(const ScrapeOptions& options, const std::string& url) {
  std::string key = url;
  key += options.mobile ? "|mobile" : "|desktop";
  key += "|" + options.accept_language();
  key += "|" + options.location.country;
  key += options.proxy_mode() == "enhanced" ? "|enhanced" : "|basic";
  return key;
}

/// A refusal of bad input: 400 with the service's issue shape at the option named.
Failure bad_option(std::string message, const std::string& field) {
  json details = json::array(
      {{{"code", "custom"}, {"message", message}, {"path", json::array({field})}}});
  return Failure{400, "BAD_REQUEST", std::move(message), std::move(details)};
}

/// What waits used up (`spent`, never slept) leaves nothing of the scrape's `timeout`.
Failure no_time_left(const std::string& spent_by, const std::string& verb,
                     std::chrono::milliseconds spent, std::chrono::milliseconds timeout) {
  return Failure{408, "SCRAPE_TIMEOUT",
                 "Scrape timed out: " + spent_by + " (" + std::to_string(spent.count()) + " ms) " +
                     verb + " no time within timeout (" + std::to_string(timeout.count()) +
                     " ms)",
                 nullptr};
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

// ---------------------------------------------------------------------------------------------
// Scraper

/// What the options decide before anything is fetched.
struct Scraper::Plan {
  std::chrono::milliseconds timeout{0};
  std::chrono::milliseconds wait_for{0};
  /// The mock does not sleep for waitFor; it spends it from the timeout, as a browser would.
  std::chrono::milliseconds fetch_timeout{0};
  std::string proxy;  ///< basic | enhanced | auto
  /// Lockdown: the answer comes from the cache only (up to maxAge), nothing is fetched or stored.
  bool lockdown = false;
  bool zero_retention = false;
  bool store = false;  ///< The fetched page goes into the cache.
  std::chrono::milliseconds max_age{0};
  std::string key;  ///< Of the page cache.
};

/// The answer the formats are made from: an upload, a cache hit or a fetch.
/// What the formats of an HTML page are made from.
struct Scraper::Made {
  const ScrapeOptions& options;
  const content::Options& extract;
  const content::Document& document;
  const CachedPage* cached;  ///< The cached page, whose renderings are memoized; or null.
  const content::Page& page;
};

struct Scraper::Got {
  web::FetchResult fetched;  ///< Empty on a hit (the cached answer is read in place).
  std::shared_ptr<const CachedPage> cached;
  std::string proxy_used;
  bool hit = false;
  std::chrono::system_clock::time_point cached_at;
  const web::FetchResult& answer() const { return hit ? cached->fetched() : fetched; }
};

Scraper::Scraper(const web::VirtualWeb& web, const Clock& clock) : web_(web), clock_(clock) {}

std::optional<Failure> Scraper::check(const ScrapeOptions& options, const Team& team) const {
  if (no_llm_) {
    // --inject-fault no-llm: a deployment without a language model refuses what one makes.
    for (const char* name : {"summary", "json", "extract", "branding"}) {
      if (options.wants(name)) {
        return bad_option(std::string("The ") + name +
                              " format needs a language model, and none is configured",
                          "formats");
      }
    }
    const auto tracking = options.change_tracking();
    if (tracking &&
        std::find(tracking->modes.begin(), tracking->modes.end(), "json") != tracking->modes.end()) {
      return bad_option("Change tracking in json mode needs a language model, and none is "
                        "configured",
                        "formats");
    }
  }
  if (options.zero_data_retention && !team.zero_data_retention) {
    return bad_option(
        "zeroDataRetention is not enabled for this team (set zeroDataRetention on the team in "
        "the mock's configuration)",
        "zeroDataRetention");
  }
  try {
    content::validate_selectors(content_options(options));
  } catch (const content::SelectorError& e) {
    return bad_option(std::string("Invalid CSS selector in includeTags/excludeTags: ") + e.what(),
                      options.include_tags ? "includeTags" : "excludeTags");
  }
  return std::nullopt;
}

web::FetchResult Scraper::fetch(const ScrapeOptions& options, const std::string& url,
                                const std::string& proxy, std::chrono::milliseconds timeout,
                                std::chrono::steady_clock::time_point start) const {
  web::FetchRequest request;
  request.url = url;
  if (options.headers) {
    for (const auto& [name, value] : *options.headers) request.headers.emplace_back(name, value);
  }
  request.mobile = options.mobile;
  request.accept_language = options.accept_language();
  request.timeout = timeout;
  request.skip_tls_verification = options.skip_tls_verification;
  request.proxy = proxy;
  request.start = start;
  return web_.fetch_deferred(request);
}

Outcome Scraper::scrape_pdf(const ScrapeOptions& options, const std::string& url,
                            const Plan& plan, const Got& got,
                            std::chrono::system_clock::time_point now) {
  Outcome out;
  const web::FetchResult& fetched = got.answer();
  json data = json::object();
  json metadata = json::object();
  // v2 `parsers` and v1 `parsePDF`: text as markdown billed per page; otherwise the file
  // itself, base64-encoded, for one credit.
  if (options.parses_pdf()) {
    const formats::PdfResult pdf = formats::pdf_to_markdown(fetched.body);
    if (pdf.error) {
      out.failure = Failure{500, pdf.code.empty() ? "SCRAPE_UNSUPPORTED_FILE_ERROR" : pdf.code,
                            "The PDF at " + fetched.url + " cannot be read: " + *pdf.error,
                            nullptr};
      return out;
    }
    if (options.wants("markdown")) data["markdown"] = pdf.markdown;
    if (!pdf.title.empty()) metadata["title"] = pdf.title;
    metadata["numPages"] = pdf.num_pages;
    out.credits = std::max(1, pdf.num_pages);
  } else {
    data["markdown"] = base64_encode(fetched.body);
    out.credits = 1;
  }
  if (got.proxy_used == "enhanced" && !got.hit) out.credits = std::max<std::int64_t>(out.credits, 5);
  if (options.wants("rawHtml")) data["rawHtml"] = base64_encode(fetched.body);
  if (!got.hit && plan.store && fetched.status >= 200 && fetched.status < 300) {
    cache_.store(plan.key, fetched, now, got.proxy_used);
  }
  content::Page page;  // what the document says of the file (its body is not needed)
  page.url = fetched.url;
  page.status_code = fetched.status;
  page.content_type = fetched.content_type;
  return finish(std::move(out), std::move(data), std::move(metadata), url, page, got);
}

Outcome Scraper::finish(Outcome out, json data, json metadata, const std::string& url,
                        const content::Page& page, const Got& got) const {
  metadata["sourceURL"] = url;
  metadata["url"] = page.url;
  if (!drop_status_code_) metadata["statusCode"] = page.status_code;
  if (!page.content_type.empty()) metadata["contentType"] = page.content_type;
  metadata["scrapeId"] = uuid4();
  metadata["proxyUsed"] = got.proxy_used;
  metadata["cacheState"] = got.hit ? "hit" : "miss";
  if (got.hit) metadata["cachedAt"] = iso8601(got.cached_at);
  metadata["creditsUsed"] = out.credits;
  data["metadata"] = std::move(metadata);
  out.document = std::move(data);
  out.status_code = page.status_code;
  out.final_url = page.url;
  out.content_type = page.content_type;
  return out;
}

Outcome Scraper::scrape_deferred(const ScrapeOptions& options, const std::string& url,
                                 const Team& team, std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;
  out.failure = refused_by_conditions(options);
  if (out.failure) return out;
  const auto changed = options_under_conditions(options);
  out = scrape_page(changed ? *changed : options, url, team, nullptr, start);
  as_deployed(out, options.version);
  return out;
}

Outcome Scraper::scrape_upload(const ScrapeOptions& options, const Upload& upload,
                               const Team& team) {
  Outcome out = scrape_page(options, upload.url, team, &upload, {});
  as_deployed(out, options.version);
  return out;
}

std::optional<Failure> Scraper::make_plan(const ScrapeOptions& options, const Url& url,
                                     const Upload* upload, Plan& out) const {
  out.timeout = std::chrono::milliseconds(options.timeout);
  out.wait_for = std::chrono::milliseconds(options.wait_for);
  if (out.wait_for >= out.timeout) return no_time_left("waitFor", "leaves", out.wait_for, out.timeout);
  out.fetch_timeout = out.timeout - out.wait_for;
  out.proxy = options.proxy_mode();
  out.lockdown = options.version == requests::Version::v2 && options.lockdown;
  out.zero_retention = options.keeps_nothing();
  const bool sensitive = options.sensitive();
  out.store = upload == nullptr && options.store_in_cache && !sensitive && !out.zero_retention;
  out.max_age = std::chrono::milliseconds(options.max_age);
  out.key = cache_key(options, url.str());
  const bool readable = upload == nullptr && out.max_age.count() > 0 && !sensitive &&
                        (!out.zero_retention || out.lockdown);
  if (!readable) out.max_age = std::chrono::milliseconds(0);
  return std::nullopt;
}

std::optional<Failure> Scraper::obtain(const ScrapeOptions& options, const Plan& plan,
                                       const std::string& url, const Upload* upload,
                                       std::chrono::steady_clock::time_point start, Got& got,
                                       Outcome& out) {
  const auto now = clock_.now();
  if (plan.max_age.count() > 0) {
    got.cached = cache_.find(plan.key, now, clock_.steady_now(), plan.max_age);
  }
  if (plan.lockdown && !got.cached) {
    return Failure{404, "SCRAPE_LOCKDOWN_CACHE_MISS",
                   "No cached data is available for this request in lockdown mode. Lockdown "
                   "mode only serves previously cached responses and never makes outbound "
                   "requests.",
                   nullptr};
  }
  if (upload != nullptr) {
    got.fetched.ok = true;
    got.fetched.status = 200;
    got.fetched.url = upload->url;
    got.fetched.content_type = upload->content_type;
    got.fetched.body = upload->body;
    got.proxy_used = "basic";
  } else if (got.cached) {
    // A hit reads the cached answer in place: its body is not copied (it can be megabytes).
    got.proxy_used = got.cached->proxy_used();
    got.cached_at = got.cached->stored_at();
    got.hit = true;
  } else {
    fetch_with_proxy(options, plan, url, start, got, out);
  }
  const web::FetchResult& answer = got.answer();
  if (answer.ok) return std::nullopt;
  const bool timed_out = answer.error_code == "SCRAPE_TIMEOUT";
  return Failure{timed_out ? 408 : 500,
                 answer.error_code.empty() ? "SCRAPE_ALL_ENGINES_FAILED" : answer.error_code,
                 answer.error_message.empty() ? "The page could not be fetched"
                                              : answer.error_message,
                 nullptr};
}

void Scraper::fetch_with_proxy(const ScrapeOptions& options, const Plan& plan,
                               const std::string& url, std::chrono::steady_clock::time_point start,
                               Got& got, Outcome& out) const {
  got.proxy_used = plan.proxy == "enhanced" ? "enhanced" : "basic";
  got.fetched = fetch(options, url, got.proxy_used, plan.fetch_timeout, start);
  out.ready_at = got.fetched.ready_at;
  // auto: a basic attempt that the site refused (anti-bot challenge, rate limit) is retried
  // through the enhanced proxy; only a successful retry is billed as enhanced.
  const web::FetchResult& first = got.fetched;
  const bool refused =
      first.ok && (first.status == 401 || first.status == 403 || first.status == 429);
  if (plan.proxy != "auto" || (!refused && first.ok) || first.error_code == "SCRAPE_TIMEOUT" ||
      first.error_code == "SCRAPE_DNS_RESOLUTION_ERROR") {
    return;
  }
  // The retry starts when the first attempt's answer came.
  auto retry = fetch(options, url, "enhanced", plan.fetch_timeout, first.ready_at);
  out.ready_at = retry.ready_at;
  if (retry.ok && retry.status < 400) {
    got.fetched = std::move(retry);
    got.proxy_used = "enhanced";
  }
}

std::optional<Failure> Scraper::run_actions(const ScrapeOptions& options, const Plan& plan,
                                            const std::string& proxy_used,
                                            const content::Options& extract, content::Page& page,
                                            json& result, Outcome& out) const {
  formats::ActionSettings settings;
  if (options.mobile) {
    settings.viewport_width = formats::kMobileWidth;
    settings.viewport_height = formats::kMobileHeight;
  }
  settings.options = extract;
  // Each navigation starts when the previous page arrived, so its delay adds to the answer's.
  formats::Navigator navigate =
      [this, &options, proxy_used, fetch_timeout = plan.fetch_timeout,
       &ready_at = out.ready_at](const std::string& target) -> std::optional<content::Page> {
    web::FetchResult next = fetch(options, target, proxy_used, fetch_timeout, ready_at);
    ready_at = next.ready_at;
    if (!next.ok || !is_html_like(next.content_type)) return std::nullopt;
    return page_of(std::move(next), target);
  };
  const formats::ActionRunner runner(std::move(navigate), settings);
  formats::ActionsOutcome ran = runner.run(page, json(*options.actions));
  if (ran.error) return Failure{500, ran.error->code, ran.error->message, nullptr};
  // Waits are not slept but spent from the scrape's time, as a browser would spend them.
  if (plan.wait_for + ran.waited >= plan.timeout) {
    return no_time_left("waitFor and wait actions", "leave", plan.wait_for + ran.waited,
                        plan.timeout);
  }
  page = std::move(ran.final_page);
  result = std::move(ran.result);
  return std::nullopt;
}

Outcome Scraper::scrape_page(const ScrapeOptions& options, const std::string& url,
                             const Team& team, const Upload* upload,
                             std::chrono::steady_clock::time_point start) {
  Outcome out;
  out.ready_at = start;  // what needs no fetch is known when the scrape begins
  if (auto refused = check(options, team)) {
    out.failure = refused;
    return out;
  }
  const auto parsed = parse_http_url(url);
  if (!parsed) {
    out.failure = bad_option("Invalid URL '" + url + "': only absolute http and https URLs can "
                             "be scraped",
                             "url");
    return out;
  }
  Plan plan;
  Got got;
  if (auto refused = make_plan(options, *parsed, upload, plan)) {
    out.failure = refused;
    return out;
  }
  if (auto failed = obtain(options, plan, parsed->str(), upload, start, got, out)) {
    out.failure = failed;
    return out;
  }
  const web::FetchResult& answer = got.answer();
  const bool has_actions = options.actions && !options.actions->empty();
  if (is_pdf(answer.content_type)) {
    if (has_actions) {
      out.failure = Failure{500, "SCRAPE_ACTION_ERROR",
                            "Actions need an HTML page; " + answer.url + " is a PDF", nullptr};
      return out;
    }
    Outcome pdf = scrape_pdf(options, url, plan, got, clock_.now());
    pdf.ready_at = out.ready_at;
    return pdf;
  }
  if (!is_html_like(answer.content_type)) {
    out.failure = Failure{500, "SCRAPE_UNSUPPORTED_FILE_ERROR",
                          "Unsupported content type '" + answer.content_type + "' at " +
                              answer.url,
                          nullptr};
    return out;
  }
  return scrape_html(options, url, parsed->str(), team, plan, got, std::move(out));
}

Outcome Scraper::scrape_html(const ScrapeOptions& options, const std::string& url,
                             const std::string& requested, const Team& team, const Plan& plan,
                             Got& got, Outcome out) {
  const auto now = clock_.now();
  if (!got.hit && plan.store && got.fetched.status >= 200 && got.fetched.status < 300) {
    got.cached = cache_.store(plan.key, std::move(got.fetched), now, got.proxy_used);
  }
  // The formats of a cached page come from its Document (parsed once, kept with it), so the page
  // here needs its body only when nothing is cached.
  const std::shared_ptr<const CachedPage>& cached = got.cached;
  const web::FetchResult& source = cached ? cached->fetched() : got.fetched;
  content::Page page;
  page.url = source.url.empty() ? requested : source.url;
  page.content_type = source.content_type;
  page.status_code = source.status;
  if (!cached) page.body = std::move(got.fetched.body);
  const content::Options extract = content_options(options);

  // Actions run on the fetched page before capture; every format is then made from the page the
  // actions ended on (a click on a link navigates through the virtual web).
  json actions_result;
  if (options.actions && !options.actions->empty()) {
    if (auto failed =
            run_actions(options, plan, got.proxy_used, extract, page, actions_result, out)) {
      out.failure = failed;
      return out;
    }
  }
  // Actions never run on a cached page (they make a request sensitive), so `cached` is the page
  // the formats are made from whenever it is set.
  const content::Document document =
      cached ? cached->document(page.url) : content::Document::parse(page);
  Made made{options, extract, document, cached.get(), page};
  json data = json::object();
  if (!actions_result.is_null()) data["actions"] = std::move(actions_result);
  if (auto failed = text_formats(made, data, out)) {
    out.failure = failed;
    return out;
  }
  out.credits = got.proxy_used == "enhanced" ? 5 : 1;
  if (got.hit) out.credits = 1;  // A cached page is billed as a basic page.
  if (auto failed = model_formats(made, data, out)) {
    out.failure = failed;
    return out;
  }
  screenshot_format(made, data);
  if (const auto tracking = options.change_tracking()) {
    data["changeTracking"] = track_changes(made, *tracking, team, url, plan, data, now);
  }
  json metadata = cached ? cached->metadata(page.url) : document.metadata();
  if (!metadata.is_object()) metadata = json::object();
  if (page.status_code >= 400) metadata["error"] = reason_phrase(page.status_code);
  return finish(std::move(out), std::move(data), std::move(metadata), url, page, got);
}

std::optional<Failure> Scraper::text_formats(const Made& made, json& data, Outcome& out) const {
  const ScrapeOptions& options = made.options;
  try {
    if (options.wants("markdown")) {
      data["markdown"] = made.cached ? made.cached->markdown(made.page.url, made.extract)
                                     : made.document.markdown(made.extract);
    }
    if (options.wants("html")) {
      data["html"] = made.cached ? made.cached->html(made.page.url, made.extract)
                                 : made.document.html(made.extract);
    }
  } catch (const content::SelectorError& e) {
    return bad_option(std::string("Invalid CSS selector in includeTags/excludeTags: ") + e.what(),
                      options.include_tags ? "includeTags" : "excludeTags");
  }
  if (options.wants("rawHtml")) data["rawHtml"] = made.document.raw_html();
  out.links = made.cached ? made.cached->links(made.page.url) : made.document.links();
  if (options.wants("links")) data["links"] = out.links;
  if (options.wants("images")) data["images"] = made.document.images();
  return std::nullopt;
}

// Model-made formats: deterministic stand-ins for what a model or a browser makes
// (docs/mockserver/model-formats.md). Each is derived from the same parsed page.
std::optional<Failure> Scraper::model_formats(const Made& made, json& data, Outcome& out) const {
  const ScrapeOptions& options = made.options;
  const content::Document& document = made.document;
  if (options.wants("summary")) data["summary"] = formats::summarize(document, made.extract);
  if (const auto spec = options.json_format()) {
    data["json"] = formats::extract(document, made.extract, spec->schema, spec->prompt);
    out.credits += 4;
  } else if (const auto deterministic = options.deterministic_json_format()) {
    // The newer service's json variant made without a model: it answers in `json` like the json
    // format, and the mock's extraction is deterministic anyway. No model, so no json surcharge.
    data["json"] =
        formats::extract(document, made.extract, deterministic->schema, deterministic->prompt);
  }
  if (const auto spec = options.extract_format()) {
    data["extract"] = formats::extract(document, made.extract, spec->schema, spec->prompt);
    out.credits += 4;
  }
  if (options.wants("branding")) data["branding"] = formats::branding(document);
  if (const requests::Format* wanted = options.format("attributes")) {
    try {
      data["attributes"] =
          formats::attributes(document, wanted->selectors.value_or(json::array()));
    } catch (const content::SelectorError& e) {
      return bad_option(std::string("Invalid CSS selector in attributes: ") + e.what(), "formats");
    }
  }
  answer_formats(made, data);
  return std::nullopt;
}

void Scraper::answer_formats(const Made& made, json& data) const {
  const ScrapeOptions& options = made.options;
  // `query` is the older form of `question`; both answer in `answer`.
  if (const requests::Format* f = options.format("question"); f && f->as_object) {
    data["answer"] = formats::answer(made.document, made.extract, f->question.value_or(""));
  }
  if (const requests::Format* f = options.format("query"); f && f->as_object) {
    data["answer"] = formats::answer(made.document, made.extract, f->prompt.value_or(""));
  }
  if (const requests::Format* f = options.format("highlights"); f && f->as_object) {
    data["highlights"] = formats::highlights(made.document, made.extract, f->query.value_or(""));
  }
  if (options.wants("rawBase64")) data["rawBase64"] = base64_encode(made.document.raw_html());
  // Formats the mock cannot make from a page without a browser or a model: accepted, as the
  // service accepts them, and named in a `warning` instead of an answer that would be made up.
  std::string not_made;
  for (const char* name : {"audio", "video", "product", "menu"}) {
    if (options.wants(name)) not_made += (not_made.empty() ? "" : ", ") + std::string(name);
  }
  if (!not_made.empty()) {
    data["warning"] = "The mock does not produce these formats (they need the service's browser "
                      "or models): " + not_made;
  }
  // redactPII: personal data in the text formats is replaced (formats/queries.hpp).
  if (!options.redact_pii) return;
  static const std::set<std::string> kText = {"markdown", "html", "summary", "answer",
                                              "highlights"};
  for (auto& [field, value] : data.items()) {
    if (kText.count(field) != 0 && value.is_string()) {
      value = formats::redact_pii(value.get<std::string>(), *options.redact_pii);
    }
  }
}

void Scraper::screenshot_format(const Made& made, json& data) const {
  const auto wanted = made.options.screenshot();
  if (!wanted) return;
  if (no_screenshot_) {
    // --inject-fault no-screenshot: the warning of an engine that cannot take screenshots.
    data["warning"] =
        "The engine used does not support the following features: screenshot -- your scrape may "
        "be partial.";
    return;
  }
  const bool mobile = made.options.mobile;
  formats::ScreenshotOptions shot;
  shot.viewport_width = mobile ? formats::kMobileWidth : formats::kDesktopWidth;
  shot.viewport_height = mobile ? formats::kMobileHeight : formats::kDesktopHeight;
  shot.full_page = wanted->full_page;
  if (wanted->viewport) {
    shot.viewport_width = static_cast<int>(wanted->viewport->width);
    shot.viewport_height = static_cast<int>(wanted->viewport->height);
  }
  data["screenshot"] =
      formats::data_uri_png(formats::screenshot_png(made.document, made.extract, shot));
}

json Scraper::track_changes(const Made& made, const requests::ChangeTrackingSpec& spec,
                            const Team& team, const std::string& url, const Plan& plan,
                            const json& data, std::chrono::system_clock::time_point now) {
  formats::ChangeTrackingInput input;
  input.team = team.id;
  input.url = url;
  const auto markdown = data.find("markdown");
  input.markdown = markdown != data.end() && markdown->is_string() ? markdown->get<std::string>()
                                                                   : std::string();
  input.status_code = made.page.status_code;
  input.store = !plan.zero_retention;
  input.now = now;
  input.tag = spec.tag;
  input.modes = spec.modes;
  if (std::find(input.modes.begin(), input.modes.end(), "json") != input.modes.end()) {
    input.json = formats::extract(made.document, made.extract, spec.schema, spec.prompt);
  }
  return tracker_.track(input);
}

}  // namespace webdata::mock::scrape
