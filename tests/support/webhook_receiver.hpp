#pragma once

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "beast_session.hpp"

namespace webdata::mock::webhooks::testing {

/// A webhook receiver on 127.0.0.1 for tests: records every request it reads and answers as a
/// handler decides (status, delay, or held until release()). One io thread, so held and slow
/// answers do not block other connections.
class Receiver {
 public:
  using Clock = std::chrono::steady_clock;

  struct Request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::string body;
    Clock::time_point received_at;

    std::string header(const std::string& lower_name) const {
      const auto it = headers.find(lower_name);
      return it == headers.end() ? std::string() : it->second;
    }
  };

  struct Reply {
    unsigned status = 200;
    std::chrono::milliseconds delay{0};
    bool hold = false;  // answer 200 only when release() is called
    std::vector<std::pair<std::string, std::string>> headers;
  };

  using Handler = std::function<Reply(const Request&)>;

  Receiver() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    port_ = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }

  ~Receiver() {
    io_.stop();
    thread_.join();
  }

  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;

  unsigned short port() const { return port_; }
  std::string url(const std::string& path = "/hook") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  void set_handler(Handler handler) {
    std::lock_guard<std::mutex> lock(mutex_);
    handler_ = std::move(handler);
  }

  std::vector<Request> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

  /// Waits until at least `n` requests arrived; false after `timeout`.
  bool wait_for_count(std::size_t n, std::chrono::milliseconds timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return arrived_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
  }

  /// Answers every held request with 200, and from now on does not hold new ones.
  void release() {
    boost::asio::post(io_, [this] {
      released_ = true;
      for (auto& weak : held_) {
        if (auto session = weak.lock()) session->timer.cancel();
      }
      held_.clear();
    });
  }

  /// A port on which nothing listens: connecting is refused.
  static unsigned short closed_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor probe(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    const unsigned short port = probe.local_endpoint().port();
    probe.close();
    return port;
  }

 private:
  struct Session {
    explicit Session(boost::asio::ip::tcp::socket s)
        : socket(std::move(s)), timer(socket.get_executor()) {}
    boost::asio::ip::tcp::socket socket;
    boost::asio::steady_timer timer;
    boost::beast::flat_buffer buffer;
    boost::beast::http::request<boost::beast::http::string_body> request;
    boost::beast::http::response<boost::beast::http::string_body> response;
  };

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, boost::asio::ip::tcp::socket s) {
      if (ec) return;
      read(std::make_shared<Session>(std::move(s)));
      accept();
    });
  }

  void read(const std::shared_ptr<Session>& session) {
    session->request = {};
    boost::beast::http::async_read(session->socket, session->buffer, session->request,
                                   [this, session](boost::system::error_code ec, std::size_t) {
                                     if (ec) return;
                                     on_request(session);
                                   });
  }

  void on_request(const std::shared_ptr<Session>& session) {
    Request recorded;
    recorded.method = std::string(session->request.method_string());
    recorded.target = std::string(session->request.target());
    for (const auto& field : session->request) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      recorded.headers[name] = std::string(field.value());
    }
    recorded.body = session->request.body();
    recorded.received_at = Clock::now();
    Handler handler;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(recorded);
      handler = handler_;
    }
    arrived_.notify_all();
    const Reply reply = handler ? handler(recorded) : Reply{};

    auto& response = session->response;
    response = {};
    response.version(11);
    response.result(reply.hold ? 200 : reply.status);
    response.keep_alive(session->request.keep_alive());
    for (const auto& [name, value] : reply.headers) response.set(name, value);
    response.body() = "{}";
    response.prepare_payload();
    if (reply.hold && !released_) {
      held_.push_back(session);
      session->timer.expires_at(boost::asio::steady_timer::time_point::max());
    } else {
      session->timer.expires_after(reply.delay);
    }
    session->timer.async_wait([this, session](boost::system::error_code) { write(session); });
  }

  void write(const std::shared_ptr<Session>& session) {
    webdata::testing::write_then_read_next(
        session, [this](const std::shared_ptr<Session>& s) { read(s); });
  }

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  mutable std::condition_variable arrived_;
  Handler handler_;
  std::vector<Request> requests_;
  // Touched only on the io thread.
  std::vector<std::weak_ptr<Session>> held_;
  bool released_ = false;
};

}  // namespace webdata::mock::webhooks::testing
