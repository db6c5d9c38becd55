#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "web/types.hpp"
#include "core/url.hpp"

struct sockaddr;

namespace webdata::mock::web {

/// One HTTP GET to the real network, no redirects followed (the virtual web follows them, so
/// every hop is checked again).
struct LiveRequest {
  Url url;
  HeaderList headers;
  std::chrono::milliseconds timeout{30000};
  bool verify_tls = false;
  bool allow_private = false;  ///< Else private, loopback, link-local, multicast are refused.
  std::size_t max_body_bytes = 32 * 1024 * 1024;
};

struct LiveResponse {
  bool ok = false;
  std::string error_code;  ///< SCRAPE_* code when !ok.
  std::string error_message;
  int status = 0;
  HeaderList headers;
  std::string body;
};

/// Performs the request with libcurl. The address actually connected to is checked (not the
/// name), so a name that resolves to a private address is refused too (DNS rebinding).
LiveResponse live_fetch(const LiveRequest& request);

/// Whether an address is one live fetching refuses by default: unspecified, loopback, private
/// (RFC 1918, ULA), shared (100.64/10), link-local, multicast, reserved, or an IPv4-mapped /
/// NAT64 form of one of those.
bool is_private_address(const sockaddr* address);
/// The same for a textual IPv4/IPv6 literal; false when `text` is not an IP literal.
bool is_private_literal(const std::string& text);

}  // namespace webdata::mock::web
