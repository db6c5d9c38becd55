// Browser sessions (POST/GET /v2/browser, execute, DELETE) and interact on an earlier scrape
// (POST/DELETE /v2/scrape/{id}/interact) over real HTTP: code and prompts on pages of the
// virtual web, expiry on the mock's clock, billing, teams and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"
#include "webdata/contract/schemas.hpp"
#include "../ws_client.hpp"

using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

webdata::mock::Config browser_teams() {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.teams = {{"alpha", {"key-a"}}, {"beta", {"key-b"}}};
  return config;
}

bool valid(const std::string& schema, const json& body) {
  const auto issues = webdata::contract::SchemaSet::embedded().validate(schema, body);
  for (const auto& issue : issues) UNSCOPED_INFO(schema << ": " << issue.message);
  return issues.empty();
}

struct Browsers {
  RunningMock mock{browser_teams()};
  ApiClient alpha{mock.url(), "key-a"};
  ApiClient beta{mock.url(), "key-b"};
  Browsers() {
    const std::string home =
        "<html><head><title>Home</title></head><body><h1>Welcome</h1>"
        "<a href=\"/about\">About us</a><form action=\"/search\" method=\"get\">"
        "<input name=\"q\"><button type=\"submit\">Go</button></form></body></html>";
    const std::string about =
        "<html><head><title>About</title></head><body><h1>About us</h1><p>Founded 1890.</p>"
        "</body></html>";
    REQUIRE(alpha.post("/__admin/mappings", page_stub("site.test", "/", home)).status == 201);
    REQUIRE(alpha.post("/__admin/mappings", page_stub("site.test", "/about", about)).status ==
            201);
  }
  std::string create(json body = json::object()) {
    const auto r = alpha.post("/v2/browser", body);
    REQUIRE(r.status == 200);
    CHECK(valid("v2/browser.response", r.body));
    return r.body["id"].get<std::string>();
  }
  json execute(const std::string& id, const std::string& code) {
    const auto r = alpha.post("/v2/browser/" + id + "/execute", {{"code", code}});
    REQUIRE(r.status == 200);
    CHECK(valid("v2/browser-execute.response", r.body));
    return r.body;
  }
  void advance(long long ms) {
    REQUIRE(alpha.post("/__admin/clock/advance", {{"milliseconds", ms}}).status == 200);
  }
};

}  // namespace

TEST_CASE_METHOD(Browsers, "a browser session opens pages and runs commands on them",
                 "[browser]") {
  const std::string id = create({{"ttl", 120}, {"streamWebView", true}});
  json out = execute(id, "agent-browser open http://site.test/\nagent-browser get title");
  CHECK(out["exitCode"] == 0);
  CHECK(out["result"] == "Home");
  CHECK(out["stdout"] == "Home\n");
  // The page stays open between calls; a click on a link navigates.
  out = execute(id, "click \"a[href='/about']\"\nget url\nsnapshot");
  CHECK(out["exitCode"] == 0);
  CHECK(out["stdout"].get<std::string>().find("http://site.test/about\n") == 0);
  CHECK(out["result"].get<std::string>().find("Founded 1890.") != std::string::npos);
  // Playwright lines (node or python) read the same.
  out = execute(id, "await page.goto('http://site.test/');\nconsole.log(await page.title());\n"
                    "const n = await page.evaluate(\"document.querySelectorAll('a').length\");");
  CHECK(out["stdout"] == "Home\n1\n");
  CHECK(out["result"] == "1");
  // What the mock cannot run fails with the line, not silently.
  out = execute(id, "get title\nrm -rf /");
  CHECK(out["exitCode"] == 1);
  CHECK(out["stdout"] == "");
  CHECK(out["stderr"].get<std::string>().find("line 2") != std::string::npos);
  out = execute(id, "click #missing");
  CHECK(out["exitCode"] == 1);
  CHECK_FALSE(out["stderr"].get<std::string>().empty());
}

TEST_CASE_METHOD(Browsers, "a named profile keeps the page a session left, when it saves changes",
                 "[browser]") {
  const json saving = {{"profile", {{"name", "research"}, {"saveChanges", true}}}};
  std::string id = create(saving);
  CHECK(execute(id, "open http://site.test/\nclick \"a[href='/about']\"")["exitCode"] == 0);
  REQUIRE(alpha.del("/v2/browser/" + id).status == 200);
  // A new session on the profile starts on the page the last one ended on.
  id = create({{"profile", {{"name", "research"}, {"saveChanges", false}}}});
  json out = execute(id, "get url\nget title");
  CHECK(out["stdout"] == "http://site.test/about\nAbout\n");
  // With saveChanges false it reads the profile but leaves it as it was.
  CHECK(execute(id, "open http://site.test/")["exitCode"] == 0);
  REQUIRE(alpha.del("/v2/browser/" + id).status == 200);
  id = create({{"profile", {{"name", "research"}}}});
  CHECK(execute(id, "get url")["result"] == "http://site.test/about");
  // An idle session that expires saves too; profiles are the team's own.
  id = create({{"activityTtl", 10}, {"profile", {{"name", "idle"}}}});  // saves by default
  CHECK(execute(id, "open http://site.test/")["exitCode"] == 0);
  advance(11000);
  id = create({{"profile", {{"name", "idle"}}}});
  CHECK(execute(id, "get title")["result"] == "Home");
  const auto other = beta.post("/v2/browser", {{"profile", {{"name", "research"}}}});
  REQUIRE(other.status == 200);
  const auto blank = beta.post("/v2/browser/" + other.body["id"].get<std::string>() + "/execute",
                               {{"code", "get url"}});
  CHECK(blank.body["result"] == "about:blank");
  CHECK(alpha.post("/v2/browser", {{"profile", {{"saveChanges", true}}}}).status == 400);
}

TEST_CASE_METHOD(Browsers, "browser sessions list, delete and bill by the minute", "[browser]") {
  const std::string first = create();
  const std::string second = create({{"ttl", 60}});
  auto list = alpha.get("/v2/browser");
  REQUIRE(list.status == 200);
  CHECK(valid("v2/browser-list.response", list.body));
  REQUIRE(list.body["sessions"].size() == 2);
  CHECK(list.body["sessions"][0]["status"] == "active");
  CHECK(beta.get("/v2/browser").body["sessions"].empty());
  advance(61000);
  const auto used = alpha.get("/v2/team/credit-usage").body["data"]["remainingCredits"];
  const auto ended = alpha.del("/v2/browser/" + first);
  REQUIRE(ended.status == 200);
  CHECK(valid("v2/browser-delete.response", ended.body));
  CHECK(ended.body["status"] == "destroyed");
  CHECK(ended.body["sessionDurationMs"].get<long long>() >= 61000);  // + the real time taken
  CHECK(ended.body["creditsBilled"] == 4);  // 2 credits a started minute
  CHECK(alpha.get("/v2/team/credit-usage").body["data"]["remainingCredits"].get<long long>() <=
        used.get<long long>() - 4);
  // The second one outlived its ttl of 60 s: destroyed, execute answers 410.
  CHECK(alpha.get("/v2/browser?status=active").body["sessions"].empty());
  CHECK(alpha.get("/v2/browser?status=destroyed").body["sessions"].size() == 2);
  CHECK(alpha.post("/v2/browser/" + second + "/execute", {{"code", "get title"}}).status == 410);
  CHECK(alpha.get("/v2/browser?status=paused").status == 400);
}

TEST_CASE_METHOD(Browsers, "an idle session ends after activityTtl", "[browser]") {
  const std::string id = create({{"activityTtl", 30}});
  advance(20000);
  execute(id, "open http://site.test/");
  advance(20000);
  CHECK(execute(id, "get title")["result"] == "Home");  // 20 s after the last activity
  advance(31000);
  CHECK(alpha.post("/v2/browser/" + id + "/execute", {{"code", "get title"}}).status == 410);
}

TEST_CASE_METHOD(Browsers, "browser sessions are the team's, and bad input is refused",
                 "[browser]") {
  const std::string id = create();
  CHECK(beta.post("/v2/browser/" + id + "/execute", {{"code", "get title"}}).status == 404);
  CHECK(beta.del("/v2/browser/" + id).status == 404);
  CHECK(alpha.del("/v2/browser/no-such-session").status == 404);
  CHECK(alpha.post("/v2/browser/no-such-session/execute", {{"code", "x"}}).status == 404);
  auto r = alpha.post("/v2/browser", {{"ttl", 5}});
  CHECK(r.status == 400);
  CHECK(r.body["details"].is_array());
  CHECK(alpha.post("/v2/browser", {{"color", "red"}}).status == 400);
  CHECK(alpha.post("/v2/browser/" + id + "/execute", {{"language", "bash"}}).status == 400);
  CHECK(ApiClient(mock.url(), "").post("/v2/browser", json::object()).status == 401);
}

TEST_CASE_METHOD(Browsers, "interact acts on the page of an earlier scrape", "[browser][interact]") {
  const auto scraped = alpha.post("/v2/scrape", {{"url", "http://site.test/"}});
  REQUIRE(scraped.status == 200);
  const std::string scrape_id = scraped.body["data"]["metadata"]["scrapeId"].get<std::string>();
  auto r = alpha.post("/v2/scrape/" + scrape_id + "/interact",
                      {{"prompt", "click About us then scroll down"}});
  REQUIRE(r.status == 200);
  CHECK(valid("v2/browser-execute.response", r.body));
  CHECK(r.body["exitCode"] == 0);
  const std::string state = r.body["result"].get<std::string>();
  CHECK(state.find("Page: About") == 0);
  CHECK(state.find("URL: http://site.test/about") != std::string::npos);
  // The same session goes on from there, with code too.
  r = alpha.post("/v2/scrape/" + scrape_id + "/interact", {{"code", "get title"}});
  CHECK(r.body["result"] == "About");
  r = alpha.post("/v2/scrape/" + scrape_id + "/interact", {{"prompt", "dance a little"}});
  CHECK(r.body["exitCode"] == 1);
  CHECK(r.body["stderr"].get<std::string>().find("does not understand") != std::string::npos);
  // Another team cannot use it; a stop ends it once.
  CHECK(beta.post("/v2/scrape/" + scrape_id + "/interact", {{"prompt", "scroll"}}).status == 404);
  CHECK(beta.del("/v2/scrape/" + scrape_id + "/interact").status == 404);
  const auto stopped = alpha.del("/v2/scrape/" + scrape_id + "/interact");
  REQUIRE(stopped.status == 200);
  CHECK(valid("v2/browser-delete.response", stopped.body));
  CHECK(alpha.del("/v2/scrape/" + scrape_id + "/interact").status == 404);
  // A new interaction starts again on the scraped page.
  r = alpha.post("/v2/scrape/" + scrape_id + "/interact", {{"code", "get title"}});
  CHECK(r.body["result"] == "Home");
  CHECK(alpha.post("/v2/scrape/" + scrape_id + "/interact", json::object()).status == 400);
  CHECK(alpha.post("/v2/scrape/00000000-0000-4000-8000-000000000000/interact",
                   {{"prompt", "scroll"}})
            .status == 404);
}

TEST_CASE_METHOD(Browsers, "a session's live view and CDP WebSocket act on its page",
                 "[browser][cdp]") {
  const auto created = alpha.post("/v2/browser", json::object());
  REQUIRE(created.status == 200);
  const std::string id = created.body["id"];
  const std::string live = created.body["liveViewUrl"];
  const std::string cdp = created.body["cdpUrl"];
  REQUIRE(live == mock.url("/browser/live/" + id));
  REQUIRE(cdp.rfind("ws://", 0) == 0);
  const std::string cdp_path = "/browser/cdp/" + id;
  REQUIRE(cdp.size() > cdp_path.size());
  CHECK(cdp.substr(cdp.size() - cdp_path.size()) == cdp_path);
  execute(id, "open http://site.test/");

  // The live view is the page the session is on, without an API key.
  ApiClient anonymous{mock.url(), ""};
  auto view = anonymous.get("/browser/live/" + id);
  CHECK(view.status == 200);
  CHECK(view.text.find("<h1>Welcome</h1>") != std::string::npos);
  CHECK(anonymous.get(cdp_path).status == 426);  // a plain GET of the WebSocket URL

  webdata::testing::WsClient ws(mock.server().port());
  REQUIRE(ws.open(cdp_path, {}).empty());
  const auto call = [&](json message) {
    REQUIRE(ws.send(message.dump()).empty());
    const auto reply = ws.next(std::chrono::seconds(10));
    REQUIRE(reply);
    return json::parse(*reply);
  };
  json reply = call({{"id", 1}, {"method", "Runtime.evaluate"}, {"params", {{"expression", "document.title"}}}});
  CHECK(reply["id"] == 1);
  CHECK(reply["result"]["result"] == json({{"type", "string"}, {"value", "Home"}}));
  reply = call({{"id", 2}, {"method", "Page.navigate"}, {"params", {{"url", "http://site.test/about"}}}});
  CHECK(reply["result"]["frameId"] == id);
  // The session and its live view followed the navigation.
  CHECK(execute(id, "get url")["result"] == "http://site.test/about");
  CHECK(anonymous.get("/browser/live/" + id).text.find("Founded 1890.") != std::string::npos);
  reply = call({{"id", 3}, {"method", "Target.getTargets"}});
  CHECK(reply["result"]["targetInfos"][0]["url"] == "http://site.test/about");
  reply = call({{"id", 4}, {"method", "DOM.getDocument"}});
  CHECK(reply["error"]["code"] == -32601);
  reply = call({{"id", 5}, {"method", "Runtime.evaluate"}, {"params", json::object()}});
  CHECK(reply["error"]["code"] == -32602);
  REQUIRE(ws.send("not json").empty());
  const auto bad = ws.next(std::chrono::seconds(10));
  REQUIRE(bad);
  CHECK(json::parse(*bad)["error"]["code"] == -32700);
  ws.close();

  // An ended session: its URLs answer 410, an unknown id 404, and the WebSocket is refused.
  REQUIRE(alpha.del("/v2/browser/" + id).status == 200);
  CHECK(anonymous.get("/browser/live/" + id).status == 410);
  CHECK(anonymous.get("/browser/live/00000000-0000-4000-8000-000000000000").status == 404);
  webdata::testing::WsClient refused(mock.server().port());
  CHECK_FALSE(refused.open(cdp_path, {}).empty());
}
