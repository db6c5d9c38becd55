#include "websocket_client.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace webdata::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
constexpr std::size_t kMaxHandshakeBytes = 64 * 1024;

Error failure(ErrorKind kind, std::string message) {
  Error err;
  err.kind = kind;
  err.message = std::move(message);
  err.retryable = kind == ErrorKind::kTransport || kind == ErrorKind::kTimeout;
  return err;
}

std::string base64(const unsigned char* data, std::size_t size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data,
                                static_cast<int>(size));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

struct Target {
  std::string host;  // without brackets
  std::string port;
  std::string path;
  std::string host_header;
};

Result<Target> parse_target(const std::string& url) {
  std::string rest;
  std::string port = "80";
  if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else if (url.rfind("ws://", 0) == 0) {
    rest = url.substr(5);
  } else if (url.rfind("https://", 0) == 0 || url.rfind("wss://", 0) == 0) {
    return failure(ErrorKind::kInvalidArgument,
                   "the WebSocket watcher over TLS (wss) is not supported: " + url);
  } else {
    return failure(ErrorKind::kInvalidArgument, "not an http or ws URL: " + url);
  }
  const auto slash = rest.find('/');
  Target target;
  target.path = slash == std::string::npos ? "/" : rest.substr(slash);
  std::string authority = rest.substr(0, slash);
  if (const auto at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
  target.host_header = authority;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return failure(ErrorKind::kInvalidArgument, "bad host in " + url);
    target.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') port = authority.substr(close + 2);
  } else {
    const auto colon = authority.rfind(':');
    target.host = authority.substr(0, colon);
    if (colon != std::string::npos) port = authority.substr(colon + 1);
  }
  if (target.host.empty() || port.empty() ||
      !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return failure(ErrorKind::kInvalidArgument, "bad host or port in " + url);
  }
  target.port = port;
  return target;
}

// Waits until `fd` is ready for `events`, in slices so that `cancel` is seen promptly.
Result<bool> wait_ready(int fd, short events, Clock::time_point deadline,
                        const CancellationToken& cancel, const char* what) {
  for (;;) {
    if (cancel.cancelled()) return failure(ErrorKind::kCancelled, std::string(what) + " cancelled");
    const auto now = Clock::now();
    if (now >= deadline) return failure(ErrorKind::kTimeout, std::string(what) + " timed out");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count() + 1, 100)));
    if (n < 0 && errno != EINTR) {
      return failure(ErrorKind::kTransport, std::string(what) + ": " + std::strerror(errno));
    }
    if (n > 0) return true;
  }
}

int open_socket(const Target& target, std::chrono::milliseconds timeout,
                const CancellationToken& cancel, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(target.host.c_str(), target.port.c_str(), &hints, &found);
  if (rc != 0) {
    error = "cannot resolve " + target.host + ": " + ::gai_strerror(rc);
    return -1;
  }
  const auto deadline = Clock::now() + timeout;
  int fd = -1;
  for (addrinfo* ai = found; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      error = std::string("connect: ") + std::strerror(errno);
      ::close(fd);
      fd = -1;
      continue;
    }
    auto ready = wait_ready(fd, POLLOUT, deadline, cancel, "connect");
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (ready.ok()) ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (!ready.ok() || so_error != 0) {
      error = ready.ok() ? std::string("connect: ") + std::strerror(so_error) : ready.error().message;
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd >= 0) {
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

bool write_all(int fd, const std::string& bytes, Clock::time_point deadline) {
  std::size_t sent = 0;
  const CancellationToken never;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
    if (!wait_ready(fd, POLLOUT, deadline, never, "send").ok()) return false;
  }
  return true;
}

}  // namespace

WebSocketClient::WebSocketClient(int fd, std::size_t max_message_bytes)
    : fd_(fd), max_message_bytes_(max_message_bytes) {}

WebSocketClient::~WebSocketClient() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::unique_ptr<WebSocketClient>> WebSocketClient::connect(
    const std::string& url, const Headers& headers, std::chrono::milliseconds timeout,
    std::size_t max_message_bytes, const CancellationToken& cancel) {
  auto target = parse_target(url);
  if (!target.ok()) return target.error();
  std::string why;
  const int fd = open_socket(*target, timeout, cancel, why);
  if (fd < 0) {
    if (cancel.cancelled()) return failure(ErrorKind::kCancelled, "WebSocket connect cancelled");
    return failure(ErrorKind::kTransport, "WebSocket " + url + ": " + why);
  }
  std::unique_ptr<WebSocketClient> client(new WebSocketClient(fd, max_message_bytes));
  const auto deadline = Clock::now() + timeout;

  unsigned char nonce[16];
  RAND_bytes(nonce, sizeof nonce);
  const std::string key = base64(nonce, sizeof nonce);
  std::string request = "GET " + target->path + " HTTP/1.1\r\nHost: " + target->host_header +
                        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " +
                        key + "\r\nSec-WebSocket-Version: 13\r\n";
  for (const auto& [name, value] : headers) {
    // A header that could split the request is a caller's bug, not something to send.
    if (name.find_first_of("\r\n:") != std::string::npos ||
        value.find_first_of("\r\n") != std::string::npos) {
      return failure(ErrorKind::kInvalidArgument, "header '" + name + "' holds CR or LF");
    }
    request += name + ": " + value + "\r\n";
  }
  request += "\r\n";
  if (!write_all(fd, request, deadline)) {
    return failure(ErrorKind::kTransport, "WebSocket " + url + ": cannot send the handshake");
  }

  // The answer's header; bytes after it are already frames.
  std::string& in = client->buffer_;
  std::size_t end = std::string::npos;
  while ((end = in.find("\r\n\r\n")) == std::string::npos) {
    if (in.size() > kMaxHandshakeBytes) {
      return failure(ErrorKind::kTransport, "WebSocket " + url + ": handshake answer too large");
    }
    auto got = client->fill(deadline, cancel);
    if (!got.ok()) {
      Error err = got.error();
      err.message = "WebSocket " + url + ": handshake: " + err.message;
      return err;
    }
  }
  const std::string head = in.substr(0, end);
  in.erase(0, end + 4);

  std::size_t line_end = head.find("\r\n");
  const std::string status_line = head.substr(0, line_end);
  int status = 0;
  if (status_line.rfind("HTTP/1.", 0) == 0 && status_line.size() >= 12) {
    status = std::atoi(status_line.substr(9, 3).c_str());
  }
  Headers answer;
  while (line_end != std::string::npos) {
    const std::size_t start = line_end + 2;
    line_end = head.find("\r\n", start);
    const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos
                                                                               : line_end - start);
    const auto colon = line.find(':');
    if (colon != std::string::npos) answer.emplace_back(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  if (status != 101) {
    Error err = failure(ErrorKind::kHttp, "WebSocket " + url + ": the server answered HTTP " +
                                              std::to_string(status) + " instead of upgrading");
    err.http_status = status;
    err.retryable = false;
    return err;
  }
  unsigned char digest[SHA_DIGEST_LENGTH];
  const std::string proof = key + kGuid;
  SHA1(reinterpret_cast<const unsigned char*>(proof.data()), proof.size(), digest);
  const auto accept = find_header(answer, "Sec-WebSocket-Accept");
  const auto upgrade = find_header(answer, "Upgrade");
  if (!accept || *accept != base64(digest, sizeof digest) || !upgrade ||
      lower(*upgrade) != "websocket") {
    return failure(ErrorKind::kTransport,
                   "WebSocket " + url + ": the handshake answer does not prove an upgrade");
  }
  client->protocol_ = find_header(answer, "Sec-WebSocket-Protocol").value_or("");
  return client;
}

Result<bool> WebSocketClient::fill(TimePoint deadline, const CancellationToken& cancel) {
  for (;;) {
    auto ready = wait_ready(fd_, POLLIN, deadline, cancel, "WebSocket read");
    if (!ready.ok()) return ready.error();
    char chunk[16384];
    const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(got));
      return true;
    }
    if (got == 0) {
      return failure(ErrorKind::kTransport, "the server closed the connection without a close frame");
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      return failure(ErrorKind::kTransport, std::string("WebSocket read: ") + std::strerror(errno));
    }
  }
}

Result<bool> WebSocketClient::read_exact(std::size_t n, std::string& out, TimePoint deadline,
                                         const CancellationToken& cancel) {
  while (buffer_.size() < n) {
    auto got = fill(deadline, cancel);
    if (!got.ok()) return got.error();
  }
  out.assign(buffer_, 0, n);
  buffer_.erase(0, n);
  return true;
}

bool WebSocketClient::send_frame(int opcode, const std::string& payload) {
  if (fd_ < 0) return false;
  std::string frame;
  frame += static_cast<char>(0x80 | opcode);
  const std::size_t size = payload.size();
  if (size < 126) {
    frame += static_cast<char>(0x80 | size);
  } else if (size <= 0xFFFF) {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>((size >> 8) & 0xFF);
    frame += static_cast<char>(size & 0xFF);
  } else {
    frame += static_cast<char>(0x80 | 127);
    for (int shift = 56; shift >= 0; shift -= 8) {
      frame += static_cast<char>((static_cast<std::uint64_t>(size) >> shift) & 0xFF);
    }
  }
  unsigned char mask[4];
  RAND_bytes(mask, sizeof mask);
  frame.append(reinterpret_cast<const char*>(mask), 4);
  for (std::size_t i = 0; i < size; ++i) {
    frame += static_cast<char>(static_cast<unsigned char>(payload[i]) ^ mask[i % 4]);
  }
  return write_all(fd_, frame, Clock::now() + std::chrono::seconds(5));
}

Result<WebSocketClient::Message> WebSocketClient::next(TimePoint deadline,
                                                       const CancellationToken& cancel) {
  if (fd_ < 0) return failure(ErrorKind::kTransport, "the WebSocket is closed");
  std::string message;
  bool in_message = false;
  for (;;) {
    std::string head;
    auto got = read_exact(2, head, deadline, cancel);
    if (!got.ok()) return got.error();
    const auto b0 = static_cast<unsigned char>(head[0]);
    const auto b1 = static_cast<unsigned char>(head[1]);
    const bool fin = (b0 & 0x80) != 0;
    const int opcode = b0 & 0x0F;
    if ((b0 & 0x70) != 0) return failure(ErrorKind::kTransport, "WebSocket frame with reserved bits");
    if ((b1 & 0x80) != 0) return failure(ErrorKind::kTransport, "masked WebSocket frame from a server");
    std::uint64_t size = b1 & 0x7F;
    if (size >= 126) {
      std::string ext;
      got = read_exact(size == 126 ? 2 : 8, ext, deadline, cancel);
      if (!got.ok()) return got.error();
      size = 0;
      for (char c : ext) size = (size << 8) | static_cast<unsigned char>(c);
    }
    const bool control = (opcode & 0x08) != 0;
    if (control && (size > 125 || !fin)) {
      return failure(ErrorKind::kTransport, "malformed WebSocket control frame");
    }
    if (!control && message.size() + size > max_message_bytes_) {
      close(1009);
      return failure(ErrorKind::kTransport, "WebSocket message larger than " +
                                                std::to_string(max_message_bytes_) + " bytes");
    }
    std::string payload;
    got = read_exact(static_cast<std::size_t>(size), payload, deadline, cancel);
    if (!got.ok()) return got.error();

    switch (opcode) {
      case 0x9:  // ping
        send_frame(0xA, payload);
        continue;
      case 0xA:  // pong
        continue;
      case 0x8: {  // close: answer it, then the connection is over
        Message end;
        end.closed = true;
        end.close_code = 1005;
        if (payload.size() >= 2) {
          end.close_code = (static_cast<unsigned char>(payload[0]) << 8) |
                           static_cast<unsigned char>(payload[1]);
          end.close_reason = payload.substr(2);
        }
        close(end.close_code == 1005 ? 1000 : static_cast<std::uint16_t>(end.close_code));
        return end;
      }
      case 0x1:
      case 0x2:
        if (in_message) return failure(ErrorKind::kTransport, "WebSocket message interleaved");
        in_message = true;
        message = std::move(payload);
        break;
      case 0x0:
        if (!in_message) return failure(ErrorKind::kTransport, "WebSocket continuation without a message");
        message += payload;
        break;
      default:
        return failure(ErrorKind::kTransport, "unknown WebSocket opcode " + std::to_string(opcode));
    }
    if (fin) {
      Message text;
      text.text = std::move(message);
      return text;
    }
  }
}

void WebSocketClient::close(std::uint16_t code) {
  if (fd_ < 0) return;
  if (!close_sent_) {
    close_sent_ = true;
    std::string payload;
    payload += static_cast<char>((code >> 8) & 0xFF);
    payload += static_cast<char>(code & 0xFF);
    send_frame(0x8, payload);
  }
  ::shutdown(fd_, SHUT_WR);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace webdata::detail
