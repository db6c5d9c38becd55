// The verdict helpers and reports of the conformance suite, with the inputs real deployments
// produce: Markdown in both heading spellings, zod 3 and zod 4 validation issues, addresses as
// given to --site-host, and JUnit for a run with passes, failures and skips.

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "checks.hpp"
#include "report.hpp"
#include "rules.hpp"

using namespace webdata::conformance;
using json = nlohmann::json;

TEST_CASE("markdown headings: ATX and setext spell the same structure", "[checks]") {
  const std::string atx =
      "# Conformance Home\n\nWelcome to the **conformance** site.\n\n## Docs ##\n";
  const std::string setext =
      "Conformance Home\n================\n\nWelcome to the __conformance__ site.\n\nDocs\n----\n";
  for (const auto& md : {atx, setext}) {
    INFO(md);
    CHECK(markdown_headings(md) == std::vector<Heading>{{1, "Conformance Home"}, {2, "Docs"}});
    CHECK(has_heading(md, 1, "Conformance Home"));
    CHECK_FALSE(has_heading(md, 2, "Conformance Home"));
    CHECK(has_strong(md, "conformance"));
  }
}

TEST_CASE("markdown headings: what only looks like one is none", "[checks]") {
  // A fenced block, a thematic break after a list, a hash without a blank, seven hashes.
  const std::string md =
      "```\n# not a heading\nText\n===\n```\n\n- item\n---\n\n#hashtag\n\n####### seven\n\n"
      "A paragraph\nover two lines\n=====\n";
  CHECK(markdown_headings(md) == std::vector<Heading>{{1, "A paragraph over two lines"}});
  CHECK(markdown_headings("").empty());
}

TEST_CASE("markdown bullets: any marker", "[checks]") {
  CHECK(has_bullet_item("- alpha item\n", "alpha item"));
  CHECK(has_bullet_item("text\n*   alpha item\r\n", "alpha item"));
  CHECK(has_bullet_item("+ alpha item", "alpha item"));
  CHECK_FALSE(has_bullet_item("-alpha item", "alpha item"));
  CHECK_FALSE(has_bullet_item("alpha item", "alpha item"));
}

TEST_CASE("validation issues: invalid_type found inside invalid_union (zod 3 and zod 4)",
          "[checks]") {
  // zod 3, as the v2 scrape of the Aug-2025 server answers formats: ["markdown", 7].
  const json zod3 = json::parse(R"([{
    "code": "invalid_union",
    "unionErrors": [
      {"issues": [{"code": "invalid_type", "expected": "string", "received": "number",
                   "path": ["formats", 1], "message": "Expected string, received number"}],
       "name": "ZodError"},
      {"issues": [{"code": "invalid_type", "expected": "object", "received": "number",
                   "path": ["formats", 1], "message": "Expected object, received number"}],
       "name": "ZodError"}],
    "path": ["formats", 1], "message": "Invalid input"}])");
  // zod 4: member issues in errors[][], their paths relative to the union's.
  const json zod4 = json::parse(R"([{
    "code": "invalid_union",
    "errors": [[{"expected": "string", "code": "invalid_type", "path": [],
                 "message": "Invalid input: expected string, received number"}],
               [{"expected": "object", "code": "invalid_type", "path": [],
                 "message": "Invalid input: expected object, received number"}]],
    "path": ["formats", 1], "message": "Invalid input"}])");
  // Flat, as the mock answers.
  const json flat = json::parse(R"([{"code": "invalid_type", "expected": "string",
    "received": "number", "path": ["formats", 1], "message": "Expected string"}])");
  for (const auto& details : {zod3, zod4, flat}) {
    INFO(details.dump());
    const auto found = find_issues(details, {"invalid_type"});
    REQUIRE_FALSE(found.empty());
    CHECK(found.front().at("formats"));
    CHECK_FALSE(found.front().at("limit"));
    CHECK(find_issues(details, {"too_big"}).empty());
  }
  CHECK(find_issues(zod3, {"invalid_union"}).size() == 1);
  CHECK(find_issues(zod3, {"invalid_type"}).size() == 2);
  CHECK(find_issues(json("not an array"), {"invalid_type"}).empty());
  CHECK(find_issues(json::array({1, "x", nullptr}), {"invalid_type"}).empty());
}

TEST_CASE("site host: the test site's port is added when none is given", "[checks]") {
  CHECK(with_port("127.0.0.10", 8089) == "127.0.0.10:8089");
  CHECK(with_port("runner.example", 8089) == "runner.example:8089");
  CHECK(with_port("runner.example:9000", 8089) == "runner.example:9000");
  CHECK(with_port("[::1]", 8089) == "[::1]:8089");
  CHECK(with_port("[::1]:9000", 8089) == "[::1]:9000");
  CHECK(with_port("::1", 8089) == "[::1]:8089");
  CHECK(host_of("127.0.0.10:8089") == "127.0.0.10");
  CHECK(host_of("[::1]:8089") == "::1");
  CHECK(host_of("runner.example") == "runner.example");
}

TEST_CASE("site host: a last label shorter than two characters is refused by deployments",
          "[checks]") {
  CHECK(last_label_too_short("127.0.0.1:8089"));
  CHECK(last_label_too_short("127.0.0.1"));
  CHECK(last_label_too_short("localhost.x"));
  CHECK_FALSE(last_label_too_short("127.0.0.10:8089"));
  CHECK_FALSE(last_label_too_short("runner.example:80"));
  CHECK_FALSE(last_label_too_short("localhost"));
  CHECK_FALSE(last_label_too_short("[::1]:8089"));
}

TEST_CASE("XML text: escaped, invalid UTF-8 and forbidden characters replaced", "[checks]") {
  CHECK(xml_escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&apos;");
  CHECK(xml_escape("line\nnext") == "line&#10;next");
  CHECK(xml_escape(std::string("bell\x07") + "end") == "bellend");
  CHECK(xml_escape("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(valid_utf8("bad \xC3 byte") == "bad ? byte");
  CHECK(valid_utf8("\xED\xA0\x80") == "???");  // a UTF-16 surrogate
  CHECK(valid_utf8("\xC0\xAF") == "??");       // an overlong '/'
}

namespace {

std::vector<CaseResult> sample_run() {
  CaseResult passed;
  passed.name = "v2 scrape: markdown";
  passed.group = "scrape";
  passed.seconds = 0.25;
  passed.rules = {"SCRAPE-MARKDOWN", "ENV-SCHEMA", "HOOK-SIGNATURE"};
  passed.checks = {{"SCRAPE-MARKDOWN", 3}, {"ENV-SCHEMA", 2}, {"HOOK-SIGNATURE", 1}};
  passed.skipped_rules = {{"HOOK-SIGNATURE", "capability webhook-signing: no header"}};

  CaseResult failed;
  failed.name = "chunking <10 MB> & skip";
  failed.group = "crawl";
  failed.seconds = 12.5;
  failed.outcome = CaseResult::Outcome::kFailed;
  failed.rules = {"CHUNK-SKIP", "ENV-SCHEMA"};
  failed.checks = {{"CHUNK-SKIP", 1}, {"ENV-SCHEMA", 4}};
  failed.failures = {{"CHUNK-SKIP", "CHECK( a == b ) with expansion: \"x\" == \"y\"", "detail 1"},
                     {"", "unnamed check", "detail 2"}};

  CaseResult skipped;
  skipped.name = "every endpoint answers 401";
  skipped.group = "auth";
  skipped.seconds = 0.001;
  skipped.outcome = CaseResult::Outcome::kSkipped;
  skipped.skip_reason = "capability auth: authentication is off";
  skipped.rules = {"AUTH-401"};
  return {passed, failed, skipped};
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("verdicts: failed beats passed, a rule skipped in a case that ran stays skipped",
          "[checks]") {
  const auto verdicts = rule_verdicts(sample_run());
  CHECK(verdicts.at("SCRAPE-MARKDOWN").verdict == "passed");
  CHECK(verdicts.at("ENV-SCHEMA").verdict == "passed");
  CHECK(verdicts.at("CHUNK-SKIP").verdict == "failed");
  REQUIRE(verdicts.at("CHUNK-SKIP").reasons.size() == 1);
  CHECK(verdicts.at("CHUNK-SKIP").reasons[0].find("chunking") == 0);
  CHECK(verdicts.at("AUTH-401").verdict == "skipped");
  CHECK(verdicts.at("AUTH-401").reasons ==
        std::vector<std::string>{"capability auth: authentication is off"});
  CHECK(verdicts.at("HOOK-SIGNATURE").verdict == "skipped");
  CHECK(verdicts.at("CANCEL").verdict == "not run");
  CHECK(verdicts.size() == std::size(rules::kAll));
  const Counts counts = count(sample_run());
  CHECK(summary_line(counts) == "1 passed, 1 failed, 1 skipped");
}

TEST_CASE("JUnit: one testcase per case, skips with reasons, real times, the target as host",
          "[checks]") {
  RunInfo run;
  run.target = "http://deploy.example:3002";
  run.site = "http://127.0.0.10:8089";
  run.timestamp = "2026-08-01T10:00:00";
  run.seconds = 12.751;
  run.capabilities = {{"auth", Presence::kAbsent, "authentication is off"},
                      {"concurrency-check", Presence::kBroken, "HTTP 500"}};
  std::ostringstream out;
  write_junit(out, run, sample_run());
  const std::string xml = out.str();
  INFO(xml);
  CHECK(count_of(xml, "<testcase ") == 3);
  CHECK(count_of(xml, "<skipped message=\"capability auth: authentication is off\"/>") == 1);
  CHECK(count_of(xml, "<failure ") == 1);
  CHECK(xml.find("message=\"rule CHUNK-SKIP: CHECK( a == b ) with expansion: &quot;x&quot; == "
                 "&quot;y&quot; (and 1 more failed checks)\"") != std::string::npos);
  CHECK(xml.find("name=\"chunking &lt;10 MB&gt; &amp; skip\" time=\"12.500\"") !=
        std::string::npos);
  CHECK(xml.find("hostname=\"http://deploy.example:3002\"") != std::string::npos);
  CHECK(count_of(xml, "tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"12.751\"") ==
        2);
  CHECK(xml.find("<property name=\"capability.auth\" value=\"absent: authentication is off\"/>") !=
        std::string::npos);
  CHECK(xml.find("<property name=\"capability.concurrency-check\" value=\"broken: HTTP 500\"/>") !=
        std::string::npos);

  std::ostringstream stopped;
  write_junit_precheck_error(stopped, run, "stopped: the target does not answer.\n  cause: x");
  CHECK(stopped.str().find("<error message=\"stopped: the target does not answer.\"") !=
        std::string::npos);
  CHECK(count_of(stopped.str(), "tests=\"1\" failures=\"0\" errors=\"1\"") == 2);
}

TEST_CASE("verdicts JSON: the summary matches the cases, every rule has a verdict", "[checks]") {
  RunInfo run;
  run.target = "http://deploy.example:3002";
  std::ostringstream out;
  write_verdicts_json(out, run, sample_run());
  const json doc = json::parse(out.str());
  CHECK(doc.at("summary") == json({{"passed", 1}, {"failed", 1}, {"skipped", 1}, {"stalled", 0}}));
  CHECK(doc.at("rules").size() == std::size(rules::kAll));
  CHECK(doc.at("rules").at("HOOK-SIGNATURE").at("verdict") == "skipped");
  CHECK(doc.at("rules").at("ENV-SCHEMA").at("checks") == 6);
  CHECK(doc.at("failuresNamingNoRule") == json::array({"chunking <10 MB> & skip: unnamed check"}));
}

TEST_CASE("verdicts: a rule named but never checked is not checked, never passed", "[checks]") {
  // As an extract case that named EXTRACT-DATA up front and stopped on a failed start.
  CaseResult extract;
  extract.name = "v2 extract";
  extract.outcome = CaseResult::Outcome::kFailed;
  extract.rules = {"EXTRACT-START", "EXTRACT-DATA"};
  extract.checks = {{"EXTRACT-START", 1}};
  extract.failures = {{"EXTRACT-START", "REQUIRE( started.status == 200 )", "detail"}};
  CaseResult quiet;
  quiet.name = "a case that names a rule and returns early";
  quiet.rules = {"BATCH-INVALID-TRUE"};
  const auto verdicts = rule_verdicts({extract, quiet});
  CHECK(verdicts.at("EXTRACT-START").verdict == "failed");
  CHECK(verdicts.at("EXTRACT-DATA").verdict == "not checked");
  CHECK(verdicts.at("BATCH-INVALID-TRUE").verdict == "not checked");
  REQUIRE(verdicts.at("BATCH-INVALID-TRUE").reasons.size() == 1);
  CHECK(verdicts.at("BATCH-INVALID-TRUE").reasons[0] ==
        "a case that names a rule and returns early: named the rule but made no check on it");
  // A check in any other case that ran makes it passed.
  CaseResult checked = quiet;
  checked.checks = {{"BATCH-INVALID-TRUE", 2}};
  CHECK(rule_verdicts({quiet, checked}).at("BATCH-INVALID-TRUE").verdict == "passed");
}

TEST_CASE("verdicts: a stalled job is a finding of its own, never a wrong-state failure",
          "[checks]") {
  CaseResult big;
  big.name = "chunking over 10 MB";
  big.group = "crawl";
  big.outcome = CaseResult::Outcome::kStalled;
  big.stall_reason =
      "job stalled: GET /v2/crawl/x made no progress for 60 s (status scraping, "
      "completed 3, total 13, 3 documents)";
  big.rules = {"CRAWL-START", "JOB-STATES", "CHUNK-SKIP"};
  big.checks = {{"CRAWL-START", 2}};
  CaseResult small;
  small.name = "crawl of the whole site";
  small.rules = {"CHUNK-SKIP"};
  small.checks = {{"CHUNK-SKIP", 1}};
  const std::vector<CaseResult> cases = {big, small};
  const auto verdicts = rule_verdicts(cases);
  CHECK(verdicts.at("CRAWL-START").verdict == "passed");
  CHECK(verdicts.at("JOB-STATES").verdict == "stalled");
  CHECK(verdicts.at("JOB-STATES").reasons == std::vector<std::string>{big.stall_reason});
  CHECK(verdicts.at("CHUNK-SKIP").verdict == "passed");
  const Counts counts = count(cases);
  CHECK(summary_line(counts) == "1 passed, 0 failed, 0 skipped, 1 stalled");
  RunInfo run;
  run.target = "http://deploy.example:3002";
  std::ostringstream out;
  write_junit(out, run, cases);
  CHECK(count_of(out.str(), "tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"0\"") == 2);
  CHECK(out.str().find("<error message=\"job stalled: GET /v2/crawl/x made no progress") !=
        std::string::npos);
}

TEST_CASE("verdicts: a rule a case names without its tag is a defect of the suite", "[checks]") {
  CaseResult c;
  c.name = "crawl scope";
  c.tags = {"CRAWL-SCOPE", "crawl"};
  c.rules = {"CRAWL-SCOPE", "JOB-STATES"};
  c.skipped_rules = {{"HOOK-SIGNATURE", "capability webhook-signing: x"}};
  c.failures = {{"ENV-SCHEMA", "CHECK_SCHEMA", "detail"}};
  CHECK(untagged_rules(c) ==
        std::vector<std::string>{"ENV-SCHEMA", "HOOK-SIGNATURE", "JOB-STATES"});
  RunInfo run;
  std::ostringstream out;
  write_verdicts_json(out, run, {c});
  CHECK(json::parse(out.str()).at("untaggedRules").size() == 3);
}

namespace {

std::string read_doc(const std::string& relative) {
  std::ifstream in(std::string(WEBDATA_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

#ifdef WEBDATA_HAVE_API_REFERENCE
// GitHub's heading anchors: lower case, spaces to '-', punctuation other than '-' and '_' dropped.
std::set<std::string> anchors(const std::string& markdown) {
  std::set<std::string> out;
  std::istringstream in(markdown);
  std::string line;
  bool fenced = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || line.empty() || line[0] != '#') continue;
    std::string title = line.substr(line.find_first_not_of('#'));
    std::string anchor;
    for (const char c : title) {
      const auto u = static_cast<unsigned char>(c);
      if (std::isalnum(u) || c == '-' || c == '_') {
        anchor += static_cast<char>(std::tolower(u));
      } else if (c == ' ') {
        anchor += '-';
      }
    }
    while (!anchor.empty() && anchor.front() == '-') anchor.erase(0, 1);
    out.insert(anchor);
  }
  return out;
}
#endif

}  // namespace

TEST_CASE("every rule has a section in conformance-rules.md, and every section a rule",
          "[checks][docs]") {
  const std::string doc = read_doc("docs/reference/conformance-rules.md");
  REQUIRE_FALSE(doc.empty());
  std::set<std::string> documented;
  const std::regex heading(R"(^### ([A-Z0-9]+(-[A-Z0-9]+)*)\s*$)");
  std::istringstream in(doc);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, heading)) documented.insert(m[1]);
  }
  std::set<std::string> ids;
  for (const Rule* rule : rules::kAll) {
    ids.insert(rule->id);
    INFO(rule->id);
    CHECK(documented.count(rule->id) == 1);
  }
  for (const auto& id : documented) {
    INFO("documented but not in rules.hpp: " << id);
    CHECK(ids.count(id) == 1);
  }
}

// The API reference pages come with the reference itself (docs/reference/README.md); until they are
// in the tree this case is not built (conformance/CMakeLists.txt).
#ifdef WEBDATA_HAVE_API_REFERENCE
TEST_CASE("every rule's reference section exists in docs/reference/", "[checks][docs]") {
  for (const Rule* rule : rules::kAll) {
    const std::string section = rule->section;
    const auto hash = section.find('#');
    REQUIRE(hash != std::string::npos);
    const std::string page = read_doc("docs/reference/" + section.substr(0, hash));
    INFO(rule->id << ": docs/reference/" << section);
    REQUIRE_FALSE(page.empty());
    CHECK(anchors(page).count(section.substr(hash + 1)) == 1);
  }
}
#endif
