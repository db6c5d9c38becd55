#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace webdata {

/// A string-backed enumeration whose unknown values survive parsing and round trips, so a
/// newer service never breaks an older SDK. Compare with the named constants of each enum, or
/// with the wire string; print it as it is. The enumerations themselves are in
/// webdata/enums.hpp, which this header includes.
///
///     if (status.status == webdata::JobState::completed()) ...
///     if (status.status == "completed") ...
///     std::cout << status.status << "\n";  // also for values this SDK does not know
template <class Derived>
class OpenEnum {
 public:
  OpenEnum() = default;
  explicit OpenEnum(std::string value) : value_(std::move(value)) {}

  /// The wire string.
  const std::string& value() const noexcept { return value_; }
  bool empty() const noexcept { return value_.empty(); }

  friend bool operator==(const Derived& a, const Derived& b) { return a.value_ == b.value_; }
  friend bool operator!=(const Derived& a, const Derived& b) { return a.value_ != b.value_; }
  friend bool operator<(const Derived& a, const Derived& b) { return a.value_ < b.value_; }
  /// Against the wire string: `state == "completed"`.
  friend bool operator==(const Derived& a, std::string_view b) { return a.value_ == b; }
  friend bool operator==(std::string_view a, const Derived& b) { return a == b.value_; }
  friend bool operator!=(const Derived& a, std::string_view b) { return a.value_ != b; }
  friend bool operator!=(std::string_view a, const Derived& b) { return a != b.value_; }
  /// Writes the wire string.
  friend std::ostream& operator<<(std::ostream& os, const Derived& e) { return os << e.value_; }

 private:
  std::string value_;
};

}  // namespace webdata

// The SDK's enumerations (JobState, FormatType, ...): their values are listed once, as data, in
// the SDK's enums.json, and the build writes them here.
#include "webdata/enums.hpp"  // IWYU pragma: export
