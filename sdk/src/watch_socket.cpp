#include "watch_socket.hpp"

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

#include "client_core.hpp"
#include "errors.hpp"

namespace webdata::detail {
namespace {

namespace beast = boost::beast;
namespace net = boost::asio;
namespace ssl = net::ssl;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using boost::system::error_code;
using SteadyClock = std::chrono::steady_clock;

// How often a wait looks at the cancellation token.
constexpr std::chrono::milliseconds kSlice{50};
// How long the closing handshake may take before the connection is simply dropped.
constexpr std::chrono::milliseconds kCloseGrace{500};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

bool is_ip(const std::string& host) {
  error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

struct Endpoint {
  std::string host;  ///< Without IPv6 brackets.
  std::string port;

  /// host:port with IPv6 brackets, as CONNECT and messages write it.
  std::string text() const {
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
  }
};

// `host[:port]` or `[v6][:port]`.
std::optional<Endpoint> parse_authority(const std::string& authority, const std::string& default_port) {
  Endpoint out;
  out.port = default_port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    out.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      out.port = authority.substr(close + 2);
    }
  } else {
    const auto colon = authority.rfind(':');
    out.host = authority.substr(0, colon);
    if (colon != std::string::npos) out.port = authority.substr(colon + 1);
  }
  if (out.host.empty() || out.port.empty() || out.port.size() > 5 ||
      !std::all_of(out.port.begin(), out.port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoi(out.port) > 65535) {
    return std::nullopt;
  }
  return out;
}

struct Target {
  bool tls = false;
  Endpoint endpoint;
  std::string host_header;  ///< The URL's authority without credentials.
  std::string path;         ///< Path and query.
  std::string url;          ///< ws(s)://authority/path, for messages.
};

Result<Target> parse_target(const std::string& url) {
  struct Scheme {
    const char* prefix;
    bool tls;
  };
  static constexpr Scheme kSchemes[] = {
      {"http://", false}, {"ws://", false}, {"https://", true}, {"wss://", true}};
  Target target;
  std::string rest;
  for (const Scheme& scheme : kSchemes) {
    const std::string prefix = scheme.prefix;
    if (lower(url.substr(0, prefix.size())) == prefix) {
      rest = url.substr(prefix.size());
      target.tls = scheme.tls;
      break;
    }
  }
  if (rest.empty()) {
    return error_of(ErrorKind::kInvalidArgument,
                    "the crawl watcher needs an http(s) or ws(s) URL, not " + url);
  }
  const auto slash = rest.find('/');
  target.path = slash == std::string::npos ? "/" : rest.substr(slash);
  std::string authority = rest.substr(0, slash);
  if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  auto endpoint = parse_authority(authority, target.tls ? "443" : "80");
  if (!endpoint) return error_of(ErrorKind::kInvalidArgument, "bad host or port in " + url);
  target.endpoint = std::move(*endpoint);
  target.host_header = authority;
  target.url = std::string(target.tls ? "wss://" : "ws://") + authority + target.path;
  return target;
}

// curl's rule: `no_proxy` lists host names (a name also covers its subdomains) or `*`.
bool bypasses_proxy(const std::string& host) {
  std::string list = env("no_proxy");
  if (list.empty()) list = env("NO_PROXY");
  const std::string name = lower(host);
  std::size_t start = 0;
  while (start <= list.size()) {
    auto end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string entry = lower(trim(list.substr(start, end - start)));
    start = end + 1;
    if (entry == "*") return true;
    if (!entry.empty() && entry.front() == '.') entry.erase(0, 1);
    if (!entry.empty() && entry.front() == '[' && entry.back() == ']') {
      entry = entry.substr(1, entry.size() - 2);
    }
    if (entry.empty()) continue;
    if (name == entry) return true;
    if (name.size() > entry.size() && name.compare(name.size() - entry.size(), entry.size(),
                                                   entry) == 0 &&
        name[name.size() - entry.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

// The proxy of a connection as libcurl chooses it: the option, else the environment
// (`http_proxy` is read in lower case only, as curl does), unless `no_proxy` exempts the host.
std::string proxy_spec(const Target& target, const CurlTransportOptions& connection) {
  if (bypasses_proxy(target.endpoint.host)) return {};
  if (!connection.proxy.empty()) return connection.proxy;
  std::string spec = target.tls ? env("https_proxy") : env("http_proxy");
  if (spec.empty() && target.tls) spec = env("HTTPS_PROXY");
  if (spec.empty()) spec = env("all_proxy");
  if (spec.empty()) spec = env("ALL_PROXY");
  return spec;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string base64(const std::string& data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<std::size_t>(std::max(n, 0)));
  return out;
}

struct Proxy {
  Endpoint endpoint;
  std::string authorization;  ///< Proxy-Authorization value; empty without credentials.
};

std::string scheme_of(const std::string& spec) {
  const auto sep = spec.find("://");
  return sep == std::string::npos ? "http" : lower(spec.substr(0, sep));
}

Result<std::optional<Proxy>> resolve_proxy(const Target& target,
                                           const CurlTransportOptions& connection) {
  const std::string spec = proxy_spec(target, connection);
  if (spec.empty()) return std::optional<Proxy>();
  const std::string scheme = scheme_of(spec);
  if (scheme != "http") {
    return error_of(
        ErrorKind::kInvalidArgument,
        "the crawl watcher tunnels through HTTP proxies only (CONNECT), not " + scheme + "://");
  }
  const auto sep = spec.find("://");
  std::string authority = sep == std::string::npos ? spec : spec.substr(sep + 3);
  authority = authority.substr(0, authority.find('/'));
  Proxy proxy;
  if (const auto at = authority.rfind('@'); at != std::string::npos) {
    const std::string userinfo = authority.substr(0, at);
    authority.erase(0, at + 1);
    const auto colon = userinfo.find(':');
    const std::string user = percent_decode(userinfo.substr(0, colon));
    const std::string password =
        colon == std::string::npos ? "" : percent_decode(userinfo.substr(colon + 1));
    proxy.authorization = "Basic " + base64(user + ":" + password);
  }
  // 1080 is libcurl's default proxy port too.
  auto endpoint = parse_authority(authority, "1080");
  if (!endpoint) return error_of(ErrorKind::kInvalidArgument, "bad proxy address: " + authority);
  proxy.endpoint = std::move(*endpoint);
  return std::optional<Proxy>(std::move(proxy));
}

enum class Stop {
  kNone,
  kTimeout,
  kCancelled,
  kLost,  ///< The io_context ran out of work before the operation completed (a bug).
};

std::string str(beast::string_view view) {
  return std::string(view.data(), view.size());
}

// Runs `ioc` until `done`. When `deadline` passes or `cancel` fires it calls `abort` (which
// drops the connection) and goes on until the aborted operation has completed, so no handler
// outlives the caller's stack.
Stop run_until(net::io_context& ioc, const bool& done, SteadyClock::time_point deadline,
               const CancellationToken& cancel, const std::function<void()>& abort) {
  Stop stop = Stop::kNone;
  ioc.restart();
  while (!done) {
    if (stop == Stop::kNone) {
      if (cancel.cancelled()) {
        stop = Stop::kCancelled;
      } else if (SteadyClock::now() >= deadline) {
        stop = Stop::kTimeout;
      }
      if (stop != Stop::kNone) abort();
    }
    auto slice = kSlice;
    if (stop == Stop::kNone) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - SteadyClock::now());
      slice = std::clamp(left + std::chrono::milliseconds(1), std::chrono::milliseconds(1), kSlice);
    }
    ioc.run_one_for(slice);
    // Stopped means out of work: an operation still pending would have kept it running.
    if (ioc.stopped() && !done) return Stop::kLost;
  }
  return stop;
}

bool reserved_header(const std::string& name) {
  const std::string n = lower(name);
  return n == "host" || n == "upgrade" || n == "connection" || n == "sec-websocket-key" ||
         n == "sec-websocket-version" || n == "sec-websocket-extensions" || n == "content-length";
}

std::string tls_advice() {
  return " (trust its CA with CurlTransportOptions::ca_file or ca_path; verify_tls = false "
         "turns the check off)";
}

}  // namespace

class WatchSocket::Stream {
 public:
  virtual ~Stream() = default;
  virtual Result<Message> next(TimePoint deadline, const CancellationToken& cancel) = 0;
  virtual void close(std::uint16_t code) = 0;
};

namespace {

template <bool kTls>
class BeastStream final : public WatchSocket::Stream {
  using Next = std::conditional_t<kTls, beast::ssl_stream<beast::tcp_stream>, beast::tcp_stream>;

 public:
  // The TLS context must outlive the stream; it is made first and handed in.
  explicit BeastStream(std::unique_ptr<ssl::context> tls) : tls_(std::move(tls)) {
    if constexpr (kTls) {
      ws_.emplace(ioc_, *tls_);
    } else {
      ws_.emplace(ioc_);
    }
  }
  ~BeastStream() override { drop(); }

  Result<bool> open(const Target& target, const std::optional<Proxy>& proxy,
                    const WatchSocketSettings& settings, SteadyClock::time_point deadline,
                    const CancellationToken& cancel) {
    const Endpoint& dial = proxy ? proxy->endpoint : target.endpoint;
    const std::string dial_what = proxy ? "proxy " + dial.text() : target.endpoint.text();

    // DNS
    tcp::resolver resolver(ioc_);
    tcp::resolver::results_type addresses;
    bool done = false;
    error_code ec;
    resolver.async_resolve(dial.host, dial.port,
                           [&](const error_code& e, tcp::resolver::results_type r) {
                             ec = e;
                             addresses = std::move(r);
                             done = true;
                           });
    Stop stop = run_until(ioc_, done, deadline, cancel, [&] { resolver.cancel(); });
    if (auto err = stopped(stop, "resolving " + dial.host)) return *err;
    if (ec) {
      return error_of(ErrorKind::kTransport, "cannot resolve " + dial.host + ": " + ec.message(),
                      true);
    }

    // TCP, bounded by the transport's connect timeout as well
    auto& lowest = beast::get_lowest_layer(*ws_);
    lowest.expires_after(settings.connection.connect_timeout);
    done = false;
    lowest.async_connect(addresses, [&](const error_code& e, const tcp::endpoint&) {
      ec = e;
      done = true;
    });
    stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
    lowest.expires_never();
    if (auto err = stopped(stop, "connecting to " + dial_what)) return *err;
    if (ec == beast::error::timeout) {
      return error_of(ErrorKind::kTimeout, "connecting to " + dial_what + " timed out", true);
    }
    if (ec) {
      return error_of(ErrorKind::kTransport, "cannot connect to " + dial_what + ": " + ec.message(),
                      true);
    }
    error_code ignored;
    lowest.socket().set_option(tcp::no_delay(true), ignored);

    if (proxy) {
      if (auto err = tunnel(target, *proxy, settings, deadline, cancel)) return *err;
    }
    if constexpr (kTls) {
      if (auto err = tls_handshake(target, settings, deadline, cancel)) return *err;
    }
    if (auto err = upgrade(target, settings, deadline, cancel)) return *err;
    open_ = true;
    return true;
  }

  Result<WatchSocket::Message> next(WatchSocket::TimePoint deadline, const CancellationToken& cancel) override {
    if (!open_) return error_of(ErrorKind::kTransport, "the watcher connection is closed");
    buffer_.clear();
    bool done = false;
    error_code ec;
    ws_->async_read(buffer_, [&](const error_code& e, std::size_t) {
      ec = e;
      done = true;
    });
    const Stop stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
    if (stop != Stop::kNone) open_ = false;
    if (auto err = stopped(stop, "waiting for the crawl watcher")) return *err;
    // A close frame arrived: whatever the teardown after it reported (a TLS peer that drops
    // the connection without close_notify gives "stream truncated"), the watch ended with it.
    if (ec == websocket::error::closed ||
        (ec && ws_->reason().code != websocket::close_code::none)) {
      open_ = false;
      const auto& reason = ws_->reason();
      WatchSocket::Message message;
      message.closed = true;
      message.close_code =
          reason.code == websocket::close_code::none ? 1005 : static_cast<int>(reason.code);
      message.close_reason.assign(reason.reason.data(), reason.reason.size());
      drop();
      return message;
    }
    if (ec) {
      open_ = false;
      drop();
      return error_of(ErrorKind::kTransport, "the crawl watcher connection failed: " + ec.message(),
                      true);
    }
    WatchSocket::Message message;
    message.text = beast::buffers_to_string(buffer_.data());
    buffer_.clear();
    return message;
  }

  void close(std::uint16_t code) override {
    if (open_) {
      open_ = false;
      bool done = false;
      ws_->async_close(websocket::close_reason(code), [&](const error_code&) { done = true; });
      run_until(ioc_, done, SteadyClock::now() + kCloseGrace, CancellationToken(), [&] { drop(); });
    }
    drop();
  }

 private:
  // Dropping the TCP connection makes every pending operation complete with an error.
  void drop() {
    error_code ignored;
    beast::get_lowest_layer(*ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(*ws_).socket().close(ignored);
  }

  static std::optional<Error> stopped(Stop stop, const std::string& what) {
    if (stop == Stop::kCancelled) return error_of(ErrorKind::kCancelled, what + ": cancelled");
    if (stop == Stop::kTimeout) return error_of(ErrorKind::kTimeout, what + ": timed out", true);
    if (stop == Stop::kLost) return error_of(ErrorKind::kTransport, what + ": operation lost");
    return std::nullopt;
  }

  // HTTP CONNECT: the proxy opens a tunnel to the service, through which TLS and the
  // WebSocket run end to end.
  std::optional<Error> tunnel(const Target& target, const Proxy& proxy,
                              const WatchSocketSettings& settings,
                              SteadyClock::time_point deadline, const CancellationToken& cancel) {
    auto& lowest = beast::get_lowest_layer(*ws_);
    const std::string authority = target.endpoint.text();
    http::request<http::empty_body> request{http::verb::connect, authority, 11};
    request.set(http::field::host, authority);
    request.set(http::field::user_agent, settings.connection.user_agent);
    if (!proxy.authorization.empty()) {
      request.set(http::field::proxy_authorization, proxy.authorization);
    }
    bool done = false;
    error_code ec;
    http::async_write(lowest, request, [&](const error_code& e, std::size_t) {
      ec = e;
      done = true;
    });
    Stop stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
    if (auto err = stopped(stop, "proxy " + proxy.endpoint.text())) return err;
    if (!ec) {
      http::response_parser<http::empty_body> parser;
      parser.skip(true);  // a CONNECT answer has no body: the tunnel follows
      beast::flat_buffer buffer;
      done = false;
      http::async_read(lowest, buffer, parser, [&](const error_code& e, std::size_t) {
        ec = e;
        done = true;
      });
      stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
      if (auto err = stopped(stop, "proxy " + proxy.endpoint.text())) return err;
      if (!ec) {
        const auto& answer = parser.get();
        if (answer.result_int() / 100 != 2) {
          return error_of(ErrorKind::kTransport, "proxy " + proxy.endpoint.text() +
                                                     " refused the tunnel to " + authority + ": " +
                                                     std::to_string(answer.result_int()) + " " +
                                                     str(answer.reason()));
        }
        if (buffer.size() != 0) {
          return error_of(ErrorKind::kTransport,
                          "proxy " + proxy.endpoint.text() + " sent data before the tunnel opened");
        }
        return std::nullopt;
      }
    }
    return error_of(ErrorKind::kTransport,
                    "proxy " + proxy.endpoint.text() + " failed to open a tunnel to " + authority +
                        ": " + ec.message(),
                    true);
  }

  std::optional<Error> tls_handshake(const Target& target, const WatchSocketSettings& settings,
                                     SteadyClock::time_point deadline,
                                     const CancellationToken& cancel) {
    if constexpr (kTls) {
      auto& stream = ws_->next_layer();
      SSL* handle = stream.native_handle();
      const std::string& host = target.endpoint.host;
      const bool ip = is_ip(host);
      // SNI names a host, never an address (RFC 6066).
      if (!ip) SSL_set_tlsext_host_name(handle, host.c_str());
      if (settings.connection.verify_tls) {
        stream.set_verify_mode(ssl::verify_peer);
        // OpenSSL checks the name itself, so a mismatch is reported as one.
        X509_VERIFY_PARAM* param = SSL_get0_param(handle);
        if (ip) {
          X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
        } else {
          X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
          X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
        }
      } else {
        stream.set_verify_mode(ssl::verify_none);
      }
      bool done = false;
      error_code ec;
      stream.async_handshake(ssl::stream_base::client, [&](const error_code& e) {
        ec = e;
        done = true;
      });
      const Stop stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
      if (auto err = stopped(stop, "TLS handshake with " + target.endpoint.text())) return err;
      if (!ec) return std::nullopt;
      const long verified = SSL_get_verify_result(handle);
      if (settings.connection.verify_tls && verified != X509_V_OK) {
        return error_of(ErrorKind::kTransport,
                        "TLS certificate verification failed for " + target.url + ": " +
                            X509_verify_cert_error_string(verified) + tls_advice());
      }
      return error_of(ErrorKind::kTransport,
                      "TLS handshake with " + target.endpoint.text() + " failed: " + ec.message());
    } else {
      (void)target;
      (void)settings;
      (void)deadline;
      (void)cancel;
      return std::nullopt;
    }
  }

  std::optional<Error> upgrade(const Target& target, const WatchSocketSettings& settings,
                               SteadyClock::time_point deadline, const CancellationToken& cancel) {
    ws_->read_message_max(settings.max_message_bytes);
    ws_->set_option(websocket::stream_base::decorator(
        [agent = settings.connection.user_agent,
         headers = settings.headers](websocket::request_type& request) {
          request.set(http::field::user_agent, agent);
          for (const auto& [name, value] : headers) {
            if (!reserved_header(name)) request.set(name, value);
          }
        }));
    websocket::response_type answer;
    bool done = false;
    error_code ec;
    ws_->async_handshake(answer, target.host_header, target.path, [&](const error_code& e) {
      ec = e;
      done = true;
    });
    const Stop stop = run_until(ioc_, done, deadline, cancel, [&] { drop(); });
    if (auto err = stopped(stop, "WebSocket handshake with " + target.url)) return err;
    if (!ec) return std::nullopt;
    if (ec == websocket::error::upgrade_declined) {
      HttpResponse response;
      response.status = static_cast<int>(answer.result_int());
      for (const auto& field : answer) {
        response.headers.emplace_back(str(field.name_string()), str(field.value()));
      }
      response.body = answer.body();
      Error err = http_error(response);
      if (response.status < 400) {
        err.message = "the service answered the WebSocket upgrade of " + target.url + " with HTTP " +
                      std::to_string(response.status) + ": it offers no crawl watcher there";
      }
      return err;
    }
    if (ec == http::error::body_limit || ec == http::error::buffer_overflow) {
      // Only an ordinary answer has a body (a 101 has none): a status resource, most likely.
      Error err = error_of(ErrorKind::kHttp,
                           "the service answered the WebSocket upgrade of " + target.url +
                               " with a large HTTP response: it offers no crawl watcher there");
      return err;
    }
    return error_of(ErrorKind::kTransport,
                    "WebSocket handshake with " + target.url + " failed: " + ec.message(), true);
  }

  net::io_context ioc_{1};
  std::unique_ptr<ssl::context> tls_;
  std::optional<websocket::stream<Next>> ws_;
  beast::flat_buffer buffer_;
  bool open_ = false;
};

Result<std::unique_ptr<ssl::context>> tls_context(const CurlTransportOptions& connection) {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
  error_code ec;
  // A CA file or directory given is what the watcher trusts (a private CA); else the system store.
  if (!connection.ca_file.empty()) {
    context->load_verify_file(connection.ca_file, ec);
    if (ec) {
      return error_of(ErrorKind::kInvalidArgument,
                      "cannot read the CA file " + connection.ca_file + ": " + ec.message());
    }
  }
  if (!connection.ca_path.empty()) {
    context->add_verify_path(connection.ca_path, ec);
    if (ec) {
      return error_of(ErrorKind::kInvalidArgument,
                      "cannot use the CA directory " + connection.ca_path + ": " + ec.message());
    }
  }
  if (connection.ca_file.empty() && connection.ca_path.empty()) {
    context->set_default_verify_paths(ec);  // a missing store shows up as a failed verification
  }
  return context;
}

template <bool kTls>
Result<std::unique_ptr<WatchSocket::Stream>> open_stream(const Target& target,
                                                         const std::optional<Proxy>& proxy,
                                                         const WatchSocketSettings& settings,
                                                         const CancellationToken& cancel) {
  std::unique_ptr<ssl::context> context;
  if constexpr (kTls) {
    auto made = tls_context(settings.connection);
    if (!made.ok()) return made.error();
    context = std::move(*made);
  }
  auto stream = std::make_unique<BeastStream<kTls>>(std::move(context));
  const auto deadline = SteadyClock::now() + settings.open_timeout;
  auto opened = stream->open(target, proxy, settings, deadline, cancel);
  if (!opened.ok()) return opened.error();
  return std::unique_ptr<WatchSocket::Stream>(std::move(stream));
}

}  // namespace

std::optional<std::string> WatchSocket::unsupported_proxy(const std::string& url,
                                                          const CurlTransportOptions& connection) {
  auto target = parse_target(url);
  if (!target.ok()) return std::nullopt;  // connect() reports the URL
  const std::string spec = proxy_spec(*target, connection);
  if (spec.empty() || scheme_of(spec) == "http") return std::nullopt;
  return "the crawl watcher tunnels through HTTP proxies only (CONNECT), not " + scheme_of(spec) +
         "://";
}

Result<std::unique_ptr<WatchSocket>> WatchSocket::connect(const std::string& url,
                                                          const WatchSocketSettings& settings,
                                                          const CancellationToken& cancel) {
  auto target = parse_target(url);
  if (!target.ok()) return target.error();
  auto proxy = resolve_proxy(*target, settings.connection);
  if (!proxy.ok()) return proxy.error();
  auto stream = target->tls ? open_stream<true>(*target, *proxy, settings, cancel)
                            : open_stream<false>(*target, *proxy, settings, cancel);
  if (!stream.ok()) return stream.error();
  return std::unique_ptr<WatchSocket>(new WatchSocket(std::move(*stream)));
}

WatchSocket::WatchSocket(std::unique_ptr<Stream> stream) : stream_(std::move(stream)) {}
WatchSocket::~WatchSocket() = default;

Result<WatchSocket::Message> WatchSocket::next(TimePoint deadline, const CancellationToken& cancel) {
  return stream_->next(deadline, cancel);
}

void WatchSocket::close(std::uint16_t code) {
  stream_->close(code);
}

}  // namespace webdata::detail
