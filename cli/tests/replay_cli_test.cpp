// The CLI against the exchanges recorded from a real deployment (tests/data/real/), served over
// HTTP by a replay server: the output and exit code of each command as that deployment answers,
// and never a line of its HTML.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "process.hpp"
#include "replay.hpp"

namespace {

using nlohmann::json;
using webdata::testing::RecordedExchange;
using webdata::testing::ReplayServer;
using webdata::testing::RunResult;

const std::vector<RecordedExchange>& recordings() {
  static const auto all = webdata::testing::load_recordings(WEBDATA_REAL_RECORDINGS);
  return all;
}

std::vector<RecordedExchange> records(std::initializer_list<std::size_t> indexes) {
  std::vector<RecordedExchange> out;
  for (std::size_t i : indexes) out.push_back(recordings().at(i));
  return out;
}

// `webdata ARGS... --api-url REPLAY` (no key: the deployment had authentication off); commands
// that follow a job poll every 10 ms. Nothing it prints may be HTML.
RunResult replay_cli(const ReplayServer& server, std::vector<std::string> args) {
  std::vector<std::string> argv = {WEBDATA_CLI_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--api-url", server.url()});
  const std::set<std::string> following = {"crawl", "batch", "extract", "status", "agent"};
  if (following.count(args.front()) != 0) argv.insert(argv.end(), {"--poll-interval", "10"});
  auto r = webdata::testing::run(argv, {{"WEBDATA_API_URL", ""}, {"WEBDATA_API_KEY", ""}});
  INFO("stdout: " << r.out);
  INFO("stderr: " << r.err);
  for (const char* html : {"<html", "<!DOCTYPE", "<pre>", "<body"}) {
    CHECK(r.out.find(html) == std::string::npos);
    CHECK(r.err.find(html) == std::string::npos);
  }
  return r;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The page URLs of `<!-- page N: URL (status) -->` lines.
std::vector<std::string> page_urls(const std::string& out) {
  std::vector<std::string> urls;
  const std::string mark = "<!-- page ";
  for (auto at = out.find(mark); at != std::string::npos; at = out.find(mark, at + 1)) {
    const auto colon = out.find(": ", at);
    urls.push_back(out.substr(colon + 2, out.find(' ', colon + 2) - colon - 2));
  }
  return urls;
}

std::string id_of(std::size_t start_record) {
  return recordings().at(start_record).json->at("id").get<std::string>();
}

}  // namespace

TEST_CASE("replay cli: a crawl over the recorded crawl gives its 9 documents and exit 0",
          "[cli][replay]") {
  for (const std::string version : {"v1", "v2"}) {
    INFO(version);
    ReplayServer server(
        webdata::testing::select(recordings(), version + "-crawl", {"start", "poll"}));
    std::vector<std::string> args = {"crawl", "http://127.0.0.10:18091/"};
    if (version == "v1") args.emplace_back("--v1");
    const auto r = replay_cli(server, args);
    CHECK(r.exit_code == 0);
    const auto urls = page_urls(r.out);
    CHECK(urls.size() == 9);
    CHECK(std::set<std::string>(urls.begin(), urls.end()).size() == 9);
    CHECK(r.err.find("ended") == std::string::npos);
  }
  ReplayServer server(webdata::testing::select(recordings(), "v2-crawl", {"start", "poll"}));
  const auto r = replay_cli(server, {"crawl", "http://127.0.0.10:18091/", "--json"});
  REQUIRE(r.exit_code == 0);
  const json out = json::parse(r.out);
  CHECK(out.at("data").size() == 9);
  CHECK(out.at("status") == "completed");
  CHECK(out.at("total") == 9);
}

TEST_CASE("replay cli: batches, completed and cancelled while running", "[cli][replay]") {
  {
    ReplayServer server(webdata::testing::select(recordings(), "v1-batch", {"start", "poll"}));
    const auto r =
        replay_cli(server, {"batch", "http://127.0.0.10:18091/p2", "http://127.0.0.10:18091/gone",
                            "http://127.0.0.10:18091/p3", "--v1"});
    CHECK(r.exit_code == 0);
    CHECK(page_urls(r.out).size() == 3);
    CHECK(r.out.find("/gone (404)") != std::string::npos);
  }
  ReplayServer server(
      webdata::testing::select(recordings(), "v2-batch", {"start to cancel", "poll"}));
  const auto r =
      replay_cli(server, {"batch", "http://127.0.0.10:18091/p4", "http://127.0.0.10:18091/p5"});
  CHECK(r.exit_code == 5);
  CHECK(page_urls(r.out).size() == 1);
  CHECK(occurrences(r.err, "ended cancelled") == 1);
}

TEST_CASE("replay cli: the failed extract exits 5 with a one-line reason", "[cli][replay]") {
  ReplayServer server(webdata::testing::select(recordings(), "v2-misc", {"extract start", "poll"}));
  const auto r = replay_cli(
      server, {"extract", "http://127.0.0.10:18091/p1", "--prompt", "the heading", "--quiet"});
  CHECK(r.exit_code == 5);
  CHECK(r.out.empty());
  CHECK(r.err == "webdata: extract " + id_of(154) +
                     " ended failed: the service gave no reason (\"error\": {})\n");

  ReplayServer status(records({156}));
  const auto s = replay_cli(status, {"status", id_of(154), "--extract"});
  CHECK(s.exit_code == 0);
  CHECK(s.out.find(": failed, 0 credits") != std::string::npos);
  CHECK(s.out.find("\nerror: the service gave no reason (\"error\": {})\n") != std::string::npos);
}

TEST_CASE("replay cli: status of recorded jobs", "[cli][replay]") {
  {
    ReplayServer server(records({128}));
    const auto r = replay_cli(server, {"status", id_of(121)});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("crawl " + id_of(121) + ": completed, 9/9 pages, 9 credits", 0) == 0);
  }
  {
    ReplayServer server(records({25}));
    const auto r = replay_cli(server, {"status", id_of(22), "--batch", "--v1"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("batch " + id_of(22) + ": completed, 3/3 pages", 0) == 0);
  }
  {
    // Followed from the deployment's first status (total 0, no `next`) to its end.
    ReplayServer server(webdata::testing::select(recordings(), "v1-crawl", {"poll"}));
    const auto r = replay_cli(server, {"status", id_of(36), "--documents", "--v1"});
    CHECK(r.exit_code == 0);
    CHECK(page_urls(r.out).size() == 9);
  }
  ReplayServer unknown(records({146}));
  const auto r = replay_cli(unknown, {"status", "00000000-0000-4000-8000-000000000000"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.rfind("webdata: HTTP 404: Job not found\n", 0) == 0);
}

TEST_CASE("replay cli: cancel, a finished job and an unknown one", "[cli][replay]") {
  {
    ReplayServer server(records({132}));
    const auto r = replay_cli(server, {"cancel", id_of(121)});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "crawl " + id_of(121) + ": cancelled\n");
  }
  ReplayServer server(records({148}));
  const auto r = replay_cli(server, {"cancel", "00000000-0000-4000-8000-000000000000"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.rfind("webdata: HTTP 404: Job not found\n", 0) == 0);
}

TEST_CASE("replay cli: errors of a crawl, and of a batch on a deployment without the route",
          "[cli][replay]") {
  {
    ReplayServer server(records({131}));
    const auto r = replay_cli(server, {"errors", id_of(121)});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("http://127.0.0.10:18091/private/secret") != std::string::npos);
  }
  ReplayServer server(records({112}));
  const auto r = replay_cli(server, {"errors", id_of(107), "--batch"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "webdata: this deployment has no GET /v2/batch/scrape/" + id_of(107) +
                     "/errors (HTTP 404, HTML page)\n");
}

TEST_CASE("replay cli: queue and agent on a deployment without them say so in one line",
          "[cli][replay]") {
  for (const std::string version : {"v1", "v2"}) {
    INFO(version);
    ReplayServer server(
        webdata::testing::select(recordings(), version + "-misc", {"queue status"}));
    std::vector<std::string> args = {"queue"};
    if (version == "v1") args.emplace_back("--v1");
    const auto r = replay_cli(server, args);
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(r.err == "webdata: this deployment has no GET /" + version +
                       "/team/queue-status (HTTP 404, HTML page)\n");
  }
  ReplayServer server(records({161}));
  const auto r =
      replay_cli(server, {"agent", "who wrote this?", "--url", "http://127.0.0.10:18091/"});
  CHECK(r.exit_code == 1);
  CHECK(r.err == "webdata: this deployment has no POST /v2/agent (HTTP 404, HTML page)\n");
}

TEST_CASE("replay cli: usage, v2 and v1", "[cli][replay]") {
  {
    ReplayServer server(records({157, 158}));
    const auto r = replay_cli(server, {"usage"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "credits: 99999999 remaining\ntokens: 99999999 remaining\n");
  }
  ReplayServer server(records({76, 77}));
  const auto r = replay_cli(server, {"usage", "--v1", "--json"});
  CHECK(r.exit_code == 0);
  const json out = json::parse(r.out);
  CHECK(out.at("credits").at("data").at("remaining_credits") == 99999999);
  CHECK(out.at("tokens").at("data").at("remaining_tokens") == 99999999);
}

namespace {

// An answer of a newer deployment than the models know: `json` served for METHOD PATH.
RecordedExchange newer_answer(const std::string& method, const std::string& path, json body) {
  RecordedExchange e;
  e.method = method;
  e.path = path;
  e.status = 200;
  e.headers = {{"Content-Type", "application/json"}};
  e.body = body.dump();
  e.json = std::move(body);
  return e;
}

}  // namespace

TEST_CASE("replay cli: --json writes back the members of research answers the SDK did not know",
          "[cli][replay]") {
  const json paper_result = {{"paperId", "1001"}, {"primaryId", "arxiv:1"}, {"ids", json::object()},
                             {"title", "T"},      {"abstract", "A"},        {"score", 0.5},
                             {"venue", "NeurIPS"}};
  ReplayServer server({
      newer_answer("GET", "/v2/search/research/papers",
                   {{"success", true}, {"results", {paper_result}}, {"cursor", "c1"}}),
      newer_answer("GET", "/v2/search/research/papers/1001",
                   {{"success", true},
                    {"paper",
                     {{"paperId", "1001"},
                      {"ids", json::object()},
                      {"title", "T"},
                      {"abstract", "A"},
                      {"categories", json::array()},
                      {"doi", "10.1/x"}}},
                    {"took", 12}}),
      newer_answer(
          "GET", "/v2/search/research/github",
          {{"success", true},
           {"results",
            {{{"repo", "o/r"}, {"url", "https://github.com/o/r"}, {"snippet", "s"}, {"stars", 7}}}},
           {"total", 1}}),
      newer_answer("POST", "/v2/search/developer",
                   {{"success", true},
                    {"results",
                     {{{"id", "doc:1"},
                       {"url", "https://docs.example.test/"},
                       {"passages", {{{"text", "p"}, {"rank", 1}}}},
                       {"stars", 3}}}},
                    {"query_id", "q1"}}),
      newer_answer("POST", "/v2/support/ask",
                   {{"success", true},
                    {"answer", "because"},
                    {"sources", json::array()},
                    {"confidence", "high"}}),
  });
  const auto json_of = [&](std::vector<std::string> args) {
    args.emplace_back("--json");
    const auto r = replay_cli(server, args);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
  };
  const json papers = json_of({"papers", "graphs"});
  CHECK(papers.at("cursor") == "c1");
  CHECK(papers.at("results").at(0).at("venue") == "NeurIPS");
  const json paper = json_of({"paper", "1001"});
  CHECK(paper.at("took") == 12);
  CHECK(paper.at("paper").at("doi") == "10.1/x");
  const json github = json_of({"github", "webhooks"});
  CHECK(github.at("total") == 1);
  CHECK(github.at("results").at(0).at("stars") == 7);
  const json developer = json_of({"developer", "webhooks"});
  CHECK(developer.at("query_id") == "q1");
  CHECK(developer.at("results").at(0).at("stars") == 3);
  CHECK(developer.at("results").at(0).at("passages").at(0).at("rank") == 1);
  CHECK(json_of({"doctor", "job-1"}).at("confidence") == "high");
}
