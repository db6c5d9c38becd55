// The mock must not become a way into the machine it runs on: live fetching refuses internal
// addresses (also behind redirects and however the address is spelled), the admin API needs
// explicit flags, and credentials never reach the access log.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api_client.hpp"
#include "app/config.hpp"
#include "app/mock_server.hpp"
#include "misbehaving_server.hpp"
#include "mock_fixture.hpp"
#include "webhook_receiver.hpp"

using webdata::testing::ApiClient;
using webdata::testing::MisbehavingServer;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

webdata::mock::Config live_config(bool allow_private) {
  auto config = RunningMock::quiet_config();
  config.page_pacing_ms = 0;
  config.live_fetch = true;
  config.allow_private_targets = allow_private;
  return config;
}

json redirect(const std::string& host, const std::string& path, const std::string& location) {
  return {{"request", {{"method", "GET"}, {"host", {{"equalTo", host}}}, {"urlPath", path}}},
          {"response", {{"status", 302}, {"headers", {{"Location", location}}}}}};
}

void expect_refused(const ApiClient& api, const std::string& url) {
  INFO("url: " << url);
  const auto start = Clock::now();
  const auto r = api.post("/v2/scrape", {{"url", url}, {"timeout", 5000}});
  CHECK(r.status == 500);
  CHECK(r.body.value("code", "") == "SCRAPE_SITE_ERROR");
  CHECK(r.body.value("error", "").find("private") != std::string::npos);
  // Refused before any connection: no timeout is waited out.
  CHECK(Clock::now() - start < std::chrono::seconds(4));
}

}  // namespace

TEST_CASE("live fetching refuses internal addresses however they are written", "[security][live]") {
  MisbehavingServer site;
  RunningMock mock(live_config(false));
  const ApiClient api(mock.url());
  const std::string port = std::to_string(site.port());
  for (const std::string& host : std::vector<std::string>{
           "127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0177.0.0.1",
           "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "0.0.0.0"}) {
    expect_refused(api, "http://" + host + ":" + port + "/secret");
  }
  // Cloud metadata and private ranges: refused by address, never connected to.
  expect_refused(api, "http://169.254.169.254/latest/meta-data/");
  expect_refused(api, "http://[fd00:ec2::254]/latest/meta-data/");
  expect_refused(api, "http://10.0.0.1/");
  expect_refused(api, "http://192.168.0.1/");
  CHECK(site.requests() == 0);
}

TEST_CASE("a redirect from an allowed page to an internal address is refused at that hop",
          "[security][live]") {
  MisbehavingServer site;
  RunningMock mock(live_config(false));
  const ApiClient api(mock.url());
  const std::string secret = site.url("/secret");
  REQUIRE(api.post("/__admin/mappings", redirect("public.test", "/go", secret)).status == 201);
  REQUIRE(api.post("/__admin/mappings",
                   redirect("public.test", "/go-named", site.url("/secret", "localhost")))
              .status == 201);
  REQUIRE(api.post("/__admin/mappings",
                   redirect("public.test", "/metadata", "http://169.254.169.254/latest/"))
              .status == 201);
  for (const char* path : {"/go", "/go-named", "/metadata"}) {
    expect_refused(api, std::string("http://public.test") + path);
  }
  // As a crawl: the start page redirects inside; the crawl fails and reaches nothing.
  const auto crawl = api.post("/v2/crawl", {{"url", "http://public.test/go"}, {"limit", 2}});
  REQUIRE(crawl.status == 200);
  REQUIRE(mock.server().jobs().wait_idle(std::chrono::seconds(20)));
  const auto status = api.get("/v2/crawl/" + crawl.body["id"].get<std::string>());
  CHECK(status.body["completed"] == 0);
  CHECK(site.requests() == 0);

  SECTION("allowed explicitly, the same redirect is followed") {
    RunningMock open(live_config(true));
    const ApiClient open_api(open.url());
    REQUIRE(open_api.post("/__admin/mappings", redirect("public.test", "/go", secret)).status ==
            201);
    const auto r = open_api.post("/v2/scrape", {{"url", "http://public.test/go"}});
    CHECK(r.status == 200);
    CHECK(r.body["data"]["markdown"].get<std::string>().find("internal secret") !=
          std::string::npos);
    CHECK(site.requests() == 1);
  }
}

TEST_CASE("the admin API is refused on a non-loopback bind without --admin-on-public",
          "[security][admin]") {
  using webdata::mock::parse_args;
  for (const std::string& host : std::vector<std::string>{"0.0.0.0", "::", "192.168.1.10"}) {
    INFO("host " << host);
    const auto refused = parse_args({"--admin", "--host", host});
    CHECK_FALSE(refused.config.has_value());
    CHECK(refused.exit_code == 2);
    CHECK(refused.message.find("--admin-on-public") != std::string::npos);
    const auto allowed = parse_args({"--admin", "--admin-on-public", "--host", host});
    REQUIRE(allowed.config.has_value());
    CHECK(allowed.config->admin);
    // Without --admin, a public bind has no admin API at all.
    const auto plain = parse_args({"--host", host});
    REQUIRE(plain.config.has_value());
    CHECK_FALSE(plain.config->admin);
  }
  CHECK(parse_args({"--admin", "--host", "127.0.0.1"}).config.has_value());
  CHECK(parse_args({"--admin", "--host", "::1"}).config.has_value());
  // A config file asking for the same is refused the same way.
  webdata::mock::Config config;
  CHECK(webdata::mock::apply_config_json({{"admin", true}, {"host", "0.0.0.0"}}, config).empty());
  const auto file = std::filesystem::temp_directory_path() /
                    ("webdata-admin-public-" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(file);
    out << R"({"admin": true, "host": "0.0.0.0"})";
  }
  const auto from_file = parse_args({"--config", file.string()});
  std::filesystem::remove(file);
  CHECK_FALSE(from_file.config.has_value());
  CHECK(from_file.exit_code == 2);
  webdata::mock::Config defaults;
  CHECK_FALSE(defaults.admin);
}

TEST_CASE("API keys and webhook secrets never reach the access log", "[security][log]") {
  webdata::mock::webhooks::testing::Receiver receiver;
  std::ostringstream log;
  const std::string key = "sk-live-key-0123456789abcdef";
  const std::string hook_secret = "whsec-team-secret-9876";
  const std::string header_secret = "Bearer receiver-token-abcdef";
  {
    webdata::mock::Config config;
    config.server.port = 0;
    config.server.access_log = true;
    config.admin = true;
    config.page_pacing_ms = 0;
    webdata::mock::TeamConfig team;
    team.id = "acme";
    team.keys = {key};
    team.webhook_secret = hook_secret;
    config.teams = {team};
    webdata::mock::MockServer server(config, log);
    server.start();
    const ApiClient api(server.base_url(), key);
    REQUIRE(api.post("/__admin/mappings",
                     {{"request", {{"method", "GET"}, {"host", {{"equalTo", "log.test"}}},
                                   {"urlPath", "/"}}},
                      {"response", {{"status", 200}, {"body", "<h1>x</h1>"}}}})
                .status == 201);
    CHECK(api.post("/v2/scrape", {{"url", "http://log.test/"}}).status == 200);
    const auto started = api.post(
        "/v2/batch/scrape",
        {{"urls", {"http://log.test/"}},
         {"webhook", {{"url", receiver.url()}, {"headers", {{"Authorization", header_secret}}}}}});
    REQUIRE(started.status == 200);
    REQUIRE(server.jobs().wait_idle(std::chrono::seconds(20)));
    REQUIRE(server.webhooks().drain("", std::chrono::seconds(20)));
    // Wrong keys are not logged either (a typo of a real key is nearly the key).
    const ApiClient wrong(server.base_url(), key + "x");
    CHECK(wrong.get("/v2/crawl/active").status == 401);
    CHECK(api.get("/v2/crawl/active", {{"x-api-key", key}}).status == 200);
    // The admin answers (journal, delivery log) mask them too.
    for (const char* path : {"/__admin/requests", "/__admin/webhooks", "/__admin/settings"}) {
      INFO(path);
      const auto r = api.get(path);
      CHECK(r.status == 200);
      CHECK(r.text.find(key) == std::string::npos);
      CHECK(r.text.find(hook_secret) == std::string::npos);
    }
    server.stop();
  }
  REQUIRE(receiver.requests().size() >= 3);  // the webhooks really went out
  const std::string text = log.str();
  INFO(text);
  CHECK(text.find("POST /v2/scrape") != std::string::npos);  // the log is on
  CHECK(text.find(key) == std::string::npos);
  CHECK(text.find("sk-live") == std::string::npos);
  CHECK(text.find(hook_secret) == std::string::npos);
  CHECK(text.find("receiver-token") == std::string::npos);
}
