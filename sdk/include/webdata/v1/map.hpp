#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "webdata/location.hpp"

namespace webdata::v1 {

/// POST /v1/map. The answer is the shared `MapResult` (v1 links carry only `url`).
struct MapRequest {
  std::string url;
  std::optional<std::string> search;
  std::optional<bool> ignore_sitemap;  ///< default false
  std::optional<bool> sitemap_only;    ///< default false
  std::optional<bool> include_subdomains;
  std::optional<bool> ignore_query_parameters;
  std::optional<int> limit;
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<Location> location;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

}  // namespace webdata::v1
