#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback_listener.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

namespace webdata::mock::web::testing {

/// A tiny HTTP/1.0-style server on 127.0.0.1 for live-fetch tests: one connection at a time,
/// `handler(path)` returns the whole response (status line, headers, body). Stops on
/// destruction.
class LocalHttpServer {
 public:
  using Handler = std::function<std::string(const std::string& path)>;

  explicit LocalHttpServer(Handler handler) : handler_(std::move(handler)) {
    const auto listener = webdata::testing::listen_on_loopback(16);
    fd_ = listener.fd;
    port_ = listener.port;
    thread_ = std::thread([this] { run(); });
  }
  ~LocalHttpServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  int port() const { return port_; }
  std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
    return "http://" + host + ":" + std::to_string(port_) + path;
  }
  int requests() const { return requests_; }

  /// A port on which nothing listens (bound, then closed).
  static int closed_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
  }

 private:
  void run() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) continue;
      std::string request;
      char buf[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd c{client, POLLIN, 0};
        if (::poll(&c, 1, 2000) <= 0) break;
        const auto n = ::recv(client, buf, sizeof buf, 0);
        if (n <= 0) break;
        request.append(buf, static_cast<std::size_t>(n));
      }
      ++requests_;
      const auto start = request.find(' ');
      const auto end = request.find(' ', start + 1);
      const std::string path =
          start == std::string::npos ? "/" : request.substr(start + 1, end - start - 1);
      const std::string response = handler_(path);
      std::size_t sent = 0;
      while (sent < response.size()) {
        const auto n = ::send(client, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
      ::close(client);
    }
  }

  Handler handler_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

inline std::string http_response(int status, const std::string& body,
                                 const std::string& extra_headers = "",
                                 const std::string& type = "text/html; charset=utf-8") {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n" +
         extra_headers + "\r\n" + body;
}

}  // namespace webdata::mock::web::testing
