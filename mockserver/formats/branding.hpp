#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// The v2 `branding` format (wire-decisions 7), from the page's CSS and markup:
///   {colorScheme: light|dark, colors: {primary, secondary, accent, background, textPrimary, link},
///    fonts: [{family}], typography: {fontFamilies: {primary, heading}}, logo,
///    images: {logo, favicon, ogImage}}
/// CSS is read from every <style> element and style attribute of the page plus `extra_css`
/// (linked stylesheets the caller fetched, see stylesheet_urls). Colors are "#RRGGBB".
/// - background / textPrimary / link: `body` / `html` / `:root` and `a` rules, then custom
///   properties (--background, --bg, --foreground, --text, --link...), then the browser defaults
///   (#FFFFFF, #000000, #0000EE);
/// - primary / secondary / accent: custom properties named so (or --brand), then button and
///   call-to-action backgrounds, then the most used saturated colors; a missing one repeats the
///   one before it (primary falls back to the link color);
/// - colorScheme: dark when the background's luminance is below 0.5 (or `color-scheme: dark`
///   without a background);
/// - fonts: every declared family (font-family, @font-face, Google Fonts links), generic
///   families left out; typography: the body's and the headings' first family (null when the page
///   declares none);
/// - logo: the first <img> whose class, id, alt or src (or an ancestor's class or id) says
///   "logo", absolute; null when none. favicon and ogImage as in metadata, absolute, or null.
/// Deterministic and thread-safe.
nlohmann::json branding(const content::Document& doc, const std::string& extra_css = "");

/// Absolute URLs of the page's <link rel=stylesheet> elements, in document order.
std::vector<std::string> stylesheet_urls(const content::Document& doc);

}  // namespace webdata::mock::formats
