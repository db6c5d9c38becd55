// The precheck's classifiers over the answers a real deployment gave (tests/data/real/
// self-hosted-2025-08.json: a self-hosted build of August 2025 without a language model, a search
// provider, a browser or a database): each capability comes out available, absent or broken as
// that deployment's answers say, in its own words, and a failed fetch of the test site names the
// deployment's cause.

#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "classify.hpp"

using namespace webdata::conformance;
using json = nlohmann::json;

namespace {

const json& recordings() {
  static const json records = [] {
    std::ifstream in(std::string(WEBDATA_SOURCE_DIR) + "/tests/data/real/self-hosted-2025-08.json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str()).at("records");
  }();
  return records;
}

// The recorded answer of `scenario` / `step`, as the classifiers read it.
Answer recorded(const std::string& scenario, const std::string& step) {
  for (const auto& r : recordings()) {
    if (r.value("scenario", "") != scenario || r.value("step", "") != step) continue;
    const json& res = r.at("response");
    Answer a;
    a.status = res.at("status");
    const json headers = res.value("headers", json::object());
    a.content_type = headers.value("content-type", "");
    if (res.at("json").is_null()) {
      a.body = res.value("text", json("")).is_string() ? res.value("text", "") : "";
    } else {
      a.json = res.at("json");
      a.body = a.json.dump();
    }
    return a;
  }
  FAIL("no recorded exchange " << scenario << " / " << step);
  return {};
}

Answer json_answer(int status, const json& body) {
  Answer a;
  a.status = status;
  a.content_type = "application/json; charset=utf-8";
  a.json = body;
  a.body = body.dump();
  return a;
}

// The finding has `presence`, and its detail begins with `detail`.
void check_finding(const Finding& finding, Presence presence, const std::string& detail) {
  INFO(finding.detail);
  CHECK(finding.presence == presence);
  CHECK(finding.detail.rfind(detail, 0) == 0);
}

}  // namespace

TEST_CASE("classify: a route the build lacks is absent, in the SDK's words for an HTML 404",
          "[classify]") {
  check_finding(classify_route("GET /v2/team/queue-status", recorded("v2-misc", "queue status")),
                Presence::kAbsent,
                "this deployment has no GET /v2/team/queue-status (HTTP 404, HTML page)");
  check_finding(classify_route("POST /v2/agent", recorded("v2-misc", "agent")), Presence::kAbsent,
                "this deployment has no POST /v2/agent (HTTP 404, HTML page)");
  // A JSON 404 says the route is missing in the deployment's own words.
  check_finding(
      classify_route("GET /v2/x", json_answer(404, {{"success", false}, {"error", "Not Found"}})),
      Presence::kAbsent, "GET /v2/x answers HTTP 404: Not Found");
}

TEST_CASE("classify: a route that answers 500 is broken, one that works is available",
          "[classify]") {
  check_finding(
      classify_route("GET /v2/concurrency-check", recorded("v2-misc", "concurrency check")),
      Presence::kBroken,
      "GET /v2/concurrency-check answers HTTP 500 UNKNOWN_ERROR: An unexpected error occurred.");
  check_finding(classify_route("GET /v2/team/credit-usage", recorded("v2-misc", "credit usage")),
                Presence::kAvailable, "GET /v2/team/credit-usage answers HTTP 200");
  // A 400 about the request (the extract probe sends a body the route refuses) finds the route.
  check_finding(classify_route("POST /v2/extract", recorded("v2-scrape", "unknown key")),
                Presence::kAvailable, "POST /v2/extract answers HTTP 400 BAD_REQUEST");
}

TEST_CASE("classify: a deployment without a language model says so, and the capability is absent",
          "[classify]") {
  const Answer preview = recorded("v2-misc", "params preview");
  CHECK(says_missing(preview.json.value("error", "")));
  const Finding route = classify_route("POST /v2/crawl/params-preview", preview);
  CHECK(route.presence == Presence::kAbsent);
  CHECK(route.detail ==
        "POST /v2/crawl/params-preview answers HTTP 400: Failed to process natural "
        "language prompt. Please try rephrasing.");
  const Finding model = classify_model(preview, recorded("v2-scrape", "json without options"));
  CHECK(model.presence == Presence::kAbsent);
  CHECK(model.detail.find("Failed to process natural language prompt") != std::string::npos);
  // The words of other builds and of the mock without a model.
  for (const char* words : {"OpenAI API key is missing",
                            "The json format needs a language model, and none is configured",
                            "Agent beta is not enabled.", "PDF parsing is not supported"}) {
    INFO(words);
    CHECK(says_missing(words));
    const Answer a = json_answer(500, {{"success", false}, {"error", words}});
    CHECK(classify_route("POST /v1/extract", a).presence == Presence::kAbsent);
  }
  CHECK_FALSE(says_missing("Internal server error"));
  CHECK_FALSE(says_missing("Bad Request"));
  // With a model: the preview answers, nothing says one is missing.
  const Answer ok = json_answer(200, {{"success", true}, {"data", {{"url", "http://x.test/"}}}});
  CHECK(classify_model(ok, ok).presence == Presence::kAvailable);
}

TEST_CASE("classify: a format silently left out is broken, one the deployment cannot do absent",
          "[classify]") {
  // json asked for, answered 200 without json and without a warning: silently not done.
  check_finding(classify_scrape_feature("json", recorded("v2-scrape", "json without options")),
                Presence::kBroken,
                "the scrape answers HTTP 200 without json and without a warning");
  // A screenshot without a browser: v2 warns, v1 fails with SCRAPE_ALL_ENGINES_FAILED.
  check_finding(classify_scrape_feature("screenshot", recorded("v2-scrape", "screenshot")),
                Presence::kAbsent,
                "the scrape answers without screenshot, with the warning \"The engine used does "
                "not support the following features: screenshot -- your scrape may be partial.\"");
  check_finding(classify_scrape_feature("screenshot", recorded("v1-scrape", "screenshot")),
                Presence::kAbsent,
                "no engine of this deployment can do it: HTTP 500 SCRAPE_ALL_ENGINES_FAILED");
  // A format the build does not know is refused by validation.
  check_finding(classify_scrape_feature("images", recorded("v2-scrape", "bogus format")),
                Presence::kAbsent,
                "a scrape asking for it is refused: HTTP 400 BAD_REQUEST: Bad Request");
  check_finding(classify_scrape_feature("links", recorded("v2-scrape", "links with mailto")),
                Presence::kAvailable, "the scrape answer has links");
  const Answer failing =
      json_answer(500, {{"success", false}, {"code", "UNKNOWN_ERROR"}, {"error", "x"}});
  check_finding(classify_scrape_feature("summary", failing), Presence::kBroken,
                "a scrape asking for it fails: HTTP 500 UNKNOWN_ERROR: x");
}

TEST_CASE("classify: search without a provider, PDFs refused or failing", "[classify]") {
  const Finding search = classify_search("heading", recorded("v2-misc", "search"));
  CHECK(search.presence == Presence::kAbsent);
  CHECK(search.detail == "no results for \"heading\": no search provider configured");
  const Answer refused = json_answer(
      400, {{"success", false}, {"code", "SCRAPE_UNSUPPORTED_FILE_ERROR"}, {"error", "x"}});
  CHECK(classify_pdf(refused).presence == Presence::kAbsent);
  const Answer failing = json_answer(500, {{"success", false}, {"error", "x"}});
  CHECK(classify_pdf(failing).presence == Presence::kBroken);
  CHECK(classify_pdf(recorded("v2-scrape", "text document")).presence == Presence::kAvailable);
}

TEST_CASE("precheck cause: the deployment's own queue is named, without advice about the site",
          "[classify]") {
  const SiteAddress site{"http://127.0.0.10:8089/docs/a.html", "127.0.0.10:8089", "127.0.0.10:8089",
                         false};
  const FetchFailure queue =
      explain_fetch_failure(recorded("v2-scrape", "slow page past timeout"), site);
  CHECK(queue.headline == "the target could not start a scrape in time.");
  CHECK(queue.cause ==
        "POST /v2/scrape of http://127.0.0.10:8089/docs/a.html answered HTTP 408 "
        "SCRAPE_TIMEOUT: Scrape timed out after waiting in the concurrency limit "
        "queue");
  CHECK(queue.advice.find("--site-host") == std::string::npos);
  CHECK(queue.advice.find("workers") != std::string::npos);
}

TEST_CASE("precheck cause: fetch errors advise about the site's address, the TLD note when due",
          "[classify]") {
  const SiteAddress loopback{"http://127.0.0.1:8089/docs/a.html", "127.0.0.1:8089",
                             "127.0.0.1:8089", false};
  const FetchFailure unreachable =
      explain_fetch_failure(recorded("v2-scrape", "unreachable host"), loopback);
  CHECK(unreachable.headline == "the target cannot fetch this runner's test site.");
  CHECK(unreachable.advice.find("--site-host") != std::string::npos);
  CHECK(unreachable.advice.find("127.0.0.10") != std::string::npos);
  const FetchFailure tld =
      explain_fetch_failure(recorded("v2-scrape", "host without tld"), loopback);
  CHECK(tld.headline == "the target refuses the address of this runner's test site.");
  CHECK(tld.advice.find("top-level domain") != std::string::npos);
  const SiteAddress named{"http://runner.example:8089/docs/a.html", "runner.example:8089",
                          "0.0.0.0:8089", false};
  CHECK(explain_fetch_failure(recorded("v2-scrape", "unreachable host"), named)
            .advice.find("top-level domain") == std::string::npos);
  Answer silent;
  silent.transport_error = "Timeout was reached";
  CHECK(explain_fetch_failure(silent, named).advice.find("--timeout-scale") != std::string::npos);
}

TEST_CASE("precheck cause: webdata-mock without live fetching gets the flags or --spawn-mock",
          "[classify]") {
  const Answer off = json_answer(
      500, {{"success", false},
            {"code", "SCRAPE_DNS_RESOLUTION_ERROR"},
            {"error",
             "could not resolve host 127.0.0.1 (not in the virtual web, and live fetching "
             "is off)"}});
  const SiteAddress loopback{"http://127.0.0.1:8089/docs/a.html", "127.0.0.1:8089",
                             "127.0.0.1:8089", false};
  const FetchFailure f = explain_fetch_failure(off, loopback);
  CHECK(f.headline == "the target cannot fetch this runner's test site.");
  CHECK(f.advice.find("--live-fetch --allow-private-targets") != std::string::npos);
  CHECK(f.advice.find("--spawn-mock") != std::string::npos);
  CHECK(f.advice.find("--site-host") == std::string::npos);
  CHECK(f.advice.find("top-level domain") == std::string::npos);
}

TEST_CASE("classify: the short answer of HTML, JSON and no answer", "[classify]") {
  CHECK(short_answer(recorded("v2-misc", "agent")) == "HTTP 404, HTML page");
  CHECK(error_text(recorded("v2-misc", "agent")) == "Cannot POST /v2/agent");
  CHECK(short_answer(recorded("v2-scrape", "slow page past timeout")) ==
        "HTTP 408 SCRAPE_TIMEOUT: Scrape timed out after waiting in the concurrency limit queue");
  Answer none;
  none.transport_error = "Connection refused";
  CHECK(short_answer(none) == "no HTTP answer (Connection refused)");
  CHECK(classify_route("GET /v2/x", none).presence == Presence::kBroken);
}
