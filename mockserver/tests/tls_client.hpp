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

/// A WSS client of the crawl watcher. Single-threaded; every wait is bounded.
class WssClient {
 public:
  WssClient(unsigned short port, const std::string& ca_file)
      : port_(port), ctx_(tls_client_context(ca_file)), ws_(ioc_, ctx_) {}
  ~WssClient() {
    boost::beast::error_code ignored;
    boost::beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  /// Connects, completes TLS and the opening handshake; the error text, or empty on success.
  std::string open(const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>& headers) {
    namespace beast = boost::beast;
    namespace websocket = beast::websocket;
    namespace net = boost::asio;
    beast::error_code ec;
    auto& tcp = beast::get_lowest_layer(ws_);
    tcp.expires_after(std::chrono::seconds(30));
    tcp.connect({net::ip::make_address("127.0.0.1"), port_}, ec);
    if (ec) return "connect: " + ec.message();
    ws_.next_layer().set_verify_callback(net::ssl::host_name_verification("127.0.0.1"));
    ws_.next_layer().handshake(net::ssl::stream_base::client, ec);
    if (ec) return "tls: " + ec.message();
    tcp.expires_never();
    ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
      for (const auto& [name, value] : headers) req.set(name, value);
    }));
    ws_.handshake(response_, "127.0.0.1:" + std::to_string(port_), target, ec);
    if (ec) return "handshake: " + ec.message();
    return "";
  }

  const boost::beast::websocket::response_type& response() const { return response_; }

  /// Every text message until the connection ends or `timeout` passes in one wait.
  std::vector<std::string> drain(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    namespace beast = boost::beast;
    std::vector<std::string> out;
    for (;;) {
      beast::flat_buffer buffer;
      beast::error_code result;
      bool done = false;
      ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
        result = ec;
        done = true;
      });
      ioc_.restart();
      ioc_.run_for(timeout);
      if (!done) {
        timed_out_ = true;
        beast::get_lowest_layer(ws_).cancel();
        ioc_.restart();
        ioc_.run_for(std::chrono::seconds(5));
        return out;
      }
      if (result) {
        closed_ = result == beast::websocket::error::closed;
        return out;
      }
      out.push_back(beast::buffers_to_string(buffer.data()));
    }
  }

  bool closed() const { return closed_; }
  bool timed_out() const { return timed_out_; }
  int close_code() const { return static_cast<int>(ws_.reason().code); }
  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }

 private:
  unsigned short port_;
  boost::asio::io_context ioc_;
  boost::asio::ssl::context ctx_;
  boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>> ws_;
  boost::beast::websocket::response_type response_;
  bool closed_ = false;
  bool timed_out_ = false;
};

}  // namespace webdata::testing
