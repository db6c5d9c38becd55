#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace webdata::conformance {

/// One answer of the test site.
struct SiteResponse {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::shared_ptr<const std::string> body;
  std::vector<std::pair<std::string, std::string>> headers;
  /// Held back this long before answering (the slow pages).
  std::chrono::milliseconds delay{0};
};

/// The site's pages by request target (path and query); `host` is the Host header, used for the
/// absolute URLs of robots.txt and the sitemap. Unknown paths answer the 404 page.
SiteResponse site_page(const std::string& target, const std::string& host);

/// Text each page's markdown must contain, and other facts the tests check; see site_content.cpp.
namespace site_facts {
inline constexpr int kBigPages = 12;
inline constexpr std::size_t kBigPageBytes = 1100 * 1000;
inline constexpr int kSlowTreePages = 40;
}  // namespace site_facts

/// A webhook delivery (any POST under /hooks/) as received.
struct Delivery {
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::steady_clock::time_point at;

  /// Case-insensitive header lookup; empty when absent.
  std::string header(const std::string& name) const;
};

/// The runner's own website and webhook receiver: an HTTP/1.1 server (Boost.Beast), so every target
/// that can reach the runner is checked against the same pages.
class TestSite {
 public:
  /// Listens on `address`:`port` (0: any free port) with its own worker threads.
  explicit TestSite(const std::string& address = "127.0.0.1", unsigned short port = 0);
  ~TestSite();
  TestSite(const TestSite&) = delete;
  TestSite& operator=(const TestSite&) = delete;

  unsigned short port() const;

  /// Deliveries received at /hooks/`token`, in arrival order.
  std::vector<Delivery> deliveries(const std::string& token) const;
  /// Waits until `done(deliveries(token))` holds or `timeout` passes; returns the last list.
  std::vector<Delivery> wait_for_deliveries(
      const std::string& token, const std::function<bool(const std::vector<Delivery>&)>& done,
      std::chrono::milliseconds timeout) const;
  /// How many GET requests the site answered for `target` (path and query).
  int hits(const std::string& target) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// The site started by main(); valid while the suite runs.
TestSite& site();
void set_site(TestSite* site);

}  // namespace webdata::conformance
