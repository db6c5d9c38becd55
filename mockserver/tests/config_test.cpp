// Command line and config file of webdata-mock.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

#include "app/config.hpp"
#include "temp_dir.hpp"

using webdata::mock::Config;
using webdata::mock::parse_args;

TEST_CASE("defaults: loopback, default team, admin off", "[config]") {
  const auto parsed = parse_args({});
  REQUIRE(parsed.config);
  const Config& c = *parsed.config;
  CHECK(c.server.host == "127.0.0.1");
  CHECK(c.server.port == 3002);
  CHECK_FALSE(c.admin);
  CHECK_FALSE(c.live_fetch);
  CHECK(c.chunk_bytes == 10485760);
  const auto teams = c.effective_teams();
  REQUIRE(teams.size() == 1);
  CHECK(teams[0].id == "team-1");
  CHECK(teams[0].keys == std::vector<std::string>{"test-key"});
}

TEST_CASE("flags set every option", "[config]") {
  const auto parsed = parse_args({"--host", "0.0.0.0", "--port", "8080", "--threads", "3",
                                  "--api-key", "k1:alpha", "--api-key", "k2:beta", "--credits",
                                  "50", "--chunk-bytes", "4096", "--live-fetch",
                                  "--allow-private-targets", "--admin", "--admin-on-public",
                                  "--signature-header", "X-Firecrawl-Signature"});
  REQUIRE(parsed.config);
  const Config& c = *parsed.config;
  CHECK(c.server.host == "0.0.0.0");
  CHECK(c.server.port == 8080);
  CHECK(c.server.threads == 3);
  CHECK(c.chunk_bytes == 4096);
  CHECK(c.live_fetch);
  CHECK(c.allow_private_targets);
  CHECK(c.admin);
  CHECK(c.webhook_signature_header == "X-Firecrawl-Signature");
  const auto teams = c.effective_teams();
  REQUIRE(teams.size() == 2);
  CHECK(teams[0].credits == 50);
}

TEST_CASE("bad flags are refused with a reason and exit code 2", "[config]") {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--port", "70000"}, {"--port"}, {"--threads", "0"}, {"--frobnicate"},
           {"--chunk-bytes", "-1"}, {"--admin", "--host", "0.0.0.0"}}) {
    const auto parsed = parse_args(args);
    INFO(args.front());
    CHECK_FALSE(parsed.config);
    CHECK(parsed.exit_code == 2);
    CHECK_FALSE(parsed.message.empty());
  }
}

TEST_CASE("the --help flag prints usage and exits 0", "[config]") {
  const auto parsed = parse_args({"--help"});
  CHECK_FALSE(parsed.config);
  CHECK(parsed.exit_code == 0);
  CHECK(parsed.message.find("--api-key") != std::string::npos);
}

TEST_CASE("a config file sets teams and options, unknown keys are refused", "[config]") {
  const std::string path = "webdata-config-test.json";
  {
    std::ofstream out(path);
    out << R"({"port": 4000, "admin": true, "chunkBytes": 1000,
              "teams": [{"id": "acme", "keys": ["acme-key"], "credits": 7,
                         "webhookSecret": "s3cret", "zeroDataRetention": true}]})";
  }
  const auto parsed = parse_args({"--config", path});
  REQUIRE(parsed.config);
  CHECK(parsed.config->server.port == 4000);
  CHECK(parsed.config->admin);
  CHECK(parsed.config->chunk_bytes == 1000);
  const auto teams = parsed.config->effective_teams();
  REQUIRE(teams.size() == 1);
  CHECK(teams[0].id == "acme");
  CHECK(teams[0].credits == 7);
  CHECK(teams[0].webhook_secret == "s3cret");
  CHECK(teams[0].zero_data_retention);
  // Flags after --config win over the file.
  CHECK(parse_args({"--config", path, "--port", "4001"}).config->server.port == 4001);

  {
    std::ofstream out(path);
    out << R"({"prot": 4000})";
  }
  const auto refused = parse_args({"--config", path});
  CHECK_FALSE(refused.config);
  CHECK(refused.message.find("prot") != std::string::npos);
  {
    std::ofstream out(path);
    out << "{not json";
  }
  CHECK_FALSE(parse_args({"--config", path}).config);
  CHECK_FALSE(parse_args({"--config", "/nonexistent/file.json"}).config);
  std::remove(path.c_str());
}

TEST_CASE("to_json masks keys and secrets", "[config]") {
  const auto parsed = parse_args({"--api-key", "very-secret-key:t"});
  REQUIRE(parsed.config);
  const auto text = parsed.config->to_json().dump();
  CHECK(text.find("very-secret-key") == std::string::npos);
  CHECK(parsed.config->to_json(false).dump().find("very-secret-key") != std::string::npos);
}

namespace {

using webdata::testing::TempDir;

const char* const kMapping =
    R"({"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "body": "hi"}})";

}  // namespace

TEST_CASE("a fixture root that is missing or empty is refused at start, naming the path",
          "[config]") {
  TempDir empty;
  TempDir file_not_dir;
  const std::string not_a_dir = file_not_dir.path + "/plain.txt";
  file_not_dir.write("plain.txt", "x");
  TempDir json_beside_mappings;  // mappings written at the top, not under mappings/
  json_beside_mappings.write("stub.json", kMapping);

  for (const char* option : {"--web-root", "--api-stubs"}) {
    for (const auto& [path, why] : std::vector<std::pair<std::string, std::string>>{
             {"/nonexistent/webdata-fixtures", "no such directory"},
             {not_a_dir, "not a directory"},
             {empty.path, "holds no"},
             {json_beside_mappings.path, "holds no"}}) {
      INFO(option << " " << path);
      const auto parsed = parse_args({option, path});
      CHECK_FALSE(parsed.config);
      CHECK(parsed.exit_code == 2);
      CHECK(parsed.message.find(std::string(option) + " '" + path + "': " + why) !=
            std::string::npos);
    }
  }

  TempDir stubs;
  stubs.write("mappings/nested/root.json", kMapping);
  const auto ok = parse_args({"--web-root", stubs.path, "--api-stubs", stubs.path});
  REQUIRE(ok.config);
  CHECK(ok.config->web_roots == std::vector<std::string>{stubs.path});
  CHECK(ok.config->api_stub_root == stubs.path);

  // A generated-sites file alone is a virtual web, but not a set of API stubs.
  TempDir synthetic;
  synthetic.write("synthetic.json", R"({"sites": {}})");
  CHECK(parse_args({"--web-root", synthetic.path}).config);
  CHECK_FALSE(parse_args({"--api-stubs", synthetic.path}).config);

  // The same check for the config file's keys, naming the key and the file.
  TempDir config;
  config.write("mock.json", R"({"webRoot": "/nonexistent/web"})");
  const std::string file = config.path + "/mock.json";
  const auto from_file = parse_args({"--config", file});
  CHECK_FALSE(from_file.config);
  CHECK(from_file.exit_code == 2);
  CHECK(from_file.message.find("webRoot of '" + file + "' '/nonexistent/web': no such directory") !=
        std::string::npos);
  // A flag after the file replaces its value, and is what the message names.
  CHECK(parse_args({"--config", file, "--web-root", stubs.path}).config);
}

TEST_CASE("the --inject-fault flag combines faults, comma-separated or repeated, unknown ones are refused",
          "[config]") {
  const auto parsed = parse_args({"--inject-fault", "no-auth,ignore-skip", "--inject-fault",
                                  "unsigned-webhooks", "--inject-fault", "no-auth"});
  REQUIRE(parsed.config);
  CHECK(parsed.config->inject_faults ==
        std::vector<std::string>{"no-auth", "ignore-skip", "unsigned-webhooks"});
  CHECK(parsed.config->has_fault("ignore-skip"));
  CHECK_FALSE(parsed.config->has_fault("repeat-skip"));
  CHECK(parsed.config->to_json().at("injectFaults").size() == 3);

  const auto unknown = parse_args({"--inject-fault", "no-auth,no-such-fault"});
  CHECK_FALSE(unknown.config);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.message.find("unknown fault 'no-such-fault'") != std::string::npos);
  CHECK(unknown.message.find("cancel-finished-flips") != std::string::npos);
  CHECK(parse_args({"--inject-fault", ""}).exit_code == 2);
  for (const auto& [name, what] : webdata::mock::fault_names()) {
    INFO(name);
    CHECK(parse_args({"--inject-fault", name}).config);
    CHECK(parse_args({"--help"}).message.find(name) != std::string::npos);
  }
}

TEST_CASE("flags are read in order: --config between flags, --flag=value, repeated values",
          "[config]") {
  TempDir dir;
  dir.write("mock.json", R"({"port": 4000, "threads": 3})");
  const std::string file = dir.path + "/mock.json";
  // A flag before --config is overridden by the file; one after it overrides the file.
  const auto parsed =
      parse_args({"--port", "5000", "--threads=4", "--config", file, "--threads", "5"});
  REQUIRE(parsed.config);
  CHECK(parsed.config->server.port == 4000);
  CHECK(parsed.config->server.threads == 5);
  CHECK(parse_args({"--port=4100"}).config->server.port == 4100);
  // A repeated single-value flag: the last wins, as before.
  CHECK(parse_args({"--port", "4200", "--port", "4300"}).config->server.port == 4300);
  // A refusal names the flag and the range, CLI11's own ones included (exit 2 for all).
  const auto range = parse_args({"--port=70000"});
  CHECK(range.exit_code == 2);
  CHECK_THAT(range.message, Catch::Contains("--port needs a number from 0 to 65535") &&
                                Catch::Contains("Try 'webdata-mock --help'."));
  const auto missing = parse_args({"--threads"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.message,
             Catch::StartsWith("webdata-mock: --threads needs a number from 1 to 256"));
  CHECK_THAT(parse_args({"--frobnicate", "x"}).message,
             Catch::Contains("webdata-mock: unknown option '--frobnicate'"));
}

TEST_CASE("process flags come back with the config, and --log-file needs --detach", "[config]") {
  const auto parsed = parse_args({"--ready-file", "/tmp/r", "--pid-file", "/tmp/p", "--detach",
                                  "--log-file", "/tmp/l"});
  REQUIRE(parsed.config);
  CHECK(parsed.process.ready_file == "/tmp/r");
  CHECK(parsed.process.pid_file == "/tmp/p");
  CHECK(parsed.process.detach);
  CHECK(parsed.process.log_file == "/tmp/l");
  const auto lonely = parse_args({"--log-file", "/tmp/l"});
  CHECK(lonely.exit_code == 2);
  CHECK_THAT(lonely.message, Catch::Contains("--log-file needs --detach"));
  // A refused start still tells main which ready file to remove.
  const auto refused = parse_args({"--ready-file", "/tmp/r", "--port", "x"});
  CHECK_FALSE(refused.config);
  CHECK(refused.process.ready_file == "/tmp/r");
}

TEST_CASE("the help lists every flag by group, the faults and how to stop", "[config]") {
  const auto help = parse_args({"-h"}).message;
  for (const char* text :
       {"Usage: webdata-mock", "Server:", "Teams and keys:", "Virtual web and behaviour:",
        "Running in scripts and CI:", "Other:", "--host ADDR", "--api-key KEY[:TEAM]",
        "--web-root DIR", "--no-bundled-web", "--ready-file PATH", "--detach", "--log-file PATH",
        "--print-config", "-h,--help", "Stop it with Ctrl-C"}) {
    INFO(text);
    CHECK_THAT(help, Catch::Contains(text));
  }
  CHECK(help.find("Server:") < help.find("Other:"));
  CHECK(help == webdata::mock::usage());
}
