#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "webdata/headers.hpp"
#include "webdata/result.hpp"

namespace webdata {

/// One part of a multipart/form-data request body (`HttpRequest::form`).
struct FormPart {
  std::string name;
  std::string data;          ///< The content, any bytes.
  std::string filename;      ///< Non-empty: a file part (`filename=` in its Content-Disposition).
  std::string content_type;  ///< Empty: the part has no Content-Type header.
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< Absolute URL.
  Headers headers;
  std::string body;
  /// Not empty: the body is multipart/form-data made of these parts, and `body` is not sent.
  /// The transport writes the boundary and the Content-Type header (POST /v2/parse); a custom
  /// transport that cannot must answer an error rather than send `body`.
  std::vector<FormPart> form;
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

/// The one line that says what an answer that is not JSON means, for a caller that expected JSON.
/// A route the deployment lacks (404 or 405): "this deployment has no GET /v2/team/queue-status
/// (HTTP 404, HTML page)"; any other status: "GET /v2/crawl/ID answered HTTP 502 with an HTML
/// page instead of JSON" (or "an empty body", "plain text", "a text/xml body"). The SDK's
/// `ErrorKind::kNotJson` errors carry it as their message; other tools (the conformance suite's
/// capability checks) use it for the same wording. `url` may be a whole URL or a path; neither
/// the host nor the query appears in the line. nullopt when the body starts as JSON does (`{` or
/// `[`): JSON, or a malformed or truncated answer, which is a parse error rather than this.
std::optional<std::string> describe_non_json_answer(const std::string& method,
                                                    const std::string& url,
                                                    const HttpResponse& response);

/// How the SDK reaches the service: TLS, proxy, user agent and connect timeout. The libcurl
/// transport uses them for every HTTP request and the crawl watcher for its WebSocket
/// (`ws://` or `wss://`), so both connect the same way.
///
///     webdata::CurlTransportOptions tls;
///     tls.ca_file = "/etc/webdata/internal-ca.pem";  // a private CA
///     tls.proxy = "http://proxy.internal:3128";
///     options.transport = webdata::make_curl_transport(tls);
struct CurlTransportOptions {
  /// e.g. "http://user:secret@proxy:3128"; empty uses the environment (`https_proxy`,
  /// `http_proxy`, `all_proxy` and `no_proxy`, as curl reads them). The watcher tunnels
  /// through HTTP proxies with CONNECT; other proxy kinds leave it to status polling.
  std::string proxy;
  std::string ca_file;           ///< CA bundle (PEM); empty uses the system store.
  std::string ca_path;           ///< Directory of hashed CA certificates (c_rehash); optional.
  bool verify_tls = true;        ///< Certificate and host name checks.
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  std::string user_agent = "webdata-cpp/0.1";
  std::size_t max_response_bytes = 0;  ///< 0 = unlimited.
};

/// Moves one HTTP exchange. Implementations are safe to call from several threads at once.
/// A transport reports failures to exchange (DNS, refused, TLS, timeout) as `Error`; any HTTP
/// answer, including 4xx and 5xx, is a successful `HttpResponse`.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual Result<HttpResponse> send(const HttpRequest& request) = 0;

  /// The TLS, proxy, user-agent and connect-timeout settings of this transport, for the
  /// connections the SDK opens beside it (the crawl watcher's WebSocket). The default, none,
  /// gives the watcher `CurlTransportOptions{}`: verification on, the system CA store and the
  /// environment's proxy. A transport that wraps another should forward its answer.
  virtual std::optional<CurlTransportOptions> connection_options() const { return std::nullopt; }
};

/// The default transport: libcurl with connection reuse, gzip/deflate/br and HTTP/2 when offered.
std::shared_ptr<Transport> make_curl_transport(CurlTransportOptions options = {});

}  // namespace webdata
