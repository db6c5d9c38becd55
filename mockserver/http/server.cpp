#include "http/server.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "core/buffers.hpp"
#include "core/url.hpp"
#include "http/recycling_allocator.hpp"
#include "http/tls_context.hpp"
#include "http/websocket_accept.hpp"
#include "http/worker_pool.hpp"

namespace webdata::mock::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;
// Header fields from recycled blocks: a request's and an answer's fields allocate nothing once
// the connection's thread has seen messages of their shape (http/recycling_allocator.hpp).
using FieldsAllocator = RecyclingAllocator<char>;
using RequestParser = bhttp::request_parser<bhttp::string_body, FieldsAllocator>;
using ResponseMessage =
    bhttp::response<bhttp::string_body, bhttp::basic_fields<FieldsAllocator>>;

}  // namespace

// What the server needs of a connection, whatever its stream. Outside the anonymous namespace
// because Server::Impl holds it, and a unity build would otherwise see a named class with a member
// of internal linkage (-Wsubobject-linkage).
class SessionBase {
 public:
  virtual ~SessionBase() = default;
  /// Closes the connection if it is between requests (called on stop, from any thread).
  virtual void close_if_idle() = 0;
};

class Server::Impl {
 public:
  Impl(ServerOptions opts, Handler h, std::ostream& out)
      : options(std::move(opts)), handler(std::move(h)), log(out) {}

  ~Impl() { remove_self_signed_certificate(self_signed); }

  bool logging() const { return options.access_log; }
  void log_line(const std::string& line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    log << line << '\n' << std::flush;
  }

  void add_session(std::uint64_t id, const std::shared_ptr<SessionBase>& session) {
    std::lock_guard<std::mutex> lock(sessions_mutex);
    sessions[id] = session;
  }
  void remove_session(std::uint64_t id) {
    std::lock_guard<std::mutex> lock(sessions_mutex);
    sessions.erase(id);
  }

  Response call_handler(const Request& request) {
    try {
      return handler(request);
    } catch (const std::exception& e) {
      return Response::error(500, std::string("Internal error: ") + e.what(), "UNKNOWN_ERROR");
    } catch (...) {
      return Response::error(500, "Internal error", "UNKNOWN_ERROR");
    }
  }

  void setup_tls();
  void do_accept();

  ServerOptions options;
  Handler handler;
  InlineFilter inline_filter;
  UpgradeHandler upgrade;
  const mock::Clock* clock = &mock::Clock::unadvanced();
  // Before the io_contexts: WebSocket sessions unregister while they are destroyed.
  WebSocketHub websockets;
  std::ostream& log;
  std::mutex log_mutex;
  // Declared before the io_contexts: sessions unregister themselves while they are destroyed.
  std::mutex sessions_mutex;
  std::map<std::uint64_t, std::weak_ptr<SessionBase>> sessions;
  std::atomic<std::uint64_t> next_session_id{1};
  std::atomic<bool> stopping{false};

  std::optional<ssl::context> tls;
  SelfSignedCertificate self_signed;
  std::string certificate;

  // Handlers in flight hold work on their connection's io_context, so the pool is stopped (its
  // threads joined) before the contexts go.
  std::unique_ptr<WorkerPool> workers;
  // One event loop per I/O thread: a connection lives on one thread, no strand, no lock shared
  // between the threads on the hot path.
  std::vector<std::unique_ptr<net::io_context>> contexts;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> work;
  std::optional<tcp::acceptor> acceptor;
  std::optional<net::steady_timer> accept_retry;
  std::size_t next_context = 0;  // accept handler only
  std::uint16_t bound_port = 0;
  std::vector<std::thread> threads;

  std::mutex stop_mutex;
  std::condition_variable stopped_cv;
  bool stopped = false;
  bool started = false;
};

namespace {

template <class Stream>
class Session : public SessionBase, public std::enable_shared_from_this<Session<Stream>> {
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

 public:
  template <class... Args>
  Session(Server::Impl& server, std::uint64_t id, Args&&... args)
      : server_(server),
        stream_(std::forward<Args>(args)...),
        delay_timer_(stream_.get_executor()),
        id_(id) {
    beast::error_code ec;
    const auto endpoint = tcp_layer().socket().remote_endpoint(ec);
    if (!ec) remote_ = endpoint.address().to_string();
    tcp_layer().socket().set_option(tcp::no_delay(true), ec);
    request_.scheme = kTls ? "https" : "http";
    request_.remote_address = remote_;
  }
  ~Session() override { server_.remove_session(id_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void run() {
    net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->begin(); });
  }

  void close_if_idle() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->idle_) self->close();
    });
  }

 private:
  beast::tcp_stream& tcp_layer() { return beast::get_lowest_layer(stream_); }

  void begin() {
    if constexpr (kTls) {
      // The handshake counts against the header timeout: a client that connects and says
      // nothing is dropped like a slow header.
      tcp_layer().expires_after(server_.options.header_timeout);
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                self->on_handshake(ec);
                              });
    } else {
      read_header();
    }
  }

  void on_handshake(beast::error_code ec) {
    if (ec) {
      if (server_.logging()) server_.log_line(remote_ + " TLS handshake failed: " + ec.message());
      return close();
    }
    read_header();
  }

  void read_header() {
    if (server_.stopping) return close();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
    parser_->body_limit(server_.options.body_limit);
    idle_ = true;
    tcp_layer().expires_after(server_.options.header_timeout);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        beast::bind_front_handler(&Session::on_header, this->shared_from_this()));
  }

  void on_header(beast::error_code ec, std::size_t /*bytes*/) {
    idle_ = false;
    if (ec) return on_read_error(ec);
    started_ = Clock::now();
    tcp_layer().expires_after(server_.options.body_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      beast::bind_front_handler(&Session::on_body, this->shared_from_this()));
  }

  void on_read_error(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      started_ = Clock::now();
      return send(Response::error(413,
                                  "Request body larger than the limit of " +
                                      std::to_string(server_.options.body_limit) + " bytes",
                                  "BAD_REQUEST"),
                  false, false);
    }
    if (ec == bhttp::error::header_limit) {
      started_ = Clock::now();
      return send(Response::error(431, "Request header larger than the limit of " +
                                           std::to_string(server_.options.header_limit) +
                                           " bytes"),
                  false, false);
    }
    if (ec.category() == bhttp::make_error_code(bhttp::error::bad_method).category() &&
        ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
      started_ = Clock::now();
      return send(Response::error(400, "Bad request, malformed HTTP: " + ec.message(),
                                  "BAD_REQUEST"),
                  false, false);
    }
    close();  // end of stream, reset, timeout, or stop
  }

  // Fills request_ from the parsed message, reusing its strings' storage from the previous
  // request on this connection.
  void take_request() {
    auto& raw = parser_->get();
    request_.method.assign(raw.method_string().data(), raw.method_string().size());
    request_.target.assign(raw.target().data(), raw.target().size());
    const auto qpos = request_.target.find('?');
    const std::string_view path = std::string_view(request_.target).substr(0, qpos);
    if (path.find('%') == std::string_view::npos) {
      request_.path.assign(path.data(), path.size());  // nothing to decode: reuse the storage
    } else {
      request_.path = percent_decode(path, false);
    }
    if (qpos != std::string::npos) {
      request_.query.assign(request_.target, qpos + 1, std::string::npos);
    } else {
      request_.query.clear();
    }
    std::size_t n = 0;
    for (const auto& field : raw) {
      if (n == request_.headers.size()) request_.headers.emplace_back();
      auto& [name, value] = request_.headers[n++];
      name.assign(field.name_string().data(), field.name_string().size());
      value.assign(field.value().data(), field.value().size());
    }
    request_.headers.resize(n);
    request_.body = std::move(raw.body());
  }

  void on_body(beast::error_code ec, std::size_t /*bytes*/) {
    if (ec) return on_read_error(ec);
    take_request();
    if (server_.upgrade && !server_.stopping &&
        beast::websocket::is_upgrade(parser_->get()) && try_upgrade()) {
      return;
    }
    if (server_.inline_filter && server_.inline_filter(request_)) {
      return respond(server_.call_handler(request_));
    }
    // The handler may block: it runs on the pool, and the answer comes back to this
    // connection's thread. The work guard keeps that thread's loop alive meanwhile.
    server_.workers->submit([self = this->shared_from_this(),
                             guard = net::make_work_guard(stream_.get_executor())]() mutable {
      Response response = self->server_.call_handler(self->request_);
      const auto executor = guard.get_executor();
      net::post(executor, [self = std::move(self), response = std::move(response)]() mutable {
        self->respond(std::move(response));
      });
      guard.reset();
    });
  }

  void respond(Response response) {
    if (response.delay.count() > 0) {
      // A stub's fixedDelayMilliseconds, a slow page: a timer, so no thread waits for it.
      due_ = server_.clock->steady_now() + response.delay;
      response.delay = std::chrono::milliseconds(0);
      delayed_ = std::move(response);
      follow_clock();
      wait_until_due();
      return;
    }
    if (response.fault != Fault::none) return send_fault(response.fault);
    const bool keep = parser_->get().keep_alive() && !response.close && !server_.stopping;
    send(std::move(response), keep, true);
  }

  // The delay is on the mock's clock: an advance cancels the timer, which then waits for what is
  // left. The subscription holds no reference to the session (it may end meanwhile).
  void follow_clock() {
    clock_advanced_.emplace(*server_.clock, [weak = this->weak_from_this(),
                                             executor = delay_timer_.get_executor()] {
      net::post(executor, [weak] {
        if (const auto self = weak.lock(); self && self->clock_advanced_) {
          self->clock_moved_ = true;
          self->delay_timer_.cancel();
        }
      });
    });
  }

  void wait_until_due() {
    delay_timer_.expires_after(server_.clock->due_in(due_));
    delay_timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
      if (std::exchange(self->clock_moved_, false) && ec == net::error::operation_aborted) {
        return self->wait_until_due();
      }
      self->clock_advanced_.reset();
      if (ec) return self->close();
      self->respond(std::move(self->delayed_));
    });
  }

  // Hands the connection to a WebSocket route that claims the request; false leaves it to HTTP.
  bool try_upgrade() {
    std::optional<WebSocketRoute> route;
    try {
      route = server_.upgrade(request_);
    } catch (const std::exception& e) {
      server_.log_line(std::string("upgrade handler error: ") + e.what());
    }
    if (!route) return false;
    if (server_.logging()) {
      server_.log_line(remote_ + " \"" + request_.method + " " + request_.target + "\" 101 0 -");
    }
    auto& impl = server_;
    std::function<void(const std::string&)> log;
    if (impl.logging()) {
      log = [&impl, remote = remote_](const std::string& line) { impl.log_line(remote + " " + line); };
    }
    // The WebSocket session takes a plain request (the handshake reads its fields once).
    auto raw = parser_->release();
    bhttp::request<bhttp::string_body> request;
    request.method_string(raw.method_string());
    request.target(raw.target());
    request.version(raw.version());
    for (const auto& field : raw) request.insert(field.name_string(), field.value());
    request.body() = std::move(raw.body());
    accept_websocket(server_.websockets, std::move(stream_), std::move(request), std::move(*route),
                     std::move(log));
    return true;
  }

  void send_fault(Fault fault) {
    if (server_.logging()) {
      server_.log_line(remote_ + " \"" + request_.method + " " + request_.target + "\" fault " +
                       std::to_string(static_cast<int>(fault)));
    }
    beast::error_code ec;
    switch (fault) {
      case Fault::none:
      case Fault::empty_response:
        return close();
      case Fault::connection_reset_by_peer:
        tcp_layer().socket().set_option(net::socket_base::linger(true, 0), ec);
        tcp_layer().socket().close(ec);
        return;
      case Fault::random_data_then_close: {
        // Deterministic garbage: the point is that it is not HTTP.
        raw_out_.assign(64, '\0');
        std::uint32_t state = 2463534242u;
        for (auto& c : raw_out_) {
          state ^= state << 13;
          state ^= state >> 17;
          state ^= state << 5;
          c = static_cast<char>(state & 0xff);
        }
        break;
      }
      case Fault::malformed_response_chunk:
        raw_out_ =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            "5\r\nhel\r\nlo, this chunk lies about its size";
        break;
    }
    tcp_layer().expires_after(server_.options.body_timeout);
    net::async_write(stream_, net::buffer(raw_out_),
                     [self = this->shared_from_this()](beast::error_code, std::size_t) {
                       self->close();
                     });
  }

  // `parsed`: request_ holds this exchange's request (false for errors found while reading).
  void send(Response response, bool keep, bool parsed) {
    static const std::string kNone = "-";
    const std::string& method = parsed ? request_.method : kNone;
    res_.clear();  // keeps the fields' storage for the next answer
    res_.body().clear();
    res_.version(11);
    res_.result(static_cast<unsigned>(response.status));
    const char* reason = reason_phrase(response.status);
    if (*reason != '\0') res_.reason(reason);
    bool has_server = false;
    for (const auto& [name, value] : response.headers) {
      res_.insert(name, value);
      if (!has_server && iequals(name, "Server")) has_server = true;
    }
    if (!has_server) res_.set(bhttp::field::server, "webdata-mock");
    const std::size_t bytes = response.body.size();
    const bool head = method == "HEAD";
    const bool no_body = head || response.status == 204 || response.status == 304;
    if (head) {
      res_.content_length(bytes);
    } else if (!no_body) {
      res_.body() = std::move(response.body);
      res_.prepare_payload();
    }
    res_.keep_alive(keep);

    if (server_.logging()) {
      const auto micros =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_).count();
      char timing[32];
      std::snprintf(timing, sizeof timing, "%.1fms", static_cast<double>(micros) / 1000.0);
      server_.log_line(remote_ + " \"" + method + " " + (parsed ? request_.target : kNone) +
                       "\" " + std::to_string(response.status) + " " + std::to_string(bytes) +
                       " " + timing);
    }

    tcp_layer().expires_after(server_.options.body_timeout);
    bhttp::async_write(stream_, res_,
                       beast::bind_front_handler(&Session::on_write, this->shared_from_this(),
                                                 keep));
  }

  void on_write(bool keep, beast::error_code ec, std::size_t /*bytes*/) {
    LargeBuffers::recycle(std::move(res_.body()));  // written: its pages serve the next big body
    if (ec || !keep) return close();
    read_header();
  }

  void close() {
    // Over TLS no close_notify is sent: every answer is delimited by its length, so the peer
    // loses nothing, and a peer that stopped reading cannot hold the connection open.
    beast::error_code ec;
    tcp_layer().socket().shutdown(tcp::socket::shutdown_send, ec);
    tcp_layer().socket().close(ec);
  }

  Server::Impl& server_;
  Stream stream_;
  net::steady_timer delay_timer_;
  beast::flat_buffer buffer_;
  std::string raw_out_;
  std::optional<RequestParser> parser_;
  ResponseMessage res_;
  Request request_;   // the exchange in progress; a pool thread reads it while its handler runs
  Response delayed_;  // an answer waiting for its delay
  mock::Clock::SteadyTime due_{};  // when it is due, on the server's clock
  std::optional<ClockSubscription> clock_advanced_;  // while an answer waits
  bool clock_moved_ = false;  // the timer was cancelled by an advance, not by a close
  std::string remote_;
  Clock::time_point started_ = Clock::now();
  std::uint64_t id_;
  bool idle_ = true;
};

}  // namespace

void Server::Impl::setup_tls() {
  if (!options.tls.enabled()) return;
  std::string cert = options.tls.cert_file;
  std::string key = options.tls.key_file;
  if (options.tls.self_signed) {
    if (!cert.empty() || !key.empty()) {
      throw std::runtime_error("a self-signed certificate and certificate files exclude each other");
    }
    std::vector<std::string> names = {"localhost", "127.0.0.1", "::1"};
    if (options.host != "0.0.0.0" && options.host != "::" && options.host != "localhost" &&
        options.host != "127.0.0.1" && options.host != "::1") {
      names.push_back(options.host);
    }
    self_signed = make_self_signed_certificate(names);
    cert = self_signed.cert_file;
    key = self_signed.key_file;
  }
  tls.emplace(ssl::context::tls_server);
  // TLS 1.2 and 1.3 only, no renegotiation: what current clients speak.
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  SSL_CTX_set_options(tls->native_handle(), SSL_OP_NO_RENEGOTIATION);
  if (auto why = load_tls_files(*tls, cert, key); !why.empty()) {
    tls.reset();
    throw std::runtime_error(why);
  }
  certificate = cert;
}

void Server::Impl::do_accept() {
  auto& context = *contexts[next_context++ % contexts.size()];
  acceptor->async_accept(context, [this](beast::error_code ec, tcp::socket socket) {
    if (stopping || ec == net::error::operation_aborted) return;
    if (ec) {
      // Out of descriptors or similar: back off briefly instead of spinning.
      log_line(std::string("accept failed: ") + ec.message());
      accept_retry->expires_after(std::chrono::milliseconds(50));
      accept_retry->async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) do_accept();
      });
      return;
    }
    const auto id = next_session_id++;
    if (tls) {
      auto session = std::make_shared<Session<TlsStream>>(*this, id, std::move(socket), *tls);
      add_session(id, session);
      session->run();
    } else {
      auto session = std::make_shared<Session<PlainStream>>(*this, id, std::move(socket));
      add_session(id, session);
      session->run();
    }
    do_accept();
  });
}

Server::Server(ServerOptions options, Handler handler, std::ostream& log)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler), log)) {}

Server::~Server() {
  if (impl_->started) stop();
}

void Server::set_upgrade_handler(UpgradeHandler handler) { impl_->upgrade = std::move(handler); }
void Server::set_inline_filter(InlineFilter filter) { impl_->inline_filter = std::move(filter); }

void Server::set_clock(const mock::Clock& clock) { impl_->clock = &clock; }

void Server::start() {
  auto& impl = *impl_;
  if (impl.started) throw std::runtime_error("the server was started already");
  if (impl.options.threads < 1) throw std::runtime_error("threads must be at least 1");
  if (impl.options.workers < 1) throw std::runtime_error("workers must be at least 1");
  impl.setup_tls();
  for (int i = 0; i < impl.options.threads; ++i) {
    // Concurrency hint 1: each loop is run by one thread, so Asio can skip its own locking.
    impl.contexts.push_back(std::make_unique<net::io_context>(1));
  }
  impl.acceptor.emplace(*impl.contexts.front());
  impl.accept_retry.emplace(*impl.contexts.front());
  beast::error_code ec;
  const auto address = net::ip::make_address(impl.options.host, ec);
  if (ec) throw std::runtime_error("invalid host address '" + impl.options.host + "': " + ec.message());
  const tcp::endpoint endpoint(address, impl.options.port);
  auto& acceptor = *impl.acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + impl.options.host + ":" +
                             std::to_string(impl.options.port) + ": " + ec.message());
  }
  impl.bound_port = acceptor.local_endpoint().port();
  impl.workers = std::make_unique<WorkerPool>(static_cast<std::size_t>(impl.options.workers));
  for (auto& context : impl.contexts) impl.work.push_back(net::make_work_guard(*context));
  impl.do_accept();
  impl.started = true;
  for (auto& context : impl.contexts) {
    impl.threads.emplace_back([&impl, ctx = context.get()] {
      for (;;) {
        try {
          ctx->run();
          return;
        } catch (const std::exception& e) {
          impl.log_line(std::string("server thread error: ") + e.what());
        }
      }
    });
  }
}

std::uint16_t Server::port() const { return impl_->bound_port; }
const char* Server::scheme() const { return impl_->options.tls.enabled() ? "https" : "http"; }
std::string Server::certificate_file() const { return impl_->certificate; }

void Server::stop(std::chrono::milliseconds grace) {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.stop_mutex);
    if (!impl.started || impl.stopped) return;
  }
  impl.stopping = true;
  net::post(*impl.contexts.front(), [&impl] {
    beast::error_code ec;
    impl.acceptor->close(ec);
    impl.accept_retry->cancel();
  });
  // Locked only to copy: a session may be destroyed (and unregister) when its pointer drops.
  std::vector<std::shared_ptr<SessionBase>> live;
  {
    std::lock_guard<std::mutex> lock(impl.sessions_mutex);
    for (auto& [id, weak] : impl.sessions) {
      if (auto session = weak.lock()) live.push_back(std::move(session));
    }
  }
  for (auto& session : live) session->close_if_idle();
  live.clear();
  impl.websockets.close_all(kCloseGoingAway, "server shutting down");
  impl.work.clear();

  // Join in a helper thread so the grace period can end a request that never finishes.
  std::mutex joined_mutex;
  std::condition_variable joined_cv;
  bool joined = false;
  std::thread joiner([&] {
    for (auto& t : impl.threads) t.join();
    std::lock_guard<std::mutex> lock(joined_mutex);
    joined = true;
    joined_cv.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(joined_mutex);
    if (!joined_cv.wait_for(lock, grace, [&] { return joined; })) {
      for (auto& context : impl.contexts) context->stop();
    }
  }
  joiner.join();
  impl.threads.clear();
  // Handlers still running (a request past the grace period) finish; their answers are dropped.
  impl.workers->stop();
  impl.websockets.finish_all();  // connections the grace period cut short
  {
    std::lock_guard<std::mutex> lock(impl.stop_mutex);
    impl.stopped = true;
  }
  impl.stopped_cv.notify_all();
}

void Server::wait() {
  auto& impl = *impl_;
  std::unique_lock<std::mutex> lock(impl.stop_mutex);
  impl.stopped_cv.wait(lock, [&] { return impl.stopped || !impl.started; });
}

}  // namespace webdata::mock::http
