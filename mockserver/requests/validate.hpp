#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

// The checks a request body passes before it is decoded (requests.hpp): the mock's limits, the
// service's URL rules, the schema, and the service's rules between fields. What they refuse is
// said in the service's words (Zod 3 issues, the texts the recorded deployment answers); the
// mock's own, path-prefixed text of the first issue goes in `hint`.

namespace webdata::mock::requests {

/// A refused body: the answer's `error`, `details` (Zod issues) and the mock's `hint`.
struct Refusal {
  std::string error;
  nlohmann::json details = nlohmann::json::array();
  std::string hint;
};

/// How strictly a body is read beyond its schema.
struct Rules {
  /// As the Aug-2025 build read bodies (--inject-fault baseline-validation): v2 format types as
  /// it knew them (markdown, html, rawHtml, links, summary, json, changeTracking, screenshot), any
  /// newer type refused as unknown in its union's words; and no maximum for a scrape's timeout.
  bool aug_2025 = false;
};

/// Checks `body` against request schema `schema` ("v2/scrape.request"): nullopt when accepted,
/// and then `body` holds what is decoded: page URLs written as the service reads them (with
/// `http://` when they named no scheme) and every schema default filled in.
std::optional<Refusal> validate(const std::string& schema, nlohmann::json& body,
                                const Rules& rules = {});

/// The service's rules for a page URL, in its order (scheme added, a URL at all, http(s), a
/// top-level domain or a path, fetchable), as issues at `path`; empty when `text` is usable.
/// Hosts that are IP addresses or `localhost` are usable too (the newer service takes IP
/// addresses; the mock's users point it at local servers).
nlohmann::json url_issues(const std::string& text, const nlohmann::json& path);
/// `text` with `http://` in front when it names no scheme and is usable that way; else as sent.
std::string url_as_read(const std::string& text);

}  // namespace webdata::mock::requests
