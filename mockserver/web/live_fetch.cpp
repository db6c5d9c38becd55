#include "web/live_fetch.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include <curl/curl.h>

namespace webdata::mock::web {
namespace {

bool private_v4(std::uint32_t a) {  // host byte order
  const auto in = [a](std::uint32_t net, int bits) {
    const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
    return (a & mask) == net;
  };
  return in(0x00000000, 8) ||   // 0.0.0.0/8 "this network"
         in(0x0a000000, 8) ||   // 10/8
         in(0x64400000, 10) ||  // 100.64/10 shared address space
         in(0x7f000000, 8) ||   // 127/8 loopback
         in(0xa9fe0000, 16) ||  // 169.254/16 link-local (cloud metadata lives here)
         in(0xac100000, 12) ||  // 172.16/12
         in(0xc0000000, 24) ||  // 192.0.0/24 protocol assignments
         in(0xc0000200, 24) ||  // 192.0.2/24 documentation
         in(0xc0a80000, 16) ||  // 192.168/16
         in(0xc6120000, 15) ||  // 198.18/15 benchmarking
         in(0xc6336400, 24) ||  // 198.51.100/24 documentation
         in(0xcb007100, 24) ||  // 203.0.113/24 documentation
         in(0xe0000000, 4) ||   // 224/4 multicast
         in(0xf0000000, 4);     // 240/4 reserved and broadcast
}

bool private_v6(const unsigned char* b) {
  static const unsigned char kZero[16] = {};
  if (std::memcmp(b, kZero, 15) == 0 && (b[15] == 0 || b[15] == 1)) return true;  // :: and ::1
  const auto v4_at = [b](int offset) {
    return (std::uint32_t{b[offset]} << 24) | (std::uint32_t{b[offset + 1]} << 16) |
           (std::uint32_t{b[offset + 2]} << 8) | std::uint32_t{b[offset + 3]};
  };
  static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(b, kMapped, 12) == 0) return private_v4(v4_at(12));  // ::ffff:a.b.c.d
  if (std::memcmp(b, kZero, 12) == 0) return private_v4(v4_at(12));    // ::a.b.c.d (deprecated)
  static const unsigned char kNat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  if (std::memcmp(b, kNat64, 12) == 0) return private_v4(v4_at(12));  // 64:ff9b::/96
  if ((b[0] & 0xfe) == 0xfc) return true;                             // fc00::/7 unique local
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return true;             // fe80::/10 link-local
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return true;             // fec0::/10 site-local
  if (b[0] == 0xff) return true;                                      // ff00::/8 multicast
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return true;  // 2001:db8::/32
  return false;
}

struct Transfer {
  bool allow_private = false;
  bool refused_private = false;
  std::string refused_address;
  std::size_t max_body = 0;
  bool too_large = false;
  LiveResponse* response = nullptr;
};

std::string address_text(const sockaddr* address) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, buf, sizeof buf);
  } else if (address->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, buf,
              sizeof buf);
  }
  return buf;
}

curl_socket_t open_socket(void* clientp, curlsocktype, curl_sockaddr* address) {
  auto* transfer = static_cast<Transfer*>(clientp);
  if (!transfer->allow_private && is_private_address(&address->addr)) {
    transfer->refused_private = true;
    transfer->refused_address = address_text(&address->addr);
    return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype, address->protocol);
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* userp) {
  auto* transfer = static_cast<Transfer*>(userp);
  const std::size_t n = size * count;
  if (transfer->response->body.size() + n > transfer->max_body) {
    transfer->too_large = true;
    return 0;  // aborts with CURLE_WRITE_ERROR
  }
  transfer->response->body.append(data, n);
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* userp) {
  auto* transfer = static_cast<Transfer*>(userp);
  const std::size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    transfer->response->headers.clear();  // a new response (after 100 Continue)
  } else if (const auto colon = line.find(':'); colon != std::string::npos) {
    std::string value = line.substr(colon + 1);
    const auto first = value.find_first_not_of(" \t");
    value = first == std::string::npos ? "" : value.substr(first);
    transfer->response->headers.emplace_back(line.substr(0, colon), value);
  }
  return n;
}

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

bool is_private_address(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    return private_v4(ntohl(reinterpret_cast<const sockaddr_in*>(address)->sin_addr.s_addr));
  }
  if (address->sa_family == AF_INET6) {
    return private_v6(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr.s6_addr);
  }
  return true;  // anything else (unix sockets...) is never a public web target
}

bool is_private_literal(const std::string& text) {
  sockaddr_in v4{};
  sockaddr_in6 v6{};
  if (inet_pton(AF_INET, text.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    return is_private_address(reinterpret_cast<const sockaddr*>(&v4));
  }
  if (inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    return is_private_address(reinterpret_cast<const sockaddr*>(&v6));
  }
  return false;
}

namespace {

/// The transfer's options: no redirects, no proxy, its own socket check, the body and headers
/// into `transfer`.
void set_options(CURL* curl, const LiveRequest& request, const std::string& url,
                 long timeout_ms, curl_slist* headers, Transfer& transfer) {
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_PROXY,
                   "");  // never an environment proxy: it would hide the target
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, request.verify_tls ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, request.verify_tls ? 2L : 0L);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
}

/// The scrape error of a failed transfer, in words that name the host.
void describe_failure(CURLcode rc, const LiveRequest& request, const Transfer& transfer,
                      long timeout_ms, LiveResponse& response) {
  const std::string host = request.url.host;
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
      response.error_code = "SCRAPE_DNS_RESOLUTION_ERROR";
      response.error_message = "could not resolve host " + host;
      return;
    case CURLE_OPERATION_TIMEDOUT:
      response.error_code = "SCRAPE_TIMEOUT";
      response.error_message =
          "no complete answer from " + host + " within " + std::to_string(timeout_ms) + " ms";
      return;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
      response.error_code = "SCRAPE_SSL_ERROR";
      response.error_message = "TLS with " + host + " failed: " + curl_easy_strerror(rc);
      return;
    default:
      break;
  }
  response.error_code = "SCRAPE_SITE_ERROR";
  if (transfer.refused_private) {
    response.error_message = host + " resolves to " + transfer.refused_address +
                             ", a private or loopback address; live fetching of such "
                             "targets is disabled";
  } else if (transfer.too_large) {
    response.error_message =
        "response of " + host + " exceeds " + std::to_string(request.max_body_bytes) + " bytes";
  } else if (rc == CURLE_COULDNT_CONNECT) {
    response.error_message = "connection to " + host + " refused";
  } else {
    response.error_message = host + ": " + curl_easy_strerror(rc);
  }
}

}  // namespace

LiveResponse live_fetch(const LiveRequest& request) {
  global_init();
  LiveResponse response;
  Transfer transfer;
  transfer.allow_private = request.allow_private;
  transfer.max_body = request.max_body_bytes;
  transfer.response = &response;

  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    response.error_code = "SCRAPE_SITE_ERROR";
    response.error_message = "could not start a transfer";
    return response;
  }
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    if (iequals(name, "Host")) continue;  // curl derives it from the URL
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  const std::string url = request.url.without_fragment();
  const long timeout_ms = std::max<long>(1, static_cast<long>(request.timeout.count()));
  set_options(curl, request, url, timeout_ms, headers, transfer);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  curl_slist_free_all(headers);
  if (rc == CURLE_OK) {
    response.ok = true;
    response.status = static_cast<int>(status);
    return response;
  }
  response.body.clear();
  response.headers.clear();
  describe_failure(rc, request, transfer, timeout_ms, response);
  return response;
}

}  // namespace webdata::mock::web
