#pragma once

#include <chrono>
#include <string>

namespace webdata::conformance {

/// The deployment under test and how this runner is reached, as given on the command line.
struct Target {
  std::string base_url;
  std::string api_key;
  /// A key of a second team (optional): enables the "another team's job is 404" checks.
  std::string other_api_key;
  /// HOST:PORT under which the target reaches this runner's test site and webhook receiver.
  std::string site_host;
  /// The account's webhook secret; empty: signature values cannot be checked (a skip).
  std::string webhook_secret;
  std::string signature_header = "X-Service-Signature";
  /// Multiplies every wait of the suite (slow deployments, sanitizer builds).
  double timeout_scale = 1.0;
  bool is_mock = false;  ///< Started by this runner (--spawn-mock): [mock-only] tests run.

  /// `base` scaled by --timeout-scale.
  std::chrono::milliseconds scaled(std::chrono::milliseconds base) const {
    return std::chrono::milliseconds(
        static_cast<long long>(static_cast<double>(base.count()) * timeout_scale));
  }
};

Target& target();

/// Records that the running test case is skipped (capability missing, mock-only test against
/// a live deployment); the runner counts it as skipped, never as passed.
void mark_skipped(const std::string& reason);
bool take_skipped();

}  // namespace webdata::conformance

/// Ends the current test case as skipped, with the reason in the report.
#define CONFORMANCE_SKIP(reason)                  \
  do {                                            \
    ::webdata::conformance::mark_skipped(reason); \
    WARN("SKIPPED: " << (reason));                \
    return;                                       \
  } while (false)

/// Names the rule the following assertions check; printed with every failure, so a failing
/// case says which rule of the contract the target broke. Use the ids of rules.hpp.
#define RULE(id) INFO("rule " << (id))

/// Skips the test case unless the target is a mock this runner started (admin surface).
#define REQUIRE_MOCK()                                                                          \
  do {                                                                                          \
    if (!::webdata::conformance::target().is_mock)                                              \
      CONFORMANCE_SKIP("[mock-only]: needs the webdata-mock /__admin/ surface (--spawn-mock)"); \
  } while (false)
