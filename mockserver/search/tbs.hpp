#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace webdata::mock::search {

/// The time range of a `tbs` value relative to `now`; nullopt with `error` set when it cannot
/// be read. An empty tbs is no range (both bounds open).
struct TimeRange {
  std::optional<std::chrono::system_clock::time_point> from;
  std::optional<std::chrono::system_clock::time_point> to;
};
std::optional<TimeRange> parse_tbs(const std::string& tbs,
                                   std::chrono::system_clock::time_point now, std::string& error);

}  // namespace webdata::mock::search
