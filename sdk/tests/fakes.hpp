#pragma once

// Test doubles: a scripted Transport that records what the SDK sends, and a Clock whose
// sleeps return at once (and are recorded), so retry and polling tests take no real time.
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "webdata/client.hpp"
#include "webdata/options.hpp"
#include "webdata/transport.hpp"

namespace webdata::testing {

inline HttpResponse json_response(int status, std::string body, Headers headers = {}) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  r.headers = std::move(headers);
  r.headers.emplace_back("Content-Type", "application/json");
  return r;
}

inline Error connection_refused() {
  Error e;
  e.kind = ErrorKind::kTransport;
  e.message = "Couldn't connect to server";
  e.retryable = true;
  return e;
}

/// The path of an absolute `url`, without its query ("http://a.test/v2/crawl?x=1" -> "/v2/crawl").
inline std::string path_of(const std::string& url) {
  const auto scheme = url.find("://");
  const auto slash = url.find('/', scheme + 3);
  const auto q = url.find('?');
  return url.substr(slash, q == std::string::npos ? std::string::npos : q - slash);
}

/// Answers from a handler (or a queue of canned answers) and records every request.
class FakeTransport : public Transport {
 public:
  using Handler = std::function<Result<HttpResponse>(const HttpRequest&)>;

  FakeTransport() = default;
  explicit FakeTransport(Handler handler) : handler_(std::move(handler)) {}

  /// Queues one answer; queued answers are used before the handler.
  void push(Result<HttpResponse> answer) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(answer));
  }

  Result<HttpResponse> send(const HttpRequest& request) override {
    Handler handler;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(request);
      if (!queue_.empty()) {
        auto answer = std::move(queue_.front());
        queue_.pop_front();
        return answer;
      }
      handler = handler_;
    }
    if (handler) return handler(request);
    Error e;
    e.kind = ErrorKind::kTransport;
    e.message = "FakeTransport: no answer scripted for " + request.method + " " + request.url;
    return e;
  }

  std::vector<HttpRequest> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }
  std::size_t count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_.size();
  }

 private:
  mutable std::mutex mutex_;
  Handler handler_;
  std::deque<Result<HttpResponse>> queue_;
  std::vector<HttpRequest> requests_;
};

/// Starts at an arbitrary instant; each sleep advances it by the slept duration.
class FakeClock : public Clock {
 public:
  TimePoint now() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return now_;
  }
  void sleep_for(std::chrono::milliseconds duration, const CancellationToken&) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    sleeps_.push_back(duration);
    now_ += duration;
  }
  void advance(std::chrono::milliseconds d) const {
    std::lock_guard<std::mutex> lock(mutex_);
    now_ += d;
  }
  std::vector<std::chrono::milliseconds> sleeps() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleeps_;
  }

 private:
  mutable std::mutex mutex_;
  mutable TimePoint now_ = TimePoint(std::chrono::hours(1000));
  mutable std::vector<std::chrono::milliseconds> sleeps_;
};

/// The API URL of clients on the fake transport.
inline constexpr const char* kFakeApi = "http://api.test:3002";

/// A client on a FakeTransport and a FakeClock; retries without jitter (exact backoff values).
struct FakeClientFixture {
  std::shared_ptr<FakeTransport> transport = std::make_shared<FakeTransport>();
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();

  ClientOptions options() const {
    ClientOptions o;
    o.api_url = kFakeApi;
    o.api_key = "test-key";
    o.transport = transport;
    o.clock = clock;
    o.retry.jitter = 0;
    return o;
  }
  Client client() const { return Client(options()); }
};

}  // namespace webdata::testing
