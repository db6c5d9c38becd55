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

/// Buffers for large response bodies (status chunks of up to 10 MB), recycled once written: a
/// fresh 10 MB allocation is a fresh mapping whose first write page-faults about 2,500 times
/// (30 ms of a chunk's 35 on the benchmark VM), a recycled one is already resident (3 ms).
/// Thread-safe. The pool keeps at most kMaxBuffers buffers of kMinCapacity to kMaxCapacity bytes.
class LargeBuffers {
 public:
  static constexpr std::size_t kMinCapacity = std::size_t{1} << 20;
  static constexpr std::size_t kMaxCapacity = std::size_t{64} << 20;
  static constexpr std::size_t kMaxBuffers = 4;

  /// An empty string with room for at least `capacity` bytes: a pooled one when one is large
  /// enough, else a new one.
  static std::string take(std::size_t capacity);
  /// Gives a body back once it is written; small or oversized ones are simply freed.
  static void recycle(std::string&& buffer);
  /// Makes sure `count` pooled buffers of at least `capacity` bytes exist with their pages
  /// touched, so that even the first large body of a process is written into resident memory.
  /// Called by the job engine once a job has stored half a chunk of documents.
  static void prefault(std::size_t capacity, std::size_t count);
  /// Buffers held now, and dropping them all (tests).
  static std::size_t pooled();
  static void clear();
};

}  // namespace webdata::mock::http
