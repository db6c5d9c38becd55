#pragma once

// What a run found, kept per test case by a Catch2 listener (report.cpp), and the reports made
// from it: the verdict of every rule, the "N passed, N failed, N skipped" line, JUnit XML (one
// <testcase> per case, <skipped message> for skips, real times) and the verdicts as JSON.

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

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
  enum class Outcome { kPassed, kFailed, kSkipped };
  std::string name;
  std::string group;  ///< The first tag ("crawl"), or "conformance".
  double seconds = 0;
  Outcome outcome = Outcome::kPassed;
  std::string skip_reason;
  std::vector<CheckFailure> failures;
  std::vector<std::string> warnings;
  std::set<std::string> rules;  ///< Every rule the case named (RULE(), CHECKS_RULES()).
  /// Rules the case could not judge although it ran (skip_rule()), with the reason.
  std::map<std::string, std::string> skipped_rules;
};

struct Counts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};
Counts count(const std::vector<CaseResult>& cases);
/// "N passed, N failed, N skipped".
std::string summary_line(const Counts& counts);

/// A rule's verdict over a run: failed when a failed check named it; else passed when a case that
/// was not skipped checked it (and did not skip_rule() it); else skipped (with the reasons) when
/// only skipped cases named it; else not run.
struct RuleVerdict {
  std::string verdict;               ///< "passed", "failed", "skipped", "not run".
  std::vector<std::string> cases;    ///< The cases that checked it.
  std::vector<std::string> reasons;  ///< Failures (first of each case) or skip reasons.
};
std::map<std::string, RuleVerdict> rule_verdicts(const std::vector<CaseResult>& cases);

/// The verdict of every rule of rules.hpp, one a line, and failures that named no rule.
void print_verdicts(std::ostream& out, const std::vector<CaseResult>& cases);

/// A named capability of the target and what the precheck found.
struct CapabilityRow {
  std::string name;
  bool available = true;
  std::string detail;
};

struct RunInfo {
  std::string target;     ///< Base URL (the JUnit hostname).
  std::string site;       ///< The test site as the target reaches it.
  std::string timestamp;  ///< Start, ISO 8601 UTC.
  double seconds = 0;     ///< The whole run.
  std::vector<CapabilityRow> capabilities;
};

/// JUnit XML: one <testsuite> with one <testcase> per case.
void write_junit(std::ostream& out, const RunInfo& run, const std::vector<CaseResult>& cases);
/// JUnit XML for a run the precheck stopped: one case "precheck" with an <error>.
void write_junit_precheck_error(std::ostream& out, const RunInfo& run, const std::string& message);
/// {"summary": {...}, "rules": {"ID": {"verdict", "cases", "reasons"}}, "capabilities": {...}}.
void write_verdicts_json(std::ostream& out, const RunInfo& run,
                         const std::vector<CaseResult>& cases);

/// The results the listener collected in this run.
const std::vector<CaseResult>& recorded_cases();

}  // namespace webdata::conformance
