#include "connection.hpp"

namespace webdata::cli {
namespace {

bool retryable_status(int status) {
  return status == 408 || status == 429 || status == 502 || status == 503 || status == 504;
}

std::string path_of(const std::string& url) {
  const auto scheme = url.find("://");
  const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

}  // namespace

std::string origin_of(const std::string& url) {
  const auto scheme = url.find("://");
  const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? url : url.substr(0, slash);
}

CliTransport::CliTransport(std::shared_ptr<Transport> inner, std::ostream& err, bool quiet,
                           int max_retries)
    : inner_(std::move(inner)), err_(err), quiet_(quiet), max_retries_(max_retries) {}

bool CliTransport::answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return answered_;
}

Result<HttpResponse> CliTransport::send(const HttpRequest& request) {
  const std::string key = request.method + " " + request.url + "\n" + request.body;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // The same request right after it failed is the SDK retrying it.
    if (key == last_failed_) {
      ++attempt_;
      if (!quiet_) {
        err_ << "webdata: " << last_failure_ << "; retry " << attempt_ << " of " << max_retries_
             << " (" << request.method << " " << path_of(request.url) << ")\n"
             << std::flush;
      }
    } else {
      attempt_ = 0;
    }
  }
  auto result = inner_->send(request);
  std::lock_guard<std::mutex> lock(mutex_);
  if (result.ok()) {
    answered_ = true;
    if (retryable_status(result->status)) {
      last_failed_ = key;
      last_failure_ = "HTTP " + std::to_string(result->status) + " from " + origin_of(request.url);
    } else {
      last_failed_.clear();
    }
    return result;
  }
  Error error = result.error();
  if (error.kind == ErrorKind::kTransport && !answered_) {
    // Nothing has ever answered at this address: waiting will not start the server.
    error.retryable = false;
  }
  last_failed_ = error.retryable ? key : std::string();
  last_failure_ = "no answer from " + origin_of(request.url) + " (" +
                  error.message.substr(0, error.message.find(" (")) + ")";
  return error;
}

}  // namespace webdata::cli
