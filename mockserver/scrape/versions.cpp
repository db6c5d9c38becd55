#include "scrape/versions.hpp"

namespace webdata::mock::scrape {

namespace {

constexpr VersionRules kVersionRules[] = {
    //  version                  bit  lockdown  screenshot_needs_browser
    {requests::Version::v1, kV1, false, true},
    {requests::Version::v2, kV2, true, false},
};

}  // namespace

const VersionRules& rules_of(requests::Version version) {
  for (const VersionRules& rules : kVersionRules) {
    if (rules.version == version) return rules;
  }
  return kVersionRules[1];
}

}  // namespace webdata::mock::scrape
