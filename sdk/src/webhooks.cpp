#include "webdata/webhooks.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

#include "codec.hpp"

namespace webdata::webhooks {
namespace {

constexpr std::string_view kPrefix = "sha256=";

std::array<unsigned char, 32> hmac_sha256(std::string_view secret, std::string_view body) {
  std::array<unsigned char, 32> digest{};
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), digest.data(), &length);
  return digest;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string sign(std::string_view secret, std::string_view raw_body) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto digest = hmac_sha256(secret, raw_body);
  std::string out(kPrefix);
  for (unsigned char byte : digest) {
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0f];
  }
  return out;
}

bool verify_signature(std::string_view secret, std::string_view raw_body,
                      std::string_view header_value) {
  while (!header_value.empty() && (header_value.front() == ' ' || header_value.front() == '\t')) {
    header_value.remove_prefix(1);
  }
  while (!header_value.empty() && (header_value.back() == ' ' || header_value.back() == '\t')) {
    header_value.remove_suffix(1);
  }
  if (header_value.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view hex = header_value.substr(kPrefix.size());
  std::array<unsigned char, 32> given{};
  if (hex.size() != given.size() * 2) return false;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const int hi = hex_value(hex[2 * i]);
    const int lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    given[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  const auto expected = hmac_sha256(secret, raw_body);
  return CRYPTO_memcmp(given.data(), expected.data(), expected.size()) == 0;
}

Result<Event> parse_event(std::string_view raw_body) {
  auto tree = detail::parse_body(std::string(raw_body));
  if (!tree.ok()) return tree.error();
  return detail::decode_tree<Event>(*tree, "webhook payload");
}

Result<Event> verify_and_parse(std::string_view secret, std::string_view raw_body,
                               const std::optional<std::string>& header_value) {
  if (!header_value || !verify_signature(secret, raw_body, std::string_view(*header_value))) {
    return detail::error_of(ErrorKind::kInvalidArgument,
                            header_value ? "webhook signature does not match the body"
                                         : "webhook delivery carries no signature");
  }
  return parse_event(raw_body);
}

Result<Event> verify_and_parse(std::string_view secret, std::string_view raw_body,
                               const Headers& headers, const std::string& header_name) {
  return verify_and_parse(secret, raw_body, find_header(headers, header_name));
}

}  // namespace webdata::webhooks
