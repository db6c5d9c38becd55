#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <zlib.h>

#include "formats/screenshot.hpp"
#include "test_util.hpp"

using formats_test::load;
using formats_test::parse;
namespace formats = webdata::mock::formats;

namespace {

struct Decoded {
  std::uint32_t width = 0, height = 0;
  int bit_depth = 0, color_type = 0;
  std::vector<std::array<std::uint8_t, 3>> palette;
  std::vector<std::uint8_t> pixels;  // palette indexes, row-major
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

// A strict reader: signature, chunk CRCs, IHDR, PLTE, inflated IDAT with filter bytes.
Decoded decode(const std::string& png) {
  Decoded d;
  REQUIRE(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  std::size_t at = 8;
  std::string idat;
  bool end = false;
  while (at + 12 <= png.size()) {
    std::uint32_t len = be32(png, at);
    std::string type = png.substr(at + 4, 4);
    std::string data = png.substr(at + 8, len);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(png.data() + at + 4), len + 4);
    REQUIRE(be32(png, at + 8 + len) == static_cast<std::uint32_t>(crc));
    if (type == "IHDR") {
      d.width = be32(data, 0);
      d.height = be32(data, 4);
      d.bit_depth = data[8];
      d.color_type = data[9];
    } else if (type == "PLTE") {
      for (std::size_t i = 0; i + 2 < data.size(); i += 3) {
        d.palette.push_back({static_cast<std::uint8_t>(data[i]),
                             static_cast<std::uint8_t>(data[i + 1]),
                             static_cast<std::uint8_t>(data[i + 2])});
      }
    } else if (type == "IDAT") {
      idat += data;
    } else if (type == "IEND") {
      end = true;
    }
    at += 12 + len;
  }
  REQUIRE(end);
  REQUIRE(at == png.size());
  REQUIRE(d.bit_depth == 8);
  REQUIRE(d.color_type == 3);
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(d.height) * (d.width + 1));
  uLongf raw_size = raw.size();
  REQUIRE(uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()),
                     idat.size()) == Z_OK);
  REQUIRE(raw_size == raw.size());
  for (std::uint32_t y = 0; y < d.height; ++y) {
    REQUIRE(raw[y * (d.width + 1)] == 0);  // filter None
    d.pixels.insert(d.pixels.end(), raw.begin() + y * (d.width + 1) + 1,
                    raw.begin() + (y + 1) * (d.width + 1));
  }
  bool indexes_ok = std::all_of(d.pixels.begin(), d.pixels.end(),
                                [&](std::uint8_t p) { return p < d.palette.size(); });
  REQUIRE(indexes_ok);
  return d;
}

std::size_t count(const Decoded& d, std::array<std::uint8_t, 3> color) {
  std::size_t n = 0;
  for (auto p : d.pixels) n += d.palette[p] == color;
  return n;
}

}  // namespace

TEST_CASE("screenshot: a PNG of exactly the viewport, desktop and mobile", "[screenshot]") {
  auto doc = parse(load("article.html"));
  auto desktop = decode(formats::screenshot_png(doc, {}, 1920, 1080, false));
  CHECK(desktop.width == 1920);
  CHECK(desktop.height == 1080);
  auto mobile = decode(
      formats::screenshot_png(doc, {}, formats::kMobileWidth, formats::kMobileHeight, false));
  CHECK(mobile.width == 390);
  CHECK(mobile.height == 844);
  // Text is drawn: a good share of pixels are the text color, the rest the background.
  std::size_t ink = count(desktop, {0, 0, 0});
  CHECK(ink > 5000);
  CHECK(count(desktop, {255, 255, 255}) > desktop.pixels.size() / 2);
  CHECK(count(desktop, {0, 0, 0xEE}) > 0);  // the nav links in the default link color
}

TEST_CASE("screenshot: content depends on the page, same page, same bytes", "[screenshot]") {
  auto a = parse(load("article.html"));
  auto b = parse(load("product.html"));
  std::string pa = formats::screenshot_png(a, {}, 800, 600, false);
  std::string pb = formats::screenshot_png(b, {}, 800, 600, false);
  CHECK(pa == formats::screenshot_png(a, {}, 800, 600, false));
  auto da = decode(pa);
  auto db = decode(pb);
  REQUIRE(da.pixels.size() == db.pixels.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < da.pixels.size(); ++i) {
    differing += da.palette[da.pixels[i]] != db.palette[db.pixels[i]];
  }
  CHECK(differing > 1000);
}

TEST_CASE("screenshot: full page height, capped, scrolling moves the viewport", "[screenshot]") {
  std::string html = "<body>";
  for (int i = 0; i < 200; ++i)
    html += "<p>Paragraph number " + std::to_string(i) + " of a long page.</p>";
  auto doc = parse(html);
  int height = formats::page_height(doc, {}, 1024);
  CHECK(height > 3000);
  auto full = decode(formats::screenshot_png(doc, {}, 1024, 768, true));
  CHECK(full.width == 1024);
  CHECK(static_cast<int>(full.height) == height);

  std::string huge = "<body>";
  for (int i = 0; i < 3000; ++i) huge += "<p>Line " + std::to_string(i) + "</p>";
  auto capped = decode(formats::screenshot_png(parse(huge), {}, 400, 300, true));
  CHECK(capped.height == static_cast<std::uint32_t>(formats::kMaxScreenshotHeight));

  formats::ScreenshotOptions top, scrolled;
  top.viewport_width = scrolled.viewport_width = 1024;
  top.viewport_height = scrolled.viewport_height = 768;
  scrolled.scroll_y = 1500;
  CHECK(formats::screenshot_png(doc, {}, top) != formats::screenshot_png(doc, {}, scrolled));
  auto short_page = decode(formats::screenshot_png(parse("<p>hi</p>"), {}, 640, 480, true));
  CHECK(short_page.height == 480);  // never shorter than the viewport
}

TEST_CASE("screenshot: colors from branding, images as boxes, ads hidden", "[screenshot]") {
  auto dark = parse(
      "<style>body{background:#101820;color:#f2aa4c} a{color:#00ff00}</style>"
      "<h1>Dark</h1><p><a href='/x'>link</a></p><img src='/a.png' width='200' height='100' "
      "alt='pic'>");
  auto d = decode(formats::screenshot_png(dark, {}, 640, 480, false));
  CHECK(count(d, {0x10, 0x18, 0x20}) > d.pixels.size() / 2);
  CHECK(count(d, {0xF2, 0xAA, 0x4C}) > 100);
  CHECK(count(d, {0x00, 0xFF, 0x00}) > 20);

  std::string ad_page =
      "<p>Text</p><div class='ad-banner' data-ad-slot='1'><p>BUY BUY BUY BUY BUY</p></div>";
  webdata::mock::content::Options blocked, shown;
  shown.block_ads = false;
  CHECK(formats::screenshot_png(parse(ad_page), blocked, 400, 200, false) !=
        formats::screenshot_png(parse(ad_page), shown, 400, 200, false));
  CHECK(formats::data_uri_png("\x89PNG").rfind("data:image/png;base64,iVBORw", 0) == 0);
}
