#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>

namespace webdata::mock {

/// The mock's one clock. Every time the mock reads (a job's `createdAt`, a page's delay, a paced
/// job, a webhook retry, a cache age) comes from here, so that tests move it forward with
/// POST /__admin/clock/advance instead of waiting:
/// - `now()` is the wall clock (timestamps, retention, cache ages): the system clock plus the
///   offset; `reset()` sets the offset back to zero.
/// - `steady_now()` is the monotonic clock of delays and timers (when a slow page's answer is
///   due, when a paced job or a webhook retry may run): the steady clock plus everything ever
///   advanced. It never goes back, not even on `reset()`, so a delay already scheduled never
///   grows.
/// Whoever waits for a `steady_now()` time (a condition variable, an I/O timer) subscribes with
/// `on_advance` and re-reads the time when told; the production clock is simply never advanced.
/// Real durations that are not the mock's model of time (network timeouts, the latency a journal
/// records) stay on std::chrono::steady_clock.
class Clock {
 public:
  using SteadyTime = std::chrono::steady_clock::time_point;
  using Subscription = unsigned long long;

  /// A clock nobody advances: the default of a part built without the mock's clock.
  static const Clock& unadvanced() {
    static const Clock clock;
    return clock;
  }

  std::chrono::system_clock::time_point now() const {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(offset_ms_.load());
  }
  SteadyTime steady_now() const {
    return std::chrono::steady_clock::now() + std::chrono::milliseconds(advanced_ms_.load());
  }
  /// The time left until `at` (a `steady_now()` time), zero when it is due.
  std::chrono::milliseconds due_in(SteadyTime at) const {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(at - steady_now());
    return std::max(left, std::chrono::milliseconds(0));
  }

  /// Moves both clocks forward and tells every subscriber (under the clock's lock, so that no
  /// subscriber is called once `unsubscribe` has returned).
  void advance(std::chrono::milliseconds by) {
    offset_ms_ += by.count();
    advanced_ms_ += by.count();
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, callback] : subscribers_) callback();
  }
  std::chrono::milliseconds offset() const { return std::chrono::milliseconds(offset_ms_.load()); }
  /// The wall clock back to the system's; the monotonic clock stays where it is.
  void reset() { offset_ms_ = 0; }

  /// `callback` runs on the advancing thread after each advance; it must not block nor call
  /// back into the clock's subscriptions.
  Subscription on_advance(std::function<void()> callback) const {
    std::lock_guard<std::mutex> lock(mutex_);
    subscribers_.emplace(++last_id_, std::move(callback));
    return last_id_;
  }
  void unsubscribe(Subscription id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    subscribers_.erase(id);
  }

 private:
  std::atomic<long long> offset_ms_{0};
  std::atomic<long long> advanced_ms_{0};
  // Subscribing is not changing the time: a holder of a const Clock may subscribe.
  mutable std::mutex mutex_;
  mutable std::map<Subscription, std::function<void()>> subscribers_;
  mutable Subscription last_id_ = 0;
};

/// Calls `callback` after each advance of `clock` for as long as it lives.
class ClockSubscription {
 public:
  ClockSubscription(const Clock& clock, std::function<void()> callback)
      : clock_(clock), id_(clock.on_advance(std::move(callback))) {}
  ~ClockSubscription() { clock_.unsubscribe(id_); }
  ClockSubscription(const ClockSubscription&) = delete;
  ClockSubscription& operator=(const ClockSubscription&) = delete;

 private:
  const Clock& clock_;
  Clock::Subscription id_;
};

}  // namespace webdata::mock
