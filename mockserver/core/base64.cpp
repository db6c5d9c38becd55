#include "core/base64.hpp"

#include <algorithm>

#include <openssl/evp.h>

namespace webdata::mock {

std::string base64_encode(std::string_view bytes) {
  std::string out;
  // EVP_EncodeBlock takes an int length: encode in slices of a multiple of 3 bytes.
  constexpr std::size_t kSlice = std::size_t{3} << 20;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t at = 0; at < bytes.size(); at += kSlice) {
    const std::size_t n = std::min(kSlice, bytes.size() - at);
    const std::size_t begin = out.size();
    out.resize(begin + (n + 2) / 3 * 4 + 1);
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(&out[begin]),
                                        reinterpret_cast<const unsigned char*>(bytes.data() + at),
                                        static_cast<int>(n));
    out.resize(begin + static_cast<std::size_t>(written));
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  std::size_t padding = 0;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    if (padding != 0) return std::nullopt;  // data after the padding
    clean += c;
  }
  if (padding > 2 || clean.size() % 4 == 1) return std::nullopt;
  const std::size_t missing = (4 - clean.size() % 4) % 4;
  clean.append(missing, '=');
  std::string out;
  constexpr std::size_t kSlice = std::size_t{4} << 20;  // a multiple of 4
  out.reserve(clean.size() / 4 * 3);
  for (std::size_t at = 0; at < clean.size(); at += kSlice) {
    const std::size_t n = std::min(kSlice, clean.size() - at);
    const std::size_t begin = out.size();
    out.resize(begin + n / 4 * 3);
    const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(&out[begin]),
                                        reinterpret_cast<const unsigned char*>(clean.data() + at),
                                        static_cast<int>(n));
    if (written < 0) return std::nullopt;
    out.resize(begin + static_cast<std::size_t>(written));
  }
  // EVP_DecodeBlock counts the bytes the padding stands for: drop them.
  if (missing > out.size()) return std::nullopt;
  out.resize(out.size() - missing);
  return out;
}

}  // namespace webdata::mock
