#pragma once

#include <chrono>
#include <sstream>
#include <string>

#include "rules.hpp"

namespace webdata::conformance {

/// The deployment under test and how this runner is reached, as given on the command line.
struct Target {
  std::string base_url;
  std::string api_key;
  /// A key of a second team (optional): enables the "another team's job is 404" checks.
  std::string other_api_key;
  /// HOST:PORT under which the target reaches this runner's test site and webhook receiver.
  std::string site_host;
  /// Where the test site listens (for messages).
  std::string site_listen;
  /// The account's webhook secret; empty: signature values cannot be checked (a skip).
  std::string webhook_secret;
  std::string signature_header = "X-Service-Signature";
  /// Multiplies every wait of the suite (slow deployments, sanitizer builds).
  double timeout_scale = 1.0;
  /// Started by this runner (--spawn-mock) with its admin surface: [mock-only] cases run.
  bool is_mock = false;

  /// `base` scaled by --timeout-scale.
  std::chrono::milliseconds scaled(std::chrono::milliseconds base) const {
    return std::chrono::milliseconds(
        static_cast<long long>(static_cast<double>(base.count()) * timeout_scale));
  }
};

Target& target();

/// The running test case checks `rule` (recorded for the verdict table, also when the case is
/// skipped later).
void note_rule(const Rule& rule);
/// The running test case cannot judge `rule` although it goes on with others (a webhook case
/// without a signing deployment): the rule's verdict in this case is "skipped" with `reason`,
/// unless one of its checks fails.
void skip_rule(const Rule& rule, const std::string& reason);
/// Records that the running test case is skipped (a capability is absent or broken); the runner
/// counts it as skipped, never as passed. Capability skips read "capability <name>: <why>" or
/// "needs <name>, which is broken (see RULE)".
void mark_skipped(const std::string& reason);
/// Records that a job the running test case waited for stalled (support.cpp wait_job()).
void mark_stalled(const std::string& reason);
/// Whether the running test case has named `rule` so far.
bool case_names_rule(const Rule& rule);

/// "rule ID (docs/reference/SECTION): statement", as failures print it.
inline std::string rule_text(const Rule& rule) {
  std::ostringstream out;
  out << "rule " << rule.id << " (docs/reference/" << rule.section << "): " << rule.statement;
  return out.str();
}

}  // namespace webdata::conformance

/// Ends the current test case as skipped, with the reason in the report.
#define CONFORMANCE_SKIP(reason)                  \
  do {                                            \
    ::webdata::conformance::mark_skipped(reason); \
    WARN("SKIPPED: " << (reason));                \
    return;                                       \
  } while (false)

/// Names the rule the following assertions check (until the end of the enclosing block); a
/// failure prints the innermost rule, so a failing case says which rule the target broke. Use the
/// constants of rules.hpp.
#define RULE(rule)                         \
  ::webdata::conformance::note_rule(rule); \
  INFO(::webdata::conformance::rule_text(rule))

/// Declares rules the case checks further down, before a capability check may skip it, so that
/// the verdict table shows them as skipped rather than not run.
#define CHECKS_RULES(...)                                             \
  do {                                                                \
    for (const ::webdata::conformance::Rule* rule_ : {__VA_ARGS__}) { \
      ::webdata::conformance::note_rule(*rule_);                      \
    }                                                                 \
  } while (false)
