#pragma once

#include <chrono>
#include <string>

#include <thread>

#include <boost/asio.hpp>

namespace webdata::testing {

/// Sends raw bytes to 127.0.0.1:port and returns everything read until the peer closes or
/// `timeout` passes. For tests of malformed input that no HTTP client would send.
inline std::string raw_exchange(unsigned short port, const std::string& bytes,
                                std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  namespace net = boost::asio;
  net::io_context ioc;
  net::ip::tcp::socket socket(ioc);
  socket.connect({net::ip::make_address("127.0.0.1"), port});
  net::write(socket, net::buffer(bytes));
  std::string out;
  char buf[4096];
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  socket.non_blocking(true);
  while (std::chrono::steady_clock::now() < deadline) {
    boost::system::error_code ec;
    const std::size_t n = socket.read_some(net::buffer(buf), ec);
    if (ec == net::error::would_block) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (ec) break;
    out.append(buf, n);
  }
  return out;
}

}  // namespace webdata::testing
