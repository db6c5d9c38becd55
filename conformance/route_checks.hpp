#pragma once

// Checks shared by the cases of the routes beyond the core (extract, monitors, browser sessions):
// a refusal of a bad body, an unknown id.

#include <string>

#include "support.hpp"

namespace webdata::conformance {

/// An id no deployment has given out.
inline const char* const kNoSuchId = "00000000-0000-4000-8000-000000000000";

/// Whether one of the validation issues in `body`'s `details` has a path starting at `field`.
inline bool details_name(const json& body, const std::string& field) {
  const json details = body.is_object() ? body.value("details", json()) : json();
  if (!details.is_array()) return false;
  for (const auto& issue : details) {
    const json path = issue.is_object() ? issue.value("path", json::array()) : json();
    if (path.is_array() && !path.empty() && path.at(0) == field) return true;
  }
  return false;
}

/// A 400 JSON error answer whose details name `field`.
inline void check_refused(const ApiResponse& res, const std::string& field) {
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 400);
  CHECK_SCHEMA("common/error", res.body_json);
  CHECK(res.body_json.value("success", true) == false);
  INFO("details naming " << field);
  CHECK(details_name(res.body_json, field));
}

/// A 404 JSON error answer (an unknown id).
inline void check_not_found(const std::string& what, const ApiResponse& res) {
  INFO(what << ": " << res.describe());
  CHECK_JSON_ANSWER(res);
  CHECK(res.status == 404);
  CHECK_ANSWER_SCHEMA(res, "common/error");
  CHECK(res.body_json.value("success", true) == false);
}

}  // namespace webdata::conformance
