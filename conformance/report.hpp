#pragma once

// What a run found, kept per test case by a Catch2 listener (report.cpp), and the reports made
// from it: the verdict of every rule, the "N passed, N failed, N skipped" line, JUnit XML (one
// <testcase> per case, <skipped message> for skips, <error> for stalled jobs, real times) and the
// verdicts as JSON.

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "classify.hpp"
#include "rules.hpp"

namespace webdata::conformance {

/// One failed check: the rule it belongs to (the innermost RULE(); empty when none was named)
/// and what Catch2 reported.
struct CheckFailure {
  std::string rule;
  std::string summary;  ///< One line: the check and its expansion.
  std::string detail;   ///< Location, expansion and every message.
};

struct CaseResult {
  /// Stalled: a job the case waited for made no progress (a finding of its own, never a failure
  /// of the rules the case would have judged).
  enum class Outcome { kPassed, kFailed, kSkipped, kStalled };
  std::string name;
  std::string group;              ///< The first tag that is no rule id ("crawl"), or "conformance".
  std::vector<std::string> tags;  ///< Every tag, the rule ids among them.
  double seconds = 0;
  Outcome outcome = Outcome::kPassed;
  std::string skip_reason;   ///< Why the case was skipped.
  std::string stall_reason;  ///< Which job stalled, with its counters.
  std::vector<CheckFailure> failures;
  std::vector<std::string> warnings;
  /// Every rule the case named: its rule tags, RULE(), CHECKS_RULES().
  std::set<std::string> rules;
  /// Assertions made under each rule (the innermost RULE() of each check, passed or failed).
  std::map<std::string, int> checks;
  /// Rules the case could not judge although it ran (skip_rule()), with the reason.
  std::map<std::string, std::string> skipped_rules;
};

/// Rules a case named without carrying the rule's tag (`--rule ID` would miss the case): a defect
/// of the suite, listed by the reports.
std::vector<std::string> untagged_rules(const CaseResult& result);

struct Counts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int stalled = 0;
};
Counts count(const std::vector<CaseResult>& cases);
/// "N passed, N failed, N skipped", and ", N stalled" when a job stalled.
std::string summary_line(const Counts& counts);

/// A rule's verdict over a run, the first that applies: failed when a failed check named it;
/// passed when a case that ran made a check on it (and did not skip_rule() it); stalled when a
/// case that would have checked it stopped at a stalled job; skipped (with the reasons) when
/// skipped cases named it; "not checked" when a case ran and named it but checked nothing about
/// it (never a pass); else not run (left out by the selection).
struct RuleVerdict {
  std::string verdict;  ///< "passed", "failed", "stalled", "skipped", "not checked", "not run".
  std::vector<std::string> cases;    ///< The cases that named it.
  std::vector<std::string> reasons;  ///< Failures (first of each case), stalls or skip reasons.
  int checks = 0;                    ///< Assertions made on it over the run.
};
std::map<std::string, RuleVerdict> rule_verdicts(const std::vector<CaseResult>& cases);

/// The verdict of every rule of rules.hpp, one a line, and failures that named no rule.
void print_verdicts(std::ostream& out, const std::vector<CaseResult>& cases);

/// A named capability of the target and what the precheck found.
struct CapabilityRow {
  std::string name;
  Presence presence = Presence::kAvailable;
  std::string detail;
};

struct RunInfo {
  std::string target;     ///< Base URL (the JUnit hostname).
  std::string site;       ///< The test site as the target reaches it.
  std::string timestamp;  ///< Start, ISO 8601 UTC.
  double seconds = 0;     ///< The whole run.
  std::vector<CapabilityRow> capabilities;
};

/// JUnit XML: one <testsuite> with one <testcase> per case; a stalled case is an <error>.
void write_junit(std::ostream& out, const RunInfo& run, const std::vector<CaseResult>& cases);
/// JUnit XML for a run the precheck stopped: one case "precheck" with an <error>.
void write_junit_precheck_error(std::ostream& out, const RunInfo& run, const std::string& message);
/// {"summary": {...}, "rules": {"ID": {"verdict", "cases", "reasons", "checks"}},
/// "failuresNamingNoRule", "untaggedRules", "capabilities": {"NAME": {"state", "detail"}}}.
void write_verdicts_json(std::ostream& out, const RunInfo& run,
                         const std::vector<CaseResult>& cases);

/// The results the listener collected in this run.
const std::vector<CaseResult>& recorded_cases();

}  // namespace webdata::conformance
