#pragma once

// Internal: the screenshot renderer's built-in 5x7 bitmap font (drawn in a 6x8 cell).

#include <array>
#include <cstdint>

namespace webdata::mock::formats::detail {

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;
inline constexpr int kCellWidth = 6;
inline constexpr int kCellHeight = 8;

/// Seven rows of five bits (bit 4 = leftmost pixel). Printable ASCII has its own glyph, Latin-1
/// letters borrow their base letter's, U+0020-like spaces are blank, anything else is a box.
std::array<std::uint8_t, kGlyphHeight> glyph(char32_t code_point);

}  // namespace webdata::mock::formats::detail
