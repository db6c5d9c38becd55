#include "precheck.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>
#include <thread>

#include "checks.hpp"
#include "classify.hpp"
#include "parse_upload.hpp"
#include "support.hpp"

namespace webdata::conformance {

namespace {

struct Found {
  std::map<std::string, Capability> by_name;
  std::vector<std::string> order;
  ApiResponse agent_answer;
  /// Broken capabilities whose own rule a case has already judged.
  std::set<std::string> judged;
};
Found& found() {
  static Found f;
  return f;
}

// The rule that judges each capability itself (its failure when the capability is broken).
const Rule* own_rule(const std::string& name) {
  static const std::map<std::string, const Rule*> rules = {
      {"search", &rules::kSearchShape},
      {"agent", &rules::kAgentShape},
      {"agent-job", &rules::kAgentJob},
      {"agent-list", &rules::kAgentList},
      {"agent-trace", &rules::kAgentTrace},
      {"agent-threads", &rules::kAgentThread},
      {"format:images", &rules::kScrapeImages},
      {"format:summary", &rules::kModelFormats},
      {"format:json", &rules::kModelFormats},
      {"format:changeTracking", &rules::kModelFormats},
      {"format:branding", &rules::kModelFormats},
      {"format:screenshot", &rules::kModelFormats},
      {"actions", &rules::kActions},
      {"pdf", &rules::kScrapePdf},
      {"parse", &rules::kParseDocument},
      {"webhooks", &rules::kHookEvents},
      {"map", &rules::kMapShape},
      {"map-v1", &rules::kMapShape},
      {"extract", &rules::kExtractStart},
      {"credit-usage", &rules::kCreditUsage},
      {"token-usage", &rules::kTokenUsage},
      {"usage-history", &rules::kUsageHistory},
      {"queue-status", &rules::kQueueStatus},
      {"concurrency-check", &rules::kConcurrencyCheck},
      {"crawl-preview", &rules::kCrawlPreview},
      {"deep-research", &rules::kV1DeepResearch},
      {"llmstxt", &rules::kV1LlmsTxt},
      {"research", &rules::kResearchPapers},
      {"developer-search", &rules::kDeveloperSearch},
      {"feedback", &rules::kFeedback},
      {"support-ask", &rules::kSupportAsk},
      {"scrape-by-id", &rules::kScrapeById},
      {"monitors", &rules::kMonitorCrud},
      {"browser", &rules::kBrowserShape},
      {"result-cache", &rules::kDefaultMaxAgeV2},
  };
  const auto it = rules.find(name);
  return it == rules.end() ? nullptr : it->second;
}

void set(const std::string& name, const Finding& finding) {
  if (found().by_name.count(name) == 0) found().order.push_back(name);
  found().by_name[name] = {finding.presence, finding.detail, own_rule(name)};
}

void set(const std::string& name, bool available, const std::string& detail) {
  set(name, Finding{available ? Presence::kAvailable : Presence::kAbsent, detail});
}

// A scrape asking for a format or option that fills `field` (classify_scrape_feature()).
Finding probe_scrape(const std::string& field, const json& body, ApiResponse* answer = nullptr) {
  const auto res = post("/v2/scrape", body);
  if (answer != nullptr) *answer = res;
  return classify_scrape_feature(field, res.answer());
}

// GET /v2/scrape/{id} of a scrape just made. Self-hosted deployments keep no scrapes (the route
// reads the cloud service's database): a JSON 404 for every id. A deployment may store the scrape
// a moment after answering it, so a 404 is asked again for a few seconds before it counts.
Finding probe_scrape_by_id() {
  const auto made =
      post("/v2/scrape", {{"url", site_url("/docs/a.html")}, {"formats", {"markdown"}}});
  const json data = made.body_json.is_object() ? made.body_json.value("data", json()) : json();
  const json meta = data.is_object() ? data.value("metadata", json()) : json();
  const std::string id = meta.is_object() ? meta.value("scrapeId", "") : "";
  if (id.empty()) {
    return {Presence::kAbsent,
            "no scrapeId to ask for: POST /v2/scrape answers " + short_answer(made.answer())};
  }
  ApiResponse res;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(1s);
    res = get("/v2/scrape/" + id);
    if (res.status != 404) break;
  }
  const std::string route = "GET /v2/scrape/{id}";
  if ((res.status == 404 || res.status == 405) && res.is_json()) {
    return {Presence::kAbsent, route + " of a scrape just made answers " +
                                   short_answer(res.answer()) +
                                   " (cloud only: self-hosted deployments keep no scrapes)"};
  }
  return classify_route(route, res.answer());
}

Finding probe_auth() {
  const auto res = get("/v2/crawl/active", Auth::kNone);
  const std::string seen = short_answer(res.answer());
  if (res.status >= 200 && res.status < 300) {
    return {Presence::kAbsent,
            "authentication is off: GET /v2/crawl/active without a key answers " + seen};
  }
  return {Presence::kAvailable, "GET /v2/crawl/active without a key answers " + seen};
}

// POST /v2/parse of a small HTML file: a valid upload, so anything but a document is a finding.
Finding probe_parse() {
  const auto res = post_parse({{"file", "precheck.html", "text/html",
                                "<html><head><title>Precheck</title></head><body><h1>Precheck"
                                "</h1></body></html>"}});
  if (res.status == 200 && res.body_json.is_object() && res.body_json.value("success", false)) {
    return {Presence::kAvailable, "POST /v2/parse of an HTML file answers HTTP 200"};
  }
  Finding f = classify_route("POST /v2/parse", res.answer());
  if (f.presence == Presence::kAvailable) f.presence = Presence::kBroken;
  return f;
}

// Two v2 scrapes of one page with maxAge 2 days: a deployment with a result cache serves the
// second from it; one without fetches the page again, which maxAge (an upper bound) allows.
Finding probe_result_cache() {
  const std::string path = "/docs/b.html?cache-probe=" + unique_token();
  const json body = {{"url", site_url(path)}, {"formats", {"markdown"}}, {"maxAge", 172800000}};
  for (int i = 0; i < 2; ++i) {
    const auto res = post("/v2/scrape", body);
    if (res.status != 200) {
      return {Presence::kBroken, "a v2 scrape with maxAge answers " + short_answer(res.answer())};
    }
  }
  if (site().hits(path) <= 1) {
    return {Presence::kAvailable, "a second scrape with maxAge 2 days came from the cache"};
  }
  return {Presence::kAbsent,
          "two v2 scrapes of one page with maxAge 2 days both fetched it: this deployment keeps "
          "no result cache (a fresh fetch satisfies maxAge)"};
}

// A route that answers 200 must carry `field`; one without it is broken.
Finding route_with_field(const std::string& route, const ApiResponse& res, const char* field) {
  Finding f = classify_route(route, res.answer());
  if (f.presence == Presence::kAvailable && !res.body_json.contains(field)) {
    f = {Presence::kBroken, f.detail + ", without `" + field + "`"};
  }
  return f;
}

// The agent (POST /v2/agent about /docs/a.html; the agent case judges that answer) and its newer
// routes, read on the same run (no second model run).
void probe_agent() {
  auto& agent = found().agent_answer;
  agent =
      post("/v2/agent", {{"prompt", "What is the heading of " + site_url("/docs/a.html") + "?"}});
  const Finding f = classify_route("POST /v2/agent", agent.answer());
  set("agent", f);
  const bool job =
      agent.status == 200 && agent.body_json.contains("id") && !agent.body_json.contains("data");
  if (f.presence == Presence::kBroken) {
    set("agent-job", false, "needs agent, which is broken (see AGENT-SHAPE)");
  } else if (f.presence == Presence::kAbsent) {
    set("agent-job", f);
  } else {
    set("agent-job", job,
        job ? "POST /v2/agent answers with a job id"
            : "POST /v2/agent answers at once (the synchronous form)");
  }
  const std::string agent_id = job ? agent.body_json.value("id", "") : "";
  if (agent_id.empty()) {
    for (const char* name : {"agent-list", "agent-trace", "agent-threads"}) {
      set(name, false,
          "no agent run to read: POST /v2/agent answers " + short_answer(agent.answer()));
    }
    return;
  }
  set("agent-list", route_with_field("GET /v2/agent", get("/v2/agent"), "agents"));
  set("agent-trace", route_with_field("GET /v2/agent/{id}/trace",
                                      get("/v2/agent/" + agent_id + "/trace"), "events"));
  const std::string thread_id = agent.body_json.value("threadId", "");
  if (thread_id.empty()) {
    set("agent-threads", false, "POST /v2/agent names no threadId");
  } else {
    set("agent-threads", route_with_field("GET /v2/agent/threads/{threadId}",
                                          get("/v2/agent/threads/" + thread_id), "thread"));
  }
}

// Starts a one-page batch with a webhook to /hooks/<token>; the deliveries are looked at later.
ApiResponse start_webhook_probe(const std::string& token) {
  return post("/v2/batch/scrape", {{"urls", {site_url("/docs/b.html?precheck-hook=" + token)}},
                                   {"webhook", {{"url", site_url("/hooks/" + token)}}}});
}

void judge_signing(const Delivery& d) {
  const std::string& name = target().signature_header;
  if (!d.header(name).empty()) {
    set("webhook-signing", true, "deliveries carry " + name);
    return;
  }
  if (!target().webhook_secret.empty()) {
    set("webhook-signing", true,
        "deliveries carry no " + name + ", but --webhook-secret was given: they must be signed");
    return;
  }
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
                    : "deliveries carry " + other + ", not " + name + " (give --signature-header " +
                          other + ")");
}

void judge_webhook_probe(const ApiResponse& started, const std::string& token,
                         std::chrono::steady_clock::time_point deadline) {
  if (started.status != 200) {
    Finding f = classify_route("POST /v2/batch/scrape with a webhook", started.answer());
    if (f.presence == Presence::kAvailable) f.presence = Presence::kAbsent;
    set("webhooks", f);
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
  judge_signing(list.front());
}

// The endpoints beyond the specification's core (map, extract, team usage, params preview):
// older deployments lack some of them. Returns the params preview's answer (it also tells
// whether the deployment has a language model).
ApiResponse probe_routes() {
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
      {"usage-history", "GET", "/v2/team/credit-usage/historical", nullptr},
      {"queue-status", "GET", "/v2/team/queue-status", nullptr},
      {"concurrency-check", "GET", "/v2/concurrency-check", nullptr},
      {"monitors", "GET", "/v2/monitor", nullptr},
      {"browser", "GET", "/v2/browser", nullptr},
      {"crawl-preview",
       "POST",
       "/v2/crawl/params-preview",
       {{"url", site_url("/")}, {"prompt", "only the docs"}}},
      // v1-only jobs: bodies the routes refuse, so that no job starts.
      {"deep-research", "POST", "/v1/deep-research", {{"maxDepth", "deep"}}},
      {"llmstxt", "POST", "/v1/llmstxt", {{"maxUrls", "many"}}},
      {"research", "GET", "/v2/search/research/papers?query=neural%20networks&k=1", nullptr},
      {"developer-search", "POST", "/v2/search/developer", {{"query", "webhooks"}, {"k", 1}}},
      // Bodies the routes refuse: find the routes without storing anything.
      {"feedback", "POST", "/v2/feedback", {{"rating", 1}}},
      {"support-ask", "POST", "/v2/support/ask", {{"question", 1}}},
  };
  ApiResponse preview;
  for (const auto& p : probes) {
    Call c;
    c.method = p.method;
    c.path = p.path;
    if (!p.body.is_null()) c.body = p.body;
    c.timeout = 30s;
    const auto res = call(c);
    set(p.name, classify_route(std::string(p.method) + " " + p.path, res.answer()));
    if (std::string(p.name) == "crawl-preview") preview = res;
  }
  return preview;
}

json json_format() {
  return {{"type", "json"},
          {"prompt", "The page heading"},
          {"schema", {{"type", "object"}, {"properties", {{"heading", {{"type", "string"}}}}}}}};
}

// The formats and options a scrape may ask for. Returns the answer to the json format (it also
// tells whether the deployment has a language model).
ApiResponse probe_formats() {
  const std::string a = site_url("/docs/a.html");
  for (const std::string format : {"images", "summary", "branding", "screenshot"}) {
    set("format:" + format, probe_scrape(format, {{"url", a}, {"formats", {format}}}));
  }
  ApiResponse json_answer;
  set("format:json",
      probe_scrape("json", {{"url", a}, {"formats", {json_format()}}}, &json_answer));
  set("format:changeTracking",
      probe_scrape("changeTracking",
                   {{"url", site_url("/docs/a.html?precheck-ct=" + unique_token())},
                    {"formats", {"markdown", "changeTracking"}}}));
  set("actions",
      probe_scrape("actions", {{"url", a},
                               {"actions", json::array({{{"type", "wait"}, {"milliseconds", 10}},
                                                        {{"type", "scrape"}}})}}));
  set("pdf", classify_pdf(post("/v2/scrape", {{"url", site_url("/files/doc.pdf")}}).answer()));
  return json_answer;
}

std::string stop_message(const std::string& what, const std::string& cause) {
  return "webdata-conformance: stopped before any test case: " + what + "\n  cause: " + cause;
}

// Step 1: the target answers, and takes the key. Empty when it does.
std::string check_reachable(std::ostream& out) {
  Call reach;
  reach.path = "/v2/crawl/active";
  reach.timeout = 5s;
  const auto reached = call(reach);
  if (reached.status == 0) {
    return stop_message("the target does not answer.",
                        "GET " + target().base_url +
                            "/v2/crawl/active: " + reached.transport_error +
                            "\n  Check --base-url (or WEBDATA_API_URL) and that the deployment is "
                            "running.");
  }
  if (reached.status == 401) {
    return stop_message(target().api_key.empty() ? "the target needs an API key."
                                                 : "the target refuses the API key.",
                        "GET /v2/crawl/active answers " + short_answer(reached.answer()) +
                            "\n  Give the deployment's key with --api-key or WEBDATA_API_KEY.");
  }
  out << "  " << std::left << std::setw(26) << "target reachable"
      << "GET /v2/crawl/active answers " << short_answer(reached.answer()) << "\n";
  return {};
}

// Step 2: the target can fetch this runner's test site. Bounded so that the run stops within
// about ten seconds when it cannot (the scrape's own timeout ends first). Empty when it can.
std::string check_site_fetch(std::ostream& out) {
  using Clock = std::chrono::steady_clock;
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
  const json data =
      fetched.body_json.is_object() ? fetched.body_json.value("data", json()) : json();
  const std::string markdown = data.is_object() ? data.value("markdown", "") : "";
  const bool reached = site().hits(path) > 0;
  if (fetched.status != 200 || !fetched.body_json.value("success", false) || !reached ||
      markdown.find("Page A") == std::string::npos) {
    const FetchFailure f = explain_fetch_failure(
        fetched.answer(), {page, target().site_host, target().site_listen, reached});
    return stop_message(f.headline, f.cause + (f.advice.empty() ? "" : "\n  " + f.advice));
  }
  std::ostringstream seconds;
  seconds << std::fixed << std::setprecision(2) << took;
  out << "  " << std::setw(26) << "test site from the target" << page << " scraped ("
      << seconds.str() << " s)\n";
  return {};
}

void print_capabilities(std::ostream& out) {
  out << "Capabilities (absent: the rules that need one are skipped; broken: its own rule fails, "
         "the others that need it are skipped):\n";
  for (const auto& name : found().order) {
    const Capability& c = found().by_name.at(name);
    std::string detail = c.detail;
    if (c.presence == Presence::kBroken && c.rule != nullptr) {
      detail += " (judged by " + std::string(c.rule->id) + ")";
    }
    out << "  " << std::left << std::setw(22) << name << " " << std::setw(10)
        << presence_name(c.presence) << detail << "\n";
  }
  out << std::right << std::flush;
}

// Step 3: the optional parts. The webhook probe's batch runs while the others are probed.
void probe_capabilities() {
  const std::string hook_token = unique_token();
  const auto hook_started = start_webhook_probe(hook_token);
  const auto hook_deadline = std::chrono::steady_clock::now() + target().scaled(20s);
  set("auth", probe_auth());
  set("search",
      classify_search("web data",
                      post("/v2/search", {{"query", "web data"}, {"limit", 3}}).answer()));
  probe_agent();
  const ApiResponse json_answer = probe_formats();
  set("parse", probe_parse());
  const ApiResponse preview = probe_routes();
  set("model", classify_model(preview.answer(), json_answer.answer()));
  set("scrape-by-id", probe_scrape_by_id());
  set("result-cache", probe_result_cache());
  judge_webhook_probe(hook_started, hook_token, hook_deadline);
  set("webhook-secret", !target().webhook_secret.empty(),
      target().webhook_secret.empty()
          ? "no --webhook-secret given: signature values cannot be verified"
          : "--webhook-secret given");
  set("other-team", !target().other_api_key.empty(),
      target().other_api_key.empty()
          ? "no --other-api-key given: cross-team isolation cannot be checked"
          : "--other-api-key given");
  set("mock-admin", target().is_mock,
      target().is_mock ? "the runner started the mock with its admin surface"
                       : "needs the /__admin/ surface of a webdata-mock the runner starts "
                         "(--spawn-mock)");
}

}  // namespace

const Capability& capability(const std::string& name) {
  static const Capability unknown{Presence::kAbsent, "not probed", nullptr};
  const auto it = found().by_name.find(name);
  return it == found().by_name.end() ? unknown : it->second;
}

std::string capability_gate(const std::string& name, bool owns) {
  const Capability& c = capability(name);
  switch (c.presence) {
    case Presence::kAvailable:
      return {};
    case Presence::kAbsent:
      return "capability " + name + ": " + c.detail;
    case Presence::kBroken:
      if (owns && found().judged.insert(name).second) return {};
      break;
  }
  return "needs " + name + ", which is broken (see " +
         (c.rule != nullptr ? std::string(c.rule->id) : std::string("the capability table")) + ")";
}

std::string case_gate(const std::string& name) {
  const Capability& c = capability(name);
  return capability_gate(name, c.rule != nullptr && case_names_rule(*c.rule));
}

bool part_needs(const std::string& name, std::initializer_list<const Rule*> rules) {
  const Capability& c = capability(name);
  const bool owns = std::find(rules.begin(), rules.end(), c.rule) != rules.end();
  const std::string reason = capability_gate(name, c.rule != nullptr && owns);
  if (reason.empty()) return true;
  for (const Rule* rule : rules) skip_rule(*rule, reason);
  return false;
}

const ApiResponse& agent_probe_answer() {
  return found().agent_answer;
}

std::vector<CapabilityRow> capability_rows() {
  std::vector<CapabilityRow> rows;
  for (const auto& name : found().order) {
    const Capability& c = found().by_name.at(name);
    rows.push_back({name, c.presence, c.detail});
  }
  return rows;
}

PrecheckOutcome run_precheck(std::ostream& out) {
  out << "Precheck of " << target().base_url << "\n";
  for (const auto& step : {check_reachable, check_site_fetch}) {
    const std::string stop = step(out);
    if (!stop.empty()) return {false, stop};
  }
  probe_capabilities();
  print_capabilities(out);
  return {};
}

}  // namespace webdata::conformance
