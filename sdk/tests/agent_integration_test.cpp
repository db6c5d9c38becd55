// The agent over real HTTP against a webdata-mock process, in both of its forms: the synchronous
// answer (the default) and the job (`--agent-jobs`): start_agent, agent_status, cancel_agent,
// and agent(), which polls the job form.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::sdk_client_options;
using webdata::testing::sdk_mock_flags;
using webdata::testing::SdkMock;
using namespace std::chrono_literals;

namespace {

/// A mock that runs agents as jobs, pausing `pacing_ms` before each step.
std::vector<std::string> agent_job_flags(long long pacing_ms) {
  return sdk_mock_flags({"--agent-jobs", "--agent-pacing", std::to_string(pacing_ms)});
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
  SdkMock sync_mock(sdk_mock_flags());
  webdata::Client sync_client(sdk_client_options(sync_mock));
  auto direct = sync_client.agent(library_question(), fast_polling());
  REQUIRE(direct.ok());
  CHECK(direct->status == webdata::JobState::completed());

  SdkMock job_mock_server(agent_job_flags(10));
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
  SdkMock mock(agent_job_flags(2000));  // each step waits 2 s: the job is surely still running
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
  SdkMock mock(agent_job_flags(300));
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
  std::promise<void> polling;
  std::thread canceller([&client, id, polled = polling.get_future()] {
    polled.wait();  // the poll below has begun
    (void)client.cancel_agent(id);
  });
  webdata::AgentResult current = *started;
  bool first = true;
  const bool ended = webdata::testing::eventually([&] {
    auto next = client.agent_status(id);
    if (std::exchange(first, false)) polling.set_value();
    REQUIRE(next.ok());
    current = *next;
    return current.status.is_terminal();
  });
  canceller.join();
  REQUIRE(ended);
  CHECK(current.status == webdata::JobState::cancelled());
}

TEST_CASE("max_credits: an agent job that would spend more fails with a stop reason",
          "[integration][agent][credits]") {
  SdkMock mock(agent_job_flags(0));
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

TEST_CASE("threads, chat, exchange, list, trace and snapshots through the SDK",
          "[integration][agent][threads]") {
  SdkMock mock(agent_job_flags(10));
  webdata::Client client(sdk_client_options(mock));
  webdata::AgentRequest ask = library_question();
  webdata::AgentExchange exchange;
  exchange.enabled = true;
  exchange.toolkits = std::vector<std::string>{"news"};
  exchange.max_calls = 3;
  ask.exchange = exchange;
  auto first = client.agent(ask, fast_polling());
  REQUIRE(first.ok());
  REQUIRE(first->thread_id.has_value());
  CHECK(first->thread_turn == std::optional<long long>(1));
  CHECK(first->mode == std::optional<std::string>("extract"));
  REQUIRE(first->exchange.has_value());
  CHECK(first->exchange->enabled);
  CHECK(first->exchange->toolkits == std::vector<std::string>{"news"});
  CHECK(first->exchange->paid_calls == 0);

  // The next turn, in chat mode: the answer as text, the exchange settings inherited.
  webdata::AgentRequest follow;
  follow.prompt = "library opening hours on sundays";
  follow.thread_id = first->thread_id;
  follow.mode = "chat";
  auto second = client.agent(follow, fast_polling());
  REQUIRE(second.ok());
  CHECK(second->status == webdata::JobState::completed());
  CHECK(second->thread_id == first->thread_id);
  CHECK(second->thread_turn == std::optional<long long>(2));
  REQUIRE(second->message.has_value());
  CHECK(second->message->find("Sources:") != std::string::npos);
  CHECK(second->result.is_null());
  REQUIRE(second->exchange.has_value());
  CHECK(second->exchange->toolkits == std::vector<std::string>{"news"});

  auto thread = client.agent_thread(*first->thread_id, true);
  REQUIRE(thread.ok());
  CHECK(thread->id == *first->thread_id);
  CHECK(thread->status == "idle");
  REQUIRE(thread->runs.size() == 2);
  CHECK(thread->runs[0].id == *first->id);
  CHECK(thread->runs[0].status == "succeeded");
  CHECK(thread->runs[0].data.has_value());
  CHECK(thread->runs[1].turn == 2);
  CHECK(thread->runs[1].mode == "chat");
  CHECK(thread->runs[1].message == second->message);
  CHECK(thread->runs[1].finished_at.has_value());

  auto list = client.list_agents();
  REQUIRE(list.ok());
  REQUIRE(list->agents.size() == 2);
  CHECK(list->agents[0].id == *second->id);
  CHECK(list->agents[0].prompt == "library opening hours on sundays");
  CHECK(list->agents[1].id == *first->id);
  CHECK(list->agents[1].status == webdata::JobState::completed());
  CHECK_FALSE(list->next.has_value());
  REQUIRE(list->agents[0].created_at.has_value());
  const auto newest = list->agents[0].created_at->time();
  REQUIRE(newest.has_value());
  auto older = client.list_agents(
      std::chrono::duration_cast<std::chrono::milliseconds>(newest->time_since_epoch()).count());
  REQUIRE(older.ok());
  REQUIRE(older->agents.size() == 1);
  CHECK(older->agents[0].id == *first->id);

  auto trace = client.agent_trace(*first->id, true);
  REQUIRE(trace.ok());
  CHECK(trace->id == *first->id);
  REQUIRE(trace->events.size() >= 6);
  CHECK(trace->events.front().type == "run.started");
  CHECK(trace->events.back().type == "run.finished");
  CHECK(trace->events.front().agent_role == "orchestrator");
  CHECK(trace->events.front().producer_sequence == 1);
  CHECK(trace->active_browser_sessions.has_value());
  std::string snapshot_id;
  for (const auto& event : trace->events) {
    if (event.type == "artifact.updated") {
      snapshot_id = nlohmann::json::parse(event.fields.text())["artifact"]["snapshotId"];
    }
  }
  REQUIRE_FALSE(snapshot_id.empty());
  auto snapshot = client.agent_snapshot(*first->id, snapshot_id);
  REQUIRE(snapshot.ok());
  CHECK(*snapshot == first->result.as_string().value_or(""));

  auto unknown = client.agent_trace("0b8a3c1e-1d2f-4a5b-8c9d-0e1f2a3b4c5d");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().http_status == 404);
}

TEST_CASE("a busy thread is a 409 error naming the running turn", "[integration][agent][threads]") {
  SdkMock mock(agent_job_flags(2000));
  webdata::Client client(sdk_client_options(mock));
  auto started = client.start_agent(library_question());
  REQUIRE(started.ok());
  webdata::AgentRequest follow;
  follow.prompt = "and on sundays?";
  follow.thread_id = started->thread_id;
  auto busy = client.start_agent(follow);
  REQUIRE_FALSE(busy.ok());
  CHECK(busy.error().http_status == 409);
  CHECK(busy.error().raw_body.find(*started->id) != std::string::npos);
  REQUIRE(client.cancel_agent(*started->id).ok());
}
