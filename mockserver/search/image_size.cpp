// Image dimensions from file headers, without decoding the image.
#include "search/image_size.hpp"

#include <cstdint>

namespace webdata::mock::search {

namespace {

std::uint32_t be32(const std::string& b, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 3]));
}
unsigned be16(const std::string& b, std::size_t at) {
  return (static_cast<unsigned>(static_cast<unsigned char>(b[at])) << 8) |
         static_cast<unsigned>(static_cast<unsigned char>(b[at + 1]));
}
unsigned le16(const std::string& b, std::size_t at) {
  return static_cast<unsigned>(static_cast<unsigned char>(b[at])) |
         (static_cast<unsigned>(static_cast<unsigned char>(b[at + 1])) << 8);
}

}  // namespace

std::optional<Size> image_size(const std::string& b) {
  if (b.size() >= 24 && b.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 &&
      b.compare(12, 4, "IHDR") == 0) {
    return Size{static_cast<int>(be32(b, 16)), static_cast<int>(be32(b, 20))};
  }
  if (b.size() >= 10 && (b.compare(0, 6, "GIF87a") == 0 || b.compare(0, 6, "GIF89a") == 0)) {
    return Size{static_cast<int>(le16(b, 6)), static_cast<int>(le16(b, 8))};
  }
  if (b.size() >= 30 && b.compare(0, 4, "RIFF") == 0 && b.compare(8, 4, "WEBP") == 0) {
    if (b.compare(12, 4, "VP8X") == 0) {
      const auto w = 1 + (static_cast<int>(static_cast<unsigned char>(b[24])) |
                          static_cast<int>(static_cast<unsigned char>(b[25])) << 8 |
                          static_cast<int>(static_cast<unsigned char>(b[26])) << 16);
      const auto h = 1 + (static_cast<int>(static_cast<unsigned char>(b[27])) |
                          static_cast<int>(static_cast<unsigned char>(b[28])) << 8 |
                          static_cast<int>(static_cast<unsigned char>(b[29])) << 16);
      return Size{w, h};
    }
    if (b.compare(12, 4, "VP8 ") == 0) {
      return Size{static_cast<int>(le16(b, 26) & 0x3fff), static_cast<int>(le16(b, 28) & 0x3fff)};
    }
    return std::nullopt;
  }
  if (b.size() >= 4 && static_cast<unsigned char>(b[0]) == 0xFF &&
      static_cast<unsigned char>(b[1]) == 0xD8) {
    std::size_t at = 2;
    while (at + 9 < b.size()) {
      if (static_cast<unsigned char>(b[at]) != 0xFF) return std::nullopt;
      const auto marker = static_cast<unsigned char>(b[at + 1]);
      if (marker == 0xFF) {
        ++at;
        continue;
      }
      const unsigned length = be16(b, at + 2);
      const bool frame =
          marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (frame) return Size{static_cast<int>(be16(b, at + 7)), static_cast<int>(be16(b, at + 5))};
      at += 2 + length;
    }
  }
  return std::nullopt;
}

}  // namespace webdata::mock::search
