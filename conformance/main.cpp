#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "spawned_mock.hpp"
#include "target.hpp"
#include "test_site.hpp"

namespace webdata::conformance {
Target& target() {
  static Target t;
  return t;
}

namespace {
bool skipped_flag = false;
}
void mark_skipped(const std::string& /*reason*/) {
  skipped_flag = true;
}
bool take_skipped() {
  const bool was = skipped_flag;
  skipped_flag = false;
  return was;
}
}  // namespace webdata::conformance

namespace {

// Counts test cases by outcome for the closing "N passed, N failed, N skipped" line.
struct Tally {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
};
Tally& tally() {
  static Tally t;
  return t;
}

class TallyListener : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& /*info*/) override {
    webdata::conformance::take_skipped();
  }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    const bool skipped = webdata::conformance::take_skipped();
    if (stats.totals.assertions.failed > 0) {
      ++tally().failed;
    } else if (skipped) {
      ++tally().skipped;
    } else {
      ++tally().passed;
    }
  }
};
CATCH_REGISTER_LISTENER(TallyListener)

const char* env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// The keys and secret of a mock this runner starts; the suite then knows them.
constexpr const char* kMockKey = "test-key";
constexpr const char* kMockOtherKey = "other-team-key";
constexpr const char* kMockSecret = "conformance-secret";

}  // namespace

int main(int argc, char** argv) {
  Catch::Session session;
  auto& t = webdata::conformance::target();
  t.base_url = env_or("WEBDATA_API_URL", "");
  t.api_key = env_or("WEBDATA_API_KEY", "");
  t.webhook_secret = env_or("WEBDATA_WEBHOOK_SECRET", "");
  std::string spawn_mock;
  std::vector<std::string> mock_args;
  std::string site_bind = "127.0.0.1";
  int site_port = 0;

  using Catch::clara::Opt;
  auto cli =
      session.cli() |
      Opt(t.base_url, "url")["--base-url"](
          "base URL of the deployment under test "
          "(or WEBDATA_API_URL)") |
      Opt(t.api_key, "key")["--api-key"]("API key of the deployment (or WEBDATA_API_KEY)") |
      Opt(t.other_api_key,
          "key")["--other-api-key"]("a key of a second team (enables cross-team checks)") |
      Opt(t.site_host, "host[:port]")["--site-host"](
          "address under which the target reaches this runner (default 127.0.0.1:<site port>)") |
      Opt(site_bind, "address")["--site-bind"]("address the test site listens on (127.0.0.1)") |
      Opt(site_port, "port")["--site-port"]("port the test site listens on (0: any free port)") |
      Opt(t.webhook_secret, "secret")["--webhook-secret"](
          "the account's webhook secret (or WEBDATA_WEBHOOK_SECRET)") |
      Opt(t.signature_header,
          "name")["--signature-header"]("webhook signature header (default X-Service-Signature)") |
      Opt(t.timeout_scale, "factor")["--timeout-scale"]("multiply every wait (default 1)") |
      Opt(spawn_mock,
          "path")["--spawn-mock"]("start this webdata-mock executable on a free port and test it") |
      Opt([&](const std::string& arg) { mock_args.push_back(arg); },
          "arg")["--mock-arg"]("extra argument for the spawned mock (repeatable; --mock-arg=--x)") |
      Opt(
          [&](const std::string& name) {
            mock_args.push_back("--inject-fault");
            mock_args.push_back(name);
          },
          "name")["--mock-fault"]("start the spawned mock with --inject-fault NAME");
  session.cli(cli);
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  if (session.configData().showHelp || session.configData().listTests ||
      session.configData().listTags || session.configData().listTestNamesOnly) {
    return session.run();
  }

  std::unique_ptr<webdata::conformance::TestSite> test_site;
  std::unique_ptr<webdata::conformance::SpawnedMock> mock;
  try {
    test_site = std::make_unique<webdata::conformance::TestSite>(
        site_bind, static_cast<unsigned short>(site_port));
    webdata::conformance::set_site(test_site.get());
    if (t.site_host.empty()) t.site_host = "127.0.0.1:" + std::to_string(test_site->port());
    if (!spawn_mock.empty()) {
      std::vector<std::string> args = {"--live-fetch",
                                       "--allow-private-targets",
                                       "--admin",
                                       "--api-key",
                                       std::string(kMockKey) + ":team-1",
                                       "--api-key",
                                       std::string(kMockOtherKey) + ":team-2",
                                       "--webhook-secret",
                                       kMockSecret};
      args.insert(args.end(), mock_args.begin(), mock_args.end());
      mock = std::make_unique<webdata::conformance::SpawnedMock>(spawn_mock, args);
      t.base_url = mock->base_url();
      t.api_key = kMockKey;
      t.other_api_key = kMockOtherKey;
      t.webhook_secret = kMockSecret;
      t.is_mock = true;
    }
  } catch (const std::exception& e) {
    std::cerr << "webdata-conformance: " << e.what() << "\n";
    return 2;
  }
  if (t.base_url.empty()) {
    std::cerr << "webdata-conformance: give --base-url, WEBDATA_API_URL or --spawn-mock\n";
    return 2;
  }
  if (t.timeout_scale <= 0) {
    std::cerr << "webdata-conformance: --timeout-scale must be positive\n";
    return 2;
  }
  while (!t.base_url.empty() && t.base_url.back() == '/') t.base_url.pop_back();
  std::cerr << "webdata-conformance: target " << t.base_url << ", test site http://" << t.site_host
            << (t.is_mock ? " (spawned mock: [mock-only] tests run)" : "") << std::endl;

  const int rc = session.run();
  const auto& counts = tally();
  std::cout << counts.passed << " passed, " << counts.failed << " failed, " << counts.skipped
            << " skipped" << std::endl;
  return rc;
}
