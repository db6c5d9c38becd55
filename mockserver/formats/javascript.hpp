#pragma once

// Internal: the executeJavascript action's evaluator. Not a JavaScript engine: a small
// expression language over the page's DOM that covers what scraping scripts ask for.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "formats/tree.hpp"

namespace webdata::mock::formats::detail {

/// What a script can see and change.
struct JsPage {
  const Html& html;
  std::string url;
  std::string title;
  int viewport_width = 0;
  int viewport_height = 0;
  int page_height = 0;
  const std::map<std::size_t, std::string>& values;  ///< form values typed so far
  int scroll_y = 0;                                  ///< in/out: window.scrollTo / scrollBy
  std::optional<std::size_t> click;                  ///< out: element.click() (run afterwards)
};

/// Evaluates statements separated by ';' or newlines; the value is that of a `return`
/// statement, else of the last expression statement. Supported:
/// literals (strings, numbers, true/false/null/undefined), `+`, parentheses;
/// window.{location, document, innerWidth, innerHeight, scrollY, pageYOffset, scrollTo(x, y),
/// scrollBy(x, y)}; document.{title, URL, documentURI, domain, readyState, location, body, head,
/// documentElement, querySelector(s), querySelectorAll(s), getElementById(id),
/// getElementsByTagName(t), getElementsByClassName(c)}; location.{href, protocol, host,
/// hostname, pathname, search, hash, origin}; elements: textContent, innerText, tagName, id,
/// className, href, src, value, children, scrollHeight / clientHeight / scrollTop (body and
/// html), getAttribute(n), hasAttribute(n), querySelector(s),
/// querySelectorAll(s), click(), scrollIntoView(); lists: length, [i], item(i); strings:
/// length, trim(), toUpperCase(), toLowerCase(); JSON.stringify(v).
/// Returns {type, value} as the action result wants it (type as JS `typeof`; elements are
/// objects serialized as {}), or an error message naming what is not supported.
struct JsOutcome {
  std::optional<nlohmann::json> result;
  std::string error;
};
JsOutcome evaluate_javascript(std::string_view script, JsPage& page);

}  // namespace webdata::mock::formats::detail
