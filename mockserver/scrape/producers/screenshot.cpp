// screenshot: a PNG of the page as a browser of the request's viewport would draw it, as a data
// URI.
#include "formats/screenshot.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

namespace {

formats::ScreenshotOptions shot_of(const requests::ScrapeOptions& options,
                                   const requests::ScreenshotSpec& wanted) {
  formats::ScreenshotOptions shot;
  shot.viewport_width = options.mobile ? formats::kMobileWidth : formats::kDesktopWidth;
  shot.viewport_height = options.mobile ? formats::kMobileHeight : formats::kDesktopHeight;
  shot.full_page = wanted.full_page;
  if (wanted.viewport) {
    shot.viewport_width = static_cast<int>(wanted.viewport->width);
    shot.viewport_height = static_cast<int>(wanted.viewport->height);
  }
  return shot;
}

}  // namespace

std::optional<Failure> screenshot(const FormatInput& in, const Row& row, nlohmann::json& data,
                                  std::int64_t&) {
  const auto wanted = in.options.screenshot();
  if (!wanted) return std::nullopt;
  if (in.no_screenshot) {
    // --inject-fault no-screenshot: the warning of an engine that cannot take screenshots.
    data["warning"] =
        "The engine used does not support the following features: screenshot -- your scrape may "
        "be partial.";
    return std::nullopt;
  }
  data[row.field] = formats::data_uri_png(
      formats::screenshot_png(in.page.document(), in.page.options(), shot_of(in.options, *wanted)));
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
