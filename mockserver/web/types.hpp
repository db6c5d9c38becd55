#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/fault.hpp"
#include "core/text.hpp"

namespace webdata::mock::web {

/// A request as the stub engine sees it: what a WireMock request pattern can look at.
struct StubRequest {
  std::string method = "GET";  ///< Upper case.
  std::string url = "/";       ///< Path plus query, as sent (not decoded).
  HeaderList headers;          ///< Including `Host`, which the `host` matcher reads.
  std::string body;
  std::string scheme = "http";
};

/// What a matched stub answers, already resolved (body files read, jsonBody serialized).
struct StubResponse {
  int status = 200;
  std::string status_message;  ///< WireMock `statusMessage`; empty means the standard phrase.
  HeaderList headers;          ///< As the mapping sets them, in order.
  std::string body;
  std::chrono::milliseconds delay{0};  ///< `fixedDelayMilliseconds`: wait before answering.
  Fault fault = Fault::none;
  std::string mapping_id;    ///< UUID of the mapping that matched.
  std::string mapping_name;  ///< Its `name`, if any.
};

}  // namespace webdata::mock::web
