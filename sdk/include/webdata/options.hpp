#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "webdata/transport.hpp"

namespace webdata {

/// A flag one thread sets to stop a wait, a poll loop or a retry backoff in another. Copies
/// share the flag.
///
///     webdata::CancellationToken stop;
///     std::thread t([&] { job.wait({std::chrono::seconds(2), std::nullopt, stop}); });
///     stop.cancel();
class CancellationToken {
 public:
  CancellationToken();
  void cancel() const;
  bool cancelled() const;
  /// Sleeps up to `duration`; returns early (true) when cancelled.
  bool wait_for(std::chrono::milliseconds duration) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// Time source and sleeper of a client. The default is the steady clock; tests inject one that
/// advances instantly and records each sleep.
class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  /// Sleeps `duration`, or less when `token` is cancelled.
  virtual void sleep_for(std::chrono::milliseconds duration,
                         const CancellationToken& token) const = 0;
};

/// The steady clock and a real sleep.
std::shared_ptr<const Clock> steady_clock();

/// Retries of one HTTP call: on 408, 429, 502, 503, 504 and on connection failures. A
/// job-creating POST (crawl, batch scrape, agent) is only retried when the call carries an
/// idempotency key. The delay doubles from `initial_backoff` up to `max_backoff`, spread by
/// +/- `jitter`; a `Retry-After` answer replaces the computed delay, but never waits longer
/// than `max_backoff` (a service asking for an hour does not stall the caller for an hour).
struct RetryPolicy {
  int max_retries = 3;  ///< Retries after the first attempt.
  std::chrono::milliseconds initial_backoff{800};
  /// Cap of every delay, `Retry-After` included.
  std::chrono::milliseconds max_backoff{std::chrono::seconds(60)};
  double multiplier = 2.0;
  double jitter = 0.2;  ///< Fraction of the delay, 0..1.
  bool honour_retry_after = true;

  /// No retries at all.
  static RetryPolicy none() {
    RetryPolicy p;
    p.max_retries = 0;
    return p;
  }
};

/// How a job is waited for: status polls `interval` apart until the job ends, `max_wait`
/// passes (kTimeout) or `cancel` fires (kCancelled).
struct PollingPolicy {
  std::chrono::milliseconds interval{std::chrono::seconds(2)};
  std::optional<std::chrono::milliseconds> max_wait;
  CancellationToken cancel;
};

/// Options of one call, always the last argument. Every HTTP request the call makes (retries
/// and every page of a result included) gets `timeout`; `deadline` / `total_timeout` bound the
/// whole call.
///
///     webdata::CallOptions opts;
///     opts.timeout = std::chrono::seconds(10);
///     opts.idempotency_key = webdata::make_idempotency_key();
///     auto job = client.start_crawl(req, opts);
struct CallOptions {
  /// Per HTTP request; default `ClientOptions::timeout`.
  std::optional<std::chrono::milliseconds> timeout;
  /// Overall time budget of the call, counted from its start (for ranges: from their creation).
  std::optional<std::chrono::milliseconds> total_timeout;
  /// Absolute end of the call, on the client's `Clock`.
  std::optional<Clock::TimePoint> deadline;
  /// Sent as `x-idempotency-key` (a UUID); makes a job-creating POST safe to retry.
  std::optional<std::string> idempotency_key;
  /// Extra headers of this call.
  Headers headers;
  /// Replaces the client's retry policy for this call.
  std::optional<RetryPolicy> retry;
  /// Stops retry backoffs and paging waits of this call.
  std::optional<CancellationToken> cancel;
};

/// A random (version 4) UUID for `CallOptions::idempotency_key`.
std::string make_idempotency_key();

/// Settings of a client. Empty `api_url` / `api_key` are read from `WEBDATA_API_URL` /
/// `WEBDATA_API_KEY`; without them the URL is `http://127.0.0.1:3002` and no Authorization
/// header is sent (self-hosted deployments with authentication off).
struct ClientOptions {
  std::string api_url;
  std::string api_key;
  /// Default: `make_curl_transport()`.
  std::shared_ptr<Transport> transport;
  /// Per HTTP request unless the call says otherwise. A scrape whose own `timeout` option is
  /// longer gets that plus 10 s.
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  RetryPolicy retry;
  /// Sent with every request (after the SDK's own headers).
  Headers headers;
  /// Default: `steady_clock()`.
  std::shared_ptr<const Clock> clock;
};

}  // namespace webdata
