#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace webdata::mock::web {

/// Header or query lists keep order and duplicates; names compare case-insensitively.
using HeaderList = std::vector<std::pair<std::string, std::string>>;

bool iequals(const std::string& a, const std::string& b);
std::string to_lower(std::string text);

/// First value of header `name` (case-insensitive), if any.
std::optional<std::string> find_header(const HeaderList& headers, const std::string& name);
/// Every value of header `name`, in order.
std::vector<std::string> find_headers(const HeaderList& headers, const std::string& name);

/// A request as the stub engine sees it: what a WireMock request pattern can look at.
struct StubRequest {
  std::string method = "GET";  ///< Upper case.
  std::string url = "/";       ///< Path plus query, as sent (not decoded).
  HeaderList headers;          ///< Including `Host`, which the `host` matcher reads.
  std::string body;
  std::string scheme = "http";
};

/// WireMock's `fault` values. The HTTP layer acts on them; the virtual web turns them into
/// fetch errors.
enum class Fault {
  none,
  connection_reset_by_peer,  ///< CONNECTION_RESET_BY_PEER: close with RST, nothing sent.
  empty_response,            ///< EMPTY_RESPONSE: close without sending anything.
  malformed_response_chunk,  ///< MALFORMED_RESPONSE_CHUNK: status and headers, then a broken chunk.
  random_data_then_close,    ///< RANDOM_DATA_THEN_CLOSE: garbage bytes, then close.
};

/// Parses a WireMock fault name; nullopt for an unknown one.
std::optional<Fault> parse_fault(const std::string& name);
/// The WireMock name of a fault ("" for none).
const char* fault_name(Fault fault);

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
