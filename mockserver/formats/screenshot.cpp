#include "formats/screenshot.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "content/pipeline.hpp"
#include "core/base64.hpp"
#include "formats/branding.hpp"
#include "formats/css.hpp"
#include "formats/font.hpp"
#include "formats/png.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

using detail::dom::Node;

enum Color : std::uint8_t { kBackground = 0, kText = 1, kLink = 2, kBorder = 3, kFill = 4 };

struct Glyph {
  int x, y, scale;
  char32_t cp;
  std::uint8_t color;
  bool bold;
};
struct Rect {
  int x, y, w, h;
  std::uint8_t color;
  bool outline;
};

struct Cell {
  char32_t cp;
  std::uint8_t color;
  bool bold;
};

struct Layout {
  int width = 0;
  int height = 0;
  std::vector<Glyph> glyphs;
  std::vector<Rect> rects;
  std::map<std::size_t, int> element_top;
};

class LayoutBuilder {
 public:
  LayoutBuilder(const content::Parsed& parsed, const content::View& view, int width,
                const std::map<std::size_t, std::string>& values)
      : parsed_(parsed), view_(view), values_(values) {
    out_.width = width;
    unit_ = width >= 800 ? 2 : 1;
    margin_ = 8 * unit_;
    y_ = margin_;
  }

  Layout run() {
    const Node* body = parsed_.tree.body != nullptr ? parsed_.tree.body : parsed_.tree.document;
    walk(*body, 0);
    flush();
    out_.height = y_ + margin_;
    return std::move(out_);
  }

 private:
  bool full() const { return y_ > kMaxScreenshotHeight; }

  void add_text(std::string_view text, bool pre) {
    std::size_t i = 0;
    while (i < text.size()) {
      char32_t cp = detail::next_code_point(text, i);
      if (!pre && (cp == ' ' || cp == '\n' || cp == '\t' || cp == '\r' || cp == '\f')) {
        if (!cells_.empty() && cells_.back().cp != ' ') cells_.push_back({' ', color(), bold()});
        continue;
      }
      cells_.push_back({cp, color(), bold()});
    }
  }

  std::uint8_t color() const { return link_depth_ > 0 ? kLink : kText; }
  bool bold() const { return bold_depth_ > 0; }

  // Lays out the pending inline content as wrapped lines at the current scale.
  void flush() {
    while (!cells_.empty() && cells_.back().cp == ' ') cells_.pop_back();
    if (cells_.empty()) return;
    int scale = unit_ * scale_;
    int cell_w = detail::kCellWidth * scale;
    int line_h = detail::kCellHeight * scale + 4 * unit_;
    int x0 = margin_ + indent_ * 4 * detail::kCellWidth * unit_;
    int per_line = std::max(1, (out_.width - margin_ - x0) / cell_w);
    std::size_t start = 0;
    while (start < cells_.size() && !full()) {
      std::size_t end = start;
      std::size_t last_space = std::string::npos;
      while (end < cells_.size() && static_cast<int>(end - start) < per_line) {
        if (cells_[end].cp == '\n' && pre_depth_ > 0) break;
        if (cells_[end].cp == ' ') last_space = end;
        ++end;
      }
      std::size_t next = end;
      if (end < cells_.size() && cells_[end].cp == '\n') {
        next = end + 1;
      } else if (end < cells_.size() && pre_depth_ == 0 && last_space != std::string::npos &&
                 last_space > start) {
        end = last_space;
        next = last_space + 1;
      }
      for (std::size_t k = start; k < end; ++k) {
        if (cells_[k].cp == ' ') continue;
        out_.glyphs.push_back({x0 + static_cast<int>(k - start) * cell_w, y_, scale, cells_[k].cp,
                               cells_[k].color, cells_[k].bold});
      }
      y_ += line_h;
      start = next;
    }
    y_ += 4 * unit_;
    cells_.clear();
  }

  void box(const Node& n, int w, int h, const std::string& label) {
    flush();
    int x0 = margin_ + indent_ * 4 * detail::kCellWidth * unit_;
    int max_w = out_.width - margin_ - x0;
    if (max_w <= 4) return;
    if (w > max_w) {
      h = static_cast<int>(static_cast<long>(h) * max_w / w);
      w = max_w;
    }
    w = std::max(w, 4);
    h = std::max(h, 4);
    out_.element_top[n.id] = y_;
    out_.rects.push_back({x0, y_, w, h, kFill, false});
    out_.rects.push_back({x0, y_, w, h, kBorder, true});
    int scale = unit_;
    int cell_w = detail::kCellWidth * scale;
    int chars = (w - 8) / cell_w;
    if (!label.empty() && chars > 0 && h >= detail::kCellHeight * scale + 4) {
      std::size_t i = 0;
      int k = 0;
      while (i < label.size() && k < chars) {
        char32_t cp = detail::next_code_point(label, i);
        out_.glyphs.push_back({x0 + 4 + k * cell_w, y_ + (h - detail::kCellHeight * scale) / 2,
                               scale, cp, kText, false});
        ++k;
      }
    }
    y_ += h + 8 * unit_;
  }

  static int attr_int(const Node& n, const char* name, int fallback) {
    const std::string* v = n.attr(name);
    if (v == nullptr) return fallback;
    int out = 0;
    bool any = false;
    for (char c : *v) {
      if (c < '0' || c > '9') break;
      out = std::min(out * 10 + (c - '0'), 100000);
      any = true;
    }
    return any && out > 0 ? out : fallback;
  }

  void walk(const Node& n, int depth) {
    if (full() || depth > 600) return;
    if (n.type == detail::dom::NodeType::kText) {
      add_text(n.text, pre_depth_ > 0);
      return;
    }
    if (!n.is_element()) return;
    if (view_.is_removed(n) || (n.parent != nullptr && detail::is_invisible(n))) return;
    const std::string& tag = n.name;
    bool block = content::is_block_element(n) || n.is("tr") || n.is("li");
    if (block) flush();
    out_.element_top[n.id] = y_;
    if (n.is("img")) {
      const std::string* alt = n.attr("alt");
      box(n, attr_int(n, "width", 300), attr_int(n, "height", 150), alt != nullptr ? *alt : "");
      return;
    }
    if (n.is("input") || n.is("textarea") || n.is("select")) {
      std::string value;
      auto it = values_.find(n.id);
      if (it != values_.end())
        value = it->second;
      else if (const std::string* v = n.attr("value"))
        value = *v;
      else if (const std::string* p = n.attr("placeholder"))
        value = *p;
      const std::string* type = n.attr("type");
      if (type != nullptr && (*type == "submit" || *type == "button") && value.empty())
        value = "Submit";
      int h = detail::kCellHeight * unit_ + 8 * unit_;
      box(n, n.is("textarea") ? 400 : 240, n.is("textarea") ? h * 3 : h, value);
      return;
    }
    if (n.is("hr")) {
      flush();
      out_.rects.push_back(
          {margin_, y_ + 4 * unit_, out_.width - 2 * margin_, unit_, kBorder, false});
      y_ += 12 * unit_;
      return;
    }
    if (n.is("br")) {
      if (pre_depth_ > 0)
        cells_.push_back({'\n', color(), bold()});
      else
        flush();
      return;
    }
    int saved_scale = scale_;
    bool heading = tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6';
    if (heading) scale_ = tag[1] == '1' ? 3 : tag[1] == '2' ? 2 : 1;
    bool strong = heading || n.is("strong") || n.is("b") || n.is("th") || n.is("button");
    bool link = n.is("a") && n.has_attr("href");
    bool list = n.is("ul") || n.is("ol");
    bool pre = n.is("pre");
    if (strong) ++bold_depth_;
    if (link) ++link_depth_;
    if (list) ++indent_;
    if (pre) ++pre_depth_;
    if (n.is("li")) {
      const Node* parent = n.parent;
      if (parent != nullptr && parent->is("ol")) {
        int index = 1;
        for (const Node* c : parent->children) {
          if (c == &n) break;
          if (c->is("li")) ++index;
        }
        add_text(std::to_string(index) + ". ", true);
      } else {
        add_text("* ", true);
      }
    }
    if ((n.is("td") || n.is("th")) && n.parent != nullptr) {
      for (const Node* c : n.parent->children) {
        if (c == &n) break;
        if (c->is("td") || c->is("th")) {
          add_text(" | ", true);
          break;
        }
      }
    }
    if (n.is("button")) add_text("[ ", true);
    for (const Node* c : n.children) walk(*c, depth + 1);
    if (n.is("button")) add_text(" ]", true);
    if (strong) --bold_depth_;
    if (link) --link_depth_;
    if (list) --indent_;
    if (block || heading) flush();
    if (pre) --pre_depth_;
    scale_ = saved_scale;
  }

  const content::Parsed& parsed_;
  const content::View& view_;
  const std::map<std::size_t, std::string>& values_;
  Layout out_;
  std::vector<Cell> cells_;
  int unit_ = 1;
  int margin_ = 8;
  int y_ = 0;
  int scale_ = 1;
  int indent_ = 0;
  int bold_depth_ = 0;
  int link_depth_ = 0;
  int pre_depth_ = 0;
};

Layout layout(const content::Document& doc, const content::Options& options, int width,
              const std::map<std::size_t, std::string>& values) {
  const content::Parsed& parsed = doc.parsed();  // the page's own tree and figures, no parse
  // The whole page as a browser shows it; ads hidden when the scrape blocks them.
  content::Options view_options;
  view_options.only_main_content = false;
  view_options.block_ads = options.block_ads;
  view_options.remove_base64_images = false;
  content::View view = content::make_view(parsed, view_options);
  return LayoutBuilder(parsed, view, width, values).run();
}

std::array<std::uint8_t, 3> rgb_of(const nlohmann::json& colors, const char* key,
                                   std::array<std::uint8_t, 3> fallback) {
  if (!colors.contains(key) || !colors[key].is_string()) return fallback;
  auto c = detail::parse_color(colors[key].get<std::string>());
  if (!c) return fallback;
  return {c->r, c->g, c->b};
}

std::array<std::uint8_t, 3> mix(const std::array<std::uint8_t, 3>& a,
                                const std::array<std::uint8_t, 3>& b, int percent_b) {
  std::array<std::uint8_t, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    out[i] = static_cast<std::uint8_t>((a[i] * (100 - percent_b) + b[i] * percent_b) / 100);
  }
  return out;
}

}  // namespace

std::string screenshot_png(const content::Document& doc, const content::Options& options,
                           const ScreenshotOptions& shot) {
  int width = std::clamp(shot.viewport_width, 1, kMaxScreenshotWidth);
  int viewport_height = std::clamp(shot.viewport_height, 1, kMaxScreenshotHeight);
  Layout page = layout(doc, options, width, shot.form_values);
  int height = shot.full_page ? std::clamp(page.height, viewport_height, kMaxScreenshotHeight)
                              : viewport_height;
  int top = 0;
  if (!shot.full_page)
    top = std::clamp(shot.scroll_y, 0, std::max(0, page.height - viewport_height));

  nlohmann::json colors = branding(doc)["colors"];
  auto background = rgb_of(colors, "background", {255, 255, 255});
  auto text = rgb_of(colors, "textPrimary", {0, 0, 0});
  std::vector<std::array<std::uint8_t, 3>> palette = {
      background, text, rgb_of(colors, "link", {0, 0, 0xEE}), mix(background, text, 45),
      mix(background, text, 10)};

  std::vector<std::uint8_t> pixels(
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height), kBackground);
  auto plot = [&](int x, int y, std::uint8_t c) {
    y -= top;
    if (x >= 0 && x < width && y >= 0 && y < height) {
      pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
             static_cast<std::size_t>(x)] = c;
    }
  };
  for (const auto& r : page.rects) {
    if (r.y + r.h < top || r.y >= top + height) continue;
    for (int y = r.y; y < r.y + r.h; ++y) {
      if (y < top || y >= top + height) continue;
      for (int x = r.x; x < r.x + r.w; ++x) {
        bool edge = y == r.y || y == r.y + r.h - 1 || x == r.x || x == r.x + r.w - 1;
        if (!r.outline || edge) plot(x, y, r.color);
      }
    }
  }
  for (const auto& g : page.glyphs) {
    int glyph_h = detail::kCellHeight * g.scale;
    if (g.y + glyph_h < top || g.y >= top + height) continue;
    auto rows = detail::glyph(g.cp);
    for (int row = 0; row < detail::kGlyphHeight; ++row) {
      for (int col = 0; col < detail::kGlyphWidth; ++col) {
        if ((rows[static_cast<std::size_t>(row)] & (0x10 >> col)) == 0) continue;
        for (int dy = 0; dy < g.scale; ++dy) {
          for (int dx = 0; dx < g.scale + (g.bold ? 1 : 0); ++dx) {
            plot(g.x + col * g.scale + dx, g.y + row * g.scale + dy, g.color);
          }
        }
      }
    }
  }
  return detail::encode_png(width, height, pixels, palette);
}

std::string screenshot_png(const content::Document& doc, const content::Options& options,
                           int viewport_width, int viewport_height, bool full_page) {
  ScreenshotOptions shot;
  shot.viewport_width = viewport_width;
  shot.viewport_height = viewport_height;
  shot.full_page = full_page;
  return screenshot_png(doc, options, shot);
}

std::string data_uri_png(const std::string& png) {
  return "data:image/png;base64," + base64_encode(png);
}

int element_offset(const content::Document& doc, const content::Options& options,
                   int viewport_width, std::size_t node_id) {
  Layout page = layout(doc, options, std::clamp(viewport_width, 1, kMaxScreenshotWidth), {});
  auto it = page.element_top.find(node_id);
  return it == page.element_top.end() ? -1 : it->second;
}

int page_height(const content::Document& doc, const content::Options& options, int viewport_width) {
  return layout(doc, options, std::clamp(viewport_width, 1, kMaxScreenshotWidth), {}).height;
}

}  // namespace webdata::mock::formats
