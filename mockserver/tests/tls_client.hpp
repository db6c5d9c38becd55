#pragma once

// HTTP and WebSocket clients for tests of the mock's TLS (HTTPS and WSS), on Boost.Beast over
// OpenSSL (independent of the SDK's clients, so each checks the other). Every wait is bounded.
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "ws_client.hpp"

namespace webdata::testing {

struct TlsReply {
  int status = 0;        ///< 0 when the exchange failed (see error).
  std::string error;     ///< What failed: connect, handshake (certificate verify failed), read.
  std::string body;
};

/// A TLS client context that trusts `ca_file`, or the system's CAs when it is empty, and
/// checks the peer's certificate against `host` (a name or an IP address).
inline boost::asio::ssl::context tls_client_context(const std::string& ca_file) {
  namespace ssl = boost::asio::ssl;
  ssl::context ctx(ssl::context::tls_client);
  if (ca_file.empty()) {
    ctx.set_default_verify_paths();
  } else {
    ctx.load_verify_file(ca_file);
  }
  ctx.set_verify_mode(ssl::verify_peer);
  return ctx;
}

/// One HTTPS exchange with 127.0.0.1:port, verifying the server as `host`.
inline TlsReply https_request(unsigned short port, const std::string& ca_file,
                              const std::string& method, const std::string& target,
                              const std::string& body = "",
                              const std::vector<std::pair<std::string, std::string>>& headers = {},
                              const std::string& host = "127.0.0.1") {
  namespace beast = boost::beast;
  namespace http = beast::http;
  namespace net = boost::asio;
  TlsReply reply;
  net::io_context ioc;
  auto ctx = tls_client_context(ca_file);
  beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
  stream.set_verify_callback(net::ssl::host_name_verification(host));
  beast::error_code ec;
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(30));
  beast::get_lowest_layer(stream).connect({net::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) {
    reply.error = "connect: " + ec.message();
    return reply;
  }
  stream.handshake(net::ssl::stream_base::client, ec);
  if (ec) {
    reply.error = "handshake: " + ec.message();
    return reply;
  }
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, host);
  for (const auto& [name, value] : headers) req.set(name, value);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req, ec);
  if (ec) {
    reply.error = "write: " + ec.message();
    return reply;
  }
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res, ec);
  if (ec) {
    reply.error = "read: " + ec.message();
    return reply;
  }
  reply.status = static_cast<int>(res.result_int());
  reply.body = std::move(res.body());
  return reply;
}

/// Holds the SSL context, so that it is built before the WebSocket stream that uses it.
struct TlsClientContext {
  explicit TlsClientContext(const std::string& ca_file) : ctx(tls_client_context(ca_file)) {}
  boost::asio::ssl::context ctx;
};

/// A WSS client of the crawl watcher. Single-threaded; every wait is bounded.
class WssClient
    : private TlsClientContext,
      public BasicWsClient<boost::beast::ssl_stream<boost::beast::tcp_stream>> {
 public:
  WssClient(unsigned short port, const std::string& ca_file)
      : TlsClientContext(ca_file), BasicWsClient(port, ctx) {}

  /// Connects, completes TLS and the opening handshake; the error text, or empty on success.
  std::string open(const std::string& target, const Headers& headers) {
    namespace net = boost::asio;
    auto& tcp = boost::beast::get_lowest_layer(ws_);
    tcp.expires_after(std::chrono::seconds(30));
    if (auto error = connect(); !error.empty()) return error;
    ws_.next_layer().set_verify_callback(net::ssl::host_name_verification("127.0.0.1"));
    boost::beast::error_code ec;
    ws_.next_layer().handshake(net::ssl::stream_base::client, ec);
    if (ec) return "tls: " + ec.message();
    tcp.expires_never();
    return handshake(target, headers);
  }
};

}  // namespace webdata::testing
