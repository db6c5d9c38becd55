#pragma once

#include <optional>
#include <string>
#include <vector>

namespace webdata {

/// Where a scrape appears to come from (proxy, language and timezone emulation).
struct Location {
  std::optional<std::string> country;                 ///< ISO code; the service defaults to "US".
  std::optional<std::vector<std::string>> languages;  ///< e.g. {"de-DE"}
};

}  // namespace webdata
