// `webdata agent`, `status ID --agent` and `cancel ID --agent` against a webdata-mock process that
// runs agents as jobs (--agent-jobs). Test names start with "cli: ".
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "process.hpp"
#include "spawned_mock.hpp"

namespace {

using nlohmann::json;
using webdata::testing::SpawnedMock;
using webdata::testing::RunResult;

const std::string kKettle = "https://shop.example.test/products/trail-kettle";

RunResult agent_cli(const SpawnedMock& mock, std::vector<std::string> args) {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", mock.url(), "--api-key", "test-key"});
  auto r = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  return r;
}

json parse_out(const RunResult& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

TEST_CASE("agent as a job: waits for the answer, --no-wait prints the id, status --agent") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {"--agent-jobs", "--agent-pacing", "20"});
  // Without --no-wait the CLI polls the job and prints the answer, as for the synchronous form.
  auto md = agent_cli(mock, {"agent", "What does the trail kettle cost?", "--url", kKettle,
                             "--poll-interval", "20"});
  REQUIRE(md.exit_code == 0);
  CHECK(md.out.find("\nSources:\n- " + kKettle) != std::string::npos);

  auto started =
      agent_cli(mock, {"agent", "What does the trail kettle cost?", "--url", kKettle, "--no-wait"});
  REQUIRE(started.exit_code == 0);
  const std::string id = trimmed(started.out);
  REQUIRE(id.size() == 36);  // a UUID, nothing else

  auto done =
      agent_cli(mock, {"status", id, "--agent", "--wait", "--poll-interval", "20", "--json"});
  REQUIRE(done.exit_code == 0);
  const json body = parse_out(done);
  CHECK(body.at("status") == "completed");
  CHECK(body.at("data").at("sources").at(0) == kKettle);

  // Nothing left to cancel: said so, exit 1.
  auto late = agent_cli(mock, {"cancel", id, "--agent"});
  CHECK(late.exit_code == 1);
  CHECK(late.out.find("already ended") != std::string::npos);

  auto unknown = agent_cli(mock, {"status", "00000000-0000-4000-8000-000000000000", "--agent"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("Agent job not found") != std::string::npos);

  auto mixed = agent_cli(mock, {"status", id, "--agent", "--batch"});
  CHECK(mixed.exit_code == 2);
}

TEST_CASE("cancel ID --agent stops a running agent job") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {"--agent-jobs", "--agent-pacing", "3000"});
  auto started = agent_cli(mock, {"agent", "trail kettle price", "--no-wait", "--json"});
  REQUIRE(started.exit_code == 0);
  const std::string id = parse_out(started).at("id");

  auto running = agent_cli(mock, {"status", id, "--agent"});
  REQUIRE(running.exit_code == 0);
  CHECK(running.out.find("agent " + id + ": processing") == 0);

  auto cancelled = agent_cli(mock, {"cancel", id, "--agent"});
  REQUIRE(cancelled.exit_code == 0);
  CHECK(cancelled.out == "agent " + id + ": cancelled\n");

  // A cancelled job is an end that is not a success: exit 5.
  auto after = agent_cli(mock, {"status", id, "--agent"});
  CHECK(after.exit_code == 5);
  CHECK(after.out.find("cancelled") != std::string::npos);
}

TEST_CASE("agent --no-wait against a deployment that answers at once prints the answer") {
  SpawnedMock mock(WEBDATA_MOCK_EXE);
  auto r =
      agent_cli(mock, {"agent", "What does the trail kettle cost?", "--url", kKettle, "--no-wait"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\nSources:\n- " + kKettle) != std::string::npos);
}
