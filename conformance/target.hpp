#pragma once

#include <string>

namespace webdata::conformance {

/// The deployment under test, as given on the command line.
struct Target {
  std::string base_url;
  std::string api_key;
  bool is_mock = false;  ///< Started by this runner (--spawn-mock): [mock-only] tests run.
};

Target& target();

/// Records that the running test case is skipped (capability missing, mock-only test against
/// a live deployment); the runner counts it as skipped, never as passed.
void mark_skipped(const std::string& reason);
bool take_skipped();

}  // namespace webdata::conformance

/// Ends the current test case as skipped, with the reason in the report.
#define CONFORMANCE_SKIP(reason)                                \
  do {                                                          \
    ::webdata::conformance::mark_skipped(reason);               \
    WARN("SKIPPED: " << (reason));                              \
    return;                                                     \
  } while (false)

namespace webdata::conformance {

}  // namespace webdata::conformance
