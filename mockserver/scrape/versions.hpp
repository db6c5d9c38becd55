#pragma once

// Where the API versions differ inside the scrape pipeline, as data: one row per version, read
// by the stages instead of tests of the version in code. How a request's fields differ is the
// requests layer's (ScrapeOptions' methods); which formats a version has, and the field each
// answers in, are the format registry's rows (producers/registry.cpp).

#include "requests/version.hpp"

namespace webdata::mock::scrape {

/// A set of versions, as a mask of their bits.
enum VersionMask : unsigned { kV1 = 1u, kV2 = 2u, kBothVersions = kV1 | kV2 };

struct VersionRules {
  requests::Version version;
  VersionMask bit;
  /// `lockdown` serves only cached pages (a v2 option; v1 has none).
  bool has_lockdown;
  /// Without a browser (--imitate no-browser) a screenshot fails the whole scrape, as v1's
  /// fetch engine does, instead of being left out with a warning, as v2 does.
  bool screenshot_needs_browser;
};

const VersionRules& rules_of(requests::Version version);

}  // namespace webdata::mock::scrape
