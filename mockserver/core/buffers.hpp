#pragma once

#include <cstddef>
#include <string>

namespace webdata::mock {

/// Buffers for large response bodies (status chunks of up to 10 MB), recycled once written: a
/// fresh 10 MB allocation is a fresh mapping whose first write page-faults about 2,500 times
/// (30 ms of a chunk's 35 on the benchmark VM), a recycled one is already resident (3 ms).
/// Thread-safe. The pool keeps at most kMaxBuffers buffers of kMinCapacity to kMaxCapacity bytes.
class LargeBuffers {
 public:
  static constexpr std::size_t kMinCapacity = std::size_t{1} << 20;
  static constexpr std::size_t kMaxCapacity = std::size_t{64} << 20;
  static constexpr std::size_t kMaxBuffers = 4;

  /// An empty string with room for at least `capacity` bytes: a pooled one when one is large
  /// enough, else a new one.
  static std::string take(std::size_t capacity);
  /// Gives a body back once it is written; small or oversized ones are simply freed.
  static void recycle(std::string&& buffer);
  /// Makes sure `count` pooled buffers of at least `capacity` bytes exist with their pages
  /// touched, so that even the first large body of a process is written into resident memory.
  /// Called by the job engine once a job has stored half a chunk of documents.
  static void prefault(std::size_t capacity, std::size_t count);
  /// Buffers held now, and dropping them all (tests).
  static std::size_t pooled();
  static void clear();
};

}  // namespace webdata::mock
