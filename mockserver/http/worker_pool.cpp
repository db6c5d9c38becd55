#include "http/worker_pool.hpp"

#include <stdexcept>

namespace webdata::mock::http {

WorkerPool::WorkerPool(std::size_t max_threads) : max_threads_(max_threads) {
  if (max_threads_ == 0) throw std::invalid_argument("a worker pool needs at least one thread");
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::submit(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) return;
  tasks_.push_back(std::move(task));
  // Every queued task beyond the idle threads would wait for a busy one: start a thread for it
  // instead, while the bound allows.
  if (tasks_.size() > idle_ && threads_.size() < max_threads_) {
    threads_.emplace_back([this] { run(); });
    return;
  }
  lock.unlock();
  wake_.notify_one();
}

void WorkerPool::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (tasks_.empty()) {
      if (stopping_) return;
      ++idle_;
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      --idle_;
      continue;
    }
    auto task = std::move(tasks_.front());
    tasks_.pop_front();
    ++busy_;
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

void WorkerPool::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
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
