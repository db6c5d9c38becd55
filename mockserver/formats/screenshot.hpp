#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "content/document.hpp"

namespace webdata::mock::formats {

inline constexpr int kDesktopWidth = 1920;
inline constexpr int kDesktopHeight = 1080;
inline constexpr int kMobileWidth = 390;
inline constexpr int kMobileHeight = 844;
/// Full-page screenshots are cut at this height (and viewports are clamped to it).
inline constexpr int kMaxScreenshotHeight = 16384;
inline constexpr int kMaxScreenshotWidth = 4096;

struct ScreenshotOptions {
  int viewport_width = kDesktopWidth;
  int viewport_height = kDesktopHeight;
  bool full_page = false;  ///< the whole page's height (capped), not the viewport
  int scroll_y = 0;        ///< top of the viewport in page pixels (actions: scroll)
  /// Current values of form controls by node id (actions: write), drawn in their boxes.
  std::map<std::size_t, std::string> form_values;
};

/// The `screenshot` format: a PNG rendering of the page's text layout. Not a browser: block
/// elements stack, text wraps at the viewport width with a built-in 5x7 bitmap font (headings
/// larger and bold, links in the link color, list bullets, table rows as "a | b"), images and
/// form controls are bordered boxes (images sized by their width/height attributes, else
/// 300x150), colors come from branding(). Scripts, styles, hidden elements and (with blockAds)
/// ads are not drawn. The PNG is exactly viewport_width x viewport_height (each clamped to
/// 1..kMaxScreenshot*), or for full_page the layout's height (at least the viewport's, at most
/// kMaxScreenshotHeight). Deterministic and thread-safe.
std::string screenshot_png(const content::Document& doc, const content::Options& options,
                           const ScreenshotOptions& screenshot);

/// The same with the common arguments (1920x1080 desktop, 390x844 mobile).
std::string screenshot_png(const content::Document& doc, const content::Options& options,
                           int viewport_width, int viewport_height, bool full_page);

/// "data:image/png;base64,..." (what the scrape document carries).
std::string data_uri_png(const std::string& png);

/// Where an element starts in the page layout (pixels from the top) for a viewport width;
/// -1 when it is not drawn. For scrolling to a selector. `node_id` is the element's pre-order
/// index in the page's DOM.
int element_offset(const content::Document& doc, const content::Options& options,
                   int viewport_width, std::size_t node_id);
/// The layout's full height for a viewport width.
int page_height(const content::Document& doc, const content::Options& options, int viewport_width);

}  // namespace webdata::mock::formats
