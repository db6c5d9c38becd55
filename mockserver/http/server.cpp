#include "http/server.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "core/buffers.hpp"
#include "core/url.hpp"
#include "http/websocket_accept.hpp"

namespace webdata::mock::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

}  // namespace

class Session;

class Server::Impl {
 public:
  Impl(ServerOptions opts, Handler h, std::ostream& out)
      : options(std::move(opts)), handler(std::move(h)), log(out) {}

  void log_line(const std::string& line) {
    if (!options.access_log) return;
    std::lock_guard<std::mutex> lock(log_mutex);
    log << line << '\n' << std::flush;
  }

  void add_session(std::uint64_t id, const std::shared_ptr<Session>& session) {
    std::lock_guard<std::mutex> lock(sessions_mutex);
    sessions[id] = session;
  }
  void remove_session(std::uint64_t id) {
    std::lock_guard<std::mutex> lock(sessions_mutex);
    sessions.erase(id);
  }

  void do_accept();

  ServerOptions options;
  Handler handler;
  UpgradeHandler upgrade;
  // Before the io_context: WebSocket sessions unregister while it is destroyed.
  WebSocketHub websockets;
  std::ostream& log;
  std::mutex log_mutex;
  // Declared before the io_context: sessions unregister themselves while it is destroyed.
  std::mutex sessions_mutex;
  std::map<std::uint64_t, std::weak_ptr<Session>> sessions;
  std::atomic<std::uint64_t> next_session_id{1};
  std::atomic<bool> stopping{false};

  net::io_context ioc;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  tcp::acceptor acceptor{ioc};
  net::steady_timer accept_retry{ioc};
  std::uint16_t bound_port = 0;
  std::vector<std::thread> threads;

  std::mutex stop_mutex;
  std::condition_variable stopped_cv;
  bool stopped = false;
  bool started = false;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Server::Impl& server, tcp::socket socket, std::uint64_t id)
      : server_(server), stream_(std::move(socket)), id_(id) {
    beast::error_code ec;
    const auto endpoint = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = endpoint.address().to_string();
  }
  ~Session() { server_.remove_session(id_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(); });
  }

  /// Called on stop: closes the connection if it is between requests.
  void close_if_idle() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      if (self->idle_) self->close();
    });
  }

 private:
  void read_header() {
    if (server_.stopping) return close();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
    parser_->body_limit(server_.options.body_limit);
    idle_ = true;
    stream_.expires_after(server_.options.header_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             beast::bind_front_handler(&Session::on_header, shared_from_this()));
  }

  void on_header(beast::error_code ec, std::size_t /*bytes*/) {
    idle_ = false;
    if (ec) return on_read_error(ec);
    started_ = Clock::now();
    stream_.expires_after(server_.options.body_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      beast::bind_front_handler(&Session::on_body, shared_from_this()));
  }

  void on_read_error(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      started_ = Clock::now();
      return send(Response::error(413,
                                  "Request body larger than the limit of " +
                                      std::to_string(server_.options.body_limit) + " bytes",
                                  "BAD_REQUEST"),
                  false, "-", "-");
    }
    if (ec == bhttp::error::header_limit) {
      started_ = Clock::now();
      return send(Response::error(431, "Request header larger than the limit of " +
                                           std::to_string(server_.options.header_limit) +
                                           " bytes"),
                  false, "-", "-");
    }
    if (ec.category() == bhttp::make_error_code(bhttp::error::bad_method).category() &&
        ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
      started_ = Clock::now();
      return send(Response::error(400, "Bad request, malformed HTTP: " + ec.message(),
                                  "BAD_REQUEST"),
                  false, "-", "-");
    }
    close();  // end of stream, reset, timeout, or stop
  }

  void on_body(beast::error_code ec, std::size_t /*bytes*/) {
    if (ec) return on_read_error(ec);
    auto& raw = parser_->get();
    Request request;
    request.method = std::string(raw.method_string());
    request.target = std::string(raw.target());
    const auto qpos = request.target.find('?');
    request.path = percent_decode(request.target.substr(0, qpos), false);
    if (qpos != std::string::npos) request.query = request.target.substr(qpos + 1);
    for (const auto& field : raw) {
      request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(raw.body());
    request.remote_address = remote_;
    if (server_.upgrade && !server_.stopping && beast::websocket::is_upgrade(raw) &&
        try_upgrade(request)) {
      return;
    }

    Response response;
    try {
      response = server_.handler(request);
    } catch (const std::exception& e) {
      response = Response::error(500, std::string("Internal error: ") + e.what(), "UNKNOWN_ERROR");
    } catch (...) {
      response = Response::error(500, "Internal error", "UNKNOWN_ERROR");
    }
    if (response.fault != Fault::none) return send_fault(response.fault, request);
    const bool keep = raw.keep_alive() && !response.close && !server_.stopping;
    send(std::move(response), keep, request.method, request.target);
  }

  // Hands the connection to a WebSocket route that claims the request; false leaves it to HTTP.
  bool try_upgrade(const Request& request) {
    std::optional<WebSocketRoute> route;
    try {
      route = server_.upgrade(request);
    } catch (const std::exception& e) {
      server_.log_line(std::string("upgrade handler error: ") + e.what());
    }
    if (!route) return false;
    server_.log_line(remote_ + " \"" + request.method + " " + request.target + "\" 101 0 -");
    auto& impl = server_;
    const std::string remote = remote_;
    accept_websocket(server_.websockets, std::move(stream_), parser_->release(), std::move(*route),
                     [&impl, remote](const std::string& line) { impl.log_line(remote + " " + line); });
    return true;
  }

  void send_fault(Fault fault, const Request& request) {
    server_.log_line(remote_ + " \"" + request.method + " " + request.target + "\" fault " +
                     std::to_string(static_cast<int>(fault)));
    beast::error_code ec;
    switch (fault) {
      case Fault::none:
      case Fault::empty_response:
        return close();
      case Fault::connection_reset_by_peer:
        stream_.socket().set_option(net::socket_base::linger(true, 0), ec);
        stream_.socket().close(ec);
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
    stream_.expires_after(server_.options.body_timeout);
    net::async_write(stream_, net::buffer(raw_out_),
                     [self = shared_from_this()](beast::error_code, std::size_t) { self->close(); });
  }

  void send(Response response, bool keep, const std::string& method, const std::string& target) {
    res_ = {};
    res_.version(11);
    res_.result(static_cast<unsigned>(response.status));
    const char* reason = reason_phrase(response.status);
    if (*reason != '\0') res_.reason(reason);
    for (const auto& [name, value] : response.headers) res_.insert(name, value);
    if (res_.find(bhttp::field::server) == res_.end()) res_.set(bhttp::field::server, "webdata-mock");
    const std::size_t bytes = response.body.size();
    const bool no_body = method == "HEAD" || response.status == 204 || response.status == 304;
    if (method == "HEAD") {
      res_.content_length(bytes);
    } else if (!no_body) {
      res_.body() = std::move(response.body);
      res_.prepare_payload();
    }
    res_.keep_alive(keep);

    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_).count();
    char timing[32];
    std::snprintf(timing, sizeof timing, "%.1fms", static_cast<double>(micros) / 1000.0);
    server_.log_line(remote_ + " \"" + method + " " + target + "\" " +
                     std::to_string(response.status) + " " + std::to_string(bytes) + " " + timing);

    stream_.expires_after(server_.options.body_timeout);
    bhttp::async_write(stream_, res_,
                       beast::bind_front_handler(&Session::on_write, shared_from_this(), keep));
  }

  void on_write(bool keep, beast::error_code ec, std::size_t /*bytes*/) {
    LargeBuffers::recycle(std::move(res_.body()));  // written: its pages serve the next big body
    if (ec || !keep) return close();
    read_header();
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  Server::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::string raw_out_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  bhttp::response<bhttp::string_body> res_;
  std::string remote_;
  Clock::time_point started_ = Clock::now();
  std::uint64_t id_;
  bool idle_ = true;
};

void Server::Impl::do_accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (stopping || ec == net::error::operation_aborted) return;
    if (ec) {
      // Out of descriptors or similar: back off briefly instead of spinning.
      log_line(std::string("accept failed: ") + ec.message());
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) do_accept();
      });
      return;
    }
    const auto id = next_session_id++;
    auto session = std::make_shared<Session>(*this, std::move(socket), id);
    add_session(id, session);
    session->run();
    do_accept();
  });
}

Server::Server(ServerOptions options, Handler handler, std::ostream& log)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(handler), log)) {}

Server::~Server() {
  if (impl_->started) stop();
}

void Server::set_upgrade_handler(UpgradeHandler handler) { impl_->upgrade = std::move(handler); }

void Server::start() {
  auto& impl = *impl_;
  if (impl.options.threads < 1) throw std::runtime_error("threads must be at least 1");
  beast::error_code ec;
  const auto address = net::ip::make_address(impl.options.host, ec);
  if (ec) throw std::runtime_error("invalid host address '" + impl.options.host + "': " + ec.message());
  const tcp::endpoint endpoint(address, impl.options.port);
  impl.acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl.acceptor.bind(endpoint, ec);
  if (!ec) impl.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + impl.options.host + ":" +
                             std::to_string(impl.options.port) + ": " + ec.message());
  }
  impl.bound_port = impl.acceptor.local_endpoint().port();
  impl.work.emplace(impl.ioc.get_executor());
  impl.do_accept();
  impl.started = true;
  for (int i = 0; i < impl.options.threads; ++i) {
    impl.threads.emplace_back([&impl] {
      for (;;) {
        try {
          impl.ioc.run();
          return;
        } catch (const std::exception& e) {
          impl.log_line(std::string("server thread error: ") + e.what());
        }
      }
    });
  }
}

std::uint16_t Server::port() const { return impl_->bound_port; }

void Server::stop(std::chrono::milliseconds grace) {
  auto& impl = *impl_;
  {
    std::lock_guard<std::mutex> lock(impl.stop_mutex);
    if (!impl.started || impl.stopped) return;
  }
  impl.stopping = true;
  net::post(impl.ioc, [&impl] {
    beast::error_code ec;
    impl.acceptor.close(ec);
    impl.accept_retry.cancel();
  });
  // Locked only to copy: a session may be destroyed (and unregister) when its pointer drops.
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard<std::mutex> lock(impl.sessions_mutex);
    for (auto& [id, weak] : impl.sessions) {
      if (auto session = weak.lock()) live.push_back(std::move(session));
    }
  }
  for (auto& session : live) session->close_if_idle();
  live.clear();
  impl.websockets.close_all(kCloseGoingAway, "server shutting down");
  impl.work.reset();

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
    if (!joined_cv.wait_for(lock, grace, [&] { return joined; })) impl.ioc.stop();
  }
  joiner.join();
  impl.threads.clear();
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
