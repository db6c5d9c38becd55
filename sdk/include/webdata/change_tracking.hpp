#pragma once

#include <optional>
#include <string>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/time.hpp"

namespace webdata {

/// `changeTracking.diff`: deployments send either the unified diff text alone or
/// `{text, json}`; both land here.
struct ChangeTrackingDiff {
  std::string text;
  std::optional<Json> json;
  /// True when the service sent the diff as a bare string (kept for round trips).
  bool text_only = false;
};

/// `changeTracking` of a scrape document.
struct ChangeTracking {
  std::optional<Timestamp> previous_scrape_at;  ///< Absent for a first scrape.
  ChangeStatus change_status;
  Visibility visibility;
  std::optional<ChangeTrackingDiff> diff;
  std::optional<Json> json;
  Extras extras;
};

}  // namespace webdata
