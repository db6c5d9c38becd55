#pragma once

// The precheck that runs before any test case: is the target reachable, can it fetch this
// runner's test site, and which optional capabilities does it offer. A target that cannot fetch
// the site would fail dozens of cases for one reason, so the run stops with that reason instead
// (named from the deployment's own answer, classify.hpp); an absent capability turns the cases
// that need it into named skips, a broken one fails its own rule once.

#include <ostream>
#include <string>
#include <vector>

#include "report.hpp"

namespace webdata::conformance {

struct PrecheckOutcome {
  bool ok = true;
  std::string message;  ///< Why the run must stop (when not ok), naming the cause.
};

/// Runs the precheck and prints what it found (reachability, then the capability table) to
/// `out`. Fills what capability() answers.
PrecheckOutcome run_precheck(std::ostream& out);

/// The capabilities found, in the order of the table (for the reports).
std::vector<CapabilityRow> capability_rows();

}  // namespace webdata::conformance
