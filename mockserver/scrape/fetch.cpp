// Stage fetch: the answer a page is made from: an upload, a page cache hit, or a fetch from the
// virtual web through the requested proxy.
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using requests::ScrapeOptions;

namespace {

constexpr const char* kLockdownMiss =
    "No cached data is available for this request in lockdown mode. Lockdown mode only serves "
    "previously cached responses and never makes outbound requests.";

web::FetchResult uploaded(const Upload& upload) {
  web::FetchResult fetched;
  fetched.ok = true;
  fetched.status = 200;
  fetched.url = upload.url;
  fetched.content_type = upload.content_type;
  fetched.body = upload.body;
  return fetched;
}

Failure unanswered(const web::FetchResult& answer) {
  const bool timed_out = answer.error_code == "SCRAPE_TIMEOUT";
  return Failure{timed_out ? 408 : 500,
                 answer.error_code.empty() ? "SCRAPE_ALL_ENGINES_FAILED" : answer.error_code,
                 answer.error_message.empty() ? "The page could not be fetched"
                                              : answer.error_message,
                 nullptr};
}

}  // namespace

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

std::optional<Failure> Scraper::obtain(const ScrapeOptions& options, const Plan& plan,
                                       const std::string& url, const Upload* upload,
                                       std::chrono::steady_clock::time_point start, Fetched& got,
                                       Outcome& out) {
  if (plan.max_age.count() > 0) {
    got.cached = cache_.find(plan.key, clock_.now(), clock_.steady_now(), plan.max_age);
  }
  if (plan.lockdown && !got.cached) {
    return Failure{404, "SCRAPE_LOCKDOWN_CACHE_MISS", kLockdownMiss, nullptr};
  }
  if (upload != nullptr) {
    got.fetched = uploaded(*upload);
    got.proxy_used = "basic";
  } else if (got.cached) {
    // A hit reads the cached answer in place: its body is not copied (it can be megabytes).
    got.proxy_used = got.cached->proxy_used();
    got.cached_at = got.cached->stored_at();
    got.hit = true;
  } else {
    fetch_with_proxy(options, plan, url, start, got, out);
  }
  if (got.answer().ok) return std::nullopt;
  return unanswered(got.answer());
}

void Scraper::fetch_with_proxy(const ScrapeOptions& options, const Plan& plan,
                               const std::string& url, std::chrono::steady_clock::time_point start,
                               Fetched& got, Outcome& out) const {
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

void Scraper::keep(const Plan& plan, Fetched& got, std::chrono::system_clock::time_point now) {
  if (got.hit || !plan.store || got.fetched.status < 200 || got.fetched.status >= 300) return;
  got.cached = cache_.store(plan.key, std::move(got.fetched), now, got.proxy_used);
}

}  // namespace webdata::mock::scrape
