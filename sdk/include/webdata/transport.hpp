#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "webdata/result.hpp"

namespace webdata {

/// Header list in send order; names compare case-insensitively on lookup.
using Headers = std::vector<std::pair<std::string, std::string>>;

/// Case-insensitive lookup of the first header named `name`.
std::optional<std::string> find_header(const Headers& headers, const std::string& name);

struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< Absolute URL.
  Headers headers;
  std::string body;
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};  ///< Whole exchange.
};

struct HttpResponse {
  int status = 0;
  Headers headers;
  std::string body;

  std::optional<std::string> header(const std::string& name) const {
    return find_header(headers, name);
  }
};

/// Moves one HTTP exchange. Implementations are safe to call from several threads at once.
/// A transport reports failures to exchange (DNS, refused, TLS, timeout) as `Error`; any HTTP
/// answer, including 4xx and 5xx, is a successful `HttpResponse`.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual Result<HttpResponse> send(const HttpRequest& request) = 0;
};

/// Settings of the libcurl transport.
struct CurlTransportOptions {
  std::string proxy;             ///< e.g. "http://proxy:3128"; empty uses the environment.
  std::string ca_file;           ///< CA bundle; empty uses the system store.
  bool verify_tls = true;        ///< Certificate and host name checks.
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  std::string user_agent = "webdata-cpp/0.1";
  std::size_t max_response_bytes = 0;  ///< 0 = unlimited.
};

/// The default transport: libcurl with connection reuse, gzip/deflate/br and HTTP/2 when offered.
std::shared_ptr<Transport> make_curl_transport(CurlTransportOptions options = {});

}  // namespace webdata
