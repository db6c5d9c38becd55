#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <sstream>
#include <thread>

#include "process.hpp"
#include "spawned_mock.hpp"
#include "progress.hpp"

namespace {

using nlohmann::json;
using webdata::testing::SpawnedMock;
using webdata::testing::RunResult;

// Runs `webdata ARGS... --api-url MOCK --api-key test-key` (no WEBDATA_* from the environment).
RunResult cli(const SpawnedMock& mock, std::vector<std::string> args,
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

SpawnedMock start_mock() { return SpawnedMock(WEBDATA_MOCK_EXE, {"--page-pacing", "0"}); }

}  // namespace

TEST_CASE("progress bar: pages done of total, rate and state") {
  CHECK(webdata::cli::render_progress("crawl", 12, 27, 6.0, "scraping", 9) ==
        "crawl  [####.....]  12/27 pages  6.0 pages/s  scraping");
  CHECK(webdata::cli::render_progress("batch", 0, 0, std::nullopt, "scraping", 4) ==
        "batch  [....]  0/0 pages  scraping");
  // A total that lags behind the documents never draws more than a full bar.
  CHECK(webdata::cli::render_progress("crawl", 5, 3, 5.0, "completed", 4) ==
        "crawl  [####]  5/5 pages  5.0 pages/s  completed");
}

TEST_CASE("progress bar: no rate until a meaningful interval has passed") {
  using webdata::cli::pages_per_second;
  // Five pages seen 50 ms after the start are not 100 pages/s.
  CHECK_FALSE(pages_per_second(5, 0.05).has_value());
  CHECK_FALSE(pages_per_second(5, 0.99).has_value());
  REQUIRE(pages_per_second(5, 2.0).has_value());
  CHECK(*pages_per_second(5, 2.0) == Approx(2.5));

  // The bar counts from its first update: pages already done then (a job followed midway, or
  // the first chunk of a fast one) do not count towards the rate.
  std::ostringstream out;
  webdata::cli::ProgressBar bar(out, true, "crawl");
  bar.update(40, 100, "scraping");
  CHECK(out.str().find("pages/s") == std::string::npos);
  CHECK(out.str().find("40/100 pages  scraping") != std::string::npos);
  // A fixed wait, with its reason: the bar reads the real clock and shows a rate only after a
  // second of it.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  bar.update(42, 100, "scraping");
  bar.finish();
  const std::string text = out.str();
  const auto rate_at = text.rfind(" pages/s");
  REQUIRE(rate_at != std::string::npos);
  const auto number_at = text.rfind("  ", rate_at - 1) + 2;
  const double rate = std::stod(text.substr(number_at, rate_at - number_at));
  CHECK(rate > 0.5);
  CHECK(rate < 2.0);  // 2 pages in about 1.1 s, not 42 pages
}

TEST_CASE("scrape prints the page's markdown and exits 0") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"scrape", "https://docs.example.test/getting-started/quickstart"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("# Quickstart") != std::string::npos);
  CHECK(r.out.find("<html") == std::string::npos);
}

TEST_CASE("scrape --json prints the document with every asked format") {
  SpawnedMock mock = start_mock();
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
  SpawnedMock mock = start_mock();
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

TEST_CASE("the --proxy flag takes the service's four names, v1 refuses enhanced with the field named") {
  SpawnedMock mock = start_mock();
  for (const char* mode : {"basic", "enhanced", "stealth", "auto"}) {
    INFO(mode);
    auto r = cli(mock, {"scrape", "https://docs.example.test/", "--proxy", mode});
    INFO(r.err);
    CHECK(r.exit_code == 0);
  }
  auto v1_stealth = cli(mock, {"scrape", "https://docs.example.test/", "--v1", "--proxy", "stealth"});
  INFO(v1_stealth.err);
  CHECK(v1_stealth.exit_code == 0);
  auto v1_enhanced =
      cli(mock, {"scrape", "https://docs.example.test/", "--v1", "--proxy", "enhanced"});
  CHECK(v1_enhanced.exit_code == 1);
  CHECK(v1_enhanced.err.find("proxy") != std::string::npos);
  auto unknown = cli(mock, {"scrape", "https://docs.example.test/", "--proxy", "residential"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("basic, enhanced, stealth or auto") != std::string::npos);
}

TEST_CASE("status --scrape prints a past scrape by its scrapeId, v2 and --v1") {
  SpawnedMock mock = start_mock();
  auto made = cli(mock, {"scrape", "https://docs.example.test/getting-started/quickstart",
                         "--format", "markdown,links", "--json"});
  REQUIRE(made.exit_code == 0);
  const json doc = parse(made);
  const std::string id = doc.at("metadata").at("scrapeId");

  auto text = cli(mock, {"status", id, "--scrape"});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("# Quickstart") != std::string::npos);
  auto read = cli(mock, {"status", id, "--scrape", "--json"});
  REQUIRE(read.exit_code == 0);
  CHECK(parse(read).at("markdown") == doc.at("markdown"));
  CHECK(parse(read).at("links") == doc.at("links"));
  CHECK(cli(mock, {"status", id, "--scrape", "--v1", "--json"}).exit_code == 0);

  auto unknown = cli(mock, {"status", "00000000-0000-4000-8000-000000000000", "--scrape"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("Job not found.") != std::string::npos);
  auto mixed = cli(mock, {"status", id, "--scrape", "--batch"});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("--scrape does not go with --batch") != std::string::npos);
}

TEST_CASE("options before and after the command, --name=value, repeated and comma lists") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"--json", "--format=markdown,links", "scrape", "https://docs.example.test/",
                      "--format", "summary"});
  REQUIRE(r.exit_code == 0);
  const json doc = parse(r);
  CHECK(doc.at("markdown").is_string());
  CHECK(doc.at("links").is_array());
  CHECK(doc.at("summary").is_string());
  CHECK_FALSE(doc.contains("html"));
}

TEST_CASE("after --, a word that starts with a dash is the query, not an option") {
  SpawnedMock mock = start_mock();
  const auto run = [&](std::vector<std::string> tail) {
    std::vector<std::string> argv = {WEBDATA_CLI_EXE, "--api-url", mock.url(), "--api-key",
                                     "test-key", "search"};
    argv.insert(argv.end(), tail.begin(), tail.end());
    return webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  };
  const auto refused = run({"kettle", "-camping"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("unknown option '-camping'") != std::string::npos);
  const auto r = run({"--json", "--", "kettle", "-camping"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(parse(r).at("success") == true);
}

TEST_CASE("a page that answered an error status prints its document, a note, and exits 8") {
  SpawnedMock mock = start_mock();
  const std::string url = "https://docs.example.test/no-such-page";
  const std::string note =
      "webdata: note: " + url + " answered HTTP 404; the document is that page's content\n";
  auto r = cli(mock, {"scrape", url});
  CHECK(r.exit_code == 8);
  CHECK_FALSE(r.out.empty());
  CHECK(r.err == note);

  auto j = cli(mock, {"scrape", url, "--json"});
  CHECK(j.exit_code == 8);
  const json doc = parse(j);
  CHECK(doc.at("metadata").at("statusCode") == 404);
  const std::string id = doc.at("metadata").at("scrapeId");

  auto v1 = cli(mock, {"scrape", url, "--v1"});
  CHECK(v1.exit_code == 8);
  CHECK(v1.err == note);
  auto quiet = cli(mock, {"scrape", url, "--quiet"});
  CHECK(quiet.exit_code == 8);
  CHECK(quiet.err.empty());
  CHECK(quiet.out == r.out);

  auto past = cli(mock, {"status", id, "--scrape"});
  CHECK(past.exit_code == 8);
  CHECK(past.err == note);

  auto server_error = cli(mock, {"scrape", "https://edge.example.test/server-error"});
  CHECK(server_error.exit_code == 8);
  CHECK(server_error.err.find("answered HTTP 500") != std::string::npos);
  CHECK(cli(mock, {"scrape", "https://docs.example.test/"}).exit_code == 0);
}

TEST_CASE("a batch counts its pages with an error status on its last line and exits 0") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"batch", "https://docs.example.test/", "https://docs.example.test/no-such-page",
                      "https://edge.example.test/gone", "--progress", "always"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("(404) -->") != std::string::npos);
  CHECK(r.err.find("3/3 pages") != std::string::npos);
  CHECK(r.err.find("completed; 2 pages answered an error status") != std::string::npos);
  CHECK(r.err.find("note:") == std::string::npos);

  auto clean = cli(mock, {"batch", "https://docs.example.test/", "--progress", "always"});
  REQUIRE(clean.exit_code == 0);
  CHECK(clean.err.find("error status") == std::string::npos);
}

TEST_CASE("exit code 1 for API errors, with the error on stderr") {
  SpawnedMock mock = start_mock();
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
  SpawnedMock mock = start_mock();
  auto ok = webdata::testing::run({WEBDATA_CLI_EXE, "active"},
                                  {{"WEBDATA_API_URL", mock.url()}, {"WEBDATA_API_KEY", "test-key"}});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "active crawls: 0\n");
  auto bad = webdata::testing::run({WEBDATA_CLI_EXE, "active"},
                                   {{"WEBDATA_API_URL", mock.url()}, {"WEBDATA_API_KEY", "nope"}});
  CHECK(bad.exit_code == 1);
}

TEST_CASE("batch prints every document, lists invalid URLs and draws progress") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"batch", "https://docs.example.test/", "https://docs.example.test/faq",
                      "not a url", "--json", "--progress", "always"});
  REQUIRE(r.exit_code == 0);
  const json out = parse(r);
  CHECK(out.at("status") == "completed");
  CHECK(out.at("data").size() == 2);
  CHECK(out.at("completed") == 2);
  CHECK(out.at("invalidURLs") == json::array({"not a url"}));
  CHECK(r.err.find("2/2 pages") != std::string::npos);
  CHECK(r.err.find("pages  completed") != std::string::npos);

  auto strict = cli(mock, {"batch", "https://docs.example.test/", "not a url", "--strict"});
  CHECK(strict.exit_code == 1);
  CHECK(strict.err.find("400") != std::string::npos);
}

TEST_CASE("crawl streams every page in markdown with a progress bar") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"crawl", "https://library.synthetic.test/", "--limit", "7", "--progress",
                      "always", "--poll-interval", "50"});
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.out, "<!-- page ") == 7);
  CHECK(r.err.find("7/7 pages") != std::string::npos);
  CHECK(r.err.find("completed") != std::string::npos);

  auto quiet = cli(mock, {"crawl", "https://library.synthetic.test/", "--limit", "3", "--json",
                          "--quiet"});
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
  CHECK(parse(quiet).at("data").size() == 3);
}

TEST_CASE("crawl --no-wait, then active, status, cancel and errors") {
  SpawnedMock mock = start_mock();
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
  SpawnedMock mock = start_mock();
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
  SpawnedMock mock = start_mock();
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
  SpawnedMock mock = start_mock();
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

// --- The first hour of a new user (issue 23): every answer says what happened and what to do.

namespace {

// What a terminal shows for `stream`: '\r' returns to column 0, ESC[K erases to the end of the
// line, '\n' starts a new line. The progress bar relies on exactly these three.
std::vector<std::string> visible_lines(const std::string& stream) {
  std::vector<std::string> lines(1);
  std::size_t column = 0;
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const char ch = stream[i];
    std::string& line = lines.back();
    if (ch == '\n') {
      lines.emplace_back();
      column = 0;
    } else if (ch == '\r') {
      column = 0;
    } else if (ch == '\x1b' && stream.compare(i, 3, "\x1b[K") == 0) {
      line.resize(std::min(line.size(), column));
      i += 2;
    } else {
      if (column < line.size()) {
        line[column] = ch;
      } else {
        line.push_back(ch);
      }
      ++column;
    }
  }
  return lines;
}

// `webdata ARGS...` with stderr on the same pipe as stdout, as at a terminal.
RunResult cli_merged(const SpawnedMock& mock, std::vector<std::string> args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", mock.url(), "--api-key", "test-key"});
  return webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The command after "resume with: ", as arguments, with the real key for the "..." it shows.
std::vector<std::string> resume_command(const std::string& err) {
  const std::string marker = "resume with: webdata ";
  const auto at = err.find(marker);
  if (at == std::string::npos) return {};
  std::istringstream words(first_line(err.substr(at + marker.size())));
  std::vector<std::string> args;
  for (std::string w; words >> w;) args.push_back(w == "..." ? "test-key" : w);
  return args;
}

}  // namespace

TEST_CASE("a job that fails says why, and exits 5") {
  SpawnedMock mock = start_mock();
  // The start host does not resolve: the crawl ends failed with the reason in its status.
  auto r = cli(mock, {"crawl", "https://fail-dns.synthetic.test/", "--quiet"});
  CHECK(r.exit_code == 5);
  CHECK(r.err.find("ended failed: ") != std::string::npos);
  CHECK(r.err.find("fail-dns.synthetic.test") != std::string::npos);  // the mock's reason
  CHECK(r.err.find("webdata errors ") != std::string::npos);

  auto started = cli(mock, {"crawl", "https://fail-dns.synthetic.test/", "--no-wait"});
  REQUIRE(started.exit_code == 0);
  const std::string id = first_line(started.out);
  auto waited = cli(mock, {"status", id, "--wait", "--quiet"});
  CHECK(waited.exit_code == 5);
  CHECK(waited.err.find(id + " ended failed: ") != std::string::npos);
  auto status = cli(mock, {"status", id});
  CHECK(status.exit_code == 0);
  CHECK(status.out.find(": failed, ") != std::string::npos);
  CHECK(status.out.find("\nerror: ") != std::string::npos);
  auto json_out = cli(mock, {"crawl", "https://fail-dns.synthetic.test/", "--json", "--quiet"});
  CHECK(json_out.exit_code == 5);
  CHECK(parse(json_out).at("error").get<std::string>().find("fail-dns") != std::string::npos);
}

TEST_CASE("an unknown --format is refused before anything is sent, listing the accepted ones") {
  // Nothing listens at this address: a usage error (2), not a transport error (3), proves that
  // the value was refused locally.
  const std::vector<std::string> where = {"--api-url", "http://127.0.0.1:1", "--api-key", "k"};
  auto run_cli = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {WEBDATA_CLI_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), where.begin(), where.end());
    return webdata::testing::run(argv);
  };
  auto typo = run_cli({"scrape", "https://docs.example.test/", "--format", "markdwn"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("unknown --format 'markdwn' (did you mean 'markdown'?)") != std::string::npos);
  CHECK(typo.err.find("accepted: markdown, summary, html, rawHtml, links, images, screenshot, "
                      "json, changeTracking, branding") != std::string::npos);

  auto v1 = run_cli({"crawl", "https://docs.example.test/", "--v1", "--format", "markdown,summary"});
  CHECK(v1.exit_code == 2);
  CHECK(v1.err.find("accepted: markdown, html, rawHtml, links, screenshot, screenshot@fullPage") !=
        std::string::npos);

  auto source = run_cli({"search", "kettle", "--source", "web,videos"});
  CHECK(source.exit_code == 2);
  CHECK(source.err.find("unknown --source 'videos'") != std::string::npos);
}

TEST_CASE("a 404 on a job says whether it is the other kind (--batch)") {
  SpawnedMock mock = start_mock();
  auto batch = cli(mock, {"batch", "https://docs.example.test/", "--no-wait"});
  REQUIRE(batch.exit_code == 0);
  const std::string batch_id = first_line(batch.out);
  auto as_crawl = cli(mock, {"status", batch_id});
  CHECK(as_crawl.exit_code == 1);
  CHECK(as_crawl.err.find("404") != std::string::npos);
  CHECK(as_crawl.err.find(batch_id + " is a batch scrape, not a crawl: try webdata status " +
                          batch_id + " --batch") != std::string::npos);
  auto errors = cli(mock, {"errors", batch_id});
  CHECK(errors.err.find("try webdata errors " + batch_id + " --batch") != std::string::npos);

  auto crawl = cli(mock, {"crawl", "https://docs.example.test/", "--limit", "2", "--no-wait"});
  REQUIRE(crawl.exit_code == 0);
  const std::string crawl_id = first_line(crawl.out);
  auto as_batch = cli(mock, {"cancel", crawl_id, "--batch"});
  CHECK(as_batch.exit_code == 1);
  CHECK(as_batch.err.find(crawl_id + " is a crawl, not a batch scrape: try webdata cancel " +
                          crawl_id + " --api-url") != std::string::npos);

  auto unknown = cli(mock, {"status", "00000000-0000-4000-8000-000000000000", "--wait"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("no crawl or batch scrape 00000000-0000-4000-8000-000000000000") !=
        std::string::npos);
}

TEST_CASE("a 401 names --api-key and WEBDATA_API_KEY, and where the refused key came from") {
  SpawnedMock mock = start_mock();
  auto flag = cli(mock, {"active"}, "wrong-key");
  CHECK(flag.exit_code == 1);
  CHECK(flag.err.find("refused the key from --api-key: check --api-key or WEBDATA_API_KEY") !=
        std::string::npos);

  auto env = webdata::testing::run({WEBDATA_CLI_EXE, "active", "--api-url", mock.url()},
                                   {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", "wrong-key"}});
  CHECK(env.exit_code == 1);
  CHECK(env.err.find("refused the key from WEBDATA_API_KEY") != std::string::npos);

  auto none = webdata::testing::run({WEBDATA_CLI_EXE, "active", "--api-url", mock.url()},
                                    {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  CHECK(none.exit_code == 1);
  CHECK(none.err.find("no API key was sent: pass --api-key KEY or set WEBDATA_API_KEY") !=
        std::string::npos);
}

TEST_CASE("with the service down, it says so at once instead of retrying silently") {
  const auto start = std::chrono::steady_clock::now();
  auto down = webdata::testing::run(
      {WEBDATA_CLI_EXE, "scrape", "https://docs.example.test/", "--api-url", "http://127.0.0.1:1"},
      {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(down.exit_code == 3);
  CHECK(down.err.find("nothing answers at http://127.0.0.1:1: is the service running?") !=
        std::string::npos);
  CHECK(down.err.find("--api-url or WEBDATA_API_URL") != std::string::npos);
  CHECK(down.err.find("retry") == std::string::npos);
  // No backoff at all (the SDK's three retries took about 6 s): a bound on behaviour, with room
  // for a slow machine.
  CHECK(took < std::chrono::seconds(3));
}

TEST_CASE("retries of a service that answers are announced, one line each") {
  // An API stub makes every crawl status answer 503 (Retry-After: 0, so the test is quick).
  char dir_template[] = "/tmp/webdata-cli-stubs-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  std::filesystem::create_directories(dir + "/mappings");
  {
    std::ofstream out(dir + "/mappings/busy.json");
    out << R"({"request": {"method": "GET", "urlPathPattern": "/v2/crawl/[0-9a-f-]+"},
               "response": {"status": 503, "headers": {"Retry-After": "0"},
                            "jsonBody": {"success": false, "error": "busy"}}})";
  }
  SpawnedMock mock(WEBDATA_MOCK_EXE, {"--api-stubs", dir});
  auto r = cli(mock, {"status", "00000000-0000-4000-8000-000000000000"});
  std::filesystem::remove_all(dir);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("HTTP 503 from " + mock.url() + "; retry 1 of 3 (GET /v2/crawl/") !=
        std::string::npos);
  CHECK(r.err.find("retry 3 of 3") != std::string::npos);
  CHECK(r.err.find("retry 4") == std::string::npos);
}

TEST_CASE("when the max wait runs out it says how to resume, and that command resumes") {
  SpawnedMock mock = start_mock();
  // Pages answer after 300 ms, one at a time: the crawl outlives a one-second wait.
  const std::string site = "https://resume.delay-300.pages-12.synthetic.test/";
  auto r = cli(mock, {"crawl", site, "--max-concurrency", "1", "--max-wait", "1",
                      "--poll-interval", "50", "--quiet"});
  CHECK(r.exit_code == 4);
  CHECK(r.err.find("after --max-wait 1 s; it keeps running on the service") != std::string::npos);
  const auto args = resume_command(r.err);
  REQUIRE(args.size() >= 5);
  CHECK(args[0] == "status");
  CHECK(args[2] == "--documents");
  CHECK(args[3] == "--skip");
  const std::size_t printed = count(r.out, "<!-- page ");
  CHECK(args[4] == std::to_string(printed));

  // Run exactly that command: the pages continue where the first run stopped.
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--quiet", "--poll-interval", "50"});
  auto resumed = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.out.find("<!-- page " + std::to_string(printed + 1) + ": ") == 0);
  CHECK(count(resumed.out, "<!-- page ") == 12 - printed);

  auto started = cli(mock, {"crawl", "https://resume2.delay-300.pages-12.synthetic.test/",
                            "--no-wait", "--max-concurrency", "1"});
  const std::string id = first_line(started.out);
  auto waited = cli(mock, {"status", id, "--wait", "--max-wait", "0.5", "--quiet"});
  CHECK(waited.exit_code == 4);
  CHECK(waited.err.find("resume with: webdata status " + id + " --wait --api-url " + mock.url() +
                        " --api-key ...") != std::string::npos);
}

TEST_CASE("the progress bar never shares a line with the output") {
  SpawnedMock mock = start_mock();
  auto r = cli_merged(mock, {"crawl", "https://bar.delay-200.pages-6.synthetic.test/",
                             "--max-concurrency", "1", "--progress", "always",
                             "--poll-interval", "20"});
  REQUIRE(r.exit_code == 0);
  const auto lines = visible_lines(r.out);
  std::size_t bars = 0;
  std::size_t pages = 0;
  for (const auto& line : lines) {
    INFO("line: " << line);
    const auto bar_at = line.find("crawl  [");
    if (bar_at != std::string::npos) {
      ++bars;
      CHECK(bar_at == 0);  // the bar starts its own line ...
      CHECK(line.find("<!--") == std::string::npos);  // ... and nothing follows it there
    }
    const auto page_at = line.find("<!-- page ");
    if (page_at != std::string::npos) {
      ++pages;
      CHECK(page_at == 0);
    }
  }
  CHECK(pages == 6);
  CHECK(bars >= 1);
  CHECK(lines.size() >= 2);
  CHECK(lines[lines.size() - 2].find("6/6 pages") != std::string::npos);
}

TEST_CASE("pages of a job are separated by a rule and a comment, not by headings") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"crawl", "https://library.synthetic.test/", "--limit", "3", "--quiet"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\n# https://") == std::string::npos);
  CHECK(r.out.rfind("# https://", 0) != 0);
  // Pages come in the order they finished; the first is on the site, with its status.
  CHECK(r.out.find("<!-- page 1: https://library.synthetic.test/") == 0);
  CHECK(first_line(r.out).find(" (200) -->") != std::string::npos);
  CHECK(r.out.find(" -->\n\n") != std::string::npos);
  CHECK(count(r.out, "<!-- page ") == 3);
  CHECK(count(r.out, "\n\n---\n\n<!-- page ") == 2);  // a rule between pages, not before the first
  // The pages' own headings are the only headings.
  CHECK(count(r.out, "\n# ") + (r.out.rfind("# ", 0) == 0 ? 1 : 0) >= 3);
}

// --- map, extract, usage, queue, crawl-preview: the endpoints beyond the specification's core.

TEST_CASE("map prints one URL per line, --json, --limit, --sitemap, --search, --v1") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"map", "http://pages-30.synthetic.test/", "--limit", "7"});
  REQUIRE(r.exit_code == 0);
  CHECK(count(r.out, "\n") == 7);
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) CHECK(line.rfind("http://pages-30.synthetic.test/", 0) == 0);

  auto j = cli(mock, {"map", "https://shop.example.test/", "--search", "kettle", "--json"});
  REQUIRE(j.exit_code == 0);
  const json out = parse(j);
  CHECK(out.at("success") == true);
  REQUIRE_FALSE(out.at("links").empty());
  CHECK(out.at("links").at(0).at("url").get<std::string>().find("kettle") != std::string::npos);
  CHECK(out.at("links").at(0).contains("title"));

  auto v1 = cli(mock, {"map", "http://pages-30.synthetic.test/", "--limit", "3", "--v1", "--json"});
  REQUIRE(v1.exit_code == 0);
  const json v1_out = parse(v1);
  REQUIRE(v1_out.at("links").size() == 3);
  CHECK(v1_out.at("links").at(0).is_string());

  auto only = cli(mock, {"map", "http://pages-30.synthetic.test/", "--sitemap", "only"});
  CHECK(only.exit_code == 0);
  CHECK(cli(mock, {"map", "http://pages-30.synthetic.test/", "--sitemap", "sometimes"}).exit_code ==
        2);
  CHECK(cli(mock, {"map"}).exit_code == 2);
}

TEST_CASE("extract follows the job and prints the data, --no-wait and status --extract") {
  SpawnedMock mock = start_mock();
  const std::string schema =
      R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})";
  auto r = cli(mock, {"extract", "https://shop.example.test/products/trail-kettle", "--schema",
                      schema, "--prompt", "the product name", "--sources", "--quiet"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("```json\n{", 0) == 0);
  CHECK(r.out.find("\"name\": \"Trail Kettle") != std::string::npos);
  CHECK(r.out.find("\nSources:\n- name: https://shop.example.test/products/trail-kettle") !=
        std::string::npos);

  auto j = cli(mock,
               {"extract", "https://shop.example.test/*", "--schema", schema, "--json", "--quiet"});
  REQUIRE(j.exit_code == 0);
  const json done = parse(j);
  CHECK(done.at("status") == "completed");
  CHECK(done.at("data").at("name").is_string());
  CHECK(done.at("creditsUsed").get<long>() > 0);

  auto started = cli(mock, {"extract", "https://shop.example.test/products/drift-mug", "--prompt",
                            "the price", "--no-wait"});
  REQUIRE(started.exit_code == 0);
  const std::string id = first_line(started.out);
  CHECK(id.size() == 36);
  auto waited = cli(mock, {"status", id, "--extract", "--wait"});
  REQUIRE(waited.exit_code == 0);
  CHECK(waited.out.rfind("extract " + id + ": completed, ", 0) == 0);
  CHECK(waited.out.find("```json") != std::string::npos);
  auto status = cli(mock, {"status", id, "--extract", "--json"});
  REQUIRE(status.exit_code == 0);
  CHECK(parse(status).at("status") == "completed");

  auto v1 = cli(mock, {"extract", "shop.example.test/products/trail-kettle", "--schema", schema,
                       "--v1", "--json", "--quiet"});
  REQUIRE(v1.exit_code == 0);
  CHECK(parse(v1).at("data").at("name").is_string());
}

TEST_CASE("deep-research and llmstxt follow the v1 jobs and print their answers") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"deep-research", "trail", "kettle", "--max-depth", "2", "--max-urls", "3",
                      "--poll-interval", "50", "--quiet"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("# trail kettle\n", 0) == 0);
  CHECK(r.out.find("](http") != std::string::npos);
  auto j = cli(mock, {"deep-research", "kettle", "--max-depth", "1", "--json", "--poll-interval",
                      "50", "--quiet"});
  REQUIRE(j.exit_code == 0);
  const json done = parse(j);
  CHECK(done.at("status") == "completed");
  CHECK(done.at("sources").is_array());
  auto started = cli(mock, {"deep-research", "kettle", "--no-wait"});
  REQUIRE(started.exit_code == 0);
  CHECK(first_line(started.out).size() == 36);

  auto txt = cli(mock, {"llmstxt", "http://pages-5.synthetic.test/", "--max-urls", "3",
                        "--poll-interval", "50", "--quiet"});
  REQUIRE(txt.exit_code == 0);
  CHECK(txt.out.rfind("# http://pages-5.synthetic.test/ llms.txt", 0) == 0);
  auto full = cli(mock, {"llmstxt", "http://pages-5.synthetic.test/", "--max-urls", "3", "--full",
                         "--poll-interval", "50", "--quiet"});
  REQUIRE(full.exit_code == 0);
  CHECK(full.out.rfind("# http://pages-5.synthetic.test/ llms-full.txt", 0) == 0);
  CHECK(cli(mock, {"llmstxt"}).exit_code != 0);
}

TEST_CASE("extract refuses bad input, says why a job failed, and names unknown ids") {
  SpawnedMock mock = start_mock();
  auto none = cli(mock, {"extract", "https://shop.example.test/"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("--prompt") != std::string::npos);
  auto bad = cli(mock, {"extract", "ftp://shop.example.test/", "--prompt", "x"});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("urls") != std::string::npos);  // the field-level details

  auto failed =
      cli(mock, {"extract", "https://fail-dns.synthetic.test/", "--prompt", "x", "--quiet"});
  CHECK(failed.exit_code == 5);
  CHECK(failed.err.find("ended failed: ") != std::string::npos);
  CHECK(failed.err.find("fail-dns.synthetic.test") != std::string::npos);

  auto unknown = cli(mock, {"status", "00000000-0000-4000-8000-000000000000", "--extract"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("no extract job") != std::string::npos);
  CHECK(cli(mock, {"status", "x", "--extract", "--batch"}).exit_code == 2);
}

TEST_CASE("usage prints credits and tokens, --historical by period and by key") {
  SpawnedMock mock = start_mock();
  REQUIRE(cli(mock, {"scrape", "https://docs.example.test/"}).exit_code == 0);
  auto r = cli(mock, {"usage"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("credits: ", 0) == 0);
  CHECK(r.out.find(" remaining of ") != std::string::npos);
  CHECK(r.out.find("\ntokens: ") != std::string::npos);
  CHECK(r.out.find("(billing period ") != std::string::npos);

  auto j = cli(mock, {"usage", "--json"});
  REQUIRE(j.exit_code == 0);
  const json out = parse(j);
  const json credits = out.at("credits").at("data");
  CHECK(credits.at("planCredits").get<long long>() -
            credits.at("remainingCredits").get<long long>() ==
        1);  // the one scrape
  CHECK(out.at("tokens").at("data").contains("remainingTokens"));

  auto h = cli(mock, {"usage", "--historical", "--by-api-key", "--json"});
  REQUIRE(h.exit_code == 0);
  const json periods = parse(h).at("credits").at("periods");
  REQUIRE(periods.size() == 1);
  CHECK(periods.at(0).at("creditsUsed") == 1);
  CHECK(periods.at(0).contains("apiKey"));
  auto text = cli(mock, {"usage", "--historical"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.rfind("credits used per billing period:\n- ", 0) == 0);

  auto v1 = cli(mock, {"usage", "--v1", "--json"});
  REQUIRE(v1.exit_code == 0);
  CHECK(parse(v1).at("credits").at("data").contains("remaining_credits"));
  CHECK(cli(mock, {"usage", "--by-api-key"}).exit_code == 2);
}

TEST_CASE("queue prints the team's queue and concurrency") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"queue"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("jobs in queue: 0 (0 active, 0 waiting)\nconcurrency: 0 of ", 0) == 0);
  CHECK(r.out.find("most recent success: none in 24 hours") != std::string::npos);
  auto j = cli(mock, {"queue", "--json"});
  REQUIRE(j.exit_code == 0);
  const json out = parse(j);
  CHECK(out.at("queue").at("jobsInQueue") == 0);
  CHECK(out.at("concurrency").at("maxConcurrency").get<int>() > 0);
}

TEST_CASE("crawl-preview prints the options a prompt implies and the crawl that runs them") {
  SpawnedMock mock = start_mock();
  auto r = cli(mock, {"crawl-preview", "https://docs.example.test/", "only", "the", "blog,", "at",
                      "most", "5", "pages"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("```json\n") != std::string::npos);
  const auto run_at = r.out.find("run it with:\n  webdata crawl https://docs.example.test/");
  REQUIRE(run_at != std::string::npos);
  CHECK(r.out.find("--limit 5", run_at) != std::string::npos);
  CHECK(r.out.find("--include-path", run_at) != std::string::npos);

  auto j = cli(mock, {"crawl-preview", "https://docs.example.test/", "at most 5 pages", "--json"});
  REQUIRE(j.exit_code == 0);
  const json out = parse(j);
  CHECK(out.at("data").at("limit") == 5);
  CHECK(out.at("data").at("url") == "https://docs.example.test/");
  CHECK(cli(mock, {"crawl-preview", "https://docs.example.test/"}).exit_code == 2);
}

TEST_CASE("monitor create, list, get, update, run --wait, checks, check and delete") {
  SpawnedMock mock = start_mock();
  auto created = cli(mock, {"monitor", "create", "--name", "Docs", "--schedule", "hourly", "--url",
                            "https://docs.example.test/", "--json"});
  REQUIRE(created.exit_code == 0);
  const json monitor = parse(created);
  CHECK(monitor.at("schedule").at("cron") == "0 * * * *");
  const std::string id = monitor.at("id");
  auto listed = cli(mock, {"monitor", "list"});
  REQUIRE(listed.exit_code == 0);
  CHECK(listed.out.rfind(id + "  active  0 * * * *  Docs", 0) == 0);
  auto paused = cli(mock, {"monitor", "update", id, "--state", "paused", "--json"});
  REQUIRE(paused.exit_code == 0);
  CHECK(parse(paused).at("status") == "paused");
  auto run = cli(mock, {"monitor", "run", id, "--wait", "--json"});
  REQUIRE(run.exit_code == 0);
  const json check = parse(run);
  CHECK(check.at("status") == "completed");
  CHECK(check.at("pages").at(0).at("status") == "new");
  auto checks = cli(mock, {"monitor", "checks", id});
  REQUIRE(checks.exit_code == 0);
  CHECK(checks.out.find("completed  manual  1 pages: 0 same, 0 changed, 1 new") != std::string::npos);
  auto one = cli(mock, {"monitor", "check", id, check.at("id"), "--page-status", "new"});
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("  new  https://docs.example.test/") != std::string::npos);
  CHECK(cli(mock, {"monitor", "delete", id}).exit_code == 0);
  CHECK(cli(mock, {"monitor", "get", id}).exit_code == 1);
  CHECK(cli(mock, {"monitor", "create", "--name", "Bad", "--cron", "* * *", "--url",
                   "https://docs.example.test/"})
            .exit_code == 1);
  CHECK(cli(mock, {"monitor", "run"}).exit_code == 2);
}

TEST_CASE("papers, paper, related, developer, feedback and doctor read the research surface") {
  SpawnedMock mock = start_mock();
  auto papers = cli(mock, {"papers", "graph", "neural", "networks", "--limit", "2"});
  REQUIRE(papers.exit_code == 0);
  CHECK(papers.out.find("arxiv:2101.00101") != std::string::npos);
  auto read = cli(mock, {"paper", "arxiv:2101.00101", "--question", "which dataset", "--limit", "1"});
  REQUIRE(read.exit_code == 0);
  CHECK(read.out.find("QM9") != std::string::npos);
  auto related = cli(mock, {"related", "1001", "--intent", "molecules", "--limit", "1"});
  REQUIRE(related.exit_code == 0);
  CHECK(related.out.find("paperId") != std::string::npos);
  CHECK(cli(mock, {"related", "1001"}).exit_code == 2);
  auto developer = cli(mock, {"developer", "configure", "webhooks", "--limit", "1"});
  REQUIRE(developer.exit_code == 0);
  CHECK(developer.out.find("docs.example.test") != std::string::npos);
  CHECK(cli(mock, {"feedback", "scrape", "not-a-job", "--rating", "good"}).exit_code == 1);
  CHECK(cli(mock, {"doctor", "not-a-job"}).exit_code == 1);
  CHECK(cli(mock, {"paper", "no-such-paper"}).exit_code == 1);
}
