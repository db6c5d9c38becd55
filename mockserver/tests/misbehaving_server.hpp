#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback_listener.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace webdata::testing {

/// A target site on 127.0.0.1 that misbehaves on purpose, chosen by the request path:
///   /hang       reads the request, never answers (until the server stops)
///   /reset      reads the request, closes with a TCP reset
///   /garbage    answers bytes that are not HTTP, then closes
///   /empty      closes without answering
///   /drip       sends a header announcing 100000 bytes, then one byte every 100 ms
///   /loop/N     redirects to /loop/N+1, forever
///   /secret     a normal 200 page (to see whether a refused fetch got through)
/// Every connection gets its own thread; all stop and are joined on destruction.
class MisbehavingServer {
 public:
  MisbehavingServer() {
    const auto listener = webdata::testing::listen_on_loopback(64);
    fd_ = listener.fd;
    port_ = listener.port;
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~MisbehavingServer() {
    stop_ = true;
    acceptor_.join();
    std::vector<std::thread> workers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
    ::close(fd_);
  }
  MisbehavingServer(const MisbehavingServer&) = delete;
  MisbehavingServer& operator=(const MisbehavingServer&) = delete;

  int port() const { return port_; }
  std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
    return "http://" + host + ":" + std::to_string(port_) + path;
  }
  /// Requests whose header was read completely.
  int requests() const { return requests_; }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) continue;
      std::lock_guard<std::mutex> lock(mutex_);
      workers_.emplace_back([this, client] { serve(client); });
    }
  }

  /// Sleeps in small steps; false when the server is stopping.
  bool pause(std::chrono::milliseconds total) {
    const auto end = std::chrono::steady_clock::now() + total;
    while (std::chrono::steady_clock::now() < end) {
      if (stop_) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return !stop_;
  }

  static void send_all(int fd, const std::string& data) {
    std::size_t off = 0;
    while (off < data.size()) {
      const auto n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return;
      off += static_cast<std::size_t>(n);
    }
  }

  void serve(int fd) {
    std::string request;
    char buf[4096];
    while (request.find("\r\n\r\n") == std::string::npos && !stop_) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const auto n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      request.append(buf, static_cast<std::size_t>(n));
    }
    if (request.find("\r\n\r\n") == std::string::npos) {
      ::close(fd);
      return;
    }
    ++requests_;
    const auto sp1 = request.find(' ');
    const auto sp2 = request.find(' ', sp1 + 1);
    const std::string path = request.substr(sp1 + 1, sp2 - sp1 - 1);
    if (path == "/hang") {
      pause(std::chrono::minutes(5));
    } else if (path == "/reset") {
      linger l{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    } else if (path == "/garbage") {
      std::string junk(256, '\0');
      std::uint32_t state = 2463534242u;
      for (auto& c : junk) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        c = static_cast<char>(state & 0xff);
      }
      junk[0] = '\x01';  // never "HTTP/"
      send_all(fd, junk);
    } else if (path == "/drip") {
      send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n");
      while (pause(std::chrono::milliseconds(100))) send_all(fd, "x");
    } else if (path.rfind("/loop/", 0) == 0) {
      const int n = std::stoi(path.substr(6));
      send_all(fd, "HTTP/1.1 302 Found\r\nLocation: /loop/" + std::to_string(n + 1) +
                       "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    } else if (path == "/secret") {
      const std::string body = "<html><body><h1>internal secret</h1></body></html>";
      send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                   "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    }
    // "/empty" and anything else: close without a word.
    ::close(fd);
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<std::thread> workers_;
};

}  // namespace webdata::testing
