#include "precheck.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <thread>

#include "checks.hpp"
#include "parse_upload.hpp"
#include "support.hpp"

namespace webdata::conformance {

namespace {

struct Found {
  std::map<std::string, Capability> by_name;
  std::vector<std::string> order;
  ApiResponse agent_answer;
};
Found& found() {
  static Found f;
  return f;
}

void set(const std::string& name, bool available, const std::string& detail) {
  if (found().by_name.count(name) == 0) found().order.push_back(name);
  found().by_name[name] = {available, detail};
}

std::string text_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_string()) return {};
  return object.at(key).get<std::string>();
}

// "HTTP 500 SCRAPE_DNS_RESOLUTION_ERROR: <error>": the status and what the body says about it.
std::string short_answer(const ApiResponse& r) {
  if (r.status == 0) return "no HTTP answer (" + r.transport_error + ")";
  std::string out = "HTTP " + std::to_string(r.status);
  const std::string code = text_field(r.body_json, "code");
  const std::string error = text_field(r.body_json, "error");
  if (!code.empty()) out += " " + code;
  if (!error.empty()) {
    out += ": " + error;
  } else if (!r.is_json()) {
    std::string body = r.body.substr(0, r.body.find('\n'));
    if (body.size() > 200) body = body.substr(0, 200) + "...";
    if (!body.empty()) out += ": " + body;
  }
  return out;
}

// The warning of a scrape answer (in `data`, or at the top level), or "".
std::string warning_of(const ApiResponse& r) {
  std::string w = text_field(r.body_json.value("data", json()), "warning");
  return w.empty() ? text_field(r.body_json, "warning") : w;
}

// A scrape asking for a format or option that fills `field`: present when the document has it;
// missing when the target refuses the request, or answers with a warning instead of the field
// (as an engine that cannot take screenshots does). An answer without the field and without a
// warning counts as present, so that the case fails it.
Capability probe_scrape(const std::string& field, const json& body) {
  const auto res = post("/v2/scrape", body);
  if (res.status != 200 || !res.body_json.is_object() || !res.body_json.value("success", false)) {
    return {false, "a scrape asking for it is refused: " + short_answer(res)};
  }
  const json data = res.body_json.value("data", json());
  if (data.is_object() && data.contains(field)) return {true, "the scrape answer has " + field};
  const std::string warning = warning_of(res);
  if (!warning.empty()) {
    return {false,
            "the scrape answers without " + field + ", with the warning \"" + warning + "\""};
  }
  return {true, "the scrape answers without " + field + " and without a warning (a failure)"};
}

// GET /v2/scrape/{id} of a scrape just made. Self-hosted deployments keep no scrapes (the route
// reads the cloud service's database) and answer 404 for every id. A deployment may store the
// scrape a moment after answering it, so a 404 is asked again for a few seconds before it counts.
Capability probe_scrape_by_id() {
  const auto made = post("/v2/scrape", {{"url", site_url("/docs/a.html")}, {"formats", {"markdown"}}});
  const json data = made.body_json.is_object() ? made.body_json.value("data", json()) : json();
  const std::string id =
      data.is_object() ? text_field(data.value("metadata", json()), "scrapeId") : std::string();
  if (id.empty()) {
    return {false, "no scrapeId to ask for: POST /v2/scrape answers " + short_answer(made)};
  }
  ApiResponse res;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(1s);
    res = get("/v2/scrape/" + id);
    if (res.status != 404) break;
  }
  const std::string seen = "GET /v2/scrape/{id} of a scrape just made answers " + short_answer(res);
  if (res.status == 0 || res.status == 404 || res.status == 405) {
    return {false, seen + " (cloud only: self-hosted deployments keep no scrapes)"};
  }
  return {true, seen};
}

// Deployments without a search provider answer searches with no results.
Capability probe_search() {
  const std::string query = "web data";
  const auto res = post("/v2/search", {{"query", query}, {"limit", 3}});
  if (res.status == 200 && res.body_json.is_object() && res.body_json.value("success", false)) {
    const json web = res.body_json.value("data", json::object()).value("web", json::array());
    if (web.is_array() && !web.empty()) {
      return {true, std::to_string(web.size()) + " results for \"" + query + "\""};
    }
    const std::string warning = text_field(res.body_json, "warning");
    return {false, "no results for \"" + query + "\"" +
                       (warning.empty() ? "" : " (warning \"" + warning + "\")") +
                       ": no search provider configured"};
  }
  return {false, "POST /v2/search answers " + short_answer(res)};
}

Capability probe_auth() {
  const auto res = get("/v2/crawl/active", Auth::kNone);
  if (res.status >= 200 && res.status < 300) {
    return {false, "authentication is off: GET /v2/crawl/active without a key answers " +
                       short_answer(res)};
  }
  return {true, "GET /v2/crawl/active without a key answers " + short_answer(res)};
}

// POST /v2/parse of a small HTML file. Older deployments do not serve the route (404).
Capability probe_parse() {
  const auto res = post_parse({{"file", "precheck.html", "text/html",
                                "<html><head><title>Precheck</title></head><body><h1>Precheck"
                                "</h1></body></html>"}});
  if (res.status == 200 && res.body_json.is_object() && res.body_json.value("success", false)) {
    return {true, "POST /v2/parse of an HTML file answers 200"};
  }
  return {false, "POST /v2/parse of an HTML file answers " + short_answer(res)};
}

Capability probe_pdf() {
  const auto res = post("/v2/scrape", {{"url", site_url("/files/doc.pdf")}});
  if (res.status == 400 || text_field(res.body_json, "code") == "SCRAPE_UNSUPPORTED_FILE_ERROR") {
    return {false, "PDF documents are refused: " + short_answer(res)};
  }
  return {true, "a scrape of /files/doc.pdf answers " + short_answer(res)};
}

// Starts a one-page batch with a webhook to /hooks/<token>; the deliveries are looked at later.
ApiResponse start_webhook_probe(const std::string& token) {
  return post("/v2/batch/scrape", {{"urls", {site_url("/docs/b.html?precheck-hook=" + token)}},
                                   {"webhook", {{"url", site_url("/hooks/" + token)}}}});
}

void judge_webhook_probe(const ApiResponse& started, const std::string& token,
                         std::chrono::steady_clock::time_point deadline) {
  if (started.status != 200) {
    set("webhooks", false, "a batch scrape with a webhook is refused: " + short_answer(started));
    set("webhook-signing", false, "no delivery to look at");
    return;
  }
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  const auto list = site().wait_for_deliveries(
      token, [](const std::vector<Delivery>& l) { return !l.empty(); },
      std::max(left, std::chrono::milliseconds(0)));
  if (list.empty()) {
    set("webhooks", false,
        "no webhook delivery reached " + site_url("/hooks/") +
            " (some deployments do not deliver to private addresses)");
    set("webhook-signing", false, "no delivery to look at");
    return;
  }
  set("webhooks", true, "deliveries reach " + site_url("/hooks/"));
  const Delivery& d = list.front();
  const std::string& name = target().signature_header;
  if (!d.header(name).empty()) {
    set("webhook-signing", true, "deliveries carry " + name);
  } else if (!target().webhook_secret.empty()) {
    set("webhook-signing", true,
        "deliveries carry no " + name + ", but --webhook-secret was given: they must be signed");
  } else {
    std::string other;
    for (const auto& [header, value] : d.headers) {
      std::string lower = header;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (lower.find("signature") != std::string::npos) other = header;
    }
    set("webhook-signing", false,
        other.empty() ? "deliveries carry no " + name +
                            " header: the deployment signs only when it has a webhook secret "
                            "(give --webhook-secret to require signatures)"
                      : "deliveries carry " + other + ", not " + name +
                            " (give --signature-header " + other + ")");
  }
}

// The endpoints beyond the specification's core (map, extract, team usage, params preview):
// older deployments lack some of them. Only "no such route" (404, 405) counts as missing; any
// other answer means the route is there, and the cases judge it.
void probe_routes() {
  struct Probe {
    const char* name;
    const char* method;
    const char* path;
    json body;
  };
  const std::vector<Probe> probes = {
      {"map", "POST", "/v2/map", {{"url", site_url("/")}, {"limit", 1}}},
      {"map-v1", "POST", "/v1/map", {{"url", site_url("/")}, {"limit", 1}}},
      // A body the route refuses: finds the route without starting a job.
      {"extract", "POST", "/v2/extract", {{"urls", "not a list"}}},
      {"credit-usage", "GET", "/v2/team/credit-usage", nullptr},
      {"token-usage", "GET", "/v2/team/token-usage", nullptr},
      {"queue-status", "GET", "/v2/team/queue-status", nullptr},
      {"concurrency-check", "GET", "/v2/concurrency-check", nullptr},
      {"crawl-preview",
       "POST",
       "/v2/crawl/params-preview",
       {{"url", site_url("/")}, {"prompt", "only the docs"}}},
  };
  for (const auto& p : probes) {
    Call c;
    c.method = p.method;
    c.path = p.path;
    if (!p.body.is_null()) c.body = p.body;
    c.timeout = 30s;
    const auto res = call(c);
    const std::string seen = std::string(p.method) + " " + p.path + " answers " + short_answer(res);
    set(p.name, res.status != 0 && res.status != 404 && res.status != 405, seen);
  }
}

json json_format() {
  return {{"type", "json"},
          {"prompt", "The page heading"},
          {"schema", {{"type", "object"}, {"properties", {{"heading", {{"type", "string"}}}}}}}};
}

std::string stop_message(const std::string& what, const std::string& cause) {
  return "webdata-conformance: stopped before any test case: " + what + "\n  cause: " + cause;
}

}  // namespace

std::string short_label_advice(const std::string& site_host) {
  if (!last_label_too_short(site_host)) return {};
  return "Deployments refuse URLs whose host ends in a label shorter than two characters, like " +
         host_of(site_host) +
         " (\"URL must have a valid top-level domain\"). On loopback use an address such as "
         "127.0.0.10 (--site-bind 127.0.0.10 --site-host 127.0.0.10), or a host name.";
}

const Capability& capability(const std::string& name) {
  static const Capability unknown{false, "not probed"};
  const auto it = found().by_name.find(name);
  return it == found().by_name.end() ? unknown : it->second;
}

const ApiResponse& agent_probe_answer() {
  return found().agent_answer;
}

std::vector<CapabilityRow> capability_rows() {
  std::vector<CapabilityRow> rows;
  for (const auto& name : found().order) {
    const Capability& c = found().by_name.at(name);
    rows.push_back({name, c.available, c.detail});
  }
  return rows;
}

PrecheckOutcome run_precheck(std::ostream& out) {
  using Clock = std::chrono::steady_clock;
  out << "Precheck of " << target().base_url << "\n";

  // 1. The target answers at all.
  Call reach;
  reach.path = "/v2/crawl/active";
  reach.timeout = 5s;
  const auto reached = call(reach);
  if (reached.status == 0) {
    return {false, stop_message("the target does not answer.",
                                "GET " + target().base_url +
                                    "/v2/crawl/active: " + reached.transport_error +
                                    "\n  Check --base-url (or WEBDATA_API_URL) and that the "
                                    "deployment is running.")};
  }
  if (reached.status == 401) {
    return {false, stop_message(target().api_key.empty() ? "the target needs an API key."
                                                         : "the target refuses the API key.",
                                "GET /v2/crawl/active answers " + short_answer(reached) +
                                    "\n  Give the deployment's key with --api-key or "
                                    "WEBDATA_API_KEY.")};
  }
  out << "  " << std::left << std::setw(26) << "target reachable"
      << "GET /v2/crawl/active answers " << short_answer(reached) << "\n";

  // 2. The target can fetch this runner's test site. Bounded so that the run stops within
  // about ten seconds when it cannot (the scrape's own timeout ends first).
  const std::string path = "/docs/a.html?precheck=" + unique_token();
  const std::string page = site_url(path);
  Call scrape;
  scrape.method = "POST";
  scrape.path = "/v2/scrape";
  scrape.timeout = 9s;
  scrape.body = json{{"url", page},
                     {"formats", {"markdown"}},
                     {"maxAge", 0},
                     {"timeout", std::min<long long>(target().scaled(7s).count(), 300000)}};
  const auto started = Clock::now();
  const auto fetched = call(scrape);
  const double took = std::chrono::duration<double>(Clock::now() - started).count();
  const std::string markdown = text_field(fetched.body_json.value("data", json()), "markdown");
  if (fetched.status != 200 || !fetched.body_json.value("success", false) ||
      site().hits(path) == 0 || markdown.find("Page A") == std::string::npos) {
    std::string cause = "POST /v2/scrape of " + page + " answered " + short_answer(fetched);
    if (fetched.status == 200 && site().hits(path) == 0) {
      cause += ", but the page never reached the runner: the target fetched something else";
    }
    cause += "\n  The target must reach the test site at http://" + target().site_host +
             "/ (--site-host; the site listens on " + target().site_listen +
             ", see --site-bind and --site-port).";
    const std::string advice = short_label_advice(target().site_host);
    if (!advice.empty()) cause += "\n  Note: " + advice;
    return {false, stop_message("the target cannot fetch this runner's test site.", cause)};
  }
  std::ostringstream seconds;
  seconds << std::fixed << std::setprecision(2) << took;
  out << "  " << std::setw(26) << "test site from the target" << page << " scraped ("
      << seconds.str() << " s)\n";

  // 3. Capabilities. The webhook probe's batch runs while the others are probed.
  const std::string hook_token = unique_token();
  const auto hook_started = start_webhook_probe(hook_token);
  const auto hook_deadline = Clock::now() + target().scaled(20s);

  const Capability auth = probe_auth();
  set("auth", auth.available, auth.detail);
  const Capability search = probe_search();
  set("search", search.available, search.detail);

  auto& agent = found().agent_answer;
  agent =
      post("/v2/agent", {{"prompt", "What is the heading of " + site_url("/docs/a.html") + "?"}});
  if (agent.status == 200) {
    set("agent", true,
        std::string("POST /v2/agent answers 200") +
            (agent.body_json.contains("data") ? "" : " with a job id"));
  } else {
    set("agent", false, "POST /v2/agent answers " + short_answer(agent));
  }
  // The job form: an id without `data` (agent_job_test.cpp).
  if (agent.status == 200 && agent.body_json.contains("id") && !agent.body_json.contains("data")) {
    set("agent-job", true, "POST /v2/agent answers with a job id");
  } else {
    set("agent-job", false,
        agent.status == 200 ? "POST /v2/agent answers at once (the synchronous form)"
                            : "POST /v2/agent answers " + short_answer(agent));
  }

  // The agent's newer routes, probed on the precheck's run (no second model run).
  const std::string agent_id = agent.status == 200 ? agent.body_json.value("id", "") : "";
  if (agent_id.empty()) {
    for (const char* name : {"agent-list", "agent-trace", "agent-threads"}) {
      set(name, false, "no agent run to read: POST /v2/agent answers " + short_answer(agent));
    }
  } else {
    const auto list = get("/v2/agent");
    set("agent-list", list.status == 200 && list.body_json.contains("agents"),
        "GET /v2/agent answers " + short_answer(list));
    const auto trace = get("/v2/agent/" + agent_id + "/trace");
    set("agent-trace", trace.status == 200 && trace.body_json.contains("events"),
        "GET /v2/agent/{id}/trace answers " + short_answer(trace));
    const std::string thread_id = agent.body_json.value("threadId", "");
    if (thread_id.empty()) {
      set("agent-threads", false, "POST /v2/agent names no threadId");
    } else {
      const auto thread = get("/v2/agent/threads/" + thread_id);
      set("agent-threads", thread.status == 200 && thread.body_json.contains("thread"),
          "GET /v2/agent/threads/{threadId} answers " + short_answer(thread));
    }
  }

  const std::string a = site_url("/docs/a.html");
  for (const std::string format : {"images", "summary", "branding", "screenshot"}) {
    const Capability c = probe_scrape(format, {{"url", a}, {"formats", {format}}});
    set("format:" + format, c.available, c.detail);
  }
  {
    const Capability c = probe_scrape("json", {{"url", a}, {"formats", {json_format()}}});
    set("format:json", c.available, c.detail);
  }
  {
    const Capability c = probe_scrape(
        "changeTracking", {{"url", site_url("/docs/a.html?precheck-ct=" + unique_token())},
                           {"formats", {"markdown", "changeTracking"}}});
    set("format:changeTracking", c.available, c.detail);
  }
  {
    const Capability c =
        probe_scrape("actions", {{"url", a},
                                 {"actions", json::array({{{"type", "wait"}, {"milliseconds", 10}},
                                                          {{"type", "scrape"}}})}});
    set("actions", c.available, c.detail);
  }
  {
    const Capability c = probe_pdf();
    set("pdf", c.available, c.detail);
  }
  {
    const Capability c = probe_parse();
    set("parse", c.available, c.detail);
  }
  probe_routes();
  {
    const Capability c = probe_scrape_by_id();
    set("scrape-by-id", c.available, c.detail);
  }
  judge_webhook_probe(hook_started, hook_token, hook_deadline);
  set("webhook-secret", !target().webhook_secret.empty(),
      target().webhook_secret.empty()
          ? "no --webhook-secret given: signature values cannot be verified"
          : "--webhook-secret given");
  set("other-team", !target().other_api_key.empty(),
      target().other_api_key.empty() ? "no --other-api-key given: cross-team isolation cannot "
                                       "be checked"
                                     : "--other-api-key given");
  set("mock-admin", target().is_mock,
      target().is_mock ? "the runner started the mock with its admin surface"
                       : "needs the /__admin/ surface of a webdata-mock the runner starts "
                         "(--spawn-mock)");

  out << "Capabilities (a missing one turns the cases that need it into skips):\n";
  for (const auto& row : capability_rows()) {
    out << "  " << std::setw(22) << row.name << " " << std::setw(8)
        << (row.available ? "present" : "missing") << " " << row.detail << "\n";
  }
  out << std::right << std::flush;
  return {};
}

}  // namespace webdata::conformance
