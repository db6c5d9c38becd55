// `webdata`'s command line as a user meets it (the process, not parse_args): help texts, the
// refusals and their words, and the nearest known name for a mistyped command or option. Nothing
// here reaches a service: every refusal happens before a request (the address is a closed port).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "process.hpp"

namespace {

using webdata::testing::RunResult;

RunResult webdata_cli(std::vector<std::string> args) {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = webdata::testing::run(
      argv, {{"WEBDATA_API_URL", "http://127.0.0.1:1"}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  return r;
}

// The refusal exactly as scripts and users see it: one reason, the hint, exit 2, nothing on stdout.
void check_refused(const std::vector<std::string>& args, const std::string& reason) {
  INFO("webdata " << [&] {
    std::string line;
    for (const auto& a : args) line += a + " ";
    return line;
  }());
  const auto r = webdata_cli(args);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "webdata: " + reason + "\nTry 'webdata --help'.\n");
}

}  // namespace

TEST_CASE("the help lists the commands, the global options and every exit code") {
  const auto r = webdata_cli({"--help"});
  REQUIRE(r.exit_code == 0);
  for (const char* line :
       {"Usage: webdata [global options] COMMAND", "\n  scrape URL ", "\n  crawl-preview URL PROMPT...",
        "\n  queue ", "Global options:\n  --api-url URL ", "\n  -h, --help ", "Exit codes:",
        "7 output could not be written", "8 the page answered an error status"}) {
    INFO(line);
    CHECK(r.out.find(line) != std::string::npos);
  }
  CHECK(webdata_cli({"-h"}).out == r.out);
}

TEST_CASE("a command's help lists its own options with its own words, before or after -h") {
  const auto search = webdata_cli({"search", "--help"});
  REQUIRE(search.exit_code == 0);
  CHECK(search.out.rfind("Usage: webdata search QUERY [options]\n", 0) == 0);
  CHECK(search.out.find("--limit N             results per source (1..100, default 5)") !=
        std::string::npos);
  CHECK(search.out.find("--max-depth") == std::string::npos);
  CHECK(search.out.find("Global options:") != std::string::npos);
  CHECK(search.out.find("Exit codes:") != std::string::npos);

  const auto crawl = webdata_cli({"-h", "crawl"});
  REQUIRE(crawl.exit_code == 0);
  CHECK(crawl.out.find("--limit N             at most N pages") != std::string::npos);
  CHECK(crawl.out.find("--max-depth N") != std::string::npos);
  CHECK(crawl.out.find("--schema") == std::string::npos);  // a crawl takes no json format
}

TEST_CASE("refusals keep their words: applicability, values, ranges, missing arguments") {
  check_refused({"scrape", "https://x.test/", "--limit", "3"}, "'--limit' does not apply to 'scrape'");
  check_refused({"--limit=3", "scrape", "https://x.test/"}, "'--limit' does not apply to 'scrape'");
  check_refused({"search", "kettle", "--limit", "101"}, "--limit needs a whole number from 1 to 100");
  check_refused({"search", "kettle", "--limit=many"}, "--limit needs a whole number from 1 to 100");
  check_refused({"crawl", "https://x.test/", "--limit"}, "--limit needs a value");
  check_refused({"scrape", "https://x.test/", "--json=yes"}, "--json takes no value");
  check_refused({"scrape", "https://x.test/", "--json="}, "--json takes no value");
  // '--include-path=' is an empty value, not a request for the next argument ('--limit').
  check_refused({"crawl", "https://x.test/", "--include-path=", "--limit", "0"},
                "--limit needs a whole number from 1 to 10000000");
  check_refused({"scrape", "https://x.test/", "-x"}, "unknown option '-x'");
  check_refused({"scrape"}, "'scrape' needs exactly one URL");
  check_refused({"--json"}, "no command given");
  check_refused({}, "no command given");
}

TEST_CASE("a mistyped command is refused with the nearest one, a far-off one without") {
  check_refused({"scrap", "https://x.test/"}, "unknown command 'scrap' (did you mean 'scrape'?)");
  check_refused({"serach", "kettle"}, "unknown command 'serach' (did you mean 'search'?)");
  check_refused({"crawl-previw", "https://x.test/", "docs"},
                "unknown command 'crawl-previw' (did you mean 'crawl-preview'?)");
  check_refused({"fetch", "https://x.test/"}, "unknown command 'fetch'");
  check_refused({"download", "https://x.test/"}, "unknown command 'download'");
  // Before the command's options are looked at, and whatever comes with it.
  check_refused({"scrap", "https://x.test/", "--help"},
                "unknown command 'scrap' (did you mean 'scrape'?)");
}

TEST_CASE("a mistyped option is refused with the nearest one, the command's own first") {
  check_refused({"crawl", "https://x.test/", "--limt", "3"},
                "unknown option '--limt' (did you mean '--limit'?)");
  check_refused({"scrape", "https://x.test/", "--formt=markdown"},
                "unknown option '--formt' (did you mean '--format'?)");
  check_refused({"--limt", "3", "crawl", "https://x.test/"},
                "unknown option '--limt' (did you mean '--limit'?)");
  check_refused({"crawl", "https://x.test/", "--maxdepth", "2"},
                "unknown option '--maxdepth' (did you mean '--max-depth'?)");
  check_refused({"status", "some-id", "--batc"}, "unknown option '--batc' (did you mean '--batch'?)");
  check_refused({"search", "kettle", "--scrap"}, "unknown option '--scrap' (did you mean '--scrape'?)");
  check_refused({"scrape", "https://x.test/", "--no-such-option"},
                "unknown option '--no-such-option'");
  check_refused({"scrape", "https://x.test/", "--jsn"}, "unknown option '--jsn' (did you mean '--json'?)");
}

TEST_CASE("of two options as near, the one the command takes is offered") {
  // '--sourcez' is one edit from search's --source and from extract's --sources.
  check_refused({"extract", "https://x.test/", "--prompt", "p", "--sourcez"},
                "unknown option '--sourcez' (did you mean '--sources'?)");
  check_refused({"search", "kettle", "--sourcez", "web"},
                "unknown option '--sourcez' (did you mean '--source'?)");
}

TEST_CASE("the options end at --: what follows is an argument even when it looks like one") {
  // Without '--' this is a missing value; after it, '--limit' is the URL the scrape is asked for
  // (and nothing answers at the closed port: exit 3).
  check_refused({"scrape", "--limit"}, "--limit needs a value");
  const auto r = webdata_cli({"--timeout", "5", "scrape", "--", "--limit"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("Try 'webdata --help'") == std::string::npos);
}
