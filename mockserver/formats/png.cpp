#include "formats/png.hpp"

#include <stdexcept>

#include <zlib.h>

namespace webdata::mock::formats::detail {

namespace {

void put32(std::string& out, std::uint32_t v) {
  out += static_cast<char>((v >> 24) & 0xFF);
  out += static_cast<char>((v >> 16) & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
  out += static_cast<char>(v & 0xFF);
}

void chunk(std::string& out, const char* type, const std::string& data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  std::string body = std::string(type, 4) + data;
  out += body;
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  put32(out, static_cast<std::uint32_t>(crc));
}

}  // namespace

std::string encode_png(int width, int height, const std::vector<std::uint8_t>& pixels,
                       const std::vector<std::array<std::uint8_t, 3>>& palette) {
  if (width <= 0 || height <= 0 ||
      pixels.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) ||
      palette.empty() || palette.size() > 256) {
    throw std::invalid_argument("encode_png: bad image dimensions or palette");
  }
  std::string out = "\x89PNG\r\n\x1a\n";
  std::string ihdr;
  put32(ihdr, static_cast<std::uint32_t>(width));
  put32(ihdr, static_cast<std::uint32_t>(height));
  ihdr += '\x08';  // bit depth
  ihdr += '\x03';  // color type: palette
  ihdr += '\x00';  // deflate
  ihdr += '\x00';  // adaptive filtering
  ihdr += '\x00';  // no interlace
  chunk(out, "IHDR", ihdr);
  std::string plte;
  for (const auto& c : palette) {
    plte += static_cast<char>(c[0]);
    plte += static_cast<char>(c[1]);
    plte += static_cast<char>(c[2]);
  }
  chunk(out, "PLTE", plte);

  // Each row: filter type 0 (None), then the row's indexes.
  std::string raw;
  raw.reserve(static_cast<std::size_t>(height) * (static_cast<std::size_t>(width) + 1));
  for (int y = 0; y < height; ++y) {
    raw += '\0';
    raw.append(reinterpret_cast<const char*>(pixels.data()) +
                   static_cast<std::size_t>(y) * static_cast<std::size_t>(width),
               static_cast<std::size_t>(width));
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string compressed(size, '\0');
  int rc = compress2(reinterpret_cast<Bytef*>(compressed.data()), &size,
                     reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), 6);
  if (rc != Z_OK) throw std::runtime_error("encode_png: zlib compress2 failed");
  compressed.resize(size);
  chunk(out, "IDAT", compressed);
  chunk(out, "IEND", "");
  return out;
}

}  // namespace webdata::mock::formats::detail
