#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/clock.hpp"

// What every kind of job shares: a progress reached only under the job's own lock, and a runner
// that keeps a team's jobs, runs them in order on its own threads and forgets them a while after
// they end. Crawl and batch jobs (jobs/job.hpp), extract jobs (jobs/extract_jobs.hpp) and agent
// jobs (search/agent_jobs.hpp) are built on these.

namespace webdata::mock {

/// A value guarded by its own mutex, reached only through lock().
template <typename P>
class Guarded {
 public:
  /// The value with the lock held for as long as the handle lives.
  template <typename Q>
  class Locked {
   public:
    Locked(std::mutex& mutex, Q& value) : lock_(mutex), value_(&value) {}
    Q* operator->() const { return value_; }
    Q& operator*() const { return *value_; }

   private:
    std::unique_lock<std::mutex> lock_;
    Q* value_;
  };

  [[nodiscard]] Locked<P> lock() { return {mutex_, value_}; }
  [[nodiscard]] Locked<const P> lock() const { return {mutex_, value_}; }

 private:
  mutable std::mutex mutex_;
  P value_;
};

/// Runs jobs of one kind on its own worker threads, in the order they were submitted, and keeps
/// each one `retention` after it ends (`lock()->finished_at`). JobT has `id`, `team_id` and a
/// lock() whose progress has `finished_at`. Thread-safe.
///
/// Lock order: the runner's lock, then a job's. A job's run() takes its job's lock only.
template <typename JobT>
class JobRunner {
 public:
  using Duration = std::chrono::system_clock::duration;

  /// `run` is called on a worker thread for each submitted job, once.
  JobRunner(const Clock& clock, Duration retention, int workers,
            std::function<void(JobT&)> run)
      : clock_(clock),
        retention_(retention),
        run_(std::move(run)),
        clock_advanced_(clock, [this] {
          const std::lock_guard<std::mutex> lock(mutex_);
          wake_.notify_all();
        }) {
    for (int i = 0; i < std::max(1, workers); ++i) {
      workers_.emplace_back([this] { worker_loop(); });
    }
  }
  /// Stops the workers once the jobs they run return; the owner ends its running jobs first
  /// (reset()) so that this does not wait for them.
  ~JobRunner() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& worker : workers_) worker.join();
  }
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  /// Keeps `job` and queues it.
  void submit(const std::shared_ptr<JobT>& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      store(job);
      queue_.push_back(job);
    }
    wake_.notify_one();
  }

  /// Keeps `job` without running it: a job its owner ran itself (a synchronous agent run).
  void keep(const std::shared_ptr<JobT>& job) {
    std::lock_guard<std::mutex> lock(mutex_);
    store(job);
  }

  /// The team's jobs within their retention, in id order.
  std::vector<std::shared_ptr<JobT>> list(const std::string& team_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = clock_.now();
    std::vector<std::shared_ptr<JobT>> out;
    for (const auto& [id, job] : jobs_) {
      if (job->team_id == team_id && !expired(*job, now)) out.push_back(job);
    }
    return out;
  }

  /// The team's job, or null (unknown, another team's, or past its retention).
  std::shared_ptr<JobT> find(const std::string& id, const std::string& team_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = jobs_.find(id);
    if (it == jobs_.end() || it->second->team_id != team_id) return nullptr;
    if (expired(*it->second, clock_.now())) {
      jobs_.erase(it);
      return nullptr;
    }
    return it->second;
  }

  /// Applies `change` under the runner's lock and wakes every pause, so that a job in its pause
  /// sees the change at once (a cancel).
  void signal(const std::function<void()>& change) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      change();
    }
    wake_.notify_all();
  }

  /// Forgets every job, calling `end` on each under the runner's lock (the owner marks running
  /// ones ended, and they stop at their next pause).
  void reset(const std::function<void(JobT&)>& end) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& [id, job] : jobs_) end(*job);
      jobs_.clear();
      queue_.clear();
    }
    wake_.notify_all();
    idle_.notify_all();
  }

  /// Waits `duration` on the clock before a job's next step (an advance of the clock shortens
  /// it); a signal() or the runner's stop cuts it short. False when the job should stop: the
  /// runner is stopping or `ended()` holds.
  bool pause(Duration duration, const std::function<bool()>& ended) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto due = clock_.steady_now() + duration;
    for (;;) {
      if (stopping_ || ended()) return false;
      const auto left = due - clock_.steady_now();
      if (left <= Duration::zero()) return true;
      wake_.wait_for(lock, left);
    }
  }

  /// Blocks until no job is queued or running, or `timeout` passes; true when idle.
  bool wait_idle(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return idle_.wait_for(lock, timeout, [this] { return queue_.empty() && running_ == 0; });
  }

 private:
  // Under mutex_. Jobs past their retention are forgotten here, so the store is bounded by one
  // retention period's jobs.
  void store(const std::shared_ptr<JobT>& job) {
    const auto now = clock_.now();
    for (auto it = jobs_.begin(); it != jobs_.end();) {
      it = expired(*it->second, now) ? jobs_.erase(it) : std::next(it);
    }
    jobs_[job->id] = job;
  }

  bool expired(const JobT& job, std::chrono::system_clock::time_point now) const {
    const auto finished = job.lock()->finished_at;
    return finished && now >= *finished + retention_;
  }

  void worker_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      auto job = queue_.front();
      queue_.pop_front();
      ++running_;
      lock.unlock();
      run_(*job);
      lock.lock();
      --running_;
      if (queue_.empty() && running_ == 0) idle_.notify_all();
    }
  }

  const Clock& clock_;
  const Duration retention_;
  const std::function<void(JobT&)> run_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::map<std::string, std::shared_ptr<JobT>> jobs_;
  std::deque<std::shared_ptr<JobT>> queue_;
  int running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  // Wakes the pauses when the clock is advanced, so they re-read the time left.
  ClockSubscription clock_advanced_;
};

}  // namespace webdata::mock
