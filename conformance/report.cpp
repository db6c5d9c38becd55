#include "report.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <sstream>

// The listener interfaces are declared only on request outside the runner's own translation unit.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "checks.hpp"
#include "target.hpp"

namespace webdata::conformance {

namespace {

std::vector<CaseResult>& cases_store() {
  static std::vector<CaseResult> cases;
  return cases;
}

// The case running now; rules and skips are recorded into it.
CaseResult& current() {
  static CaseResult result;
  return result;
}
// The first tag that is not a rule id (rule ids are upper case): the case's area.
std::string group_of(const std::vector<std::string>& tags) {
  for (const auto& tag : tags) {
    if (!tag.empty() && std::islower(static_cast<unsigned char>(tag.front()))) return tag;
  }
  return "conformance";
}

// The id of the innermost "rule ID (...)" message of a failed check, or "".
std::string innermost_rule(const std::vector<Catch::MessageInfo>& messages) {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->message.rfind("rule ", 0) != 0) continue;
    const std::string rest = it->message.substr(5);
    return rest.substr(0, rest.find_first_of(" :"));
  }
  return {};
}

std::string describe_result(const Catch::AssertionResult& result) {
  std::string out;
  if (result.getResultType() == Catch::ResultWas::ThrewException) {
    out = "unexpected exception: " + result.getMessage();
    if (result.hasExpression()) out += " (in " + result.getExpressionInMacro() + ")";
    return out;
  }
  if (result.hasExpression()) {
    out = result.getExpressionInMacro();
    if (result.hasExpandedExpression() &&
        result.getExpandedExpression() != result.getExpression()) {
      out += " with expansion: " + result.getExpandedExpression();
    }
  }
  if (result.hasMessage()) out += (out.empty() ? "" : ": ") + result.getMessage();
  return out;
}

// Collects every test case's outcome, time, failures (with their rule) and warnings.
class Recorder : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    current() = CaseResult{};
    current().name = info.name;
    current().tags = info.tags;
    current().group = group_of(info.tags);
    // The rules a case is tagged with are named from its start: a case skipped, or stopped at a
    // stalled job, before it reaches a rule still accounts for it.
    for (const Rule* rule : rules::kAll) {
      if (std::find(info.tags.begin(), info.tags.end(), rule->id) != info.tags.end()) {
        current().rules.insert(rule->id);
      }
    }
    started_ = std::chrono::steady_clock::now();
  }

  bool assertionEnded(const Catch::AssertionStats& stats) override {
    const auto& result = stats.assertionResult;
    if (result.getResultType() == Catch::ResultWas::Warning) {
      current().warnings.push_back(result.getMessage());
      return true;
    }
    // Every check, passed or not, counts for the rule it was made under: a rule without checks
    // is "not checked", never passed.
    const std::string rule = innermost_rule(stats.infoMessages);
    if (!rule.empty()) ++current().checks[rule];
    if (result.isOk()) return true;
    CheckFailure failure;
    failure.rule = rule;
    // One line for the verdict table and the JUnit message (expansions of strings span lines).
    failure.summary = describe_result(result);
    std::replace(failure.summary.begin(), failure.summary.end(), '\n', ' ');
    std::ostringstream detail;
    detail << result.getSourceInfo().file << ":" << result.getSourceInfo().line << ": "
           << failure.summary;
    for (const auto& m : stats.infoMessages) detail << "\n  " << m.message;
    failure.detail = detail.str();
    current().failures.push_back(std::move(failure));
    return true;
  }

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    CaseResult result = current();
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (stats.totals.assertions.failed > 0 && result.failures.empty()) {
      result.failures.push_back({"", "a check failed (not recorded)", "a check failed"});
    }
    if (!result.failures.empty()) {
      result.outcome = CaseResult::Outcome::kFailed;
    } else if (!result.stall_reason.empty()) {
      result.outcome = CaseResult::Outcome::kStalled;
    } else if (!result.skip_reason.empty()) {
      result.outcome = CaseResult::Outcome::kSkipped;
    }
    cases_store().push_back(std::move(result));
  }

 private:
  std::chrono::steady_clock::time_point started_;
};
CATCH_REGISTER_LISTENER(Recorder)

std::string seconds_text(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << s;
  return out.str();
}

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

void write_properties(std::ostream& out, const RunInfo& run) {
  out << "    <properties>\n";
  out << "      <property" << attr("name", "target") << attr("value", run.target) << "/>\n";
  out << "      <property" << attr("name", "site") << attr("value", run.site) << "/>\n";
  for (const auto& c : run.capabilities) {
    out << "      <property" << attr("name", "capability." + c.name)
        << attr("value", std::string(presence_name(c.presence)) + ": " + c.detail) << "/>\n";
  }
  out << "    </properties>\n";
}

}  // namespace

void note_rule(const Rule& rule) {
  current().rules.insert(rule.id);
}

void skip_rule(const Rule& rule, const std::string& reason) {
  current().skipped_rules.emplace(rule.id, reason);
}

void mark_skipped(const std::string& reason) {
  if (current().skip_reason.empty()) current().skip_reason = reason;
}

void mark_stalled(const std::string& reason) {
  if (current().stall_reason.empty()) current().stall_reason = reason;
}

bool case_names_rule(const Rule& rule) {
  return current().rules.count(rule.id) > 0;
}

std::vector<std::string> untagged_rules(const CaseResult& result) {
  std::set<std::string> named = result.rules;
  for (const auto& f : result.failures) {
    if (!f.rule.empty()) named.insert(f.rule);
  }
  for (const auto& entry : result.skipped_rules) named.insert(entry.first);
  std::vector<std::string> out;
  for (const auto& id : named) {
    if (std::find(result.tags.begin(), result.tags.end(), id) == result.tags.end()) {
      out.push_back(id);
    }
  }
  return out;
}

const std::vector<CaseResult>& recorded_cases() {
  return cases_store();
}

Counts count(const std::vector<CaseResult>& cases) {
  Counts c;
  for (const auto& r : cases) {
    switch (r.outcome) {
      case CaseResult::Outcome::kPassed:
        ++c.passed;
        break;
      case CaseResult::Outcome::kFailed:
        ++c.failed;
        break;
      case CaseResult::Outcome::kSkipped:
        ++c.skipped;
        break;
      case CaseResult::Outcome::kStalled:
        ++c.stalled;
        break;
    }
  }
  return c;
}

std::string summary_line(const Counts& c) {
  return std::to_string(c.passed) + " passed, " + std::to_string(c.failed) + " failed, " +
         std::to_string(c.skipped) + " skipped" +
         (c.stalled > 0 ? ", " + std::to_string(c.stalled) + " stalled" : "");
}

namespace {

// What the cases of a run said about one rule, before the verdict is chosen.
struct RuleEvidence {
  bool failed = false;
  bool checked = false;    // a case that ran made a check on it
  std::set<std::string> stalls, skips;
  std::vector<std::string> unchecked;  // cases that ran, named it and checked nothing about it
};

// Adds what case `c` says about each rule it named to `evidence` (and the cases and failures to
// `out`).
void gather(const CaseResult& c, std::map<std::string, RuleEvidence>& evidence,
            std::map<std::string, RuleVerdict>& out) {
  std::set<std::string> rules_here = c.rules;
  std::set<std::string> failed_here;
  for (const auto& f : c.failures) {
    if (f.rule.empty() || !failed_here.insert(f.rule).second) continue;
    evidence[f.rule].failed = true;
    out[f.rule].reasons.push_back(c.name + ": " + f.summary);
  }
  rules_here.insert(failed_here.begin(), failed_here.end());
  for (const auto& entry : c.skipped_rules) rules_here.insert(entry.first);
  for (const auto& id : rules_here) {
    RuleEvidence& e = evidence[id];
    out[id].cases.push_back(c.name);
    const auto made = c.checks.find(id);
    const int checks = made == c.checks.end() ? 0 : made->second;
    out[id].checks += checks;
    const auto rule_skip = c.skipped_rules.find(id);
    if (c.outcome == CaseResult::Outcome::kSkipped) {
      e.skips.insert(c.skip_reason);
    } else if (rule_skip != c.skipped_rules.end()) {
      e.skips.insert(rule_skip->second);
    } else if (checks > 0) {
      e.checked = true;
    } else if (c.outcome == CaseResult::Outcome::kStalled) {
      e.stalls.insert(c.stall_reason);
    } else {
      e.unchecked.push_back(c.name + ": named the rule but made no check on it");
    }
  }
}

void choose(const RuleEvidence& e, RuleVerdict& v) {
  const auto with = [&v](const char* verdict, const std::set<std::string>& reasons) {
    v.verdict = verdict;
    v.reasons.assign(reasons.begin(), reasons.end());
  };
  if (e.failed) {
    v.verdict = "failed";
  } else if (e.checked) {
    v.verdict = "passed";
    v.reasons.clear();
  } else if (!e.stalls.empty()) {
    with("stalled", e.stalls);
  } else if (!e.skips.empty()) {
    with("skipped", e.skips);
  } else if (!e.unchecked.empty()) {
    v.verdict = "not checked";
    v.reasons = e.unchecked;
  }
}

}  // namespace

std::map<std::string, RuleVerdict> rule_verdicts(const std::vector<CaseResult>& cases) {
  std::map<std::string, RuleVerdict> out;
  std::map<std::string, RuleEvidence> evidence;
  for (const Rule* rule : rules::kAll) out[rule->id].verdict = "not run";
  for (const auto& c : cases) gather(c, evidence, out);
  for (auto& [id, v] : out) choose(evidence[id], v);
  return out;
}

void print_verdicts(std::ostream& out, const std::vector<CaseResult>& cases) {
  const auto verdicts = rule_verdicts(cases);
  out << "\nVerdicts by rule (each explained in docs/reference/conformance-rules.md):\n";
  for (const Rule* rule : rules::kAll) {
    const RuleVerdict& v = verdicts.at(rule->id);
    std::string detail;
    if (v.verdict == "passed") {
      detail = std::to_string(v.checks) + (v.checks == 1 ? " check in " : " checks in ") +
               std::to_string(v.cases.size()) + (v.cases.size() == 1 ? " case" : " cases");
    } else if (!v.reasons.empty()) {
      detail = v.reasons.front();
      if (v.reasons.size() > 1)
        detail += " (and " + std::to_string(v.reasons.size() - 1) + " more)";
    }
    const std::string word = v.verdict == "failed" ? "FAILED" : v.verdict;
    out << "  " << std::left << std::setw(22) << rule->id << " " << std::setw(11) << word << " "
        << detail << "\n";
  }
  for (const auto& c : cases) {
    for (const auto& f : c.failures) {
      if (f.rule.empty())
        out << "  (no rule named)        FAILED      " << c.name << ": " << f.summary << "\n";
    }
    for (const auto& id : untagged_rules(c)) {
      out << "  (suite defect)         case \"" << c.name << "\" names " << id
          << " without the tag [" << id << "]: --rule " << id << " misses it\n";
    }
  }
  out << std::right;
}

void write_junit(std::ostream& out, const RunInfo& run, const std::vector<CaseResult>& cases) {
  const Counts c = count(cases);
  const int tests = c.passed + c.failed + c.skipped + c.stalled;
  const std::string totals =
      attr("tests", std::to_string(tests)) + attr("failures", std::to_string(c.failed)) +
      attr("errors", std::to_string(c.stalled)) + attr("skipped", std::to_string(c.skipped)) +
      attr("time", seconds_text(run.seconds));
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites" << attr("name", "webdata-conformance") << totals << ">\n";
  out << "  <testsuite" << attr("name", "webdata-conformance") << attr("hostname", run.target)
      << totals << attr("timestamp", run.timestamp) << ">\n";
  write_properties(out, run);
  for (const auto& r : cases) {
    out << "    <testcase" << attr("classname", "webdata-conformance." + r.group)
        << attr("name", r.name) << attr("time", seconds_text(r.seconds)) << ">\n";
    if (r.outcome == CaseResult::Outcome::kFailed) {
      const CheckFailure& first = r.failures.front();
      std::string message =
          (first.rule.empty() ? "no rule named" : "rule " + first.rule) + ": " + first.summary;
      if (r.failures.size() > 1) {
        message += " (and " + std::to_string(r.failures.size() - 1) + " more failed checks)";
      }
      std::string text;
      for (const auto& f : r.failures) text += f.detail + "\n";
      out << "      <failure" << attr("message", message)
          << attr("type", first.rule.empty() ? "check" : first.rule) << ">" << xml_escape(text)
          << "</failure>\n";
    } else if (r.outcome == CaseResult::Outcome::kSkipped) {
      out << "      <skipped" << attr("message", r.skip_reason) << "/>\n";
    } else if (r.outcome == CaseResult::Outcome::kStalled) {
      out << "      <error" << attr("message", r.stall_reason) << attr("type", "stalled") << "/>\n";
    }
    if (!r.warnings.empty()) {
      std::string text;
      for (const auto& w : r.warnings) text += w + "\n";
      out << "      <system-out>" << xml_escape(text) << "</system-out>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void write_junit_precheck_error(std::ostream& out, const RunInfo& run, const std::string& message) {
  const std::string totals = attr("tests", "1") + attr("failures", "0") + attr("errors", "1") +
                             attr("skipped", "0") + attr("time", seconds_text(run.seconds));
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites" << attr("name", "webdata-conformance") << totals << ">\n";
  out << "  <testsuite" << attr("name", "webdata-conformance") << attr("hostname", run.target)
      << totals << attr("timestamp", run.timestamp) << ">\n";
  write_properties(out, run);
  out << "    <testcase" << attr("classname", "webdata-conformance.precheck")
      << attr("name", "precheck") << attr("time", seconds_text(run.seconds)) << ">\n";
  out << "      <error" << attr("message", message.substr(0, message.find('\n')))
      << attr("type", "precheck") << ">" << xml_escape(message) << "</error>\n";
  out << "    </testcase>\n  </testsuite>\n</testsuites>\n";
}

void write_verdicts_json(std::ostream& out, const RunInfo& run,
                         const std::vector<CaseResult>& cases) {
  using json = nlohmann::json;
  const Counts c = count(cases);
  json rules_json = json::object();
  for (const auto& [id, v] : rule_verdicts(cases)) {
    rules_json[id] = {
        {"verdict", v.verdict}, {"cases", v.cases}, {"reasons", v.reasons}, {"checks", v.checks}};
  }
  json capabilities = json::object();
  for (const auto& cap : run.capabilities) {
    capabilities[cap.name] = {{"state", presence_name(cap.presence)}, {"detail", cap.detail}};
  }
  json unnamed = json::array();
  json untagged = json::array();
  for (const auto& r : cases) {
    for (const auto& f : r.failures) {
      if (f.rule.empty()) unnamed.push_back(r.name + ": " + f.summary);
    }
    for (const auto& id : untagged_rules(r)) untagged.push_back(r.name + ": " + id);
  }
  const json doc = {{"target", run.target},
                    {"summary",
                     {{"passed", c.passed},
                      {"failed", c.failed},
                      {"skipped", c.skipped},
                      {"stalled", c.stalled}}},
                    {"rules", rules_json},
                    {"failuresNamingNoRule", unnamed},
                    {"untaggedRules", untagged},
                    {"capabilities", capabilities}};
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace webdata::conformance
