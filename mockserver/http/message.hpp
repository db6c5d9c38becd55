#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::http {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

/// Case-insensitive ASCII comparison, for header names and host names.
bool iequals(const std::string& a, const std::string& b);

/// An HTTP request as handlers see it: everything already read, nothing socket-related.
struct Request {
  std::string method;   ///< Upper case, e.g. "GET".
  std::string target;   ///< As sent: path plus query.
  std::string path;     ///< Percent-decoded path without query.
  std::string query;    ///< Raw query string without '?'.
  HeaderList headers;
  std::string body;
  std::string remote_address;
  std::string scheme = "http";

  std::optional<std::string> header(const std::string& name) const;
  /// First value of a query parameter, percent-decoded.
  std::optional<std::string> query_param(const std::string& name) const;
  /// Every query parameter in order, percent-decoded.
  std::vector<std::pair<std::string, std::string>> query_params() const;
};

/// Ways to break a connection on purpose (WireMock `fault`), for API stubs that test clients.
enum class Fault {
  none,
  empty_response,            ///< Close without sending anything.
  connection_reset_by_peer,  ///< Close with a TCP reset.
  random_data_then_close,    ///< Send bytes that are not HTTP, then close.
  malformed_response_chunk,  ///< Send a status line and headers, then a broken chunk.
};

struct Response {
  int status = 200;
  HeaderList headers;
  std::string body;
  /// Close the connection after this response.
  bool close = false;
  /// Instead of this response, break the connection this way.
  Fault fault = Fault::none;

  void set_header(const std::string& name, std::string value);
  std::optional<std::string> header(const std::string& name) const;

  static Response json(int status, const nlohmann::json& body);
  /// The API's error envelope: {"success": false, "error": message, "code"?: code}.
  static Response error(int status, const std::string& message, const std::string& code = "",
                        const nlohmann::json& details = nullptr);
};

std::string percent_decode(const std::string& text, bool plus_is_space);
/// Reason phrase for a status code ("Not Found").
const char* reason_phrase(int status);

}  // namespace webdata::mock::http
