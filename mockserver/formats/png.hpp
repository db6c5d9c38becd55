#pragma once

// Internal: a PNG encoder for 8-bit palette images (the screenshot renderer's output).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace webdata::mock::formats::detail {

/// Encodes width x height palette indexes (row-major) as a PNG: IHDR (color type 3, depth 8),
/// PLTE, one zlib IDAT, IEND, each with its CRC-32. Throws std::runtime_error if zlib fails.
std::string encode_png(int width, int height, const std::vector<std::uint8_t>& pixels,
                       const std::vector<std::array<std::uint8_t, 3>>& palette);

}  // namespace webdata::mock::formats::detail
