#pragma once

// WebSocket clients for tests of the crawl watcher and the browser's CDP URL, on Boost.Beast (independent of the SDK's
// own client, so each checks the other). Single-threaded; every wait is bounded.
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace webdata::testing {

/// Reading and closing, the same over plain TCP and over TLS; WsClient and WssClient (in
/// tls_client.hpp) connect their own way and then call handshake().
template <class NextLayer>
class BasicWsClient {
 public:
  using Headers = std::vector<std::pair<std::string, std::string>>;

  BasicWsClient(const BasicWsClient&) = delete;
  BasicWsClient& operator=(const BasicWsClient&) = delete;

  /// The handshake answer (status 101, headers).
  const boost::beast::websocket::response_type& response() const { return response_; }

  /// The next text message; nullopt when the connection ended (see closed(), close_code(),
  /// close_reason()) or nothing came within `timeout` (timed_out()).
  std::optional<std::string> next(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    namespace beast = boost::beast;
    if (ended_) return std::nullopt;
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
      ended_ = true;
      return std::nullopt;
    }
    if (result) {
      ended_ = true;
      closed_ = result == beast::websocket::error::closed;
      error_ = result.message();
      return std::nullopt;
    }
    return beast::buffers_to_string(buffer.data());
  }

  /// Sends one text message; the error text, or empty.
  std::string send(const std::string& text) {
    boost::beast::error_code ec;
    ws_.text(true);
    ws_.write(boost::asio::buffer(text), ec);
    return ec ? "write: " + ec.message() : "";
  }

  /// Reads every message until the connection ends or `timeout` passes in one wait.
  std::vector<std::string> drain(std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    std::vector<std::string> out;
    while (auto message = next(timeout)) out.push_back(std::move(*message));
    return out;
  }

  /// Closes from this side (1000) and waits for the server's answer.
  void close() {
    boost::beast::error_code ignored;
    ws_.close(boost::beast::websocket::close_code::normal, ignored);
    ended_ = true;
  }

  bool closed() const { return closed_; }
  bool timed_out() const { return timed_out_; }
  const std::string& error() const { return error_; }
  int close_code() const { return static_cast<int>(ws_.reason().code); }
  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }

 protected:
  /// `layer_args` after the io_context build the next layer (an SSL context for TLS).
  template <class... LayerArgs>
  explicit BasicWsClient(unsigned short port, LayerArgs&&... layer_args)
      : port_(port), ws_(ioc_, std::forward<LayerArgs>(layer_args)...) {}
  ~BasicWsClient() {
    boost::beast::error_code ignored;
    boost::beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  /// Connects the TCP socket; the error text, or empty on success.
  std::string connect() {
    boost::beast::error_code ec;
    boost::beast::get_lowest_layer(ws_).connect(
        {boost::asio::ip::make_address("127.0.0.1"), port_}, ec);
    return ec ? "connect: " + ec.message() : "";
  }

  /// The opening handshake with `headers` on a connected stream; the error text, or empty.
  std::string handshake(const std::string& target, const Headers& headers) {
    namespace websocket = boost::beast::websocket;
    ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
      for (const auto& [name, value] : headers) req.set(name, value);
    }));
    boost::beast::error_code ec;
    ws_.handshake(response_, "127.0.0.1:" + std::to_string(port_), target, ec);
    return ec ? "handshake: " + ec.message() : "";
  }

  unsigned short port_;
  boost::asio::io_context ioc_;
  boost::beast::websocket::stream<NextLayer> ws_;

 private:
  boost::beast::websocket::response_type response_;
  bool ended_ = false;
  bool closed_ = false;
  bool timed_out_ = false;
  std::string error_;
};

/// A WebSocket client over plain TCP.
class WsClient : public BasicWsClient<boost::beast::tcp_stream> {
 public:
  explicit WsClient(unsigned short port) : BasicWsClient(port) {}

  /// Connects and performs the opening handshake with `headers`; the error text, or empty.
  std::string open(const std::string& target, const Headers& headers) {
    if (auto error = connect(); !error.empty()) return error;
    return handshake(target, headers);
  }
};

}  // namespace webdata::testing
