#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "web/stub_store.hpp"
#include "web/synthetic.hpp"
#include "web/types.hpp"
#include "core/clock.hpp"
#include "core/url.hpp"

namespace webdata::mock::web {

/// What the scraper asks of the web.
struct FetchRequest {
  std::string url;
  HeaderList headers;   ///< The caller's extra headers; they replace defaults of the same name.
  bool mobile = false;  ///< Mobile User-Agent (fixtures match it for their mobile variant).
  std::string accept_language;  ///< Accept-Language to send; empty: "en-US,en;q=0.9".
  std::chrono::milliseconds timeout{
      30000};  ///< For the whole fetch, redirects and delays included.
  bool skip_tls_verification = true;
  std::string proxy = "basic";  ///< basic | enhanced: protected sites answer basic with a 403.
  /// When the fetch starts; the default (epoch) is now. A deferred fetch that follows another
  /// (a retry, a navigation) starts when the previous one's answer is due (its `ready_at`).
  std::chrono::steady_clock::time_point start{};
};

/// What came back. A 4xx/5xx page is `ok` (the page's status is data); network-level failures
/// are not.
struct FetchResult {
  bool ok = false;
  std::string error_code;  ///< When !ok: SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_SITE_ERROR,
                           ///< SCRAPE_SSL_ERROR or SCRAPE_TIMEOUT.
  std::string error_message;
  int status = 0;
  std::string url;                     ///< Final URL after redirects.
  std::vector<std::string> redirects;  ///< Every URL that answered with a redirect, in order.
  HeaderList headers;
  std::string body;
  std::string content_type;  ///< The Content-Type header ("" when the page sent none).
  std::string source;        ///< "fixture" | "synthetic" | "live" (of the final response).
  std::chrono::milliseconds elapsed{0};  ///< From the start to `ready_at`, delays included.
  /// When this answer arrives: the start plus the pages' delays (fixture
  /// `fixedDelayMilliseconds`, slow synthetic pages) and the time spent on live fetches; the
  /// deadline when the fetch timed out.
  std::chrono::steady_clock::time_point ready_at{};
};

/// The web the mock's scraper reaches. Per hop, in order: stub mappings of the web roots
/// (matched on host and path), then the synthetic generator (`*.synthetic.test` and hosts of
/// `<root>/synthetic.json`), then live fetching when enabled; any other host does not resolve.
/// Redirects (3xx with Location) are followed through the same order, at most 10.
///
/// Requests to fixtures carry `Host`, `User-Agent` (desktop or mobile), `Accept`,
/// `Accept-Language` and `X-Webdata-Proxy: basic|enhanced`, so mappings can provide mobile,
/// language and anti-bot variants with ordinary header matchers. Thread-safe.
class VirtualWeb {
 public:
  struct Options {
    /// Fixture roots in WireMock layout (mappings/, __files/, synthetic.json), later over
    /// earlier: a later root's mapping wins at equal priority, its synthetic site replaces one
    /// of the same host.
    std::vector<std::filesystem::path> roots;
    bool live_fetch = false;
    bool allow_private_targets = false;
    std::size_t max_body_bytes = 32 * 1024 * 1024;  ///< Live responses larger than this fail.
    std::size_t known_urls_per_site = 10000;        ///< Cap for configured synthetic sites.
    /// The clock of the pages' delays (its `steady_now()`): the mock's own, which tests advance;
    /// null for a clock nobody advances.
    const Clock* clock = nullptr;
  };

  /// Loads the roots. Throws MappingError (bad mapping) or std::invalid_argument (bad
  /// synthetic.json).
  explicit VirtualWeb(Options options);

  /// Fetches without waiting for the pages' delays: it returns as soon as the answer is known,
  /// and the caller must not reveal it before `ready_at` (routes answer on an I/O-thread timer,
  /// job pages wait in their engine's deferred queue; nothing sleeps: ADR 0015). A page slower
  /// than the timeout is a SCRAPE_TIMEOUT due at the deadline. Live fetches still take their
  /// real time.
  FetchResult fetch_deferred(const FetchRequest& request) const;

  /// The web roots' stub mappings (the admin API edits them).
  StubStore& stubs() { return *stubs_; }
  const StubStore& stubs() const { return *stubs_; }
  const Options& options() const { return options_; }
  /// The clock `ready_at` times are read on: whoever waits for one reads this clock's
  /// `steady_now()` and follows its advances.
  const Clock& clock() const {
    return options_.clock != nullptr ? *options_.clock : Clock::unadvanced();
  }

  /// Every page served without the network: fixture pages (GET, 200, HTML, fixed host and
  /// path) and the pages of synthetic sites configured in synthetic.json (capped per site).
  /// `https://` URLs, sorted.
  std::vector<std::string> known_urls() const;

  static constexpr const char* kDesktopUserAgent =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/124.0.0.0 Safari/537.36 webdata-mock/1";
  static constexpr const char* kMobileUserAgent =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
      "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1 webdata-mock/1";

 private:
  struct Hop;
  /// One hop starting at `at` (virtual time: the delays of earlier hops already added); `at`
  /// comes back as the time its answer arrives.
  Hop fetch_one(const Url& url, const FetchRequest& request,
                std::chrono::steady_clock::time_point& at,
                std::chrono::steady_clock::time_point deadline) const;
  /// The hop through the network (--live-fetch): it takes real time, added to `at`.
  Hop fetch_live(const Url& url, const HeaderList& headers, const FetchRequest& request,
                 std::chrono::steady_clock::time_point& at,
                 std::chrono::steady_clock::time_point deadline) const;

  Options options_;
  std::unique_ptr<StubStore> stubs_;
  SyntheticWeb synthetic_;
};

}  // namespace webdata::mock::web
