#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace webdata::mock::http {

/// The threads request handlers run on, apart from the I/O threads (ADR 0007). A handler may
/// block (a scrape waits for a slow page, a live fetch for the network), so the pool grows when
/// its threads are stuck: a task that finds no idle thread queues, and a watcher starts one more
/// thread (up to `max_threads`) whenever the queue made no progress for a millisecond. While
/// handlers are quick, only about as many threads as cores ever run, and the idle thread woken
/// for a task is the one that ran the last (its caches and malloc arena are warm): waking one of
/// dozens of threads in turn cost more than half the throughput of cheap requests.
class WorkerPool {
 public:
  explicit WorkerPool(std::size_t max_threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Runs `task` on a pool thread; tasks that wait run in the order they came. Tasks must not
  /// throw (what escapes is swallowed). After stop() the task is dropped.
  void submit(std::function<void()> task);
  /// Runs the tasks already queued, then joins every thread. Idempotent.
  void stop();

  std::size_t max_threads() const { return max_threads_; }
  /// Threads started so far (they stay until stop()).
  std::size_t threads() const;
  /// Tasks running now.
  std::size_t busy() const;

 private:
  struct Worker {
    std::condition_variable wake;
    std::function<void()> task;  // handed over directly by submit()
  };
  void run(Worker& self);
  void watch();
  void start_thread_locked();

  const std::size_t max_threads_;
  const std::size_t core_threads_;
  mutable std::mutex mutex_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::vector<Worker*> idle_;  // a stack: the last to go idle is woken first
  std::size_t busy_ = 0;
  std::uint64_t started_ = 0;  // tasks taken so far: the watcher's measure of progress
  std::condition_variable watcher_wake_;
  std::thread watcher_;
  bool stopping_ = false;
};

}  // namespace webdata::mock::http
