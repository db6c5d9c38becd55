// The agent beyond start, status and cancel (docs/adr/0014-agent-threads-trace.md): the team's
// list of runs, a run's trace and snapshots, threads and chat mode, exchange settings and agent
// webhooks. Over real HTTP, in both the synchronous and the job form.
#include <chrono>
#include <thread>

#include "eventually.hpp"
#include "search_support.hpp"
#include "webdata/webhooks.hpp"
#include "webhook_receiver.hpp"

using namespace search_test;
using namespace std::chrono_literals;
using Receiver = webdata::mock::webhooks::testing::Receiver;

namespace {

const std::string kKettle = "https://shop.example.test/products/trail-kettle";

/// A well-formed id that names nothing.
std::string webdata_test_uuid() {
  return "0b8a3c1e-1d2f-4a5b-8c9d-0e1f2a3b4c5d";
}

webdata::mock::Config two_teams(bool jobs = false, long long pacing_ms = 10) {
  auto config = RunningMock::quiet_config();
  config.agent_jobs = jobs;
  config.agent_pacing_ms = pacing_ms;
  config.teams = {{"team-1", {"test-key"}}, {"team-2", {"other-key"}}};
  config.teams[0].webhook_secret = "agent-secret";
  return config;
}

json post_agent(const ApiClient& api, const json& request) {
  const ApiReply reply = api.post("/v2/agent", request);
  INFO(request.dump() << " -> " << reply.status << " " << reply.text.substr(0, 2000));
  REQUIRE(reply.status == 200);
  require_schema("v2/agent.response", reply.body);
  REQUIRE(reply.body["id"].is_string());
  REQUIRE(reply.body["threadId"].is_string());
  return reply.body;
}

json get_ok(const ApiClient& api, const std::string& path, const std::string& schema) {
  const ApiReply reply = api.get(path);
  INFO(path << " -> " << reply.status << " " << reply.text.substr(0, 3000));
  REQUIRE(reply.status == 200);
  require_schema(schema, reply.body);
  return reply.body;
}

std::vector<std::string> event_types(const json& trace) {
  std::vector<std::string> out;
  for (const auto& event : trace["events"]) out.push_back(event["type"]);
  return out;
}

}  // namespace

TEST_CASE("GET /v2/agent lists the team's runs newest first, a page at a time", "[agent][list]") {
  RunningMock mock(two_teams());
  ApiClient api(mock.url());
  ApiClient other(mock.url(), "other-key");
  std::vector<std::string> ids;
  for (int i = 0; i < 23; ++i) {
    ids.push_back(post_agent(
        api,
        {{"prompt", "price " + std::to_string(i)}, {"urls", {kKettle}}, {"effort", "low"}})["id"]);
  }
  const std::string theirs = post_agent(other, {{"prompt", "library hours"}})["id"];

  const json first = get_ok(api, "/v2/agent", "v2/agent-list.response");
  CHECK(first["success"] == true);
  REQUIRE(first["agents"].size() == 20);
  CHECK(first["agents"][0]["id"] == ids.back());
  CHECK(first["agents"][0]["status"] == "completed");
  CHECK(first["agents"][0]["targetHint"] == kKettle);
  CHECK(first["agents"][0]["origin"] == "api");
  CHECK(first["agents"][0]["settings"] == json{{"hidden", false}, {"starred", false}});
  CHECK(first["agents"][0]["options"]["prompt"] == "price 22");
  CHECK(first["agents"][0]["options"]["model"] == "spark-1-pro");
  CHECK(first["agents"][0]["options"]["effort"] == "low");
  CHECK(first["agents"][0]["options"]["urls"] == json::array({kKettle}));
  REQUIRE(first["next"].is_string());
  const std::string next = first["next"];
  CHECK(next.rfind(mock.url() + "/v2/agent?before=", 0) == 0);

  const json second = get_ok(api, next.substr(mock.url().size()), "v2/agent-list.response");
  REQUIRE(second["agents"].size() == 3);
  CHECK_FALSE(second.contains("next"));
  std::vector<std::string> listed;
  for (const auto* page : {&first, &second}) {
    for (const auto& item : (*page)["agents"]) listed.push_back(item["id"]);
  }
  CHECK(listed == std::vector<std::string>(ids.rbegin(), ids.rend()));

  // Another team sees only its own; `before` in the past lists nothing; a bad `before` is 400.
  const json theirs_list = get_ok(other, "/v2/agent", "v2/agent-list.response");
  REQUIRE(theirs_list["agents"].size() == 1);
  CHECK(theirs_list["agents"][0]["id"] == theirs);
  CHECK(theirs_list["agents"][0]["targetHint"] == "library hours");
  CHECK(get_ok(api, "/v2/agent?before=1", "v2/agent-list.response")["agents"].empty());
  const ApiReply bad = api.get("/v2/agent?before=yesterday");
  CHECK(bad.status == 400);
  REQUIRE(bad.body["details"].is_array());
  CHECK(bad.body["details"][0]["path"] == json::array({"before"}));

  // Runs past their retention leave the list.
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 25LL * 3600 * 1000}}).status == 200);
  CHECK(get_ok(api, "/v2/agent", "v2/agent-list.response")["agents"].empty());
}

TEST_CASE("a run's trace tells the pages it read and its snapshot holds the answer",
          "[agent][trace]") {
  RunningMock mock(two_teams());
  ApiClient api(mock.url());
  const json started =
      post_agent(api, {{"prompt", "What does the trail kettle cost?"}, {"urls", {kKettle}}});
  const std::string id = started["id"];
  const json trace = get_ok(api, "/v2/agent/" + id + "/trace", "v2/agent-trace.response");
  CHECK(trace["id"] == id);
  CHECK(trace["creditsUsed"] == started["creditsUsed"]);
  CHECK_FALSE(trace.contains("activeBrowserSessions"));
  CHECK(event_types(trace) ==
        std::vector<std::string>{"run.started", "agent.started", "progress.reported",
                                 "tool_call.started", "tool_call.finished", "progress.reported",
                                 "artifact.updated", "agent.finished", "run.finished"});
  const json& events = trace["events"];
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i]["runId"] == id);
    CHECK(events[i]["producerSequence"] == static_cast<int>(i + 1));
    CHECK(events[i]["agent"]["role"] == "orchestrator");
  }
  CHECK(events[3]["toolName"] == "scrape");
  CHECK(events[3]["parameters"] == json{{"url", kKettle}});
  CHECK(events[4]["toolCallId"] == events[3]["toolCallId"]);
  CHECK(events[8]["outcome"] == "succeeded");
  CHECK(events[8]["error"].is_null());

  // The artifact's snapshot is the answer.
  const std::string snapshot = events[6]["artifact"]["snapshotId"];
  const json content =
      get_ok(api, "/v2/agent/" + id + "/snapshots/" + snapshot, "v2/agent-snapshot.response");
  CHECK(content["snapshot"] == started["data"]["result"]);
  CHECK(content["snapshotId"] == snapshot);

  // liveView: no browser, so no session; unknowns are 404 like the status.
  CHECK(get_ok(api, "/v2/agent/" + id + "/trace?liveView=true",
               "v2/agent-trace.response")["activeBrowserSessions"] == json::array());
  const ApiReply no_snapshot = api.get("/v2/agent/" + id + "/snapshots/nope");
  CHECK(no_snapshot.status == 404);
  CHECK(no_snapshot.body["error"] == "Agent snapshot not found");
  const ApiReply unknown = api.get("/v2/agent/" + webdata_test_uuid() + "/trace");
  CHECK(unknown.status == 404);
  CHECK(unknown.body["error"] == "Agent job not found");
  const ApiReply other_team = ApiClient(mock.url(), "other-key").get("/v2/agent/" + id + "/trace");
  CHECK(other_team.status == 404);
}

TEST_CASE("a cancelled job's trace ends with the cancel and a cancelled outcome",
          "[agent][trace][job]") {
  RunningMock mock(two_teams(true, 300));
  ApiClient api(mock.url());
  const std::string id = post_agent(api, {{"prompt", "library opening hours winter"}})["id"];
  // Cancel once the job has begun (a worker picked it up), so its trace has a start to end.
  REQUIRE(webdata::testing::eventually([&] {
    return !get_ok(api, "/v2/agent/" + id + "/trace", "v2/agent-trace.response")["events"].empty();
  }));
  REQUIRE(api.del("/v2/agent/" + id).body["success"] == true);
  const json trace = get_ok(api, "/v2/agent/" + id + "/trace", "v2/agent-trace.response");
  const auto types = event_types(trace);
  REQUIRE(types.size() >= 4);
  CHECK(types[types.size() - 3] == "run.cancel_requested");
  CHECK(types.back() == "run.finished");
  CHECK(trace["events"].back()["outcome"] == "cancelled");
  CHECK(trace["events"].back()["error"]["code"] == "cancelled");
}

TEST_CASE("threads: a follow-up is the next turn, one run at a time, listed by the thread",
          "[agent][threads][job]") {
  RunningMock mock(two_teams(true, 200));
  ApiClient api(mock.url());
  const json first =
      post_agent(api, {{"prompt", "What does the trail kettle cost?"}, {"urls", {kKettle}}});
  CHECK(first["threadTurn"] == 1);
  const std::string thread_id = first["threadId"];

  // While the first run reads, the thread is busy: 409 naming the running run.
  const ApiReply busy =
      api.post("/v2/agent", {{"prompt", "and its weight?"}, {"threadId", thread_id}});
  CHECK(busy.status == 409);
  CHECK(busy.body["success"] == false);
  CHECK(busy.body["runId"] == first["id"]);
  const json running = get_ok(api, "/v2/agent/threads/" + thread_id, "v2/agent-thread.response");
  CHECK(running["thread"]["status"] == "running");

  wait_agent_end(api, first["id"]);
  const json second =
      post_agent(api, {{"prompt", "How heavy is it?"}, {"threadId", thread_id}, {"mode", "chat"}});
  CHECK(second["threadId"] == thread_id);
  CHECK(second["threadTurn"] == 2);
  const json answer = wait_agent_end(api, second["id"]);
  CHECK(answer["status"] == "completed");
  CHECK(answer["threadTurn"] == 2);
  CHECK(answer["mode"] == "chat");
  // Chat answers in `message`, not `data`, from the pages the thread read (inherited urls).
  CHECK_FALSE(answer.contains("data"));
  REQUIRE(answer["message"].is_string());
  CHECK(answer["message"].get<std::string>().find("Sources:\n- " + kKettle) != std::string::npos);

  const json thread = get_ok(api, "/v2/agent/threads/" + thread_id, "v2/agent-thread.response");
  CHECK(thread["thread"]["id"] == thread_id);
  CHECK(thread["thread"]["status"] == "idle");
  REQUIRE(thread["thread"]["runs"].size() == 2);
  const json& run1 = thread["thread"]["runs"][0];
  const json& run2 = thread["thread"]["runs"][1];
  CHECK(run1["id"] == first["id"]);
  CHECK(run1["turn"] == 1);
  CHECK(run1["mode"] == "extract");
  CHECK(run1["status"] == "succeeded");
  CHECK(run1["message"].is_null());
  CHECK_FALSE(run1.contains("data"));
  CHECK(run2["turn"] == 2);
  CHECK(run2["urls"] == json::array({kKettle}));
  CHECK(run2["message"] == answer["message"]);
  CHECK(run2["finishedAt"].is_string());
  const json with_data = get_ok(api, "/v2/agent/threads/" + thread_id + "?includeData=true",
                                "v2/agent-thread.response");
  CHECK(with_data["thread"]["runs"][0]["data"]["sources"] == json::array({kKettle}));
  CHECK_FALSE(with_data["thread"]["runs"][1].contains("data"));  // chat: no data

  // Unknown and other teams' threads are 404, to continue as to read.
  const ApiReply unknown = api.get("/v2/agent/threads/" + webdata_test_uuid());
  CHECK(unknown.status == 404);
  CHECK(unknown.body["error"] == "Agent thread not found");
  ApiClient other(mock.url(), "other-key");
  CHECK(other.get("/v2/agent/threads/" + thread_id).status == 404);
  const ApiReply foreign = other.post("/v2/agent", {{"prompt", "x"}, {"threadId", thread_id}});
  CHECK(foreign.status == 404);
  const ApiReply not_uuid = api.post("/v2/agent", {{"prompt", "x"}, {"threadId", "thread-1"}});
  CHECK(not_uuid.status == 400);
  CHECK(not_uuid.body["details"][0]["path"] == json::array({"threadId"}));
}

TEST_CASE("exchange settings are checked strictly and reported, inherited by a follow-up",
          "[agent][exchange]") {
  RunningMock mock(two_teams());
  ApiClient api(mock.url());
  const json exchange = {{"enabled", true},
                         {"toolkits", {"news", "finance"}},
                         {"maxCalls", 5},
                         {"requireApproval", true},
                         {"onTermsRequired", "skip"}};
  const json first = post_agent(api, {{"prompt", "library hours"}, {"exchange", exchange}});
  const json status =
      get_ok(api, "/v2/agent/" + first["id"].get<std::string>(), "v2/agent-status.response");
  CHECK(status["exchange"] == json{{"enabled", true},
                                   {"toolkits", {"news", "finance"}},
                                   {"requireApproval", true},
                                   {"onTermsRequired", "skip"},
                                   {"paidCalls", 0},
                                   {"creditsUsed", 0}});
  // A follow-up that changes one setting keeps the others.
  const json second = post_agent(api, {{"prompt", "and on sundays?"},
                                       {"threadId", first["threadId"]},
                                       {"exchange", {{"requireApproval", false}}}});
  const json follow =
      get_ok(api, "/v2/agent/" + second["id"].get<std::string>(), "v2/agent-status.response");
  CHECK(follow["exchange"]["toolkits"] == json::array({"news", "finance"}));
  CHECK(follow["exchange"]["requireApproval"] == false);
  // Without exchange, none is reported.
  const json plain = post_agent(api, {{"prompt", "library hours"}});
  CHECK_FALSE(get_ok(api, "/v2/agent/" + plain["id"].get<std::string>(), "v2/agent-status.response")
                  .contains("exchange"));

  const auto refused = [&](const json& bad, const json& path) {
    const ApiReply reply = api.post("/v2/agent", {{"prompt", "x"}, {"exchange", bad}});
    INFO(bad.dump() << " -> " << reply.text);
    CHECK(reply.status == 400);
    REQUIRE(reply.body["details"].is_array());
    CHECK(reply.body["details"][0]["path"] == path);
  };
  refused({{"maxCalls", 0}}, json::array({"exchange", "maxCalls"}));
  refused({{"maxCalls", 31}}, json::array({"exchange", "maxCalls"}));
  refused({{"toolkits", {"a", "b", "c", "d", "e", "f"}}}, json::array({"exchange", "toolkits"}));
  refused({{"enabled", "yes"}}, json::array({"exchange", "enabled"}));
  refused({{"approve", {{"approvalId", "nope"}}}},
          json::array({"exchange", "approve", "approvalId"}));
  refused({{"surprise", true}}, json::array({"exchange"}));
  // A well-formed approval answers nothing: the mock's agent never waits for one.
  refused({{"approve", {{"approvalId", webdata_test_uuid()}}}},
          json::array({"exchange", "approve", "approvalId"}));
  refused({{"decline", {{"approvalId", webdata_test_uuid()}}}},
          json::array({"exchange", "decline", "approvalId"}));
}

TEST_CASE("agent webhooks: started, an action per page read, completed, signed and filtered",
          "[agent][webhooks]") {
  RunningMock mock(two_teams());
  ApiClient api(mock.url());
  Receiver receiver;
  const json started = post_agent(
      api, {{"prompt", "What does the trail kettle cost?"},
            {"urls", {kKettle}},
            {"webhook", {{"url", receiver.url("/agent")}, {"metadata", {{"run", "a"}}}}}});
  const std::string id = started["id"];
  REQUIRE(mock.server().webhooks().drain("", 30s));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 3);
  std::vector<json> bodies;
  for (const auto& r : requests) {
    CHECK(r.header("x-service-signature") == webdata::webhooks::sign("agent-secret", r.body));
    bodies.push_back(json::parse(r.body));
  }
  CHECK(bodies[0]["type"] == "agent.started");
  CHECK(bodies[0]["data"] == json::array());
  CHECK(bodies[1]["type"] == "agent.action");
  CHECK(bodies[1]["data"][0]["action"] == "scrape");
  CHECK(bodies[1]["data"][0]["input"] == json{{"url", kKettle}});
  CHECK(bodies[2]["type"] == "agent.completed");
  CHECK(bodies[2]["success"] == true);
  CHECK(bodies[2]["data"][0]["creditsUsed"] == started["creditsUsed"]);
  CHECK(bodies[2]["data"][0]["data"] == started["data"]);
  for (const auto& body : bodies) {
    CHECK(body["id"] == id);
    CHECK(body["metadata"] == json{{"run", "a"}});
  }

  // `events` filters; a job event name that agents do not have is refused.
  Receiver only_end;
  post_agent(api, {{"prompt", "library hours"},
                   {"webhook", {{"url", only_end.url()}, {"events", {"completed"}}}}});
  REQUIRE(mock.server().webhooks().drain("", 30s));
  REQUIRE(only_end.requests().size() == 1);
  CHECK(json::parse(only_end.requests()[0].body)["type"] == "agent.completed");
  const ApiReply bad = api.post(
      "/v2/agent", {{"prompt", "x"}, {"webhook", {{"url", only_end.url()}, {"events", {"page"}}}}});
  CHECK(bad.status == 400);
  REQUIRE(bad.body["details"].is_array());
}

TEST_CASE("agent webhooks of a job: failed and cancelled carry the credits spent",
          "[agent][webhooks][job]") {
  RunningMock mock(two_teams(true, 200));
  ApiClient api(mock.url());
  Receiver receiver;
  const json hook = {{"url", receiver.url()}, {"events", {"cancelled", "failed"}}};
  const std::string cancelled =
      post_agent(api, {{"prompt", "library opening hours winter"}, {"webhook", hook}})["id"];
  REQUIRE(api.del("/v2/agent/" + cancelled).body["success"] == true);
  const std::string failed = post_agent(api, {{"prompt", "what happened"},
                                              {"urls", {kBridge, kRiver}},
                                              {"maxCredits", 1},
                                              {"webhook", hook}})["id"];
  REQUIRE(wait_agent_end(api, failed)["status"] == "failed");
  REQUIRE(mock.server().webhooks().drain("", 30s));
  const auto requests = receiver.requests();
  REQUIRE(requests.size() == 2);
  const json first = json::parse(requests[0].body);
  const json second = json::parse(requests[1].body);
  CHECK(first["type"] == "agent.cancelled");
  CHECK(first["id"] == cancelled);
  CHECK(first["success"] == false);
  CHECK(first["data"][0].contains("creditsUsed"));
  CHECK(second["type"] == "agent.failed");
  CHECK(second["id"] == failed);
  CHECK(second["error"] == "Agent reached max credits");
  CHECK(second["data"][0]["creditsUsed"] == 1);
}
