#pragma once

#include <functional>
#include <iterator>
#include <optional>
#include <utility>

#include "webdata/result.hpp"

namespace webdata {

/// A lazy input range of `Result<T>`: each element is produced when the iteration reaches it.
/// A failure arrives as one element holding the error, and the range ends after it.
///
///     for (auto& doc : job.documents()) {
///       if (!doc.ok()) { report(doc.error()); break; }
///       store(*doc);
///     }
template <class T>
class Stream {
 public:
  /// Produces the next element, or std::nullopt at the end.
  using Source = std::function<std::optional<Result<T>>()>;

  explicit Stream(Source source) : source_(std::move(source)) {}

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Result<T>;
    using difference_type = std::ptrdiff_t;
    using pointer = Result<T>*;
    using reference = Result<T>&;

    iterator() = default;
    reference operator*() const { return *stream_->current_; }
    pointer operator->() const { return &*stream_->current_; }
    iterator& operator++() {
      stream_->advance();
      if (!stream_->current_) stream_ = nullptr;
      return *this;
    }
    void operator++(int) { ++*this; }
    friend bool operator==(const iterator& a, const iterator& b) { return a.stream_ == b.stream_; }
    friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

   private:
    friend class Stream;
    explicit iterator(Stream* stream) : stream_(stream) {}
    Stream* stream_ = nullptr;
  };

  /// Starts the iteration (the first element is fetched here); call once.
  iterator begin() {
    if (!started_) {
      started_ = true;
      advance();
    }
    return current_ ? iterator(this) : iterator();
  }
  iterator end() { return iterator(); }

 private:
  void advance() {
    if (done_) {
      current_.reset();
      return;
    }
    current_ = source_();
    if (!current_ || !current_->ok()) done_ = true;
  }

  Source source_;
  std::optional<Result<T>> current_;
  bool started_ = false;
  bool done_ = false;
};

}  // namespace webdata
