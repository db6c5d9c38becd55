#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "core/clock.hpp"
#include "http/message.hpp"
#include "http/tls.hpp"
#include "http/websocket.hpp"

namespace webdata::mock::http {

using Handler = std::function<Response(const Request&)>;
/// True for requests whose answer is cheap and never blocks (see Server::set_inline_filter).
using InlineFilter = std::function<bool(const Request&)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 3002;  ///< 0 picks a free port; see Server::port().
  /// I/O threads, each with its own event loop: they read, parse, route and write, and never
  /// wait on a handler (those run on the worker pool).
  int threads = 2;
  /// Most handler threads (the pool grows to this on demand): the number of requests that may
  /// block at once (slow pages, fixture delays, live fetches) before others queue.
  int workers = 64;
  std::size_t body_limit = 10 * 1024 * 1024;  ///< Larger bodies answer 413.
  std::size_t header_limit = 64 * 1024;       ///< Larger headers answer 431.
  /// Time allowed to receive a whole request header, counted from the end of the previous
  /// exchange: bounds idle keep-alive connections and slow-header (slowloris) clients. Also
  /// bounds the TLS handshake.
  std::chrono::milliseconds header_timeout{std::chrono::seconds(30)};
  /// Time allowed to receive a request body once its header is in.
  std::chrono::milliseconds body_timeout{std::chrono::seconds(60)};
  bool access_log = true;
  /// HTTPS and WSS instead of HTTP and WS when enabled.
  TlsOptions tls;
};

/// HTTP/1.1 server on Boost.Beast, plain or over TLS: keep-alive, limits, timeouts, JSON errors
/// for protocol failures, one access-log line per request, graceful stop. Handlers run on a
/// worker pool (or inline, see set_inline_filter), concurrently: they must be thread-safe.
class Server {
 public:
  Server(ServerOptions options, Handler handler, std::ostream& log);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Routes `Upgrade: websocket` requests (see websocket.hpp). Call before start().
  void set_upgrade_handler(UpgradeHandler handler);
  /// Requests the filter accepts run on the I/O thread that read them, saving two thread
  /// hand-offs: only for answers that take microseconds and never wait. Call before start().
  void set_inline_filter(InlineFilter filter);
  /// The clock a Response::delay runs on (before start): an advance of it brings delayed
  /// answers due at once. Without one, delays are real time.
  void set_clock(const Clock& clock);
  /// Loads (or makes) the TLS certificate, binds, and starts the threads; throws
  /// std::runtime_error when TLS or binding fails.
  void start();
  /// The bound port (useful with port 0).
  std::uint16_t port() const;
  /// "https" with TLS, else "http".
  const char* scheme() const;
  /// The certificate served: the --tls-cert file, or the self-signed one (a client trusts it
  /// as its CA); empty without TLS or before start().
  std::string certificate_file() const;
  /// Stops accepting, closes WebSocket connections (1001), lets in-flight requests finish
  /// (bounded by `grace`), joins the threads. A self-signed certificate stays until destruction.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  /// Blocks until stop() completed.
  void wait();

  class Impl;  // public only so the connection class in server.cpp can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace webdata::mock::http
