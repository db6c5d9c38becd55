#include "http/websocket_accept.hpp"

#include <deque>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

namespace webdata::mock::http {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

std::string cut_reason(std::string reason) {
  if (reason.size() <= kMaxCloseReason) return reason;
  reason.resize(kMaxCloseReason);
  // Do not leave half a UTF-8 sequence at the end: the peer must reject invalid UTF-8.
  while (!reason.empty() && (static_cast<unsigned char>(reason.back()) & 0xC0) == 0x80) {
    reason.pop_back();
  }
  if (!reason.empty() && (static_cast<unsigned char>(reason.back()) & 0x80) != 0) reason.pop_back();
  return reason;
}

}  // namespace

namespace detail {

/// What the hub needs of a connection, whatever its stream.
class WebSocketSession : public WebSocketConnection {
 public:
  /// Ends the connection's handlers from outside its thread, once no I/O thread runs.
  virtual void finish_stopped() = 0;
};

/// One upgraded connection, over TCP or TLS. Beast operations run on the connection's I/O
/// thread (the executor of its stream); the queue and flags are shared with producer threads
/// under `mutex_`. At most one write (a message or the close frame) and one read are
/// outstanding at a time.
template <class Stream>
class WebSocketSessionOn : public WebSocketSession,
                           public std::enable_shared_from_this<WebSocketSessionOn<Stream>> {
  using std::enable_shared_from_this<WebSocketSessionOn<Stream>>::shared_from_this;

 public:
  WebSocketSessionOn(WebSocketHub& hub, Stream stream,
                     bhttp::request<bhttp::string_body> request, WebSocketRoute route,
                     std::function<void(const std::string&)> log)
      : hub_(hub),
        ws_(std::move(stream)),
        request_(std::move(request)),
        route_(std::move(route)),
        log_(std::move(log)),
        close_timer_(ws_.get_executor()) {}

  void start() {
    id_ = hub_.add(shared_from_this());
    beast::get_lowest_layer(ws_).expires_never();  // the websocket stream keeps its own timeouts
    websocket::stream_base::timeout timeouts;
    timeouts.handshake_timeout = route_.limits.close_timeout;
    timeouts.idle_timeout = route_.limits.idle_timeout;
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    const std::string protocol = route_.subprotocol;
    ws_.set_option(websocket::stream_base::decorator([protocol](websocket::response_type& res) {
      res.set(bhttp::field::server, "webdata-mock");
      if (!protocol.empty()) res.set(bhttp::field::sec_websocket_protocol, protocol);
    }));
    // Most clients only listen: a large message from one is a mistake or an attack.
    ws_.read_message_max(route_.max_message_bytes);
    ws_.async_accept(request_,
                     beast::bind_front_handler(&WebSocketSessionOn::on_accept, shared_from_this()));
  }

  SendResult send_text(std::string message) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_ || finished_) return SendResult::closed;
    const auto& limits = route_.limits;
    if (!queue_.empty() && (queue_.size() >= limits.max_queued_messages ||
                            queued_bytes_ + message.size() > limits.max_queued_bytes)) {
      const std::string why = "too slow: " + std::to_string(queue_.size()) +
                              " messages (" + std::to_string(queued_bytes_) +
                              " bytes) not yet taken";
      queue_.clear();
      queued_bytes_ = 0;
      begin_close_locked(kClosePolicy, why);
      return SendResult::overflow;
    }
    queued_bytes_ += message.size();
    queue_.push_back(std::move(message));
    kick_locked();
    return SendResult::queued;
  }

  void close(std::uint16_t code, std::string reason) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_ || finished_) return;
    begin_close_locked(code, std::move(reason));
  }

  void finish_stopped() override { finish("server stopped", false); }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return finish("handshake failed: " + ec.message(), true);
    {
      // A close (a server stopping) or a message that came during the handshake goes out now.
      std::lock_guard<std::mutex> lock(mutex_);
      accepted_ = true;
      if (closing_ || !queue_.empty()) kick_locked();
    }
    auto on_open = route_.on_open;
    if (on_open) {
      try {
        on_open(shared_from_this());
      } catch (const std::exception& e) {
        close(1011, std::string("internal error: ") + e.what());
      } catch (...) {
        close(1011, "internal error");
      }
    }
    read();
  }

  void read() {
    ws_.async_read(read_buffer_,
                   beast::bind_front_handler(&WebSocketSessionOn::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t /*bytes*/) {
    if (ec) {
      return finish(ec == websocket::error::closed ? "closed" : "ended: " + ec.message(), true);
    }
    if (route_.on_message) deliver(beast::buffers_to_string(read_buffer_.data()));
    read_buffer_.consume(read_buffer_.size());
    read();
  }

  void deliver(const std::string& message) {
    try {
      route_.on_message(shared_from_this(), message);
    } catch (const std::exception& e) {
      close(1011, std::string("internal error: ") + e.what());
    } catch (...) {
      close(1011, "internal error");
    }
  }

  // Called with mutex_ held.
  void begin_close_locked(std::uint16_t code, std::string reason) {
    closing_ = true;
    close_code_ = code;
    close_reason_ = cut_reason(std::move(reason));
    kick_locked();
    // A peer that stopped reading keeps the write in flight forever: bound the whole close.
    net::post(ws_.get_executor(), [self = shared_from_this()] { self->arm_close_timer(); });
  }

  // Called with mutex_ held. No write starts before the handshake is over: its 101 answer is a
  // write on the same socket, outside the WebSocket stream's own ordering of writes.
  void kick_locked() {
    if (writing_ || finished_ || !accepted_) return;
    writing_ = true;
    net::post(ws_.get_executor(), [self = shared_from_this()] { self->write_next(); });
  }

  void arm_close_timer() {
    close_timer_.expires_after(route_.limits.close_timeout);
    close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->drop_connection();
    });
  }

  void write_next() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (finished_) {
      writing_ = false;
      return;
    }
    if (!queue_.empty()) {
      in_flight_ = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= in_flight_.size();
      lock.unlock();
      ws_.text(true);
      ws_.async_write(net::buffer(in_flight_),
                      beast::bind_front_handler(&WebSocketSessionOn::on_write, shared_from_this()));
      return;
    }
    if (closing_ && !close_sent_) {
      close_sent_ = true;
      websocket::close_reason reason;
      reason.code = close_code_;
      reason.reason = close_reason_;
      lock.unlock();
      ws_.async_close(reason, beast::bind_front_handler(&WebSocketSessionOn::on_closed,
                                                        shared_from_this()));
      return;
    }
    writing_ = false;
  }

  void on_write(beast::error_code ec, std::size_t /*bytes*/) {
    in_flight_.clear();
    if (ec) {
      drop_connection();
      return finish("write failed: " + ec.message(), true);
    }
    write_next();
  }

  void on_closed(beast::error_code ec) {
    // The closing handshake is over (or failed): the stream tore the connection down, and the
    // pending read ends too.
    drop_connection();
    finish(ec ? "close failed: " + ec.message() : "closed " + std::to_string(close_code_), true);
  }

  void drop_connection() {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  void finish(const std::string& why, bool on_strand) {
    std::function<void()> on_close;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (finished_) return;
      finished_ = true;
      queue_.clear();
      queued_bytes_ = 0;
      on_close = std::move(route_.on_close);
      route_.on_close = nullptr;
      route_.on_open = nullptr;
    }
    if (on_strand) close_timer_.cancel();
    hub_.remove(id_);
    if (log_) log_("websocket " + std::string(request_.target()) + " " + why);
    if (on_close) {
      try {
        on_close();
      } catch (...) {
        // A route's cleanup failing must not take the server thread down.
      }
    }
  }

  WebSocketHub& hub_;
  websocket::stream<Stream> ws_;
  bhttp::request<bhttp::string_body> request_;
  WebSocketRoute route_;
  std::function<void(const std::string&)> log_;
  net::steady_timer close_timer_;
  beast::flat_buffer read_buffer_;
  std::string in_flight_;  // strand only
  std::uint64_t id_ = 0;

  std::mutex mutex_;
  // Guarded by mutex_.
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool accepted_ = false;  // the opening handshake is over: writes may start
  bool writing_ = false;   // a write_next is posted or a write is in flight
  bool closing_ = false;
  bool close_sent_ = false;
  bool finished_ = false;
  std::uint16_t close_code_ = kCloseNormal;
  std::string close_reason_;
};

}  // namespace detail

std::uint64_t WebSocketHub::add(const std::shared_ptr<detail::WebSocketSession>& session) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto id = next_id_++;
  sessions_[id] = session;
  return id;
}

void WebSocketHub::remove(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.erase(id);
}

std::size_t WebSocketHub::open_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sessions_.size();
}

void WebSocketHub::close_all(std::uint16_t code, const std::string& reason) {
  std::vector<std::shared_ptr<detail::WebSocketSession>> live;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, weak] : sessions_) {
      if (auto session = weak.lock()) live.push_back(std::move(session));
    }
  }
  for (auto& session : live) session->close(code, reason);
}

void WebSocketHub::finish_all() {
  std::vector<std::shared_ptr<detail::WebSocketSession>> live;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, weak] : sessions_) {
      if (auto session = weak.lock()) live.push_back(std::move(session));
    }
  }
  for (auto& session : live) session->finish_stopped();
}

void accept_websocket(WebSocketHub& hub, beast::tcp_stream stream,
                      bhttp::request<bhttp::string_body> request, WebSocketRoute route,
                      std::function<void(const std::string&)> log) {
  auto session = std::make_shared<detail::WebSocketSessionOn<beast::tcp_stream>>(
      hub, std::move(stream), std::move(request), std::move(route), std::move(log));
  session->start();
}

void accept_websocket(WebSocketHub& hub, beast::ssl_stream<beast::tcp_stream> stream,
                      bhttp::request<bhttp::string_body> request, WebSocketRoute route,
                      std::function<void(const std::string&)> log) {
  auto session = std::make_shared<detail::WebSocketSessionOn<beast::ssl_stream<beast::tcp_stream>>>(
      hub, std::move(stream), std::move(request), std::move(route), std::move(log));
  session->start();
}

}  // namespace webdata::mock::http
