#include "http/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace webdata::mock::http {
namespace {

// Without progress for this long, the queued tasks are taken to wait for blocked threads.
constexpr std::chrono::milliseconds kStuckAfter{1};

}  // namespace

WorkerPool::WorkerPool(std::size_t max_threads)
    : max_threads_(max_threads),
      core_threads_(std::min<std::size_t>(
          max_threads, std::max<std::size_t>(2, std::thread::hardware_concurrency()))) {
  if (max_threads_ == 0) throw std::invalid_argument("a worker pool needs at least one thread");
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::start_thread_locked() {
  workers_.push_back(std::make_unique<Worker>());
  Worker* worker = workers_.back().get();
  threads_.emplace_back([this, worker] { run(*worker); });
}

void WorkerPool::submit(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) return;
  if (!idle_.empty()) {
    Worker* worker = idle_.back();
    idle_.pop_back();
    worker->task = std::move(task);
    ++busy_;
    ++started_;
    lock.unlock();
    worker->wake.notify_one();
    return;
  }
  tasks_.push_back(std::move(task));
  if (threads_.size() < core_threads_) {
    start_thread_locked();
    return;
  }
  if (threads_.size() < max_threads_) {
    if (!watcher_.joinable()) watcher_ = std::thread([this] { watch(); });
    lock.unlock();
    watcher_wake_.notify_one();
  }
}

void WorkerPool::run(Worker& self) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    std::function<void()> task;
    if (self.task) {
      task = std::move(self.task);
      self.task = nullptr;
    } else if (!tasks_.empty()) {
      task = std::move(tasks_.front());
      tasks_.pop_front();
      ++busy_;
      ++started_;
    } else if (stopping_) {
      return;
    } else {
      idle_.push_back(&self);
      self.wake.wait(lock, [&] { return self.task || stopping_; });
      if (!self.task) {  // stopping: take ourselves off the idle stack, then drain the queue
        idle_.erase(std::remove(idle_.begin(), idle_.end(), &self), idle_.end());
      }
      continue;
    }
    lock.unlock();
    try {
      task();
    } catch (...) {
      // The server's tasks catch their own errors; a pool thread must not die of one.
    }
    task = nullptr;  // its captures go before the next task, outside the lock
    lock.lock();
    --busy_;
  }
}

void WorkerPool::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (tasks_.empty()) {
      watcher_wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      continue;
    }
    const std::uint64_t before = started_;
    watcher_wake_.wait_for(lock, kStuckAfter, [this] { return stopping_; });
    if (!stopping_ && !tasks_.empty() && started_ == before && idle_.empty() &&
        threads_.size() < max_threads_) {
      start_thread_locked();
    }
  }
}

void WorkerPool::stop() {
  std::vector<std::thread> threads;
  std::thread watcher;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
    watcher.swap(watcher_);
    for (auto* worker : idle_) worker->wake.notify_one();
  }
  watcher_wake_.notify_all();
  if (watcher.joinable()) watcher.join();
  for (auto& t : threads) {
    if (t.joinable()) t.join();
  }
}

std::size_t WorkerPool::threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_.size();
}

std::size_t WorkerPool::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_;
}

}  // namespace webdata::mock::http
