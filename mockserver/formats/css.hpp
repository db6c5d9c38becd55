#pragma once

// Internal: the small part of CSS branding and screenshots need: rules and declarations (with
// @media / @supports blocks flattened, @font-face kept), custom properties, and colors.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webdata::mock::formats::detail {

struct CssRule {
  std::string selector;  ///< as written, lower-cased ("body, html", "@font-face")
  std::vector<std::pair<std::string, std::string>>
      declarations;  ///< name lower-cased, value trimmed
};

/// Parses a stylesheet (or a style attribute when `inline_style`). Never throws; malformed
/// parts are skipped the way browsers skip them.
std::vector<CssRule> parse_css(std::string_view css);
std::vector<std::pair<std::string, std::string>> parse_declarations(std::string_view block);

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0;
  double a = 1;
  bool operator==(const Rgba& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
};

using CssVariables = std::map<std::string, std::string>;

/// A CSS color: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba() (comma or space syntax, numbers or
/// percentages), hsl()/hsla(), the 148 named colors, transparent; var(--x[, fallback]) resolved
/// through `variables`. The first color of a shorthand ("1px solid #ccc") is found too.
std::optional<Rgba> parse_color(std::string_view value, const CssVariables& variables = {});
/// "#RRGGBB" (alpha dropped).
std::string hex(const Rgba& c);
/// WCAG relative luminance, 0 (black) .. 1 (white).
double luminance(const Rgba& c);
/// HSL saturation 0..1 (grays are 0).
double saturation(const Rgba& c);
/// var(--x, fallback) references replaced (up to 8 levels).
std::string resolve_variables(std::string_view value, const CssVariables& variables);

}  // namespace webdata::mock::formats::detail
