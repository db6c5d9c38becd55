#pragma once

// An allocator for Beast's header fields: blocks of up to 512 bytes go back to a free list of
// the thread that frees them and serve the next allocation of their size class, so parsing a
// request and writing an answer allocate nothing once a connection's thread has seen requests
// of the same shape (Beast allocates one node per header line, and a new set per message).
//
// Stateless (every instance is equal), so fields move and swap freely; a block freed on another
// thread than the one that allocated it simply joins that thread's list. Each list keeps at most
// kKeep blocks and frees the rest. Under AddressSanitizer a kept block is poisoned, so a use
// after free of one is still reported.

#include <array>
#include <cstddef>
#include <new>
#include <type_traits>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define WEBDATA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define WEBDATA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define WEBDATA_POISON(p, n) ((void)(p), (void)(n))
#define WEBDATA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace webdata::mock::http {

namespace detail {

class BlockLists {
 public:
  static constexpr std::size_t kGrain = 16;       ///< Size classes are multiples of this.
  static constexpr std::size_t kLargest = 512;    ///< Larger blocks bypass the lists.
  static constexpr std::size_t kKeep = 64;        ///< Blocks kept per class and thread.

  static void* allocate(std::size_t bytes) {
    if (bytes == 0 || bytes > kLargest) return ::operator new(bytes);
    List& list = mine().lists_[index(bytes)];
    if (list.head != nullptr) {
      Block* block = list.head;
      WEBDATA_UNPOISON(block, rounded(bytes));
      list.head = block->next;
      --list.count;
      return block;
    }
    return ::operator new(rounded(bytes));
  }

  static void deallocate(void* p, std::size_t bytes) noexcept {
    if (bytes == 0 || bytes > kLargest) return ::operator delete(p);
    List& list = mine().lists_[index(bytes)];
    if (list.count == kKeep) return ::operator delete(p);
    Block* block = static_cast<Block*>(p);
    block->next = list.head;
    list.head = block;
    ++list.count;
    WEBDATA_POISON(block, rounded(bytes));
  }

  /// Blocks this thread keeps for reuse (all classes): for tests.
  static std::size_t kept() {
    std::size_t n = 0;
    for (const auto& list : mine().lists_) n += list.count;
    return n;
  }

 private:
  struct Block {
    Block* next;
  };
  struct List {
    Block* head = nullptr;
    std::size_t count = 0;
  };
  static std::size_t index(std::size_t bytes) { return (bytes - 1) / kGrain; }
  static std::size_t rounded(std::size_t bytes) { return (index(bytes) + 1) * kGrain; }

  ~BlockLists() {
    for (std::size_t i = 0; i < lists_.size(); ++i) {
      List& list = lists_[i];
      while (list.head != nullptr) {
        WEBDATA_UNPOISON(list.head, (i + 1) * kGrain);
        Block* next = list.head->next;
        ::operator delete(list.head);
        list.head = next;
      }
    }
  }
  static BlockLists& mine() {
    thread_local BlockLists lists;
    return lists;
  }

  std::array<List, kLargest / kGrain> lists_{};
};

}  // namespace detail

template <class T>
class RecyclingAllocator {
 public:
  using value_type = T;
  using is_always_equal = std::true_type;

  RecyclingAllocator() noexcept = default;
  template <class U>
  RecyclingAllocator(const RecyclingAllocator<U>&) noexcept {}  // NOLINT: converting by design

  T* allocate(std::size_t n) {
    return static_cast<T*>(detail::BlockLists::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    detail::BlockLists::deallocate(p, n * sizeof(T));
  }

  template <class U>
  bool operator==(const RecyclingAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const RecyclingAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace webdata::mock::http

#undef WEBDATA_POISON
#undef WEBDATA_UNPOISON
