#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "spawned_mock.hpp"
#include "target.hpp"

namespace webdata::conformance {
Target& target() {
  static Target t;
  return t;
}

namespace {
bool skipped_flag = false;
}
void mark_skipped(const std::string& /*reason*/) { skipped_flag = true; }
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

}  // namespace

int main(int argc, char** argv) {
  Catch::Session session;
  auto& t = webdata::conformance::target();
  t.base_url = env_or("WEBDATA_API_URL", "");
  t.api_key = env_or("WEBDATA_API_KEY", "test-key");
  std::string spawn_mock;

  using Catch::clara::Opt;
  auto cli = session.cli() |
             Opt(t.base_url, "url")["--base-url"]("base URL of the deployment under test") |
             Opt(t.api_key, "key")["--api-key"]("API key for the deployment under test") |
             Opt(spawn_mock, "path")["--spawn-mock"](
                 "start this webdata-mock executable on a free port and test it");
  session.cli(cli);
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

  std::unique_ptr<webdata::conformance::SpawnedMock> mock;
  if (!spawn_mock.empty()) {
    try {
      mock = std::make_unique<webdata::conformance::SpawnedMock>(spawn_mock,
                                                                 std::vector<std::string>{});
    } catch (const std::exception& e) {
      std::cerr << "webdata-conformance: " << e.what() << "\n";
      return 2;
    }
    t.base_url = mock->base_url();
    t.is_mock = true;
  }
  if (t.base_url.empty()) {
    std::cerr << "webdata-conformance: give --base-url, WEBDATA_API_URL or --spawn-mock\n";
    return 2;
  }
  while (!t.base_url.empty() && t.base_url.back() == '/') t.base_url.pop_back();

  const int rc = session.run();
  const auto& counts = tally();
  std::cout << counts.passed << " passed, " << counts.failed << " failed, " << counts.skipped
            << " skipped" << std::endl;
  return rc;
}
