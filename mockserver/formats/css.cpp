#include "formats/css.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "formats/tree.hpp"

namespace webdata::mock::formats::detail {

namespace {

struct Named {
  const char* name;
  std::uint32_t rgb;
};

// CSS Color Module Level 4, named colors.
const Named kNamed[] = {
    {"aliceblue", 0xF0F8FF},
    {"antiquewhite", 0xFAEBD7},
    {"aqua", 0x00FFFF},
    {"aquamarine", 0x7FFFD4},
    {"azure", 0xF0FFFF},
    {"beige", 0xF5F5DC},
    {"bisque", 0xFFE4C4},
    {"black", 0x000000},
    {"blanchedalmond", 0xFFEBCD},
    {"blue", 0x0000FF},
    {"blueviolet", 0x8A2BE2},
    {"brown", 0xA52A2A},
    {"burlywood", 0xDEB887},
    {"cadetblue", 0x5F9EA0},
    {"chartreuse", 0x7FFF00},
    {"chocolate", 0xD2691E},
    {"coral", 0xFF7F50},
    {"cornflowerblue", 0x6495ED},
    {"cornsilk", 0xFFF8DC},
    {"crimson", 0xDC143C},
    {"cyan", 0x00FFFF},
    {"darkblue", 0x00008B},
    {"darkcyan", 0x008B8B},
    {"darkgoldenrod", 0xB8860B},
    {"darkgray", 0xA9A9A9},
    {"darkgreen", 0x006400},
    {"darkgrey", 0xA9A9A9},
    {"darkkhaki", 0xBDB76B},
    {"darkmagenta", 0x8B008B},
    {"darkolivegreen", 0x556B2F},
    {"darkorange", 0xFF8C00},
    {"darkorchid", 0x9932CC},
    {"darkred", 0x8B0000},
    {"darksalmon", 0xE9967A},
    {"darkseagreen", 0x8FBC8F},
    {"darkslateblue", 0x483D8B},
    {"darkslategray", 0x2F4F4F},
    {"darkslategrey", 0x2F4F4F},
    {"darkturquoise", 0x00CED1},
    {"darkviolet", 0x9400D3},
    {"deeppink", 0xFF1493},
    {"deepskyblue", 0x00BFFF},
    {"dimgray", 0x696969},
    {"dimgrey", 0x696969},
    {"dodgerblue", 0x1E90FF},
    {"firebrick", 0xB22222},
    {"floralwhite", 0xFFFAF0},
    {"forestgreen", 0x228B22},
    {"fuchsia", 0xFF00FF},
    {"gainsboro", 0xDCDCDC},
    {"ghostwhite", 0xF8F8FF},
    {"gold", 0xFFD700},
    {"goldenrod", 0xDAA520},
    {"gray", 0x808080},
    {"green", 0x008000},
    {"greenyellow", 0xADFF2F},
    {"grey", 0x808080},
    {"honeydew", 0xF0FFF0},
    {"hotpink", 0xFF69B4},
    {"indianred", 0xCD5C5C},
    {"indigo", 0x4B0082},
    {"ivory", 0xFFFFF0},
    {"khaki", 0xF0E68C},
    {"lavender", 0xE6E6FA},
    {"lavenderblush", 0xFFF0F5},
    {"lawngreen", 0x7CFC00},
    {"lemonchiffon", 0xFFFACD},
    {"lightblue", 0xADD8E6},
    {"lightcoral", 0xF08080},
    {"lightcyan", 0xE0FFFF},
    {"lightgoldenrodyellow", 0xFAFAD2},
    {"lightgray", 0xD3D3D3},
    {"lightgreen", 0x90EE90},
    {"lightgrey", 0xD3D3D3},
    {"lightpink", 0xFFB6C1},
    {"lightsalmon", 0xFFA07A},
    {"lightseagreen", 0x20B2AA},
    {"lightskyblue", 0x87CEFA},
    {"lightslategray", 0x778899},
    {"lightslategrey", 0x778899},
    {"lightsteelblue", 0xB0C4DE},
    {"lightyellow", 0xFFFFE0},
    {"lime", 0x00FF00},
    {"limegreen", 0x32CD32},
    {"linen", 0xFAF0E6},
    {"magenta", 0xFF00FF},
    {"maroon", 0x800000},
    {"mediumaquamarine", 0x66CDAA},
    {"mediumblue", 0x0000CD},
    {"mediumorchid", 0xBA55D3},
    {"mediumpurple", 0x9370DB},
    {"mediumseagreen", 0x3CB371},
    {"mediumslateblue", 0x7B68EE},
    {"mediumspringgreen", 0x00FA9A},
    {"mediumturquoise", 0x48D1CC},
    {"mediumvioletred", 0xC71585},
    {"midnightblue", 0x191970},
    {"mintcream", 0xF5FFFA},
    {"mistyrose", 0xFFE4E1},
    {"moccasin", 0xFFE4B5},
    {"navajowhite", 0xFFDEAD},
    {"navy", 0x000080},
    {"oldlace", 0xFDF5E6},
    {"olive", 0x808000},
    {"olivedrab", 0x6B8E23},
    {"orange", 0xFFA500},
    {"orangered", 0xFF4500},
    {"orchid", 0xDA70D6},
    {"palegoldenrod", 0xEEE8AA},
    {"palegreen", 0x98FB98},
    {"paleturquoise", 0xAFEEEE},
    {"palevioletred", 0xDB7093},
    {"papayawhip", 0xFFEFD5},
    {"peachpuff", 0xFFDAB9},
    {"peru", 0xCD853F},
    {"pink", 0xFFC0CB},
    {"plum", 0xDDA0DD},
    {"powderblue", 0xB0E0E6},
    {"purple", 0x800080},
    {"rebeccapurple", 0x663399},
    {"red", 0xFF0000},
    {"rosybrown", 0xBC8F8F},
    {"royalblue", 0x4169E1},
    {"saddlebrown", 0x8B4513},
    {"salmon", 0xFA8072},
    {"sandybrown", 0xF4A460},
    {"seagreen", 0x2E8B57},
    {"seashell", 0xFFF5EE},
    {"sienna", 0xA0522D},
    {"silver", 0xC0C0C0},
    {"skyblue", 0x87CEEB},
    {"slateblue", 0x6A5ACD},
    {"slategray", 0x708090},
    {"slategrey", 0x708090},
    {"snow", 0xFFFAFA},
    {"springgreen", 0x00FF7F},
    {"steelblue", 0x4682B4},
    {"tan", 0xD2B48C},
    {"teal", 0x008080},
    {"thistle", 0xD8BFD8},
    {"tomato", 0xFF6347},
    {"turquoise", 0x40E0D0},
    {"violet", 0xEE82EE},
    {"wheat", 0xF5DEB3},
    {"white", 0xFFFFFF},
    {"whitesmoke", 0xF5F5F5},
    {"yellow", 0xFFFF00},
    {"yellowgreen", 0x9ACD32},
};

std::string strip_comments(std::string_view css) {
  std::string out;
  out.reserve(css.size());
  for (std::size_t i = 0; i < css.size(); ++i) {
    if (css[i] == '/' && i + 1 < css.size() && css[i + 1] == '*') {
      std::size_t end = css.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 1;
      out += ' ';
    } else {
      out += css[i];
    }
  }
  return out;
}

// Index of the '}' closing the block opened just before `i` (or size when unbalanced).
std::size_t block_end(const std::string& css, std::size_t i) {
  int depth = 1;
  char quote = 0;
  for (; i < css.size(); ++i) {
    char c = css[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return css.size();
}

void parse_into(const std::string& css, std::size_t begin, std::size_t end,
                std::vector<CssRule>& out, int depth) {
  std::size_t i = begin;
  while (i < end) {
    while (i < end && std::isspace(static_cast<unsigned char>(css[i]))) ++i;
    if (i >= end) break;
    std::size_t open = css.find_first_of("{;}", i);
    if (open == std::string::npos || open >= end) break;
    if (css[open] != '{') {  // "@import ...;" or garbage
      i = open + 1;
      continue;
    }
    std::string prelude = lower(trim(std::string_view(css).substr(i, open - i)));
    std::size_t close = std::min(block_end(css, open + 1), end);
    if (!prelude.empty() && prelude[0] == '@') {
      bool nested = prelude.rfind("@media", 0) == 0 || prelude.rfind("@supports", 0) == 0 ||
                    prelude.rfind("@layer", 0) == 0 || prelude.rfind("@container", 0) == 0;
      if (nested && depth < 8) {
        parse_into(css, open + 1, close, out, depth + 1);
      } else if (prelude.rfind("@font-face", 0) == 0) {
        out.push_back({"@font-face", parse_declarations(std::string_view(css).substr(
                                         open + 1, close - open - 1))});
      }
    } else if (!prelude.empty()) {
      out.push_back(
          {prelude, parse_declarations(std::string_view(css).substr(open + 1, close - open - 1))});
    }
    i = close + 1;
  }
}

double clamp01(double v) {
  return std::min(1.0, std::max(0.0, v));
}

// One rgb()/hsl() argument: a number, a percentage (of `scale`), or an angle for hue.
std::optional<double> component(std::string_view s, double scale) {
  std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str()) return std::nullopt;
  std::string unit = lower(std::string_view(end));
  if (unit == "%") return v / 100.0 * scale;
  if (unit == "deg" || unit.empty()) return v;
  if (unit == "turn") return v * 360;
  if (unit == "rad") return v * 180 / 3.14159265358979323846;
  return std::nullopt;
}

std::vector<std::string> function_args(std::string_view inner) {
  std::vector<std::string> args;
  std::string cur;
  for (char c : inner) {
    if (c == ',' || c == '/' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  return args;
}

std::uint8_t byte(double v) {
  return static_cast<std::uint8_t>(std::lround(clamp01(v / 255.0) * 255));
}

std::optional<Rgba> hsl_to_rgb(double h, double s, double l, double a) {
  h = std::fmod(std::fmod(h, 360) + 360, 360) / 360;
  s = clamp01(s);
  l = clamp01(l);
  auto hue = [](double p, double q, double t) {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1.0 / 6) return p + (q - p) * 6 * t;
    if (t < 0.5) return q;
    if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
    return p;
  };
  double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  double p = 2 * l - q;
  Rgba c;
  c.r = byte(hue(p, q, h + 1.0 / 3) * 255);
  c.g = byte(hue(p, q, h) * 255);
  c.b = byte(hue(p, q, h - 1.0 / 3) * 255);
  c.a = clamp01(a);
  return c;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::optional<Rgba> single_color(const std::string& t) {
  if (t.empty()) return std::nullopt;
  if (t[0] == '#') {
    std::string h = t.substr(1);
    for (char c : h) {
      if (hex_digit(c) < 0) return std::nullopt;
    }
    Rgba c;
    if (h.size() == 3 || h.size() == 4) {
      c.r = static_cast<std::uint8_t>(hex_digit(h[0]) * 17);
      c.g = static_cast<std::uint8_t>(hex_digit(h[1]) * 17);
      c.b = static_cast<std::uint8_t>(hex_digit(h[2]) * 17);
      if (h.size() == 4) c.a = hex_digit(h[3]) * 17 / 255.0;
      return c;
    }
    if (h.size() == 6 || h.size() == 8) {
      c.r = static_cast<std::uint8_t>(hex_digit(h[0]) * 16 + hex_digit(h[1]));
      c.g = static_cast<std::uint8_t>(hex_digit(h[2]) * 16 + hex_digit(h[3]));
      c.b = static_cast<std::uint8_t>(hex_digit(h[4]) * 16 + hex_digit(h[5]));
      if (h.size() == 8) c.a = (hex_digit(h[6]) * 16 + hex_digit(h[7])) / 255.0;
      return c;
    }
    return std::nullopt;
  }
  std::size_t paren = t.find('(');
  if (paren != std::string::npos && t.back() == ')') {
    std::string fn = t.substr(0, paren);
    auto args = function_args(std::string_view(t).substr(paren + 1, t.size() - paren - 2));
    if (args.size() < 3) return std::nullopt;
    double alpha = 1;
    if (args.size() >= 4) {
      auto a = component(args[3], 1);
      if (!a) return std::nullopt;
      alpha = *a;
    }
    if (fn == "rgb" || fn == "rgba") {
      auto r = component(args[0], 255), g = component(args[1], 255), b = component(args[2], 255);
      if (!r || !g || !b) return std::nullopt;
      Rgba c;
      c.r = byte(*r);
      c.g = byte(*g);
      c.b = byte(*b);
      c.a = clamp01(alpha);
      return c;
    }
    if (fn == "hsl" || fn == "hsla") {
      auto h = component(args[0], 360), s = component(args[1], 1), l = component(args[2], 1);
      if (!h || !s || !l) return std::nullopt;
      return hsl_to_rgb(*h, *s, *l, alpha);
    }
    return std::nullopt;
  }
  if (t == "transparent") return Rgba{0, 0, 0, 0};
  for (const auto& n : kNamed) {
    if (t == n.name) {
      return Rgba{static_cast<std::uint8_t>(n.rgb >> 16),
                  static_cast<std::uint8_t>((n.rgb >> 8) & 0xFF),
                  static_cast<std::uint8_t>(n.rgb & 0xFF), 1};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_declarations(std::string_view block) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string cur;
  int parens = 0;
  char quote = 0;
  auto flush = [&] {
    std::size_t colon = cur.find(':');
    if (colon != std::string::npos) {
      std::string name = trim(std::string_view(cur).substr(0, colon));
      std::string value = trim(std::string_view(cur).substr(colon + 1));
      std::size_t bang = lower(value).rfind("!important");
      if (bang != std::string::npos) value = trim(std::string_view(value).substr(0, bang));
      // Custom property names are case-sensitive; everything else is not.
      if (name.rfind("--", 0) != 0) name = lower(name);
      if (!name.empty() && !value.empty()) out.emplace_back(name, value);
    }
    cur.clear();
  };
  for (char c : block) {
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(') {
      ++parens;
    } else if (c == ')') {
      parens = std::max(0, parens - 1);
    } else if (c == ';' && parens == 0) {
      flush();
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

std::vector<CssRule> parse_css(std::string_view css) {
  std::string clean = strip_comments(css);
  std::vector<CssRule> out;
  parse_into(clean, 0, clean.size(), out, 0);
  return out;
}

std::string resolve_variables(std::string_view value, const CssVariables& variables) {
  std::string v(value);
  for (int round = 0; round < 8; ++round) {
    std::size_t at = v.find("var(");
    if (at == std::string::npos) break;
    std::size_t i = at + 4;
    int depth = 1;
    for (; i < v.size() && depth > 0; ++i) {
      if (v[i] == '(') ++depth;
      if (v[i] == ')') --depth;
    }
    std::string inner = v.substr(at + 4, i - at - 5);
    std::size_t comma = inner.find(',');
    std::string name = trim(std::string_view(inner).substr(0, comma));
    std::string replacement;
    auto it = variables.find(name);
    if (it != variables.end())
      replacement = it->second;
    else if (comma != std::string::npos)
      replacement = trim(std::string_view(inner).substr(comma + 1));
    v = v.substr(0, at) + replacement + v.substr(std::min(i, v.size()));
  }
  return v;
}

std::optional<Rgba> parse_color(std::string_view value, const CssVariables& variables) {
  std::string v = lower(resolve_variables(value, variables));
  // Whole value first, then each token of a shorthand ("1px solid #ccc", "url(x) #fff").
  if (auto c = single_color(trim(v))) return c;
  std::string token;
  int depth = 0;
  for (std::size_t i = 0; i <= v.size(); ++i) {
    char c = i < v.size() ? v[i] : ' ';
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((std::isspace(static_cast<unsigned char>(c)) || c == ',') && depth <= 0) {
      if (auto color = single_color(token)) return color;
      token.clear();
      depth = 0;
    } else {
      token += c;
    }
  }
  return std::nullopt;
}

std::string hex(const Rgba& c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", c.r, c.g, c.b);
  return buf;
}

double luminance(const Rgba& c) {
  auto channel = [](std::uint8_t v) {
    double s = v / 255.0;
    return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

double saturation(const Rgba& c) {
  double r = c.r / 255.0, g = c.g / 255.0, b = c.b / 255.0;
  double mx = std::max({r, g, b}), mn = std::min({r, g, b});
  double l = (mx + mn) / 2;
  if (mx == mn) return 0;
  double d = mx - mn;
  return l > 0.5 ? d / (2 - mx - mn) : d / (mx + mn);
}

}  // namespace webdata::mock::formats::detail
