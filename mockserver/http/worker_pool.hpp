#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace webdata::mock::http {

/// The threads request handlers run on, apart from the I/O threads (ADR 0007). A handler may
/// block (a scrape waits for a slow page, a live fetch for the network), so the pool grows on
/// demand: a task finds an idle thread, or a new one is started, up to `max_threads`; past that,
/// tasks wait in order. Threads, once started, stay until stop(): starting one costs tens of
/// microseconds, keeping an idle one costs only its stack's address space.
class WorkerPool {
 public:
  explicit WorkerPool(std::size_t max_threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Runs `task` on a pool thread. Tasks must not throw (what escapes is swallowed). After
  /// stop() the task is dropped.
  void submit(std::function<void()> task);
  /// Runs the tasks already queued, then joins every thread. Idempotent.
  void stop();

  std::size_t max_threads() const { return max_threads_; }
  /// Threads started so far.
  std::size_t threads() const;
  /// Tasks running now.
  std::size_t busy() const;

 private:
  void run();

  const std::size_t max_threads_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;  // threads waiting for a task
  std::size_t busy_ = 0;
  bool stopping_ = false;
};

}  // namespace webdata::mock::http
