#pragma once

#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include <webdata/webdata.hpp>

namespace webdata::cli {

/// The transport of the CLI: libcurl, plus two things a person at a terminal needs.
///
/// - A service that cannot be reached before it ever answered (refused, unknown host, TLS) is
///   reported at once: the failure is marked not retryable, so the SDK does not spend its
///   retries (some 6 s) on a server that is simply not running.
/// - Every retry the SDK makes is announced on `err` ("retry 1 of 3"), with why the previous
///   attempt failed, so a slow answer is never silent. Once the service has answered, a broken
///   connection is retried like any other transient failure.
class CliTransport : public Transport {
 public:
  CliTransport(std::shared_ptr<Transport> inner, std::ostream& err, bool quiet, int max_retries);

  Result<HttpResponse> send(const HttpRequest& request) override;

  /// Whether any HTTP answer has been received.
  bool answered() const;

 private:
  std::shared_ptr<Transport> inner_;
  std::ostream& err_;
  bool quiet_;
  int max_retries_;
  mutable std::mutex mutex_;
  bool answered_ = false;
  std::string last_failed_;   ///< method + URL + body of the last failed attempt
  std::string last_failure_;  ///< why it failed, for the retry notice
  int attempt_ = 0;           ///< retries of that request so far
};

/// "http://127.0.0.1:3002/v2/scrape" -> "http://127.0.0.1:3002"
std::string origin_of(const std::string& url);

}  // namespace webdata::cli
