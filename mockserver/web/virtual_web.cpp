#include "web/virtual_web.hpp"

#include <algorithm>
#include <set>

#include "web/live_fetch.hpp"

namespace webdata::mock::web {

using Steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct VirtualWeb::Hop {
  bool ok = false;
  std::string error_code;
  std::string error_message;
  int status = 0;
  HeaderList headers;
  std::string body;
  std::string source;
};

namespace {

constexpr int kMaxRedirects = 10;

// Moves the virtual time `at` on by `delay`, or to the deadline when that comes first (then
// false: timed out). Nothing sleeps here: the caller waits for (or schedules) the result's
// ready_at.
bool advance(Steady::time_point& at, milliseconds delay, Steady::time_point deadline) {
  if (at + delay >= deadline) {
    at = deadline;
    return false;
  }
  at += delay;
  return true;
}

void set_header(HeaderList& headers, const std::string& name, const std::string& value) {
  for (auto& [k, v] : headers) {
    if (iequals(k, name)) {
      v = value;
      return;
    }
  }
  headers.emplace_back(name, value);
}

std::string fault_message(Fault fault, const std::string& host) {
  switch (fault) {
    case Fault::connection_reset_by_peer:
      return "connection to " + host + " reset by peer";
    case Fault::empty_response:
      return host + " closed the connection without answering";
    case Fault::malformed_response_chunk:
      return host + " sent a malformed chunked response";
    case Fault::random_data_then_close:
      return host + " sent data that is not HTTP";
    case Fault::none:
      break;
  }
  return "";
}

std::string default_not_found(const std::string& host, const std::string& path) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>404 Not "
         "Found</title>\n</head>\n<body>\n<h1>Not Found</h1>\n<p>The requested URL " +
         path + " was not found on " + host + ".</p>\n</body>\n</html>\n";
}

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

VirtualWeb::VirtualWeb(Options options)
    : options_(std::move(options)),
      stubs_(std::make_unique<StubStore>(options_.roots)),
      synthetic_(options_.roots) {}

VirtualWeb::Hop VirtualWeb::fetch_one(const Url& url, const FetchRequest& request,
                                      Steady::time_point& at, Steady::time_point deadline) const {
  Hop hop;
  HeaderList headers = {
      {"User-Agent", request.mobile ? kMobileUserAgent : kDesktopUserAgent},
      {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
      {"Accept-Language",
       request.accept_language.empty() ? "en-US,en;q=0.9" : request.accept_language},
  };
  for (const auto& [name, value] : request.headers) set_header(headers, name, value);

  const bool enhanced = request.proxy == "enhanced";
  auto answer = [&](const StubResponse& r, const char* source) {
    if (!advance(at, r.delay, deadline)) {
      hop.error_code = "SCRAPE_TIMEOUT";
      hop.error_message =
          url.host + " did not answer within " + std::to_string(request.timeout.count()) + " ms";
      return hop;
    }
    if (r.fault != Fault::none) {
      hop.error_code = "SCRAPE_SITE_ERROR";
      hop.error_message = fault_message(r.fault, url.host);
      return hop;
    }
    hop.ok = true;
    hop.status = r.status;
    hop.headers = r.headers;
    hop.body = r.body;
    hop.source = source;
    return hop;
  };

  StubRequest stub;
  stub.method = "GET";
  stub.url = url.target();
  stub.scheme = url.scheme;
  stub.headers = headers;
  set_header(stub.headers, "Host", url.host_header());
  set_header(stub.headers, "X-Webdata-Proxy", enhanced ? "enhanced" : "basic");
  if (auto matched = stubs_->match(stub)) return answer(*matched, "fixture");
  const auto hosts = stubs_->hosts();
  if (std::binary_search(hosts.begin(), hosts.end(), url.host)) {
    StubResponse missing;
    missing.status = 404;
    missing.headers = {{"Content-Type", "text/html; charset=utf-8"}};
    missing.body = default_not_found(url.host, url.path);
    return answer(missing, "fixture");
  }

  std::string synthetic_error;
  if (auto site = synthetic_.settings_for(url.host, synthetic_error)) {
    auto result = synthetic_.serve(url.scheme, url.host, *site, url.target(), enhanced);
    if (!result.error_code.empty()) {
      hop.error_code = result.error_code;
      hop.error_message = result.error_message;
      return hop;
    }
    return answer(result.response, "synthetic");
  }
  if (!synthetic_error.empty()) {
    hop.error_code = "SCRAPE_DNS_RESOLUTION_ERROR";
    hop.error_message = synthetic_error;
    return hop;
  }

  if (options_.live_fetch) return fetch_live(url, headers, request, at, deadline);

  hop.error_code = "SCRAPE_DNS_RESOLUTION_ERROR";
  hop.error_message =
      "could not resolve host " + url.host + " (not in the virtual web, and live fetching is off)";
  return hop;
}

VirtualWeb::Hop VirtualWeb::fetch_live(const Url& url, const HeaderList& headers,
                                       const FetchRequest& request, Steady::time_point& at,
                                       Steady::time_point deadline) const {
  Hop hop;
  if (!options_.allow_private_targets && is_private_literal(url.host)) {
    hop.error_code = "SCRAPE_SITE_ERROR";
    hop.error_message = url.host +
                        " is a private or loopback address; live fetching of such "
                        "targets is disabled";
    return hop;
  }
  LiveRequest live;
  live.url = url;
  live.headers = headers;
  // A live fetch takes real time; it starts no earlier than the virtual time of this hop.
  const auto now = clock().steady_now();
  if (at < now) at = now;
  live.timeout = std::chrono::duration_cast<milliseconds>(deadline - at);
  live.verify_tls = !request.skip_tls_verification;
  live.allow_private = options_.allow_private_targets;
  live.max_body_bytes = options_.max_body_bytes;
  if (live.timeout.count() <= 0) {
    hop.error_code = "SCRAPE_TIMEOUT";
    hop.error_message = "timeout reached before contacting " + url.host;
    return hop;
  }
  const auto live_start = clock().steady_now();
  auto response = live_fetch(live);
  at += clock().steady_now() - live_start;
  if (!response.ok) {
    hop.error_code = response.error_code;
    hop.error_message = response.error_message;
    return hop;
  }
  hop.ok = true;
  hop.status = response.status;
  hop.headers = std::move(response.headers);
  hop.body = std::move(response.body);
  hop.source = "live";
  return hop;
}

FetchResult VirtualWeb::fetch_deferred(const FetchRequest& request) const {
  const auto start = request.start == Steady::time_point{} ? clock().steady_now() : request.start;
  const auto deadline = start + request.timeout;
  auto at = start;  // virtual time: the start plus the delays of the hops so far
  FetchResult result;
  auto finish = [&] {
    result.ready_at = at;
    result.elapsed = std::chrono::duration_cast<milliseconds>(at - start);
    return result;
  };
  auto current = parse_http_url(request.url);
  if (!current) {
    result.error_code = "SCRAPE_SITE_ERROR";
    result.error_message = "not an absolute http(s) URL: " + request.url;
    return finish();
  }
  current->fragment.reset();
  for (int hops = 0;; ++hops) {
    Hop hop = fetch_one(*current, request, at, deadline);
    result.url = current->str();
    if (!hop.ok) {
      result.error_code = hop.error_code;
      result.error_message = hop.error_message;
      return finish();
    }
    const auto location = find_header(hop.headers, "Location");
    if (is_redirect(hop.status) && location) {
      auto next = resolve_url(current, *location);
      if (!next || !next->is_http() || next->host.empty()) {
        result.error_code = "SCRAPE_SITE_ERROR";
        result.error_message = current->str() + " redirects to an invalid URL: " + *location;
        return finish();
      }
      if (hops == kMaxRedirects) {
        result.error_code = "SCRAPE_SITE_ERROR";
        result.error_message = "more than " + std::to_string(kMaxRedirects) + " redirects";
        return finish();
      }
      result.redirects.push_back(current->str());
      next->fragment.reset();
      current = std::move(next);
      continue;
    }
    result.ok = true;
    result.status = hop.status;
    result.headers = std::move(hop.headers);
    result.body = std::move(hop.body);
    result.source = std::move(hop.source);
    result.content_type = find_header(result.headers, "Content-Type").value_or("");
    return finish();
  }
}

std::vector<std::string> VirtualWeb::known_urls() const {
  std::set<std::string> urls;
  for (const auto& [host, path] : stubs_->pages()) urls.insert("https://" + host + path);
  for (const auto& host : synthetic_.configured_hosts()) {
    std::string error;
    const auto site = synthetic_.settings_for(host, error);
    if (!site || !site->fail.empty()) continue;
    for (auto& url : synthetic_.page_urls("https", host, *site, options_.known_urls_per_site)) {
      urls.insert(std::move(url));
    }
  }
  return {urls.begin(), urls.end()};
}

}  // namespace webdata::mock::web
