#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "http/message.hpp"
#include "http/websocket.hpp"

namespace webdata::mock::http {

using Handler = std::function<Response(const Request&)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 3002;  ///< 0 picks a free port; see Server::port().
  int threads = 4;  // handlers block on scrapes (fixture delays, live fetches): keep a few
  std::size_t body_limit = 10 * 1024 * 1024;  ///< Larger bodies answer 413.
  std::size_t header_limit = 64 * 1024;       ///< Larger headers answer 431.
  /// Time allowed to receive a whole request header, counted from the end of the previous
  /// exchange: bounds idle keep-alive connections and slow-header (slowloris) clients.
  std::chrono::milliseconds header_timeout{std::chrono::seconds(30)};
  /// Time allowed to receive a request body once its header is in.
  std::chrono::milliseconds body_timeout{std::chrono::seconds(60)};
  bool access_log = true;
};

/// HTTP/1.1 server on Boost.Beast: keep-alive, limits, timeouts, JSON errors for protocol
/// failures, one access-log line per request, graceful stop. The handler runs on the server's
/// threads and must be thread-safe.
class Server {
 public:
  Server(ServerOptions options, Handler handler, std::ostream& log);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Routes `Upgrade: websocket` requests (see websocket.hpp). Call before start().
  void set_upgrade_handler(UpgradeHandler handler);
  /// Binds and starts the worker threads; throws std::runtime_error when binding fails.
  void start();
  /// The bound port (useful with port 0).
  std::uint16_t port() const;
  /// Stops accepting, closes WebSocket connections (1001), lets in-flight requests finish
  /// (bounded by `grace`), joins the threads.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  /// Blocks until stop() completed.
  void wait();

  class Impl;  // public only so the connection class in server.cpp can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace webdata::mock::http
