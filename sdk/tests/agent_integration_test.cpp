// The agent over real HTTP against the in-process mock, in both of its forms: the synchronous
// answer (the default) and the job (`--agent-jobs`): start_agent, agent_status, cancel_agent,
// and agent(), which polls the job form.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::RunningMock;
using webdata::testing::sdk_client_options;
using webdata::testing::sdk_mock_config;
using namespace std::chrono_literals;

namespace {

webdata::mock::Config job_mock(long long pacing_ms) {
  auto config = RunningMock::quiet_config();
  config.agent_jobs = true;
  config.agent_pacing_ms = pacing_ms;
  return sdk_mock_config(config);
}

webdata::PollingPolicy fast_polling() {
  webdata::PollingPolicy policy;
  policy.interval = 20ms;
  policy.max_wait = 30s;
  return policy;
}

webdata::AgentRequest library_question() {
  webdata::AgentRequest ask;
  ask.prompt = "library opening hours winter";
  ask.model = "spark-1-mini";
  return ask;
}

}  // namespace

TEST_CASE("agent() gives the same answer from the synchronous and the job form",
          "[integration][agent]") {
  RunningMock sync_mock(sdk_mock_config());
  webdata::Client sync_client(sdk_client_options(sync_mock));
  auto direct = sync_client.agent(library_question(), fast_polling());
  REQUIRE(direct.ok());
  CHECK(direct->status == webdata::JobState::completed());

  RunningMock job_mock_server(job_mock(10));
  webdata::Client client(sdk_client_options(job_mock_server));
  auto polled = client.agent(library_question(), fast_polling());
  REQUIRE(polled.ok());
  CHECK(polled->status == webdata::JobState::completed());
  REQUIRE(polled->id.has_value());
  CHECK(polled->model == std::optional<std::string>("spark-1-mini"));
  CHECK(polled->expires_at.has_value());
  CHECK(polled->result == direct->result);
  CHECK(polled->sources == direct->sources);
  CHECK(polled->credits_used == direct->credits_used);

  // start_agent against the synchronous form returns the answer itself.
  auto at_once = sync_client.start_agent(library_question());
  REQUIRE(at_once.ok());
  CHECK(at_once->status == webdata::JobState::completed());
  CHECK(at_once->sources == direct->sources);
}

TEST_CASE("start_agent, agent_status and cancel_agent on a running job",
          "[integration][agent][cancel]") {
  RunningMock mock(job_mock(2000));  // each step waits 2 s: the job is surely still running
  webdata::Client client(sdk_client_options(mock));
  auto started = client.start_agent(library_question());
  REQUIRE(started.ok());
  REQUIRE(started->id.has_value());
  CHECK(started->status == webdata::JobState::processing());
  CHECK(started->result.is_null());

  auto running = client.agent_status(*started->id);
  REQUIRE(running.ok());
  CHECK(running->status == webdata::JobState::processing());
  CHECK(running->result.is_null());

  auto cancelled = client.cancel_agent(*started->id);
  REQUIRE(cancelled.ok());
  CHECK(*cancelled);
  auto after = client.agent_status(*started->id);
  REQUIRE(after.ok());
  CHECK(after->status == webdata::JobState::cancelled());
  CHECK(after->status.is_terminal());
  CHECK(after->credits_used == std::optional<int>(0));

  // Unknown ids: 404, as kNotFound.
  auto unknown = client.agent_status("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().http_status == 404);
  auto unknown_cancel = client.cancel_agent("00000000-0000-4000-8000-000000000000");
  REQUIRE_FALSE(unknown_cancel.ok());
  CHECK(unknown_cancel.error().http_status == 404);
}

TEST_CASE("cancel_agent of a finished job is false, a job cancelled while polled ends cancelled",
          "[integration][agent][cancel]") {
  RunningMock mock(job_mock(300));
  webdata::Client client(sdk_client_options(mock));
  auto done = client.agent(library_question(), fast_polling());
  REQUIRE(done.ok());
  REQUIRE(done->status == webdata::JobState::completed());
  auto late = client.cancel_agent(*done->id);
  REQUIRE(late.ok());
  CHECK_FALSE(*late);

  // Another thread cancels the job while this one polls it.
  auto started = client.start_agent(library_question());
  REQUIRE(started.ok());
  const std::string id = *started->id;
  std::thread canceller([&client, id] {
    std::this_thread::sleep_for(100ms);
    (void)client.cancel_agent(id);
  });
  webdata::AgentResult current = *started;
  while (!current.status.is_terminal()) {
    std::this_thread::sleep_for(20ms);
    auto next = client.agent_status(id);
    REQUIRE(next.ok());
    current = *next;
  }
  canceller.join();
  CHECK(current.status == webdata::JobState::cancelled());
}

TEST_CASE("max_credits: an agent job that would spend more fails with a stop reason",
          "[integration][agent][credits]") {
  RunningMock mock(job_mock(0));
  webdata::Client client(sdk_client_options(mock));
  webdata::AgentRequest ask;
  ask.prompt = "what happened";
  ask.urls = std::vector<std::string>{"https://news.example.test/2026/11/harbour-bridge-reopens",
                                      "https://news.example.test/2026/10/river-levels-record-low",
                                      "https://news.example.test/2026/06/solar-farm-opens"};
  ask.max_credits = 2;
  ask.strict_constrain_to_urls = true;
  auto stopped = client.agent(ask, fast_polling());
  REQUIRE(stopped.ok());
  CHECK(stopped->status == webdata::JobState::failed());
  CHECK(stopped->error == std::optional<std::string>("Agent reached max credits"));
  CHECK(stopped->stop_reason == std::optional<std::string>("credit_limit_reached"));
  CHECK(stopped->credits_used == std::optional<int>(2));
  CHECK(stopped->result.is_null());
}
