#pragma once

// The crawl watcher's WebSocket client: Boost.Beast over Asio, plain (ws) or over OpenSSL (wss),
// directly or through an HTTP CONNECT proxy (docs/adr/0006-watcher-websocket-beast.md). Nothing
// of Boost or OpenSSL leaves this file's .cpp: the watcher sees messages and `Error`s.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "webdata/options.hpp"
#include "webdata/result.hpp"
#include "webdata/transport.hpp"

namespace webdata::detail {

/// How one watcher connection is opened.
struct WatchSocketSettings {
  /// TLS verification, CA file and path, proxy, user agent and TCP connect timeout: the
  /// transport's, so that the watcher reaches the service as the HTTP requests do.
  CurlTransportOptions connection;
  /// Sent with the upgrade request (Authorization, the client's and the call's headers).
  Headers headers;
  /// Bound of the whole opening: TCP connect, proxy tunnel, TLS and WebSocket handshakes.
  std::chrono::milliseconds open_timeout{std::chrono::seconds(10)};
  /// Largest message accepted.
  std::size_t max_message_bytes = std::size_t{256} * 1024 * 1024;
};

class WatchSocket {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  /// A text message, or the end of the connection (`closed`, with the peer's code and reason;
  /// code 1005 when the close frame carried none, 1006 when the connection ended without one).
  struct Message {
    bool closed = false;
    std::string text;
    int close_code = 0;
    std::string close_reason;
  };

  /// Why the proxy that applies to `url` cannot carry the watcher (a SOCKS or HTTPS proxy:
  /// only HTTP CONNECT proxies are spoken), or nothing when it can or none applies.
  static std::optional<std::string> unsupported_proxy(const std::string& url,
                                                      const CurlTransportOptions& connection);

  /// Connects to `url` (`http`/`ws` or `https`/`wss`, host, optional port, path and query) and
  /// performs the opening handshake. Errors:
  /// - kHttp: the server answered the upgrade with another status (`http_status`, headers,
  ///   request id and the body's `error`); status 0 when the answer was too large to read;
  /// - kTransport: DNS, connect, proxy refusal, TLS handshake or certificate verification
  ///   failure (the message says which and why), or a broken connection;
  /// - kInvalidArgument: a URL or proxy this client cannot use;
  /// - kTimeout, kCancelled: `settings.open_timeout` passed or `cancel` fired.
  static Result<std::unique_ptr<WatchSocket>> connect(const std::string& url,
                                                      const WatchSocketSettings& settings,
                                                      const CancellationToken& cancel);
  ~WatchSocket();
  WatchSocket(const WatchSocket&) = delete;
  WatchSocket& operator=(const WatchSocket&) = delete;

  /// The next text message or the close. Pings are answered on the way. kTimeout at
  /// `deadline`, kCancelled when `cancel` fires (the connection is dropped in both cases),
  /// kTransport on a broken connection, a protocol violation or a message over the limit.
  Result<Message> next(TimePoint deadline, const CancellationToken& cancel);

  /// The closing handshake with `code`, waited for briefly, then the connection is dropped.
  void close(std::uint16_t code);

  /// Implementation, one per stream type (plain or TLS); public only for the .cpp.
  class Stream;

 private:
  explicit WatchSocket(std::unique_ptr<Stream> stream);
  std::unique_ptr<Stream> stream_;
};

}  // namespace webdata::detail
