#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>

#include "checks.hpp"
#include "precheck.hpp"
#include "report.hpp"
#include "rules.hpp"
#include "spawned_mock.hpp"
#include "target.hpp"
#include "test_site.hpp"

namespace webdata::conformance {
Target& target() {
  static Target t;
  return t;
}
}  // namespace webdata::conformance

namespace {

namespace conf = webdata::conformance;

const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

// Writes a report file; a file that cannot be written is an error of the run (exit 2).
template <class Write>
bool write_report(const std::string& path, const char* what, Write write) {
  if (path.empty()) return true;
  std::ofstream out(path);
  if (out) write(out);
  if (!out) {
    std::cerr << "webdata-conformance: cannot write the " << what << " to '" << path << "'\n";
    return false;
  }
  return true;
}

// The keys and secret of a mock this runner starts; the suite then knows them.
constexpr const char* kMockKey = "test-key";
constexpr const char* kMockOtherKey = "other-team-key";
constexpr const char* kMockSecret = "conformance-secret";

// Exit status: 0 nothing failed, 1 a case failed or a job stalled, 2 bad command line (an empty
// selection too) or a start that failed, 3 the precheck stopped the run.
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitPrecheck = 3;

// Selects the cases of the rules `ids` ("--rule ID": the cases tagged [ID]), of any of them: one
// Catch2 filter "[A],[B]" (separate arguments would have to match all at once). Other names or
// tags given narrow it further. False, with a message, for an id that is no rule.
bool select_rules(const std::vector<std::string>& ids, std::vector<std::string>& tests_or_tags) {
  std::string any_of;
  for (std::string id : ids) {
    std::transform(id.begin(), id.end(), id.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const bool known = std::any_of(std::begin(conf::rules::kAll), std::end(conf::rules::kAll),
                                   [&id](const conf::Rule* rule) { return id == rule->id; });
    if (!known) {
      std::cerr << "webdata-conformance: no rule " << id
                << " (--list-rules prints every rule id)\n";
      return false;
    }
    any_of += (any_of.empty() ? "[" : ",[") + id + "]";
  }
  if (!any_of.empty()) tests_or_tags.push_back(any_of);
  return true;
}

// Whether the names, tags and rules given select at least one test case; says how to list them
// when not.
bool selection_matches(Catch::Session& session) {
  const auto& config = session.config();
  if (!config.hasTestFilters()) return true;
  const auto& all = Catch::getAllTestCasesSorted(config);
  if (!Catch::filterTests(all, config.testSpec(), config).empty()) return true;
  std::string given;
  for (const auto& arg : session.configData().testsOrTags) given += " \"" + arg + "\"";
  std::cerr << "webdata-conformance: no test case matches the selection" << given
            << ".\n  List the rules with --list-rules and the test cases with -l (--list-tests);"
               " select the cases of a rule with --rule ID, a case by its name, an area by its "
               "tag (\"[crawl]\").\n";
  return false;
}

// The arguments of a mock the runner starts: live fetching of the test site, the admin surface,
// two teams, a webhook secret, agent runs as jobs (so that every case runs), then `extra`.
std::vector<std::string> spawned_mock_args(bool as_deployment,
                                           const std::vector<std::string>& extra,
                                           const std::vector<std::string>& faults) {
  std::vector<std::string> args;
  if (!as_deployment) {
    args = {"--live-fetch",     "--allow-private-targets",
            "--admin",          "--agent-jobs",
            "--api-key",        std::string(kMockKey) + ":team-1",
            "--api-key",        std::string(kMockOtherKey) + ":team-2",
            "--webhook-secret", kMockSecret};
  }
  args.insert(args.end(), extra.begin(), extra.end());
  for (const auto& fault : faults) {
    args.push_back("--inject-fault");
    args.push_back(fault);
  }
  return args;
}

// What the command line asks of the runner beyond Catch2's own options.
struct Options {
  std::string spawn_mock;
  std::vector<std::string> mock_args;
  std::vector<std::string> mock_faults;
  bool mock_as_deployment = false;
  std::string site_bind = "127.0.0.1";
  int site_port = 0;
  std::string junit_path;
  std::string verdicts_path;
  bool list_rules = false;
  bool precheck_only = false;
  std::vector<std::string> rule_ids;
};

Catch::clara::Parser command_line(Catch::Session& session, conf::Target& t, Options& o) {
  using Catch::clara::Opt;
  return session.cli() |
         Opt(t.base_url,
             "url")["--base-url"]("base URL of the deployment under test (or WEBDATA_API_URL)") |
         Opt(t.api_key, "key")["--api-key"]("API key of the deployment (or WEBDATA_API_KEY)") |
         Opt(t.other_api_key,
             "key")["--other-api-key"]("a key of a second team (enables cross-team checks)") |
         Opt(t.site_host, "host[:port]")["--site-host"](
             "address under which the target reaches this runner (default 127.0.0.1; the test "
             "site's port is added when none is given)") |
         Opt(o.site_bind,
             "address")["--site-bind"]("address the test site listens on (127.0.0.1)") |
         Opt(o.site_port,
             "port")["--site-port"]("port the test site listens on (0: any free port)") |
         Opt(t.webhook_secret, "secret")["--webhook-secret"](
             "the account's webhook secret (or WEBDATA_WEBHOOK_SECRET)") |
         Opt(t.signature_header, "name")["--signature-header"](
             "webhook signature header (default X-Service-Signature)") |
         Opt(t.timeout_scale, "factor")["--timeout-scale"]("multiply every wait (default 1)") |
         Opt(o.junit_path, "file")["--junit"](
             "write JUnit XML: one testcase per case, skips with their reasons") |
         Opt(o.verdicts_path, "file")["--verdicts"]("write the verdict of every rule as JSON") |
         Opt(o.list_rules)["--list-rules"](
             "print every rule id, its reference section and statement") |
         // Bound to vectors: Clara takes a bound lambda only once.
         Opt(o.rule_ids, "id")["--rule"]("run the test cases of this rule (repeatable)") |
         Opt(o.precheck_only)["--precheck-only"](
             "print the precheck and the capabilities, run no case") |
         Opt(o.spawn_mock, "path")["--spawn-mock"](
             "start this webdata-mock executable on a free port and test it") |
         Opt(o.mock_as_deployment)["--mock-as-deployment"](
             "with --spawn-mock: start the mock with --mock-arg arguments only and test it as a "
             "live deployment (no keys, secret or admin surface known to the suite)") |
         Opt(o.mock_args, "arg")["--mock-arg"](
             "extra argument for the spawned mock (repeatable; --mock-arg=--x)") |
         Opt(o.mock_faults, "name")["--mock-fault"](
             "start the spawned mock with --inject-fault NAME (repeatable)");
}

// Checks the options that need no target. Returns an exit status, or -1 to go on.
int check_options(Catch::ConfigData& config, const conf::Target& t, Options& o) {
  // Catch2's own JUnit reporter counts assertions and shows skips as passes: "--reporter junit
  // --out FILE" writes this runner's JUnit instead, next to the console report.
  if (config.reporterName == "junit") {
    if (config.outputFilename.empty()) {
      std::cerr << "webdata-conformance: JUnit needs a file: --junit FILE (or --reporter junit "
                   "--out FILE)\n";
      return kExitUsage;
    }
    o.junit_path = config.outputFilename;
    config.outputFilename.clear();
    config.reporterName = "console";
  }
  if (t.timeout_scale <= 0) {
    std::cerr << "webdata-conformance: --timeout-scale must be positive\n";
    return kExitUsage;
  }
  if (o.mock_as_deployment && o.spawn_mock.empty()) {
    std::cerr << "webdata-conformance: --mock-as-deployment needs --spawn-mock\n";
    return kExitUsage;
  }
  return -1;
}

// Starts the test site and, with --spawn-mock, the mock; fills in where the target is.
bool start_targets(const Options& o, conf::Target& t, std::unique_ptr<conf::TestSite>& test_site,
                   std::unique_ptr<webdata::testing::SpawnedMock>& mock) {
  try {
    test_site =
        std::make_unique<conf::TestSite>(o.site_bind, static_cast<unsigned short>(o.site_port));
    conf::set_site(test_site.get());
    t.site_listen = conf::with_port(o.site_bind, test_site->port());
    t.site_host =
        conf::with_port(t.site_host.empty() ? "127.0.0.1" : t.site_host, test_site->port());
    if (!o.spawn_mock.empty()) {
      mock = std::make_unique<webdata::testing::SpawnedMock>(
          o.spawn_mock, spawned_mock_args(o.mock_as_deployment, o.mock_args, o.mock_faults));
      t.base_url = mock->base_url();
      if (!o.mock_as_deployment) {
        t.api_key = kMockKey;
        t.other_api_key = kMockOtherKey;
        t.webhook_secret = kMockSecret;
        t.is_mock = true;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "webdata-conformance: " << e.what() << "\n";
    return false;
  }
  if (t.base_url.empty()) {
    std::cerr << "webdata-conformance: give --base-url, WEBDATA_API_URL or --spawn-mock\n";
    return false;
  }
  while (!t.base_url.empty() && t.base_url.back() == '/') t.base_url.pop_back();
  std::cerr << "webdata-conformance: target " << t.base_url << ", test site http://" << t.site_host
            << (t.is_mock ? " (spawned mock: [mock-only] tests run)"
                : mock    ? " (spawned mock, tested as a deployment)"
                          : "")
            << std::endl;
  return true;
}

// The precheck, then the cases and the reports. Returns the exit status.
int run(Catch::Session& session, const Options& o, const conf::Target& t) {
  conf::RunInfo run;
  run.target = t.base_url;
  run.site = "http://" + t.site_host;
  run.timestamp = utc_now();
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const conf::PrecheckOutcome precheck = conf::run_precheck(std::cout);
  run.capabilities = conf::capability_rows();
  if (!precheck.ok) {
    std::cerr << precheck.message << std::endl;
    run.seconds = elapsed();
    write_report(o.junit_path, "JUnit report", [&](std::ostream& out) {
      conf::write_junit_precheck_error(out, run, precheck.message);
    });
    return kExitPrecheck;
  }
  if (o.precheck_only) return 0;
  std::cout << std::endl;

  const int rc = session.run();
  run.seconds = elapsed();
  const auto& cases = conf::recorded_cases();
  const conf::Counts counts = conf::count(cases);
  conf::print_verdicts(std::cout, cases);
  std::cout << conf::summary_line(counts) << std::endl;
  const bool written =
      write_report(o.junit_path, "JUnit report",
                   [&](std::ostream& out) { conf::write_junit(out, run, cases); }) &&
      write_report(o.verdicts_path, "verdicts",
                   [&](std::ostream& out) { conf::write_verdicts_json(out, run, cases); });
  if (!written) return kExitUsage;
  if (counts.failed > 0 || counts.stalled > 0) return kExitFailed;
  return rc == 0 ? 0 : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  Catch::Session session;
  auto& t = conf::target();
  t.base_url = env_or("WEBDATA_API_URL", "");
  t.api_key = env_or("WEBDATA_API_KEY", "");
  t.webhook_secret = env_or("WEBDATA_WEBHOOK_SECRET", "");
  Options o;
  session.cli(command_line(session, t, o));
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  auto& config = session.configData();
  if (o.list_rules) {
    for (const conf::Rule* rule : conf::rules::kAll) {
      std::cout << rule->id << "\t" << rule->section << "\t" << rule->statement << "\n";
    }
    return 0;
  }
  if (!select_rules(o.rule_ids, config.testsOrTags)) return kExitUsage;
  if (const int rc = check_options(config, t, o); rc >= 0) return rc;
  // From here on the configuration is fixed: session.config() is made from it once.
  if (!config.showHelp && !selection_matches(session)) return kExitUsage;
  if (config.showHelp || config.listTests || config.listTags || config.listTestNamesOnly) {
    // Catch2 answers a listing with the number of cases listed; an empty one has exited above.
    session.run();
    return 0;
  }
  std::unique_ptr<conf::TestSite> test_site;
  std::unique_ptr<webdata::testing::SpawnedMock> mock;
  if (!start_targets(o, t, test_site, mock)) return kExitUsage;
  return run(session, o, t);
}
