#pragma once

// A minimal RFC 6455 client over a plain TCP socket, for the crawl watcher. libcurl 7.88 has
// no stable WebSocket API, and the SDK does not depend on Boost. Text messages, fragmentation,
// ping/pong and the closing handshake; no extensions, no TLS (wss is left to polling).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/transport.hpp"

namespace webdata::detail {

class WebSocketClient {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  /// A text message, or the end of the connection (`closed`, with the peer's code and reason;
  /// code 1005 when the close frame carried none).
  struct Message {
    bool closed = false;
    std::string text;
    int close_code = 0;
    std::string close_reason;
  };

  /// Connects to `url` (`http://` or `ws://`, host, optional port, path) and performs the opening
  /// handshake with `headers`. A refusal to upgrade is a kHttp error with the HTTP status; a
  /// `https://`/`wss://` URL is a kInvalidArgument error (not supported).
  static Result<std::unique_ptr<WebSocketClient>> connect(const std::string& url,
                                                          const Headers& headers,
                                                          std::chrono::milliseconds timeout,
                                                          std::size_t max_message_bytes,
                                                          const CancellationToken& cancel);
  ~WebSocketClient();
  WebSocketClient(const WebSocketClient&) = delete;
  WebSocketClient& operator=(const WebSocketClient&) = delete;

  /// The next text message or the close. Pings are answered on the way. kTimeout at
  /// `deadline`, kCancelled when `cancel` fires, kTransport on a broken connection or a
  /// protocol violation.
  Result<Message> next(TimePoint deadline, const CancellationToken& cancel);

  /// Sends a close frame (best effort, without waiting) and closes the socket.
  void close(std::uint16_t code);

  /// The subprotocol the server accepted (empty: none).
  const std::string& protocol() const { return protocol_; }

 private:
  WebSocketClient(int fd, std::size_t max_message_bytes);
  /// One read of whatever the socket has, appended to `buffer_`.
  Result<bool> fill(TimePoint deadline, const CancellationToken& cancel);
  Result<bool> read_exact(std::size_t n, std::string& out, TimePoint deadline,
                          const CancellationToken& cancel);
  bool send_frame(int opcode, const std::string& payload);

  int fd_ = -1;
  std::size_t max_message_bytes_;
  std::string buffer_;  // bytes read but not yet consumed
  std::string protocol_;
  bool close_sent_ = false;
};

}  // namespace webdata::detail
