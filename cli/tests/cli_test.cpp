#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "process.hpp"
#include "progress.hpp"

namespace {

using nlohmann::json;
using webdata::testing::MockProcess;
using webdata::testing::RunResult;

// Runs `webdata ARGS... --api-url MOCK --api-key test-key` (no WEBDATA_* from the environment).
RunResult cli(const MockProcess& mock, std::vector<std::string> args,
              const std::string& key = "test-key") {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", mock.url(), "--api-key", key});
  auto r = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  return r;
}

json parse(const RunResult& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

MockProcess start_mock() { return MockProcess(WEBDATA_MOCK_EXE, {"--page-pacing", "0"}); }

}  // namespace

TEST_CASE("progress bar: pages done of total, rate and state") {
  CHECK(webdata::cli::render_progress("crawl", 12, 27, 2.0, "scraping", 9) ==
        "crawl  [####.....]  12/27 pages  6.0 pages/s  scraping");
  CHECK(webdata::cli::render_progress("batch", 0, 0, 0.0, "scraping", 4) ==
        "batch  [....]  0/0 pages  0.0 pages/s  scraping");
  // A total that lags behind the documents never draws more than a full bar.
  CHECK(webdata::cli::render_progress("crawl", 5, 3, 1.0, "completed", 4) ==
        "crawl  [####]  5/5 pages  5.0 pages/s  completed");
}

TEST_CASE("scrape prints the page's markdown and exits 0") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"scrape", "https://docs.example.test/getting-started/quickstart"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("# Quickstart") != std::string::npos);
  CHECK(r.out.find("<html") == std::string::npos);
}

TEST_CASE("scrape --json prints the document with every asked format") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"scrape", "https://docs.example.test/", "--format", "markdown,links",
                      "--format", "summary", "--json"});
  REQUIRE(r.exit_code == 0);
  const json doc = parse(r);
  CHECK(doc.at("metadata").at("statusCode") == 200);
  CHECK(doc.at("metadata").at("sourceURL") == "https://docs.example.test/");
  CHECK(doc.at("markdown").is_string());
  CHECK(doc.at("summary").is_string());
  REQUIRE(doc.at("links").is_array());
  CHECK_FALSE(doc.at("links").empty());
}

TEST_CASE("scrape with a schema extracts json, and --v1 uses the v1 endpoint") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"scrape", "https://shop.example.test/products/trail-kettle", "--schema",
                      R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})",
                      "--json"});
  REQUIRE(r.exit_code == 0);
  CHECK(parse(r).at("json").at("name").is_string());

  auto v1 = cli(mock, {"scrape", "https://docs.example.test/", "--v1", "--format", "markdown,html",
                       "--json"});
  REQUIRE(v1.exit_code == 0);
  const json doc = parse(v1);
  CHECK(doc.at("html").is_string());
  CHECK_FALSE(doc.contains("summary"));
}

TEST_CASE("exit code 1 for API errors, with the error on stderr") {
  MockProcess mock = start_mock();
  auto dns = cli(mock, {"scrape", "https://no-such-host.example.invalid/"});
  CHECK(dns.exit_code == 1);
  CHECK(dns.out.empty());
  CHECK(dns.err.find("SCRAPE_DNS_RESOLUTION_ERROR") != std::string::npos);

  auto key = cli(mock, {"scrape", "https://docs.example.test/"}, "wrong-key");
  CHECK(key.exit_code == 1);
  CHECK(key.err.find("401") != std::string::npos);
}

TEST_CASE("exit code 3 when nothing answers, 2 for usage errors") {
  auto down = webdata::testing::run({WEBDATA_CLI_EXE, "scrape", "https://docs.example.test/",
                                     "--api-url", "http://127.0.0.1:1", "--timeout", "5"});
  CHECK(down.exit_code == 3);

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"fetch", "https://x.test/"},
        std::vector<std::string>{"scrape"},
        std::vector<std::string>{"scrape", "https://x.test/", "--limit", "3"},
        std::vector<std::string>{"crawl", "https://x.test/", "--limit", "many"},
        std::vector<std::string>{"scrape", "https://x.test/", "--no-such-option"},
        std::vector<std::string>{"scrape", "https://x.test/", "--schema", "{not json"},
        std::vector<std::string>{}}) {
    std::vector<std::string> argv = {WEBDATA_CLI_EXE};
    argv.insert(argv.end(), bad.begin(), bad.end());
    auto r = webdata::testing::run(argv);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("Try 'webdata --help'") != std::string::npos);
  }
  auto help = webdata::testing::run({WEBDATA_CLI_EXE, "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Exit codes") != std::string::npos);
}

TEST_CASE("WEBDATA_API_URL and WEBDATA_API_KEY configure the client") {
  MockProcess mock = start_mock();
  auto ok = webdata::testing::run({WEBDATA_CLI_EXE, "active"},
                                  {{"WEBDATA_API_URL", mock.url()}, {"WEBDATA_API_KEY", "test-key"}});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "active crawls: 0\n");
  auto bad = webdata::testing::run({WEBDATA_CLI_EXE, "active"},
                                   {{"WEBDATA_API_URL", mock.url()}, {"WEBDATA_API_KEY", "nope"}});
  CHECK(bad.exit_code == 1);
}

TEST_CASE("batch prints every document, lists invalid URLs and draws progress") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"batch", "https://docs.example.test/", "https://docs.example.test/faq",
                      "not a url", "--json", "--progress", "always"});
  REQUIRE(r.exit_code == 0);
  const json out = parse(r);
  CHECK(out.at("status") == "completed");
  CHECK(out.at("data").size() == 2);
  CHECK(out.at("completed") == 2);
  CHECK(out.at("invalidURLs") == json::array({"not a url"}));
  CHECK(r.err.find("2/2 pages") != std::string::npos);
  CHECK(r.err.find("pages/s  completed") != std::string::npos);

  auto strict = cli(mock, {"batch", "https://docs.example.test/", "not a url", "--strict"});
  CHECK(strict.exit_code == 1);
  CHECK(strict.err.find("400") != std::string::npos);
}

TEST_CASE("crawl streams every page in markdown with a progress bar") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"crawl", "https://library.synthetic.test/", "--limit", "7", "--progress",
                      "always", "--poll-interval", "50"});
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.out, "# https://library.synthetic.test") == 7);
  CHECK(r.err.find("7/7 pages") != std::string::npos);
  CHECK(r.err.find("completed") != std::string::npos);

  auto quiet = cli(mock, {"crawl", "https://library.synthetic.test/", "--limit", "3", "--json",
                          "--quiet"});
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
  CHECK(parse(quiet).at("data").size() == 3);
}

TEST_CASE("crawl --no-wait, then active, status, cancel and errors") {
  MockProcess mock = start_mock();
  // Every page of this generated site answers after 300 ms: the crawl is still running below.
  auto started = cli(mock, {"crawl", "https://cli-jobs.delay-300.pages-200.synthetic.test/",
                            "--no-wait", "--max-concurrency", "1"});
  REQUIRE(started.exit_code == 0);
  const std::string id = started.out.substr(0, started.out.find('\n'));
  REQUIRE_FALSE(id.empty());

  auto active = cli(mock, {"active"});
  CHECK(active.exit_code == 0);
  CHECK(active.out.find(id) != std::string::npos);

  auto status = cli(mock, {"status", id});
  CHECK(status.exit_code == 0);
  CHECK(status.out.find("crawl " + id + ": scraping") == 0);

  auto cancel = cli(mock, {"cancel", id, "--json"});
  CHECK(cancel.exit_code == 0);
  CHECK(parse(cancel).at("status") == "cancelled");

  auto after = cli(mock, {"status", id, "--json"});
  CHECK(after.exit_code == 0);
  CHECK(parse(after).at("status") == "cancelled");

  // Waiting on a job that ended without completing exits 5.
  auto waited = cli(mock, {"status", id, "--wait", "--quiet"});
  CHECK(waited.exit_code == 5);

  auto again = cli(mock, {"cancel", id});
  CHECK(again.exit_code == 1);  // 409: the job already finished

  auto errors = cli(mock, {"errors", id, "--json"});
  CHECK(errors.exit_code == 0);
  CHECK(parse(errors).at("errors").is_array());

  auto unknown = cli(mock, {"status", "00000000-0000-4000-8000-000000000000"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("404") != std::string::npos);
}

TEST_CASE("errors lists pages blocked by robots.txt") {
  MockProcess mock = start_mock();
  auto crawl = cli(mock, {"crawl", "https://private.pages-6.synthetic.test/", "--quiet"});
  REQUIRE(crawl.exit_code == 0);
  auto status = cli(mock, {"active", "--json"});
  CHECK(parse(status).at("crawls").empty());
  // The id is not printed by a waited crawl's markdown; --no-wait gives it.
  auto started = cli(mock, {"crawl", "https://private.pages-6.synthetic.test/", "--no-wait"});
  const std::string id = started.out.substr(0, started.out.find('\n'));
  auto waited = cli(mock, {"status", id, "--wait", "--quiet", "--poll-interval", "50"});
  REQUIRE(waited.exit_code == 0);
  CHECK(waited.out.find(": completed, ") != std::string::npos);
  auto errors = cli(mock, {"errors", id});
  CHECK(errors.exit_code == 0);
  CHECK(errors.out.find("robots.txt blocked: 1\n- https://private.pages-6.synthetic.test/private/") !=
        std::string::npos);
}

TEST_CASE("search with sources and operators, markdown and JSON") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"search", "kettle", "site:shop.example.test", "--source", "web,images",
                      "--json"});
  REQUIRE(r.exit_code == 0);
  const json out = parse(r);
  REQUIRE(out.at("data").at("web").is_array());
  CHECK_FALSE(out.at("data").at("web").empty());
  for (const auto& item : out.at("data").at("web")) {
    CHECK(item.at("url").get<std::string>().rfind("https://shop.example.test/", 0) == 0);
  }
  CHECK(out.at("data").contains("images"));
  CHECK_FALSE(out.at("data").contains("news"));

  auto md = cli(mock, {"search", "kettle", "--limit", "2"});
  REQUIRE(md.exit_code == 0);
  CHECK(md.out.find("## web\n\n1. [") == 0);

  auto bad = cli(mock, {"search", "kettle", "--limit", "500"});
  CHECK(bad.exit_code == 2);
}

TEST_CASE("agent answers with sources") {
  MockProcess mock = start_mock();
  auto r = cli(mock, {"agent", "What does the trail kettle cost?", "--url",
                      "https://shop.example.test/products/trail-kettle", "--json"});
  REQUIRE(r.exit_code == 0);
  const json out = parse(r);
  CHECK(out.at("success") == true);
  CHECK_FALSE(out.at("data").at("sources").empty());

  auto md = cli(mock, {"agent", "What does the trail kettle cost?"});
  REQUIRE(md.exit_code == 0);
  CHECK(md.out.find("\nSources:\n- https://") != std::string::npos);
}
