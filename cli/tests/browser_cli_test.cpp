// webdata browser create|list|execute|delete and webdata interact against a webdata-mock process.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "process.hpp"
#include "spawned_mock.hpp"

using nlohmann::json;
using webdata::testing::RunResult;
using webdata::testing::SpawnedMock;

namespace {

RunResult browser_cli(const SpawnedMock& mock, std::vector<std::string> args) {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", mock.url(), "--api-key", "test-key"});
  auto r = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  return r;
}

}  // namespace

TEST_CASE("webdata browser creates, lists, executes on and deletes a session", "[browser]") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  auto created = browser_cli(mock, {"browser", "create", "--ttl", "120", "--json"});
  REQUIRE(created.exit_code == 0);
  const std::string id = json::parse(created.out)["id"].get<std::string>();
  auto ran = browser_cli(mock, {"browser", "execute", id, "open", "https://pages-5.synthetic.test/"});
  CHECK(ran.exit_code == 0);
  ran = browser_cli(mock, {"browser", "execute", id, "get url"});
  CHECK(ran.exit_code == 0);
  CHECK(ran.out == "https://pages-5.synthetic.test/\n");
  auto failed = browser_cli(mock, {"browser", "execute", id, "click #nothing-here"});
  CHECK(failed.exit_code == 5);
  auto listed = browser_cli(mock, {"browser", "list", "active"});
  CHECK(listed.out.find(id + "  active") == 0);
  auto ended = browser_cli(mock, {"browser", "delete", id});
  CHECK(ended.exit_code == 0);
  CHECK(ended.out.find("destroyed after") == 0);
  CHECK(browser_cli(mock, {"browser", "delete", id + "x"}).exit_code == 1);
  CHECK(browser_cli(mock, {"browser", "fly"}).exit_code == 2);
}

TEST_CASE("webdata browser create --profile resumes where the profile's last session ended",
          "[browser]") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  const auto session = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"browser", "create", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto created = browser_cli(mock, args);
    REQUIRE(created.exit_code == 0);
    return json::parse(created.out)["id"].get<std::string>();
  };
  std::string id = session({"--profile", "docs"});
  CHECK(browser_cli(mock, {"browser", "execute", id, "open", "https://pages-5.synthetic.test/"})
            .exit_code == 0);
  REQUIRE(browser_cli(mock, {"browser", "delete", id}).exit_code == 0);
  id = session({"--profile", "docs", "--no-save-changes"});
  CHECK(browser_cli(mock, {"browser", "execute", id, "get url"}).out ==
        "https://pages-5.synthetic.test/\n");
  CHECK(browser_cli(mock, {"browser", "execute", id, "open", "https://pages-6.synthetic.test/"})
            .exit_code == 0);
  REQUIRE(browser_cli(mock, {"browser", "delete", id}).exit_code == 0);
  id = session({"--profile", "docs"});
  CHECK(browser_cli(mock, {"browser", "execute", id, "get url"}).out ==
        "https://pages-5.synthetic.test/\n");
}

TEST_CASE("webdata interact acts on a scrape's page and stops", "[browser]") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  auto scraped = browser_cli(mock, {"scrape", "https://pages-5.synthetic.test/", "--json"});
  REQUIRE(scraped.exit_code == 0);
  const json doc = json::parse(scraped.out);
  const json& data = doc.contains("data") ? doc["data"] : doc;
  const std::string id = data["metadata"]["scrapeId"].get<std::string>();
  auto acted = browser_cli(mock, {"interact", id, "scroll", "down"});
  CHECK(acted.exit_code == 0);
  CHECK(acted.out.find("URL: https://pages-5.synthetic.test/") != std::string::npos);
  auto code = browser_cli(mock, {"interact", id, "--code", "get url"});
  CHECK(code.out == "https://pages-5.synthetic.test/\n");
  CHECK(browser_cli(mock, {"interact", id, "--stop"}).exit_code == 0);
  CHECK(browser_cli(mock, {"interact", id, "--stop"}).exit_code == 1);
}
