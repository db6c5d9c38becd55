#include "core/buffers.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace webdata::mock {

namespace {

std::mutex large_buffers_mutex;
std::vector<std::string>& large_buffers() {
  static std::vector<std::string> pool;
  return pool;
}

// Capacities are rounded up so that chunks of about the same size share buffers (a 10 MB chunk
// limit gives bodies a few bytes either side of 10 MB); pages never written stay unmapped.
std::size_t rounded(std::size_t capacity) {
  constexpr std::size_t kStep = std::size_t{4} << 20;
  return (capacity + kStep - 1) / kStep * kStep;
}

}  // namespace

std::string LargeBuffers::take(std::size_t capacity) {
  if (capacity >= kMinCapacity) capacity = rounded(capacity);
  std::string out;
  if (capacity >= kMinCapacity) {
    std::lock_guard<std::mutex> lock(large_buffers_mutex);
    auto& pool = large_buffers();
    // The smallest buffer that fits, so that one large chunk does not take the biggest buffer.
    auto best = pool.end();
    for (auto it = pool.begin(); it != pool.end(); ++it) {
      if (it->capacity() >= capacity && (best == pool.end() || it->capacity() < best->capacity())) {
        best = it;
      }
    }
    if (best != pool.end()) {
      out = std::move(*best);
      pool.erase(best);
    }
  }
  out.clear();
  out.reserve(capacity);
  return out;
}

void LargeBuffers::recycle(std::string&& buffer) {
  std::string dropped;  // freed after the lock is released
  if (buffer.capacity() < kMinCapacity || buffer.capacity() > kMaxCapacity) {
    dropped = std::move(buffer);
    return;
  }
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  auto& pool = large_buffers();
  if (pool.size() < kMaxBuffers) {
    pool.push_back(std::move(buffer));
    return;
  }
  // Full: keep the larger buffers (they serve every request size).
  auto smallest = std::min_element(pool.begin(), pool.end(), [](const auto& a, const auto& b) {
    return a.capacity() < b.capacity();
  });
  if (smallest->capacity() < buffer.capacity()) {
    dropped = std::move(*smallest);
    *smallest = std::move(buffer);
  } else {
    dropped = std::move(buffer);
  }
}

void LargeBuffers::prefault(std::size_t capacity, std::size_t count) {
  capacity = rounded(std::max(capacity, kMinCapacity));
  if (capacity > kMaxCapacity) return;
  count = std::min(count, kMaxBuffers);
  std::size_t missing = 0;
  {
    std::lock_guard<std::mutex> lock(large_buffers_mutex);
    const auto& pool = large_buffers();
    const auto fitting = std::count_if(pool.begin(), pool.end(), [&](const std::string& b) {
      return b.capacity() >= capacity;
    });
    missing = count > static_cast<std::size_t>(fitting) ? count - fitting : 0;
  }
  for (std::size_t i = 0; i < missing; ++i) {
    std::string buffer;
    buffer.resize(capacity);  // writes every page once
    recycle(std::move(buffer));
  }
}

void LargeBuffers::clear() {
  std::vector<std::string> dropped;
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  dropped.swap(large_buffers());
}

std::size_t LargeBuffers::pooled() {
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  return large_buffers().size();
}

}  // namespace webdata::mock
