#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace webdata::testing {

/// A listening TCP socket on 127.0.0.1 at a free port, for the tests' own small servers.
struct LoopbackListener {
  int fd = -1;
  int port = 0;
};

/// Opens the socket (SO_REUSEADDR, `backlog` pending connections); throws when it cannot.
/// The caller owns `fd` and closes it.
inline LoopbackListener listen_on_loopback(int backlog) {
  LoopbackListener out;
  out.fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (out.fd < 0) throw std::runtime_error("cannot open a socket");
  int one = 1;
  ::setsockopt(out.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(out.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(out.fd, backlog) != 0) {
    ::close(out.fd);
    throw std::runtime_error("cannot listen on 127.0.0.1");
  }
  socklen_t len = sizeof addr;
  ::getsockname(out.fd, reinterpret_cast<sockaddr*>(&addr), &len);
  out.port = ntohs(addr.sin_port);
  return out;
}

}  // namespace webdata::testing
