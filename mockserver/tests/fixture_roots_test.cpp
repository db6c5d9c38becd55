// Layered fixture roots: --web-root repeatable, later roots over earlier ones and over the
// bundled virtual web, --no-bundled-web; a root whose mappings do not load stops the start with
// exit code 2, as every start-up error does.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "api_client.hpp"
#include "app/config.hpp"
#include "mock_fixture.hpp"
#include "temp_dir.hpp"

using webdata::mock::parse_args;
using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

// A fixture root in a fresh temporary directory.
struct FixtureRoot : webdata::testing::TempDir {
  // One mapping file answering GET host+path with an HTML page titled `title`.
  void page(const std::string& file, const std::string& host, const std::string& url_path,
            const std::string& title) const {
    write(
        "mappings/" + file,
        json{{"request", {{"method", "GET"}, {"host", {{"equalTo", host}}}, {"urlPath", url_path}}},
             {"response",
              {{"status", 200},
               {"headers", {{"Content-Type", "text/html"}}},
               {"body", "<html><head><title>" + title + "</title></head><body><p>" + title +
                            "</p></body></html>"}}}}
            .dump());
  }
};

webdata::mock::Config config_for(const std::vector<std::string>& args) {
  const auto parsed = parse_args(args);
  INFO(parsed.message);
  REQUIRE(parsed.config);
  auto config = *parsed.config;
  config.server.port = 0;
  config.server.access_log = false;
  return config;
}

// The title the mock's scrape gives for `url`, or the error code when the scrape failed.
std::string title_of(ApiClient& api, const std::string& url) {
  const auto r = api.post("/v2/scrape", {{"url", url}, {"formats", {"markdown"}}});
  if (r.status != 200) return r.body.value("code", "HTTP " + std::to_string(r.status));
  return r.body["data"]["metadata"].value("title", "");
}

}  // namespace

TEST_CASE("fixture roots: --web-root repeats, later roots over earlier ones and the bundled web",
          "[config][fixture-roots]") {
  FixtureRoot first;
  first.page("mine.json", "mine.test", "/", "First: mine");
  first.page("both.json", "both.test", "/", "First: both");
  first.page("quick.json", "docs.example.test", "/getting-started/quickstart", "First: quickstart");
  FixtureRoot second;
  second.page("both.json", "both.test", "/", "Second: both");
  second.write("synthetic.json", R"({"sites": {"generated.test": {"pages": 3}}})");

  const auto parsed = parse_args({"--web-root", first.path, "--web-root", second.path});
  REQUIRE(parsed.config);
  CHECK(parsed.config->web_roots == std::vector<std::string>{first.path, second.path});
  CHECK(parsed.config->effective_web_roots().size() == 3);  // the bundled web first

  RunningMock mock(config_for({"--web-root", first.path, "--web-root", second.path}));
  ApiClient api(mock.url());
  CHECK(title_of(api, "https://mine.test/") == "First: mine");
  CHECK(title_of(api, "https://both.test/") == "Second: both");  // the later root wins
  CHECK(title_of(api, "https://docs.example.test/getting-started/quickstart") ==
        "First: quickstart");  // over the bundled page
  CHECK(title_of(api, "https://docs.example.test/") !=
        "SCRAPE_DNS_RESOLUTION_ERROR");  // still there
  CHECK(title_of(api, "https://generated.test/") != "SCRAPE_DNS_RESOLUTION_ERROR");
}

TEST_CASE("fixture roots: --no-bundled-web leaves only the given roots",
          "[config][fixture-roots]") {
  FixtureRoot mine;
  mine.page("mine.json", "mine.test", "/", "Mine");
  RunningMock mock(config_for({"--no-bundled-web", "--web-root", mine.path}));
  ApiClient api(mock.url());
  CHECK(title_of(api, "https://mine.test/") == "Mine");
  CHECK(title_of(api, "https://docs.example.test/") == "SCRAPE_DNS_RESOLUTION_ERROR");

  const auto nothing = parse_args({"--no-bundled-web"});
  CHECK_FALSE(nothing.config);
  CHECK(nothing.exit_code == 2);
  CHECK_THAT(nothing.message, Catch::Contains("leaves nothing to scrape"));
  CHECK(parse_args({"--no-bundled-web", "--live-fetch"}).config);
}

TEST_CASE("a fixture root whose mappings do not load is a start-up error: exit 2, named",
          "[config][fixture-roots]") {
  FixtureRoot good;
  good.page("ok.json", "ok.test", "/", "OK");
  FixtureRoot unsupported;
  unsupported.write(
      "mappings/cookies.json",
      R"({"request": {"method": "GET", "url": "/", "cookies": {"a": {"equalTo": "b"}}},
                        "response": {"status": 200}})");
  FixtureRoot missing_body;
  missing_body.write("mappings/body.json",
                     R"({"request": {"url": "/"}, "response": {"bodyFileName": "none.html"}})");
  FixtureRoot bad_synthetic;
  bad_synthetic.write("synthetic.json", R"({"sites": []})");

  for (const auto& [root, why] : std::vector<std::pair<std::string, std::string>>{
           {unsupported.path, "mappings/cookies.json: request field 'cookies' is not supported"},
           {missing_body.path, "bodyFileName 'none.html' not found"},
           {bad_synthetic.path, "synthetic.json"}}) {
    INFO(root);
    const auto parsed = parse_args({"--web-root", good.path, "--web-root", root});
    CHECK_FALSE(parsed.config);
    CHECK(parsed.exit_code == 2);
    CHECK_THAT(parsed.message,
               Catch::Contains("--web-root '" + root + "': ") && Catch::Contains(why));
  }
  const auto stubs = parse_args({"--api-stubs", unsupported.path});
  CHECK(stubs.exit_code == 2);
  CHECK_THAT(stubs.message, Catch::Contains("is not supported"));
}

TEST_CASE("webRoot in a config file: a directory or a list, replaced by a later --web-root",
          "[config][fixture-roots]") {
  FixtureRoot a;
  a.page("a.json", "a.test", "/", "A");
  FixtureRoot b;
  b.page("b.json", "b.test", "/", "B");
  FixtureRoot files;
  files.write("list.json", json{{"webRoot", {a.path, b.path}}, {"bundledWeb", false}}.dump());
  const auto listed = parse_args({"--config", files.path + "/list.json"});
  REQUIRE(listed.config);
  CHECK(listed.config->web_roots == std::vector<std::string>{a.path, b.path});
  CHECK_FALSE(listed.config->bundled_web);
  CHECK(listed.config->to_json()["webRoot"] == json{a.path, b.path});

  const auto replaced = parse_args(
      {"--config", files.path + "/list.json", "--web-root", b.path, "--web-root", a.path});
  REQUIRE(replaced.config);
  CHECK(replaced.config->web_roots == std::vector<std::string>{b.path, a.path});

  files.write("bad.json", R"({"webRoot": [3]})");
  CHECK_THAT(parse_args({"--config", files.path + "/bad.json"}).message,
             Catch::Contains("'webRoot' must be a directory or a list of directories"));
}
