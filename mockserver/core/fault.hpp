#pragma once

#include <optional>
#include <string>

namespace webdata::mock {

/// Ways to break a connection on purpose: WireMock's `fault` values. API stubs hand them to the
/// HTTP layer, which acts on them; the virtual web turns them into fetch errors.
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

}  // namespace webdata::mock
