#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// Fetches an absolute http(s) URL for a link click or a GET form submission (the virtual web);
/// nullopt when it cannot be fetched.
using Navigator = std::function<std::optional<content::Page>(const std::string& absolute_url)>;

struct ActionSettings {
  int viewport_width = 1920;  ///< 390 x 844 when the scrape is `mobile`
  int viewport_height = 1080;
  content::Options options;  ///< the scrape's content options (blockAds hides ads in screenshots)
  std::size_t max_actions = 50;
  std::chrono::milliseconds max_total_wait{60000};
};

/// A failed action: the scrape answers SCRAPE_ACTION_ERROR with this message.
struct ActionError {
  std::size_t index = 0;  ///< 0-based position of the failing action
  std::string message;    ///< "action 2 (click): no element matches selector \"#buy\""
  std::string code = "SCRAPE_ACTION_ERROR";
};

struct ActionsOutcome {
  /// {screenshots: [data URIs], scrapes: [{url, html}], javascriptReturns: [{type, value?}],
  ///  pdfs: [data URIs]}, each in the order of its actions (wire-decisions 7).
  nlohmann::json result;
  content::Page final_page;  ///< the page after the actions: the scrape's formats come from it
  std::chrono::milliseconds waited{0};  ///< sum of wait.milliseconds (not slept: account it)
  std::optional<ActionError> error;     ///< set: the scrape fails; result holds what ran before
};

/// Runs v2 / v1 action lists against a parsed page, in order (spec 2.6):
/// - wait {milliseconds}: accounted in `waited`, never slept; over max_total_wait in total fails.
///   wait {selector}: the selector must match now (a static page never changes by waiting).
/// - click {selector, all?}: the element (or every one with all) must exist. A link (or an
///   element inside one) navigates through the Navigator; a form field gets the focus; a submit
///   button submits its form; a checkbox / radio toggles; a label focuses its control.
/// - write {text}: types into the focused field (click it first), appending to its value.
/// - press {key}: Enter submits the focused field's form (GET forms navigate to
///   action?name=value..., POST forms fail: they need a browser); Tab moves the focus; Backspace
///   deletes; a single character types; PageDown / PageUp / End / Home / Space scroll; other
///   keys do nothing.
/// - scroll {direction up|down, selector?}: by one viewport, or to the element.
/// - screenshot {fullPage, viewport}: a PNG data URI of the current page, scroll position and
///   typed values into `screenshots`.
/// - scrape: {url, html} of the current page (the body as fetched) into `scrapes`.
/// - executeJavascript {script}: evaluated by the small evaluator documented in
///   docs/mockserver/model-formats.md; {type, value} into `javascriptReturns`; an unsupported
///   script fails the action with a message naming the construct.
/// - pdf {format, landscape, scale}: a PDF data URI of the current page into `pdfs`.
/// More than max_actions actions, an unknown type or a bad selector fail with the index.
/// Thread-safe (no shared state); the Navigator is called from the calling thread.
class ActionRunner {
 public:
  ActionRunner(Navigator navigate, ActionSettings settings);

  ActionsOutcome run(const content::Page& start, const nlohmann::json& actions) const;

 private:
  Navigator navigate_;
  ActionSettings settings_;
};

}  // namespace webdata::mock::formats
