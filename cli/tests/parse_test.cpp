// `webdata parse FILE` against a real webdata-mock process: markdown, --json, options, errors.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "process.hpp"
#include "spawned_mock.hpp"

namespace {

using nlohmann::json;
using webdata::testing::SpawnedMock;
using webdata::testing::RunResult;

RunResult parse_cli(const SpawnedMock& mock, std::vector<std::string> args) {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", mock.url(), "--api-key", "test-key"});
  auto r = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  return r;
}

/// A file in a fresh temporary directory, removed with it.
struct TempFile {
  std::filesystem::path dir;
  std::filesystem::path path;
  TempFile(const std::string& name, const std::string& content)
      : dir(std::filesystem::temp_directory_path() /
            ("webdata-cli-parse-" + std::to_string(::getpid()) + "-" + name)) {
    std::filesystem::create_directories(dir);
    path = dir / name;
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

const std::string kHtml =
    "<html><head><title>Field guide</title></head><body><nav>Menu</nav><main><h1>Field guide</h1>"
    "<p>Birds of <a href=\"https://birds.example.test/\">the valley</a>.</p></main></body></html>";

}  // namespace

TEST_CASE("parse prints the file's markdown, and --json the document") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  const TempFile page("guide.html", kHtml);
  auto r = parse_cli(mock, {"parse", page.path.string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("# Field guide") != std::string::npos);
  CHECK(r.out.find("Menu") == std::string::npos);
  CHECK(r.out.find("<html") == std::string::npos);

  auto j = parse_cli(mock, {"parse", page.path.string(), "--format", "markdown,links",
                      "--no-main-content", "--json"});
  REQUIRE(j.exit_code == 0);
  const json doc = json::parse(j.out);
  CHECK(doc.at("metadata").at("sourceURL") == "guide.html");
  CHECK(doc.at("metadata").at("title") == "Field guide");
  CHECK(doc.at("markdown").get<std::string>().find("Menu") != std::string::npos);
  CHECK(doc.at("links") == json::array({"https://birds.example.test/"}));
}

TEST_CASE("parse: --content-type names the type of a file without a known extension") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  const TempFile notes("notes.dat", "# Notes\n\nplain words\n");
  auto refused = parse_cli(mock, {"parse", notes.path.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("UNSUPPORTED_FILE_TYPE") != std::string::npos);
  auto r = parse_cli(mock, {"parse", notes.path.string(), "--content-type", "text/markdown"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("plain words") != std::string::npos);
}

TEST_CASE("parse: a missing file and options of other commands are usage errors") {
  SpawnedMock mock(WEBDATA_MOCK_EXE, {});
  auto missing = parse_cli(mock, {"parse", "/nonexistent/webdata/guide.html"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("cannot read") != std::string::npos);
  const TempFile page("guide.html", kHtml);
  auto wait = parse_cli(mock, {"parse", page.path.string(), "--wait-for", "100"});
  CHECK(wait.exit_code == 2);
  CHECK(wait.err.find("does not apply to 'parse'") != std::string::npos);
}
