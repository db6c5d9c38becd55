#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "http/message.hpp"

// WebSocket routes of the HTTP server (RFC 6455 on Boost.Beast). The server hands an upgraded
// connection to the route that claimed the request; the route talks to it through
// `WebSocketConnection`, from any thread, without touching sockets.
namespace webdata::mock::http {

/// Bounds of one connection's outgoing queue and of its closing handshake.
struct WebSocketLimits {
  /// Messages waiting behind the one being written. A send beyond this (or beyond
  /// `max_queued_bytes`) drops the queue and closes the connection with 1008 "too slow":
  /// the producer is never blocked and memory stays bounded whatever the peer does.
  std::size_t max_queued_messages = 4096;
  std::size_t max_queued_bytes = 64u * 1024 * 1024;
  /// Time allowed for the closing handshake; the TCP connection is dropped afterwards.
  std::chrono::milliseconds close_timeout{std::chrono::seconds(5)};
  /// With nothing received for this long the peer is pinged, and dropped if it stays silent.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
};

/// Close codes used by the server (RFC 6455 section 7.4.1).
inline constexpr std::uint16_t kCloseNormal = 1000;
inline constexpr std::uint16_t kCloseGoingAway = 1001;
inline constexpr std::uint16_t kClosePolicy = 1008;
/// Close reasons are at most 123 bytes; longer ones are cut.
inline constexpr std::size_t kMaxCloseReason = 123;

/// One accepted WebSocket connection. Thread-safe; no method waits on the network.
class WebSocketConnection {
 public:
  enum class SendResult {
    queued,    ///< Will be written after the messages queued before it.
    closed,    ///< The connection is closing or closed; the message was dropped.
    overflow,  ///< The queue was full: it was dropped and the connection closes with 1008.
  };
  virtual ~WebSocketConnection() = default;
  /// Queues one text message.
  virtual SendResult send_text(std::string message) = 0;
  /// Writes the messages already queued, then a close frame with `code` and `reason` (cut to
  /// 123 bytes); later sends are refused. Only the first call counts.
  virtual void close(std::uint16_t code, std::string reason) = 0;
};

/// What a route does with a connection it claimed.
struct WebSocketRoute {
  /// Echoed in `Sec-WebSocket-Protocol` of the handshake answer (one the client offered), or
  /// empty for none.
  std::string subprotocol;
  /// Runs once on a server thread after the handshake. Keep the pointer (or a weak one) to send
  /// later; the connection lives until it is closed by either side.
  std::function<void(const std::shared_ptr<WebSocketConnection>&)> on_open;
  /// Runs on a server thread for each text message the peer sends, in order; empty: messages
  /// are read and dropped. An exception closes the connection with 1011. Keep it short: it runs
  /// on the connection's I/O thread.
  std::function<void(const std::shared_ptr<WebSocketConnection>&, const std::string&)> on_message;
  /// The largest message the peer may send; a larger one closes the connection (1009).
  std::size_t max_message_bytes = 64 * 1024;
  /// Runs exactly once when the connection is over (closed by either side, failed, dropped for
  /// being slow, or the server stopped), also when the handshake failed and `on_open` never ran.
  /// No lock of the connection is held, so it may unsubscribe from whatever feeds it.
  std::function<void()> on_close;
  WebSocketLimits limits;
};

/// Called for each request carrying `Upgrade: websocket`. A route claims it; nullopt leaves the
/// request to the plain HTTP handler.
using UpgradeHandler = std::function<std::optional<WebSocketRoute>(const Request&)>;

namespace detail {
class WebSocketSession;
}

/// The live WebSocket connections of one server, so that stopping the server can close them.
class WebSocketHub {
 public:
  /// Asks every open connection to close with `code` (1001 when the server stops).
  void close_all(std::uint16_t code, const std::string& reason);
  /// Runs the `on_close` of every connection not yet over and refuses their sends. For use
  /// once the server's I/O threads have stopped.
  void finish_all();
  /// Connections not yet over.
  std::size_t open_count() const;

  std::uint64_t add(const std::shared_ptr<detail::WebSocketSession>& session);
  void remove(std::uint64_t id);

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::weak_ptr<detail::WebSocketSession>> sessions_;
  std::uint64_t next_id_ = 1;
};

}  // namespace webdata::mock::http
