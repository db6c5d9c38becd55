#include "test_servers.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <array>
#include <cstdio>
#include <functional>
#include <future>
#include <random>
#include <stdexcept>
#include <thread>

namespace webdata::testing {
namespace {

namespace beast = boost::beast;
namespace net = boost::asio;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test certificate: ") + what + " failed");
}

void write_pem(const std::string& path, const std::function<int(FILE*)>& write) {
  FILE* file = std::fopen(path.c_str(), "w");
  check(file != nullptr, "opening a PEM file");
  const int ok = write(file);
  std::fclose(file);
  check(ok == 1, "writing a PEM file");
}

bool is_ip(const std::string& name) {
  error_code ec;
  net::ip::make_address(name, ec);
  return !ec;
}

/// One io_context on one thread. An owner stops it first thing in its destructor, so that no
/// handler runs while the owner's other members go.
struct Loop {
  net::io_context ioc{1};
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work{ioc.get_executor()};
  std::thread thread{[this] { ioc.run(); }};

  void stop() {
    if (!thread.joinable()) return;
    work.reset();
    ioc.stop();
    thread.join();
  }
  ~Loop() { stop(); }
};

tcp::acceptor listen_on_loopback(net::io_context& ioc) {
  tcp::acceptor acceptor(ioc);
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
  acceptor.open(endpoint.protocol());
  acceptor.set_option(net::socket_base::reuse_address(true));
  acceptor.bind(endpoint);
  acceptor.listen();
  return acceptor;
}

template <class Client>
void close_socket(Client& socket) {
  error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}
void close_socket(beast::tcp_stream& stream) {
  close_socket(stream.socket());
}

/// Hands each connection accepted on `acceptor` to `serve`, until the acceptor is closed.
template <class Serve>
void accept_each(tcp::acceptor& acceptor, Serve serve) {
  acceptor.async_accept([&acceptor, serve](const error_code& ec, tcp::socket socket) mutable {
    if (ec) return;  // closed
    serve(std::move(socket));
    accept_each(acceptor, std::move(serve));
  });
}

/// Closes `acceptor` on its loop's thread and waits until that is done: a server's destructor
/// calls it so that no accept handler runs once the owner starts to go.
void close_on_loop(Loop& loop, tcp::acceptor& acceptor) {
  std::promise<void> closed;
  net::post(loop.ioc, [&] {
    error_code ignored;
    acceptor.close(ignored);
    closed.set_value();
  });
  closed.get_future().wait();
}

/// Reads one HTTP request (`Message`: a message or a parser) off `stream`, then calls
/// `read(buffer, message)`, the buffer holding what came after the request; closes the stream
/// when the read fails.
template <class Message, class Stream, class Read>
void read_request(const std::shared_ptr<Stream>& stream, Read read) {
  auto buffer = std::make_shared<beast::flat_buffer>();
  auto message = std::make_shared<Message>();
  // Captures are named: a shared_ptr the body does not use would not be kept by `[=]`.
  http::async_read(*stream, *buffer, *message,
                   [stream, buffer, message, read](const error_code& ec, std::size_t) {
                     if (ec) return close_socket(*stream);
                     read(buffer, message);
                   });
}

/// What each server's Impl is built on: a loop, a loopback acceptor on it, and the accept loop
/// that hands every connection to `Server::serve`. The owner starts it once the Impl is set up
/// and stops it first thing in its destructor, so that no handler runs while the Impl goes.
template <class Server>
struct Listener {
  void start() {
    net::post(loop.ioc, [this] {
      accept_each(acceptor, [this](tcp::socket socket) {
        static_cast<Server*>(this)->serve(std::move(socket));
      });
    });
  }
  void stop() {
    close_on_loop(loop, acceptor);
    loop.stop();
  }
  std::uint16_t port() const { return acceptor.local_endpoint().port(); }

  Loop loop;
  tcp::acceptor acceptor{listen_on_loopback(loop.ioc)};
};

/// Copies bytes both ways between `a` and `b` until either side ends, then closes both.
template <class A>
class Pump : public std::enable_shared_from_this<Pump<A>> {
 public:
  Pump(A a, tcp::socket b) : a_(std::move(a)), b_(std::move(b)) {}

  void start(std::string already_read = "") {
    if (!already_read.empty()) {
      auto self = this->shared_from_this();
      auto data = std::make_shared<std::string>(std::move(already_read));
      net::async_write(b_, net::buffer(*data), [self, data](const error_code& ec, std::size_t) {
        if (ec) return self->stop();
        self->both_ways();
      });
      return;
    }
    both_ways();
  }

 private:
  using Chunk = std::array<char, 16384>;

  void both_ways() {
    copy(a_, b_, up_);
    copy(b_, a_, down_);
  }
  /// Writes what `from` reads to `to`, a chunk at a time, until either side ends.
  template <class From, class To>
  void copy(From& from, To& to, Chunk& chunk) {
    auto self = this->shared_from_this();
    from.async_read_some(
        net::buffer(chunk), [self, &from, &to, &chunk](const error_code& ec, std::size_t n) {
          if (ec) return self->stop();
          net::async_write(to, net::buffer(chunk, n),
                           [self, &from, &to, &chunk](const error_code& e, std::size_t) {
                             if (e) return self->stop();
                             self->copy(from, to, chunk);
                           });
        });
  }
  void stop() {
    close_socket(beast::get_lowest_layer(a_));
    close_socket(b_);
  }

  A a_;
  tcp::socket b_;
  Chunk up_{};
  Chunk down_{};
};

}  // namespace

// ---- TestCertificate

TestCertificate::TestCertificate(const std::vector<std::string>& names) {
  std::random_device random;
  dir_ = std::filesystem::temp_directory_path() /
         ("webdata-cert-" + std::to_string(random()) + std::to_string(random()));
  std::filesystem::create_directories(dir_ / "ca");
  cert_file_ = (dir_ / "cert.pem").string();
  key_file_ = (dir_ / "key.pem").string();
  ca_dir_ = (dir_ / "ca").string();

  EVP_PKEY* key = EVP_EC_gen("P-256");
  check(key != nullptr, "EVP_EC_gen");
  X509* cert = X509_new();
  check(cert != nullptr, "X509_new");
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), static_cast<long>(random() & 0x7fffffff));
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* subject = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("webdata test"), -1, -1, 0);
  X509_set_issuer_name(cert, subject);
  std::string alt_names;
  for (const auto& name : names) {
    alt_names += (alt_names.empty() ? "" : ",") + std::string(is_ip(name) ? "IP:" : "DNS:") + name;
  }
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, cert, cert, nullptr, nullptr, 0);
  for (const auto& [nid, value] : {std::pair<int, std::string>{NID_subject_alt_name, alt_names},
                                   {NID_basic_constraints, "critical,CA:TRUE"}}) {
    X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
    check(extension != nullptr, "X509V3_EXT_conf_nid");
    X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
  }
  check(X509_sign(cert, key, EVP_sha256()) != 0, "X509_sign");

  write_pem(cert_file_, [&](FILE* f) { return PEM_write_X509(f, cert); });
  write_pem(key_file_, [&](FILE* f) {
    return PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  });
  char hashed[32];
  std::snprintf(hashed, sizeof hashed, "%08lx.0", X509_subject_name_hash(cert));
  std::filesystem::copy_file(cert_file_, dir_ / "ca" / hashed);
  X509_free(cert);
  EVP_PKEY_free(key);
}

TestCertificate::~TestCertificate() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

// ---- TlsRelay

struct TlsRelay::Impl : Listener<Impl> {
  using TlsStream = net::ssl::stream<tcp::socket>;

  explicit Impl(const TestCertificate& certificate) {
    context.use_certificate_chain_file(certificate.cert_file());
    context.use_private_key_file(certificate.key_file(), net::ssl::context::pem);
  }

  void serve(tcp::socket socket) {
    auto stream = std::make_shared<TlsStream>(std::move(socket), context);
    stream->async_handshake(net::ssl::stream_base::server, [this, stream](const error_code& e) {
      if (e) {
        ++failed;
        return;
      }
      ++handshakes;
      auto backend_socket = std::make_shared<tcp::socket>(loop.ioc);
      backend_socket->async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), backend),
                                    [stream, backend_socket](const error_code& c) {
                                      if (c) return close_socket(stream->lowest_layer());
                                      std::make_shared<Pump<TlsStream>>(std::move(*stream),
                                                                        std::move(*backend_socket))
                                          ->start();
                                    });
    });
  }

  net::ssl::context context{net::ssl::context::tls_server};
  std::uint16_t backend = 0;
  std::atomic<int> handshakes{0};
  std::atomic<int> failed{0};
};

TlsRelay::TlsRelay(const TestCertificate& certificate, std::uint16_t backend_port)
    : impl_(std::make_shared<Impl>(certificate)) {
  impl_->backend = backend_port;
  impl_->start();
}

TlsRelay::~TlsRelay() {
  impl_->stop();
}

std::uint16_t TlsRelay::port() const {
  return impl_->port();
}
std::string TlsRelay::url() const {
  return "https://127.0.0.1:" + std::to_string(port());
}
int TlsRelay::handshakes() const {
  return impl_->handshakes;
}
int TlsRelay::failed_handshakes() const {
  return impl_->failed;
}

// ---- ConnectProxy

struct ConnectProxy::Impl : Listener<Impl> {
  void answer(const std::shared_ptr<tcp::socket>& client, std::string text) {
    auto data = std::make_shared<std::string>(std::move(text));
    net::async_write(*client, net::buffer(*data), [client, data](const error_code&, std::size_t) {
      close_socket(*client);
    });
  }

  void serve(tcp::socket socket) {
    auto client = std::make_shared<tcp::socket>(std::move(socket));
    using Parser = http::request_parser<http::empty_body>;
    read_request<Parser>(client, [this, client](const auto& buffer, const auto& parser) {
      const auto& request = parser->get();
      if (request.method() != http::verb::connect) {
        return answer(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
      }
      if (credentials) {
        const auto given = request[http::field::proxy_authorization];
        std::string expected(4 * ((credentials->size() + 2) / 3), '\0');
        const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(expected.data()),
                                      reinterpret_cast<const unsigned char*>(credentials->data()),
                                      static_cast<int>(credentials->size()));
        expected.resize(static_cast<std::size_t>(n));
        if (std::string(given.data(), given.size()) != "Basic " + expected) {
          ++refused;
          return answer(client,
                        "HTTP/1.1 407 Proxy Authentication Required\r\n"
                        "Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n");
        }
      }
      const std::string target(request.target().data(), request.target().size());
      const auto colon = target.rfind(':');
      error_code bad;
      const auto address = net::ip::make_address(target.substr(0, colon), bad);
      if (bad || colon == std::string::npos) {
        return answer(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        opened.push_back(target);
      }
      auto upstream = std::make_shared<tcp::socket>(loop.ioc);
      const auto port = static_cast<std::uint16_t>(std::stoi(target.substr(colon + 1)));
      upstream->async_connect(tcp::endpoint(address, port), [this, client, buffer, upstream](
                                                                const error_code& c) {
        if (c) return answer(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        auto established =
            std::make_shared<std::string>("HTTP/1.1 200 Connection established\r\n\r\n");
        net::async_write(*client, net::buffer(*established),
                         [client, buffer, upstream, established](const error_code& w,
                                                                 std::size_t) {
                           if (w) return close_socket(*client);
                           std::string early = beast::buffers_to_string(buffer->data());
                           std::make_shared<Pump<tcp::socket>>(std::move(*client),
                                                               std::move(*upstream))
                               ->start(std::move(early));
                         });
      });
    });
  }

  std::optional<std::string> credentials;
  std::atomic<int> refused{0};
  mutable std::mutex mutex;
  std::vector<std::string> opened;
};

ConnectProxy::ConnectProxy(std::optional<std::string> credentials)
    : impl_(std::make_shared<Impl>()) {
  impl_->credentials = std::move(credentials);
  impl_->start();
}

ConnectProxy::~ConnectProxy() {
  impl_->stop();
}

std::uint16_t ConnectProxy::port() const {
  return impl_->port();
}
std::vector<std::string> ConnectProxy::tunnels() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->opened;
}
int ConnectProxy::refused() const {
  return impl_->refused;
}

// ---- ScriptedService

struct ScriptedService::Impl : Listener<Impl> {
  void serve(tcp::socket socket) {
    auto stream = std::make_shared<beast::tcp_stream>(std::move(socket));
    using Request = http::request<http::string_body>;
    read_request<Request>(stream, [this, stream](const auto&, const auto& request) {
      if (!beast::websocket::is_upgrade(*request)) {
        ++plain;
        return respond(stream, http::status::ok, script.status_body);
      }
      ++upgrades;
      if (script.decline_status != 0) {
        return respond(stream, static_cast<http::status>(script.decline_status),
                       script.decline_body);
      }
      auto ws = std::make_shared<beast::websocket::stream<beast::tcp_stream>>(std::move(*stream));
      ws->async_accept(*request, [this, ws](const error_code& a) {
        if (a) return;
        ws->async_close(
            beast::websocket::close_reason(
                static_cast<beast::websocket::close_code>(script.close_code), script.close_reason),
            [ws](const error_code&) {});
      });
    });
  }

  void respond(const std::shared_ptr<beast::tcp_stream>& stream, http::status status,
               const std::string& body) {
    auto response = std::make_shared<http::response<http::string_body>>(status, 11);
    response->set(http::field::content_type, "application/json");
    response->keep_alive(false);
    response->body() = body;
    response->prepare_payload();
    http::async_write(*stream, *response, [stream, response](const error_code&, std::size_t) {
      close_socket(stream->socket());
    });
  }

  Script script;
  std::atomic<int> upgrades{0};
  std::atomic<int> plain{0};
};

ScriptedService::ScriptedService(Script script) : impl_(std::make_shared<Impl>()) {
  impl_->script = std::move(script);
  impl_->start();
}

ScriptedService::~ScriptedService() {
  impl_->stop();
}

std::string ScriptedService::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port());
}
int ScriptedService::upgrades() const {
  return impl_->upgrades;
}
int ScriptedService::plain_requests() const {
  return impl_->plain;
}

}  // namespace webdata::testing
