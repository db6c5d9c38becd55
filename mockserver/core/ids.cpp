#include "core/ids.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <random>

namespace webdata::mock {

void write_uuid4(char* out) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const std::uint64_t hi = rng();
  const std::uint64_t lo = rng();
  unsigned char b[16];
  for (int i = 0; i < 8; ++i) {
    b[i] = static_cast<unsigned char>(hi >> (56 - 8 * i));
    b[8 + i] = static_cast<unsigned char>(lo >> (56 - 8 * i));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  // 8-4-4-4-12 lower-case hex, written by hand (snprintf's format parsing was most of the cost).
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t at = 0;
  for (int i = 0; i < 16; ++i) {
    if (at == 8 || at == 13 || at == 18 || at == 23) out[at++] = '-';
    out[at++] = kHex[b[i] >> 4];
    out[at++] = kHex[b[i] & 0x0f];
  }
}

std::string uuid4() {
  std::string out(kUuidLength, '\0');
  write_uuid4(out.data());
  return out;
}

bool is_uuid(const std::string& text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

}  // namespace webdata::mock
