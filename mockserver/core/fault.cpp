#include "core/fault.hpp"

namespace webdata::mock {

std::optional<Fault> parse_fault(const std::string& name) {
  if (name == "CONNECTION_RESET_BY_PEER") return Fault::connection_reset_by_peer;
  if (name == "EMPTY_RESPONSE") return Fault::empty_response;
  if (name == "MALFORMED_RESPONSE_CHUNK") return Fault::malformed_response_chunk;
  if (name == "RANDOM_DATA_THEN_CLOSE") return Fault::random_data_then_close;
  return std::nullopt;
}

const char* fault_name(Fault fault) {
  switch (fault) {
    case Fault::none: return "";
    case Fault::connection_reset_by_peer: return "CONNECTION_RESET_BY_PEER";
    case Fault::empty_response: return "EMPTY_RESPONSE";
    case Fault::malformed_response_chunk: return "MALFORMED_RESPONSE_CHUNK";
    case Fault::random_data_then_close: return "RANDOM_DATA_THEN_CLOSE";
  }
  return "";
}

}  // namespace webdata::mock
