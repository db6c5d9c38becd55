#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace webdata {

/// A string-backed enumeration whose unknown values survive parsing and round trips, so a
/// newer service never breaks an older SDK. Compare with the named constants of each enum, or
/// with the wire string; print it as it is.
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

/// State of a crawl, batch scrape or agent job. `completed`, `failed` and `cancelled` are
/// terminal; any other value (including ones this SDK does not know) means "still running".
class JobState : public OpenEnum<JobState> {
 public:
  using OpenEnum::OpenEnum;
  static JobState scraping() { return JobState("scraping"); }
  static JobState processing() { return JobState("processing"); }
  static JobState completed() { return JobState("completed"); }
  static JobState failed() { return JobState("failed"); }
  static JobState cancelled() { return JobState("cancelled"); }
  bool is_terminal() const {
    return value() == "completed" || value() == "failed" || value() == "cancelled";
  }
};

/// Proxy choice of a scrape: basic, enhanced, auto; v1 names the enhanced proxy `stealth`
/// (and refuses `enhanced`), v2 accepts both names.
class ProxyMode : public OpenEnum<ProxyMode> {
 public:
  using OpenEnum::OpenEnum;
  static ProxyMode basic() { return ProxyMode("basic"); }
  static ProxyMode enhanced() { return ProxyMode("enhanced"); }
  static ProxyMode stealth() { return ProxyMode("stealth"); }
  static ProxyMode automatic() { return ProxyMode("auto"); }
};

}  // namespace webdata
