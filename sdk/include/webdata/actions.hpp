#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "webdata/formats.hpp"
#include "webdata/open_enum.hpp"

namespace webdata {

/// One browser action run before capture. Build it with the factories; only the fields of
/// the kind are sent.
///
///     req.actions = {webdata::Action::wait(std::chrono::milliseconds(500)),
///                    webdata::Action::click("#more"), webdata::Action::scrape()};
struct Action {
  ActionType type;
  std::optional<std::chrono::milliseconds> milliseconds;  ///< wait (by duration)
  std::optional<std::string> selector;                    ///< wait (for element), click, scroll
  std::optional<bool> all;                                ///< click: every match
  std::optional<std::string> text;                        ///< write
  std::optional<std::string> key;                         ///< press
  std::optional<std::string> direction;                   ///< scroll: "up" or "down"
  std::optional<bool> full_page;                          ///< screenshot
  std::optional<int> quality;                             ///< screenshot
  std::optional<Viewport> viewport;                       ///< screenshot
  std::optional<std::string> script;                      ///< executeJavascript
  std::optional<std::string> format;  ///< pdf: paper format, e.g. "A4", "Letter"
  std::optional<bool> landscape;      ///< pdf
  std::optional<double> scale;        ///< pdf

  static Action wait(std::chrono::milliseconds duration);
  /// Wait until `css_selector` matches (v2 "Wait for Element"; v1 first wait action).
  static Action wait_for(std::string css_selector);
  static Action click(std::string css_selector, std::optional<bool> all = std::nullopt);
  static Action write(std::string text);
  static Action press(std::string key);
  static Action scroll(std::string direction, std::optional<std::string> css_selector = {});
  static Action screenshot(std::optional<bool> full_page = {}, std::optional<int> quality = {},
                           std::optional<Viewport> viewport = {});
  static Action scrape();
  static Action execute_javascript(std::string script);
  static Action pdf(std::optional<std::string> format = {}, std::optional<bool> landscape = {},
                    std::optional<double> scale = {});
};

}  // namespace webdata
