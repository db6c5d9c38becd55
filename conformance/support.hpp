#pragma once

// What the test cases share: raw HTTP calls to the target, schema checks with the contract's
// validator, job polling and chunk collection, SDK clients, and capability probes.

#include <chrono>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "classify.hpp"
#include "rules.hpp"
#include "target.hpp"
#include "test_site.hpp"
#include "webdata/client.hpp"
#include "webdata/transport.hpp"
#include "webdata/v1/client.hpp"

namespace webdata::conformance {

using json = nlohmann::json;
using namespace std::chrono_literals;

/// One raw answer of the target.
struct ApiResponse {
  /// The answer as the classifiers of classify.hpp read it.
  Answer answer() const;

  int status = 0;  ///< 0: no HTTP answer (see `transport_error`).
  webdata::Headers headers;
  std::string body;
  json body_json = json::value_t::discarded;  ///< Parsed body; discarded when not JSON.
  std::string transport_error;

  bool is_json() const { return !body_json.is_discarded(); }
  std::string header(const std::string& name) const;
  /// "HTTP 400: <body, truncated>" for failure messages.
  std::string describe() const;
};

enum class Auth { kKey, kNone, kOtherTeam };

struct Call {
  std::string method = "GET";
  std::string path;  ///< "/v2/scrape", or an absolute URL (a `next` address).
  std::optional<json> body;
  std::optional<std::string> raw_body;  ///< Sent as is (malformed JSON tests).
  Auth auth = Auth::kKey;
  webdata::Headers headers;  ///< Extra headers; an "Authorization" here replaces the key.
  std::chrono::milliseconds timeout = 120s;
};

ApiResponse call(const Call& c);
ApiResponse get(const std::string& path, Auth auth = Auth::kKey);
ApiResponse post(const std::string& path, const json& body, Auth auth = Auth::kKey);
ApiResponse del(const std::string& path, Auth auth = Auth::kKey);

/// Empty when `value` matches the contract schema `name` ("v2/scrape.response"); otherwise the
/// issues, one a line.
std::string schema_problems(const std::string& name, const json& value);

/// Checks `value` against schema `name`; a failure names rule ENV-SCHEMA, the schema and each
/// issue.
#define CHECK_SCHEMA(name, value)                                                                  \
  do {                                                                                             \
    const std::string schema_problems_ = ::webdata::conformance::schema_problems((name), (value)); \
    RULE(::webdata::conformance::rules::kSchema);                                                  \
    INFO("schema " << (name));                                                                     \
    CHECK(schema_problems_ == "");                                                                 \
  } while (false)

/// CHECK_SCHEMA of an answer: against `schema` when it is a success, against the common error
/// schema when it is an error (4xx, 5xx). A wrong status is the failure of the rule the case
/// judges, not of ENV-SCHEMA.
#define CHECK_ANSWER_SCHEMA(response, schema)                                                \
  CHECK_SCHEMA((response).status >= 400 ? std::string("common/error") : std::string(schema), \
               (response).body_json)

/// The JSON Content-Type every JSON answer carries (rule ENV-CONTENT-TYPE).
#define CHECK_JSON_ANSWER(response)                                             \
  do {                                                                          \
    RULE(::webdata::conformance::rules::kContentType);                          \
    INFO((response).describe());                                                \
    CHECK((response).is_json());                                                \
    CHECK((response).header("Content-Type").rfind("application/json", 0) == 0); \
  } while (false)

/// http://<site-host><path>: a page of the runner's test site as the target reaches it.
std::string site_url(const std::string& path);
/// The path of a test-site URL, normalised ("/docs/index.html" and "/docs" are "/docs/"); empty
/// for URLs of other hosts.
std::string site_path(const std::string& url);
/// A fresh random hex token (unique URLs, webhook receivers).
std::string unique_token();

/// How long wait_job() waits (both scaled by --timeout-scale).
struct WaitBounds {
  /// The job stalled after this long without progress (status, `completed`, `total` or the
  /// number of documents unchanged).
  std::chrono::milliseconds idle = 60s;
  /// The job did not finish after this long in all, progress or not.
  std::chrono::milliseconds overall = 10min;
};

/// Polls GET `resource`/`id` (e.g. "/v2/crawl") until the job is terminal, for as long as it
/// makes progress (see WaitBounds). Every status seen is appended to `seen` when given, and
/// `each` sees every status body. Returns the last body; a status that is not a 200 JSON object
/// ends the wait too (the caller judges it). A job that stalls, or does not finish within the
/// overall bound, ends the running test case as stalled, with its counters: a finding of its
/// own, never a failure of the rules the case would have judged.
json wait_job(const std::string& resource, const std::string& id,
              std::vector<std::string>* seen = nullptr, WaitBounds bounds = {},
              const std::function<void(const json&)>& each = nullptr);

/// Every chunk from `first` on, following `next` (at most `max_chunks`).
struct Chunks {
  std::vector<ApiResponse> responses;
  std::vector<json> documents;
  bool looped = false;  ///< Stopped at max_chunks or at a `next` already followed.
};
Chunks collect_chunks(const std::string& first, int max_chunks = 200);

/// metadata.sourceURL of a document (falls back to metadata.url).
std::string source_url(const json& document);

/// Checks the counters and retention fields of a finished job's last status chunk, given the
/// number of documents its chunks held (rules JOB-COUNTERS, CREDITS-FIELDS, RETENTION).
void check_finished_status(const json& status, std::size_t documents);

webdata::Client sdk();
webdata::v1::Client sdk_v1();

/// Whether the target offers something optional, as the precheck found it (precheck.cpp) from
/// the deployment's own answers (classify.hpp).
struct Capability {
  Presence presence = Presence::kAvailable;
  /// What the deployment answered: why it is absent or broken, or how it was found.
  std::string detail;
  /// The rule that judges the capability itself. When it is broken, the first case that names
  /// this rule runs and fails on the answer; every other case that needs it is skipped.
  const Rule* rule = nullptr;
  bool available() const { return presence == Presence::kAvailable; }
};
/// The precheck's finding for `name`: "auth", "search", "agent", "model" (a language model),
/// "format:<name>" (images, summary, json, changeTracking, branding, screenshot), "actions",
/// "pdf", "parse", "agent-job", "agent-list", "agent-trace", "agent-threads", "webhooks",
/// "webhook-signing", "webhook-secret", "other-team", "mock-admin", "result-cache", and the
/// routes "map", "map-v1", "extract", "credit-usage", "token-usage", "usage-history",
/// "queue-status", "concurrency-check", "crawl-preview", "scrape-by-id", "monitors". An unknown name is
/// absent.
const Capability& capability(const std::string& name);

/// Whether the running case may go on with what needs capability `name`: empty when it may;
/// otherwise why not, "capability NAME: <the deployment's words>" (absent) or "needs NAME, which
/// is broken (see RULE)". `owns`: the case judges the capability's own rule; the first such case
/// goes on when the capability is broken, so that the rule fails once, on the answer.
std::string capability_gate(const std::string& name, bool owns);
/// capability_gate() for the running case: it owns the capability when it named its rule.
std::string case_gate(const std::string& name);
/// For a part of a case that needs `name` and judges `rules`: true when the part may go on;
/// otherwise each of `rules` is skipped in this case with the reason, and the caller leaves the
/// part out.
bool part_needs(const std::string& name, std::initializer_list<const Rule*> rules);

/// Skips the test case unless capability `name` lets it go on (see capability_gate()).
#define REQUIRE_CAPABILITY(name)                                       \
  do {                                                                 \
    const std::string gate_ = ::webdata::conformance::case_gate(name); \
    if (!gate_.empty()) CONFORMANCE_SKIP(gate_);                       \
  } while (false)

/// Skips the test case unless the target is a mock this runner started with its admin surface.
#define REQUIRE_MOCK() REQUIRE_CAPABILITY("mock-admin")

/// The answer of the precheck's agent request (POST /v2/agent asking for the heading of
/// /docs/a.html); the agent case judges it instead of asking again.
const ApiResponse& agent_probe_answer();

/// Mock admin calls (only when target().is_mock).
ApiResponse admin(const std::string& method, const std::string& path, const json& body = nullptr);

}  // namespace webdata::conformance
