#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fault.hpp"
#include "core/text.hpp"

namespace webdata::mock::http {

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

struct Response {
  int status = 200;
  HeaderList headers;
  std::string body;
  /// Close the connection after this response.
  bool close = false;
  /// Instead of this response, break the connection this way.
  Fault fault = Fault::none;
  /// Write the answer (or the fault) only after this long: a timer on the I/O thread, so no
  /// thread waits (a stub's fixedDelayMilliseconds).
  std::chrono::milliseconds delay{0};

  void set_header(const std::string& name, std::string value);
  std::optional<std::string> header(const std::string& name) const;

  static Response json(int status, const nlohmann::json& body);
  /// The API's error envelope: {"success": false, "error": message, "code"?: code}.
  static Response error(int status, const std::string& message, const std::string& code = "",
                        const nlohmann::json& details = nullptr);
};

}  // namespace webdata::mock::http
