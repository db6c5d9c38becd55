// The agent as a job (--agent-jobs): POST /v2/agent answers {success, id}, GET /v2/agent/{id}
// polls it, DELETE cancels it. Over real HTTP against the bundled virtual web.
#include <chrono>
#include <thread>

#include "search_support.hpp"

using namespace search_test;

namespace {

webdata::mock::Config job_config(long long pacing_ms) {
  auto config = RunningMock::quiet_config();
  config.agent_jobs = true;
  config.agent_pacing_ms = pacing_ms;
  return config;
}

/// POST /v2/agent in the job form: {success: true, id} and nothing else.
std::string start(const ApiClient& api, const json& request) {
  const ApiReply reply = api.post("/v2/agent", request);
  INFO(request.dump() << " -> " << reply.status << " " << reply.text.substr(0, 2000));
  REQUIRE(reply.status == 200);
  require_schema("v2/agent.response", reply.body);
  REQUIRE(reply.body["success"] == true);
  REQUIRE(reply.body["id"].is_string());
  CHECK_FALSE(reply.body.contains("data"));
  return reply.body["id"];
}

}  // namespace

TEST_CASE("an agent job answers as the synchronous agent does, and bills what it read",
          "[agent][job]") {
  RunningMock mock(job_config(10));
  ApiClient api(mock.url());
  const auto before = balance(api);
  const json request = {{"prompt", "library opening hours winter"}, {"model", "spark-1-mini"}};
  const std::string id = start(api, request);
  const json done = wait_agent_end(api, id);
  CHECK(done["status"] == "completed");
  CHECK(done["success"] == true);
  CHECK(done["model"] == "spark-1-mini");
  CHECK(done["expiresAt"].get<std::string>().substr(19) == ".000Z");
  REQUIRE(done["data"]["sources"].size() >= 1);
  CHECK(done["data"]["sources"][0] == kLibrary);
  CHECK(done["creditsUsed"].get<std::int64_t>() >= 1);
  CHECK(balance(api) == before - done["creditsUsed"].get<std::int64_t>());

  // The same answer as the synchronous form gives for the same request.
  const ApiReply direct = shared_api().post("/v2/agent", request);
  REQUIRE(direct.status == 200);
  CHECK(done["data"] == direct.body["data"]);
  CHECK(done["creditsUsed"] == direct.body["creditsUsed"]);

  // A schema shapes `data.json`, as in the synchronous form.
  const json schema = {{"type", "object"},
                       {"properties", {{"homes", {{"type", "integer"}}}}},
                       {"required", json::array({"homes"})}};
  const json shaped = wait_agent_end(
      api,
      start(api, {{"prompt", "how many homes does the solar farm supply"}, {"schema", schema}}));
  REQUIRE(shaped["status"] == "completed");
  CHECK(shaped["data"]["json"]["homes"] == 38000);
}

TEST_CASE("a running agent job can be cancelled", "[agent][job][cancel]") {
  RunningMock mock(job_config(2000));  // each step waits 2 s: the job is surely running
  ApiClient api(mock.url());
  const auto before = balance(api);
  const std::string id = start(api, {{"prompt", "harbour bridge repairs cost"}});
  const json running = agent_status(api, id);
  CHECK(running["status"] == "processing");
  CHECK_FALSE(running.contains("data"));
  CHECK(running["creditsUsed"] == 0);

  const ApiReply cancelled = api.del("/v2/agent/" + id);
  REQUIRE(cancelled.status == 200);
  require_schema("v2/agent-cancel.response", cancelled.body);
  CHECK(cancelled.body == json{{"success", true}});
  const json after = agent_status(api, id);
  CHECK(after["status"] == "cancelled");
  CHECK_FALSE(after.contains("data"));
  // It stays cancelled and read nothing, so it cost nothing (a fixed wait, with its reason: it
  // proves that nothing happens for a while, there is no event to wait on).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(agent_status(api, id)["status"] == "cancelled");
  CHECK(balance(api) == before);

  // Cancelling again answers as the first time.
  CHECK(api.del("/v2/agent/" + id).body == json{{"success", true}});
}

TEST_CASE("agent job ids: unknown, another team's, finished, expired", "[agent][job]") {
  auto config = job_config(0);
  config.teams = {{"team-1", {"test-key"}}, {"team-2", {"other-key"}}};
  RunningMock mock(config);
  ApiClient api(mock.url());
  ApiClient other(mock.url(), "other-key");
  const std::string unknown = "00000000-0000-4000-8000-000000000000";
  for (const ApiReply& reply : {api.get("/v2/agent/" + unknown), api.del("/v2/agent/" + unknown)}) {
    CHECK(reply.status == 404);
    CHECK(reply.body == json{{"success", false}, {"error", "Agent job not found"}});
  }

  const std::string id = start(api, {{"prompt", "river levels barges"}});
  CHECK(other.get("/v2/agent/" + id).status == 404);
  CHECK(other.del("/v2/agent/" + id).status == 404);
  REQUIRE(wait_agent_end(api, id)["status"] == "completed");

  // Nothing left to cancel: the service answers success false, and the job stays completed.
  const ApiReply late = api.del("/v2/agent/" + id);
  CHECK(late.status == 200);
  require_schema("v2/agent-cancel.response", late.body);
  CHECK(late.body["success"] == false);
  CHECK(agent_status(api, id)["status"] == "completed");

  // Results are kept a day after the job ends.
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 23LL * 3600 * 1000}}).status == 200);
  CHECK(agent_status(api, id)["status"] == "completed");
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 2LL * 3600 * 1000}}).status == 200);
  const ApiReply expired = api.get("/v2/agent/" + id);
  CHECK(expired.status == 404);
  CHECK(expired.body["error"] == "Agent job not found");
}

TEST_CASE("maxCredits stops an agent job that would spend more", "[agent][job][credits]") {
  RunningMock mock(job_config(0));
  ApiClient api(mock.url());
  const json urls = json::array({kBridge, kRiver, kSolar});
  const auto before = balance(api);
  const json stopped = wait_agent_end(
      api, start(api, {{"prompt", "what happened"}, {"urls", urls}, {"maxCredits", 2}}));
  CHECK(stopped["status"] == "failed");
  CHECK(stopped["error"] == "Agent reached max credits");
  CHECK(stopped["stopReason"] == "credit_limit_reached");
  CHECK(stopped["creditsUsed"] == 2);
  CHECK_FALSE(stopped.contains("data"));
  CHECK(balance(api) == before - 2);

  const json enough = wait_agent_end(
      api, start(api, {{"prompt", "what happened"}, {"urls", urls}, {"maxCredits", 3}}));
  CHECK(enough["status"] == "completed");
  CHECK(enough["creditsUsed"] == 3);

  // A team that runs out of credits mid-job: the job fails with what it spent.
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 1}}).status ==
          200);
  const json poor = wait_agent_end(api, start(api, {{"prompt", "what happened"}, {"urls", urls}}));
  CHECK(poor["status"] == "failed");
  CHECK(poor["creditsUsed"] == 1);
  CHECK(poor["error"].get<std::string>().find("Insufficient credits") != std::string::npos);
  CHECK(balance(api) == 0);
  CHECK(api.post("/v2/agent", {{"prompt", "river"}}).status == 402);
}

TEST_CASE("agent job requests are checked before a job starts", "[agent][job]") {
  RunningMock mock(job_config(0));
  ApiClient api(mock.url());
  CHECK(api.post("/v2/agent", json::object()).status == 400);
  CHECK(api.post("/v2/agent", {{"prompt", "x"}, {"maxCredits", 0}}).status == 400);
  const ApiReply bad_url = api.post("/v2/agent", {{"prompt", "x"}, {"urls", {"ftp://a.test/"}}});
  CHECK(bad_url.status == 400);
  // Every field the official clients send is accepted.
  start(api, {{"prompt", "river"},
              {"urls", {kRiver}},
              {"strictConstrainToURLs", true},
              {"model", "spark-2"},
              {"effort", "low"},
              {"maxCredits", 5},
              {"origin", "js-sdk@4.42.0"}});
}

TEST_CASE("an admin reset drops agent jobs, running or not", "[agent][job]") {
  RunningMock mock(job_config(2000));
  ApiClient api(mock.url());
  const std::string id = start(api, {{"prompt", "solar farm"}});
  REQUIRE(api.post("/__admin/reset", json::object()).status == 200);
  CHECK(api.get("/v2/agent/" + id).status == 404);
}

TEST_CASE("the flags --agent-jobs and --agent-pacing", "[agent][config]") {
  using webdata::mock::parse_args;
  const auto parsed = parse_args({"--agent-jobs", "--agent-pacing", "40"});
  REQUIRE(parsed.config);
  CHECK(parsed.config->agent_jobs);
  CHECK(parsed.config->agent_pacing_ms == 40);
  CHECK_FALSE(parse_args({}).config->agent_jobs);
  CHECK_FALSE(parse_args({"--agent-pacing", "-1"}).config);
  CHECK_FALSE(parse_args({"--agent-pacing"}).config);
  webdata::mock::Config from_file;
  CHECK(webdata::mock::apply_config_json({{"agentJobs", true}, {"agentPacingMs", 5}}, from_file)
            .empty());
  CHECK(from_file.agent_jobs);
  CHECK(from_file.agent_pacing_ms == 5);
}
