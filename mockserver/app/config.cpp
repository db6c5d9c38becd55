#include "app/config.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

namespace webdata::mock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

template <class Int>
bool parse_int(const std::string& text, Int& out, long long min, long long max) {
  long long value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return false;
  out = static_cast<Int>(value);
  return true;
}

ParsedArgs refuse(const std::string& why) {
  ParsedArgs out;
  out.message = "webdata-mock: " + why + "\nTry 'webdata-mock --help'.";
  out.exit_code = 2;
  return out;
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string mask(const std::string& secret) {
  if (secret.size() <= 4) return std::string(secret.size(), '*');
  return secret.substr(0, 2) + std::string(secret.size() - 4, '*') + secret.substr(secret.size() - 2);
}

// Reads an integer field of the config file within bounds; returns an error text or "".
template <class Int>
std::string read_int(const json& obj, const char* key, Int& out, long long min, long long max) {
  if (!obj.contains(key)) return "";
  const auto& v = obj.at(key);
  if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max) {
    return std::string("'") + key + "' must be an integer from " + std::to_string(min) + " to " +
           std::to_string(max);
  }
  out = static_cast<Int>(v.get<long long>());
  return "";
}

std::string read_bool(const json& obj, const char* key, bool& out) {
  if (!obj.contains(key)) return "";
  if (!obj.at(key).is_boolean()) return std::string("'") + key + "' must be true or false";
  out = obj.at(key).get<bool>();
  return "";
}

std::string read_string(const json& obj, const char* key, std::string& out) {
  if (!obj.contains(key)) return "";
  if (!obj.at(key).is_string()) return std::string("'") + key + "' must be a string";
  out = obj.at(key).get<std::string>();
  return "";
}

bool has_json_under(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".json") return true;
  }
  return false;
}

// Why a fixture root cannot serve anything ("" when it can). A mock started on a mistyped path
// would otherwise run with an empty virtual web and answer every scrape with a DNS error.
std::string fixture_root_problem(const std::string& path, bool synthetic_counts) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return "no such directory";
  if (!fs::is_directory(path, ec)) return "not a directory";
  if (has_json_under(fs::path(path) / "mappings")) return "";
  if (synthetic_counts && fs::is_regular_file(fs::path(path) / "synthetic.json", ec)) return "";
  return synthetic_counts
             ? "holds no fixtures (expected mappings/*.json or synthetic.json, WireMock layout)"
             : "holds no mappings (expected mappings/*.json, WireMock layout)";
}

}  // namespace

bool Config::has_fault(const std::string& name) const {
  return std::find(inject_faults.begin(), inject_faults.end(), name) != inject_faults.end();
}

const std::vector<std::pair<std::string, std::string>>& fault_names() {
  // Defects the conformance suite must fail, and quirks of real deployments it must accept
  // (docs/conformance.md, "Imitating a deployment").
  static const std::vector<std::pair<std::string, std::string>> names = {
      {"repeat-skip", "`next` repeats the last document of each chunk"},
      {"bad-signature", "webhooks are signed with a wrong secret"},
      {"missing-status-code", "documents lack metadata.statusCode"},
      {"no-auth", "authentication off: requests with no key or an unknown key are served"},
      {"no-search-results", "search finds nothing (no search provider)"},
      {"no-llm", "no language model: summary, json, branding formats refused, agent off"},
      {"no-screenshot", "screenshot formats give a warning instead of a screenshot"},
      {"ignore-skip", "job status ignores skip: every chunk starts at the first document"},
      {"unsigned-webhooks", "webhook deliveries carry no signature header"},
      {"cancel-finished-flips", "cancelling a finished job answers 200 and marks it cancelled"},
      {"no-parse", "POST /v2/parse is not served (404), as by deployments older than it"},
      {"no-scrape-store",
       "GET /scrape/{id} answers 404 for every id, as self-hosted deployments (no database) do"},
      // Conditions of recorded deployments (imitation_profiles()); usable one by one too.
      {"no-llm-key",
       "no language model key: json and summary formats are left out of documents, extract jobs "
       "fail, v1 extract answers 500, crawl params preview 400"},
      {"no-browser",
       "no browser engine: v1 screenshots and actions fail with 500 SCRAPE_ALL_ENGINES_FAILED, "
       "v2 screenshots give a warning, an unreachable page fails as SCRAPE_ALL_ENGINES_FAILED"},
      {"no-database",
       "no database: the concurrency check, GET /scrape/{id} and requests with an "
       "x-idempotency-key answer 500 UNKNOWN_ERROR"},
      {"no-result-cache",
       "no result cache: every scrape fetches (maxAge has no effect), no cacheState or cachedAt"},
      {"express-404",
       "routes newer than Aug 2025 (agent, queue status, v2 batch errors, parse, historical "
       "usage), unknown routes and other methods answer Express's HTML 404"},
      {"ignore-limit", "job status ignores limit: a chunk holds every document that fits"},
      {"bare-cancel-errors", "cancelling an unknown job answers {\"error\": \"Job not found\"}"},
      {"one-job-store",
       "crawl and batch scrape ids are read, cancelled and listed through either kind's routes"},
      {"baseline-validation",
       "validation as Aug 2025: a body not sent as JSON is read as none, a missing url gets the "
       "top-level-domain message, v1 search refusals are 500, v2 search's have no code"},
      {"baseline-fields",
       "no fields newer than Aug 2025: v1 search without id and creditsUsed, v2 search without "
       "id and warning, usage with the balance only, no v2 robots warning, no metadata.error"},
  };
  return names;
}

const std::vector<ImitationProfile>& imitation_profiles() {
  // The conditions are applied as if each had been given with --inject-fault.
  static const std::vector<ImitationProfile> profiles = {
      {"self-hosted-2025-08",
       "the self-hosted build of late August 2025 recorded in tests/data/real/ (no auth, no "
       "model key, no search provider, no browser, no database, no result cache)",
       {"no-auth", "no-llm-key", "no-search-results", "no-browser", "no-database",
        "no-result-cache", "express-404", "ignore-skip", "ignore-limit", "cancel-finished-flips",
        "bare-cancel-errors", "one-job-store", "baseline-fields", "baseline-validation",
        "unsigned-webhooks"}},
  };
  return profiles;
}

std::vector<std::string> profile_conditions(const std::string& name) {
  for (const auto& profile : imitation_profiles()) {
    if (profile.name == name) return profile.conditions;
  }
  return {};
}

namespace {

/// Switches on the conditions of the profile `name`; the reason when there is no such profile.
std::string imitate(Config& config, const std::string& name) {
  const auto conditions = profile_conditions(name);
  if (conditions.empty()) {
    std::string list;
    for (const auto& p : imitation_profiles()) list += (list.empty() ? "" : ", ") + p.name;
    return "unknown profile '" + name + "' for --imitate (known: " + list + ")";
  }
  config.imitate = name;
  for (const auto& condition : conditions) {
    if (!config.has_fault(condition)) config.inject_faults.push_back(condition);
  }
  return "";
}

}  // namespace

std::vector<TeamConfig> Config::effective_teams() const {
  if (!teams.empty()) return teams;
  TeamConfig team;
  team.id = "team-1";
  team.keys = {"test-key"};
  return {team};
}

json Config::to_json(bool mask_secrets) const {
  json teams_json = json::array();
  for (const auto& t : effective_teams()) {
    json keys = json::array();
    for (const auto& k : t.keys) keys.push_back(mask_secrets ? mask(k) : k);
    teams_json.push_back({{"id", t.id},
                          {"keys", keys},
                          {"credits", t.credits},
                          {"webhookSecret", mask_secrets ? mask(t.webhook_secret) : t.webhook_secret},
                          {"zeroDataRetention", t.zero_data_retention},
                          {"concurrency", t.concurrency},
                          {"tokens", t.tokens}});
  }
  return {{"host", server.host},
          {"port", server.port},
          {"threads", server.threads},
          {"workers", server.workers},
          {"bodyLimit", server.body_limit},
          {"headerTimeoutMs", server.header_timeout.count()},
          {"bodyTimeoutMs", server.body_timeout.count()},
          {"accessLog", server.access_log},
          {"tlsCert", server.tls.cert_file},
          {"tlsKey", server.tls.key_file},
          {"tlsSelfSigned", server.tls.self_signed},
          {"teams", teams_json},
          {"webRoot", web_root.empty() ? default_web_root() : web_root},
          {"apiStubRoot", api_stub_root},
          {"chunkBytes", chunk_bytes},
          {"stateDir", state_dir},
          {"pagePacingMs", page_pacing_ms},
          {"agentJobs", agent_jobs},
          {"agentPacingMs", agent_pacing_ms},
          {"injectFaults", inject_faults},
          {"imitate", imitate},
          {"admin", admin},
          {"adminOnPublic", admin_on_public},
          {"liveFetch", live_fetch},
          {"allowPrivateTargets", allow_private_targets},
          {"journalLimit", journal_limit},
          {"webhookSignatureHeader", webhook_signature_header}};
}

std::string default_web_root() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share/webdata/fixtures/web";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
#ifdef WEBDATA_SOURCE_FIXTURES
  if (fs::is_directory(WEBDATA_SOURCE_FIXTURES "/web", ec)) return WEBDATA_SOURCE_FIXTURES "/web";
#endif
#ifdef WEBDATA_INSTALL_FIXTURES
  // A program linking the installed library (its executable lives anywhere).
  if (fs::is_directory(WEBDATA_INSTALL_FIXTURES "/web", ec)) return WEBDATA_INSTALL_FIXTURES "/web";
#endif
  return "";
}

namespace {

/// The `teams` setting of a config file; an error text or "".
std::string read_teams(const json& teams, Config& config) {
  if (!teams.is_array() || teams.empty()) return "'teams' must be a non-empty array";
  config.teams.clear();
  for (std::size_t i = 0; i < teams.size(); ++i) {
    const auto& t = teams[i];
    const std::string where = "teams[" + std::to_string(i) + "]";
    if (!t.is_object()) return where + " must be an object";
    for (const auto& [key, value] : t.items()) {
      (void)value;
      if (key != "id" && key != "keys" && key != "credits" && key != "webhookSecret" &&
          key != "zeroDataRetention" && key != "concurrency" && key != "tokens") {
        return where + ": unknown setting '" + key + "'";
      }
    }
    TeamConfig team;
    if (!t.contains("id") || !t.at("id").is_string() || t.at("id").get<std::string>().empty()) {
      return where + ".id must be a non-empty string";
    }
    team.id = t.at("id").get<std::string>();
    if (!t.contains("keys") || !t.at("keys").is_array() || t.at("keys").empty()) {
      return where + ".keys must be a non-empty array of strings";
    }
    for (const auto& k : t.at("keys")) {
      if (!k.is_string() || k.get<std::string>().empty()) {
        return where + ".keys must be a non-empty array of strings";
      }
      team.keys.push_back(k.get<std::string>());
    }
    std::string e = read_int(t, "credits", team.credits, 0, 1LL << 53);
    if (e.empty()) e = read_string(t, "webhookSecret", team.webhook_secret);
    if (e.empty()) e = read_bool(t, "zeroDataRetention", team.zero_data_retention);
    if (e.empty()) e = read_int(t, "concurrency", team.concurrency, 1, 1024);
    if (e.empty()) e = read_int(t, "tokens", team.tokens, 0, 1LL << 53);
    if (!e.empty()) return where + ": " + e;
    config.teams.push_back(std::move(team));
  }
  return "";
}

}  // namespace

std::string apply_config_json(const json& file, Config& config) {
  if (!file.is_object()) return "the config file must hold a JSON object";
  static const std::set<std::string> known = {
      "host", "port", "threads", "bodyLimit", "headerTimeoutMs", "bodyTimeoutMs", "accessLog",
      "teams", "webRoot", "apiStubRoot", "chunkBytes", "admin", "adminOnPublic", "liveFetch",
      "allowPrivateTargets", "journalLimit", "webhookSignatureHeader", "stateDir",
      "pagePacingMs", "agentJobs", "agentPacingMs", "workers", "tlsCert", "tlsKey",
      "tlsSelfSigned", "imitate"};
  for (const auto& [key, value] : file.items()) {
    (void)value;
    if (known.count(key) == 0) return "unknown setting '" + key + "'";
  }
  std::string err;
  auto check = [&](std::string e) {
    if (err.empty()) err = std::move(e);
  };
  check(read_string(file, "host", config.server.host));
  check(read_int(file, "port", config.server.port, 0, 65535));
  check(read_int(file, "threads", config.server.threads, 1, 256));
  check(read_int(file, "workers", config.server.workers, 1, 4096));
  check(read_string(file, "tlsCert", config.server.tls.cert_file));
  check(read_string(file, "tlsKey", config.server.tls.key_file));
  check(read_bool(file, "tlsSelfSigned", config.server.tls.self_signed));
  check(read_int(file, "bodyLimit", config.server.body_limit, 1024, 1LL << 34));
  long long header_ms = config.server.header_timeout.count();
  long long body_ms = config.server.body_timeout.count();
  check(read_int(file, "headerTimeoutMs", header_ms, 1, 3600000));
  check(read_int(file, "bodyTimeoutMs", body_ms, 1, 3600000));
  config.server.header_timeout = std::chrono::milliseconds(header_ms);
  config.server.body_timeout = std::chrono::milliseconds(body_ms);
  check(read_bool(file, "accessLog", config.server.access_log));
  check(read_string(file, "webRoot", config.web_root));
  check(read_string(file, "apiStubRoot", config.api_stub_root));
  check(read_int(file, "chunkBytes", config.chunk_bytes, 1, 1LL << 34));
  check(read_bool(file, "admin", config.admin));
  check(read_bool(file, "adminOnPublic", config.admin_on_public));
  check(read_bool(file, "liveFetch", config.live_fetch));
  check(read_bool(file, "allowPrivateTargets", config.allow_private_targets));
  check(read_int(file, "journalLimit", config.journal_limit, 0, 1000000));
  check(read_string(file, "stateDir", config.state_dir));
  check(read_int(file, "pagePacingMs", config.page_pacing_ms, 0, 60000));
  check(read_bool(file, "agentJobs", config.agent_jobs));
  check(read_int(file, "agentPacingMs", config.agent_pacing_ms, 0, 60000));
  check(read_string(file, "webhookSignatureHeader", config.webhook_signature_header));
  std::string profile;
  check(read_string(file, "imitate", profile));
  if (err.empty() && !profile.empty()) check(imitate(config, profile));
  if (!err.empty()) return err;

  if (file.contains("teams")) return read_teams(file.at("teams"), config);
  return "";
}

std::string usage() {
  static const char* head = R"(Usage: webdata-mock [options]

A local mock of the web data extraction API (v1 and v2) that does the real work: auth,
strict validation, content extraction from a virtual web, jobs, credits and webhooks.

Server:
  --host ADDR               address to listen on (default 127.0.0.1)
  --port N                  port, 0 for any free port (default 3002)
  --threads N               I/O threads, each with its own event loop (default 2)
  --workers N               most threads running request handlers, started on demand
                            (default 64): how many requests may wait on slow pages at once
  --body-limit BYTES        largest request body (default 10485760); larger answers 413
  --header-timeout MS       time to receive a request header (default 30000)
  --quiet                   no access log
  --tls-cert FILE           serve HTTPS and WSS with this PEM certificate (chain) ...
  --tls-key FILE            ... and this PEM private key; both or neither
  --tls-self-signed         serve HTTPS and WSS with a throwaway self-signed certificate for
                            localhost, 127.0.0.1 and ::1; its path is printed at start (a
                            client trusts it as its CA); removed when the server stops
  --config FILE             JSON config file (see docs/mockserver.md); flags after it override it

Teams and keys:
  --api-key KEY[:TEAM]      accept KEY for TEAM (default team-1); repeatable; replaces the
                            default key test-key
  --credits N               credits of every team given by --api-key (default 1000000)
  --webhook-secret SECRET   webhook signing secret of those teams (default test-secret)

Virtual web and behaviour:
  --web-root DIR            WireMock-layout fixtures the scraper fetches from (default: bundled);
                            refused at start unless DIR has mappings/*.json or synthetic.json
  --api-stubs DIR           WireMock mappings matched before the built-in API; refused at start
                            unless DIR has mappings/*.json
  --chunk-bytes N           job status chunk limit in bytes (default 10485760)
  --page-pacing MS          pause per job page so `scraping` can be observed (default 20, 0: none)
  --agent-jobs              run POST /v2/agent as a job: answer {success, id}, poll
                            GET /v2/agent/{id}, cancel with DELETE (default: answer at once)
  --agent-pacing MS         with --agent-jobs, pause before each agent step: planning, each
                            page read, the answer (default 250, 0: none)
  --state-dir DIR           keep jobs and documents in DIR (SQLite) across restarts
  --live-fetch              fetch real URLs that are not in the virtual web
  --allow-private-targets   let live fetching reach loopback and private addresses
  --admin                   serve the admin API under /__admin/
  --admin-on-public         allow --admin on a non-loopback --host
  --signature-header NAME   webhook signature header (default X-Service-Signature)

Running in scripts and CI:
  --ready-file PATH         removed at start; once listening, the base URL (http://HOST:PORT)
                            is written to PATH (atomically, by a rename)
  --pid-file PATH           write the process id to PATH
  --detach                  run in the background: return once the server accepts
                            connections (exit 0, base URL on stdout) or failed to (exit 1)
  --log-file PATH           with --detach: append the server's output to PATH

Other:
  --inject-fault NAME[,NAME...]  break the API on purpose or imitate a deployment's quirk,
                            to prove what the conformance suite catches and accepts (never
                            for real use); repeatable, faults combine:
)";
  std::string text = head;
  for (const auto& [name, what] : fault_names()) {
    const std::size_t pad = name.size() < 23 ? 23 - name.size() : 1;
    text += "      " + name + std::string(pad, ' ') + what + "\n";
  }
  text += R"(  --imitate PROFILE         answer as a recorded deployment did: its conditions and
                            quirks switched on together, as --inject-fault each (never for
                            real use); profiles:
)";
  for (const auto& profile : imitation_profiles()) {
    std::string conditions;
    for (const auto& c : profile.conditions) conditions += (conditions.empty() ? "" : ", ") + c;
    text += "      " + profile.name + ": " + profile.what + ";\n        conditions: " +
            conditions + "\n";
  }
  return text + R"(  --print-config            print the effective settings as JSON and exit
  -h, --help                show this text and exit

Stop it with Ctrl-C (SIGINT) or SIGTERM; in-flight requests are finished first.
)";
}

ParsedArgs parse_args(const std::vector<std::string>& args) {
  Config config;
  ParsedArgs out;
  // Which option set each fixture root, for the message when it is unusable.
  std::string web_root_from = "--web-root";
  std::string api_stubs_from = "--api-stubs";
  std::vector<std::pair<std::string, std::string>> keys;  // key, team
  std::optional<std::int64_t> credits;
  std::optional<std::string> secret;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string value;
    auto next = [&]() {
      if (i + 1 >= args.size()) return false;
      value = args[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      out.message = usage();
      return out;
    } else if (arg == "--host") {
      if (!next() || value.empty()) return refuse("--host needs an address");
      config.server.host = value;
    } else if (arg == "--port") {
      if (!next() || !parse_int(value, config.server.port, 0, 65535)) {
        return refuse("--port needs a number from 0 to 65535");
      }
    } else if (arg == "--threads") {
      if (!next() || !parse_int(value, config.server.threads, 1, 256)) {
        return refuse("--threads needs a number from 1 to 256");
      }
    } else if (arg == "--workers") {
      if (!next() || !parse_int(value, config.server.workers, 1, 4096)) {
        return refuse("--workers needs a number from 1 to 4096");
      }
    } else if (arg == "--tls-cert") {
      if (!next() || value.empty()) return refuse("--tls-cert needs a PEM certificate file");
      config.server.tls.cert_file = value;
    } else if (arg == "--tls-key") {
      if (!next() || value.empty()) return refuse("--tls-key needs a PEM private key file");
      config.server.tls.key_file = value;
    } else if (arg == "--tls-self-signed") {
      config.server.tls.self_signed = true;
    } else if (arg == "--body-limit") {
      if (!next() || !parse_int(value, config.server.body_limit, 1024, 1LL << 34)) {
        return refuse("--body-limit needs a byte count of at least 1024");
      }
    } else if (arg == "--header-timeout") {
      long long ms = 0;
      if (!next() || !parse_int(value, ms, 1, 3600000)) {
        return refuse("--header-timeout needs milliseconds from 1 to 3600000");
      }
      config.server.header_timeout = std::chrono::milliseconds(ms);
    } else if (arg == "--quiet") {
      config.server.access_log = false;
    } else if (arg == "--config") {
      if (!next()) return refuse("--config needs a file");
      std::ifstream in(value);
      if (!in) return refuse("cannot read config file '" + value + "'");
      std::stringstream text;
      text << in.rdbuf();
      const json file = json::parse(text.str(), nullptr, false);
      if (file.is_discarded()) return refuse("config file '" + value + "' is not valid JSON");
      const std::string web_root_before = config.web_root;
      const std::string api_stubs_before = config.api_stub_root;
      if (auto err = apply_config_json(file, config); !err.empty()) {
        return refuse("config file '" + value + "': " + err);
      }
      if (config.web_root != web_root_before) web_root_from = "webRoot of '" + value + "'";
      if (config.api_stub_root != api_stubs_before) {
        api_stubs_from = "apiStubRoot of '" + value + "'";
      }
    } else if (arg == "--api-key") {
      if (!next() || value.empty()) return refuse("--api-key needs KEY or KEY:TEAM");
      const auto colon = value.find(':');
      if (colon == 0 || colon + 1 == value.size()) return refuse("--api-key needs KEY or KEY:TEAM");
      keys.emplace_back(value.substr(0, colon),
                        colon == std::string::npos ? "team-1" : value.substr(colon + 1));
    } else if (arg == "--credits") {
      std::int64_t n = 0;
      if (!next() || !parse_int(value, n, 0, 1LL << 53)) return refuse("--credits needs a number");
      credits = n;
    } else if (arg == "--webhook-secret") {
      if (!next() || value.empty()) return refuse("--webhook-secret needs a value");
      secret = value;
    } else if (arg == "--web-root") {
      if (!next() || value.empty()) return refuse("--web-root needs a directory");
      config.web_root = value;
      web_root_from = "--web-root";
    } else if (arg == "--api-stubs") {
      if (!next() || value.empty()) return refuse("--api-stubs needs a directory");
      config.api_stub_root = value;
      api_stubs_from = "--api-stubs";
    } else if (arg == "--chunk-bytes") {
      if (!next() || !parse_int(value, config.chunk_bytes, 1, 1LL << 34)) {
        return refuse("--chunk-bytes needs a positive byte count");
      }
    } else if (arg == "--page-pacing") {
      if (!next() || !parse_int(value, config.page_pacing_ms, 0, 60000)) {
        return refuse("--page-pacing needs milliseconds from 0 to 60000");
      }
    } else if (arg == "--agent-jobs") {
      config.agent_jobs = true;
    } else if (arg == "--agent-pacing") {
      if (!next() || !parse_int(value, config.agent_pacing_ms, 0, 60000)) {
        return refuse("--agent-pacing needs milliseconds from 0 to 60000");
      }
    } else if (arg == "--state-dir") {
      if (!next() || value.empty()) return refuse("--state-dir needs a directory");
      config.state_dir = value;
    } else if (arg == "--inject-fault") {
      if (!next() || value.empty()) return refuse("--inject-fault needs a fault name");
      std::stringstream names(value);
      std::string name;
      while (std::getline(names, name, ',')) {
        const auto& known = fault_names();
        if (std::none_of(known.begin(), known.end(),
                         [&](const auto& f) { return f.first == name; })) {
          std::string list;
          for (const auto& f : known) list += (list.empty() ? "" : ", ") + f.first;
          return refuse("unknown fault '" + name + "' for --inject-fault (known: " + list + ")");
        }
        if (!config.has_fault(name)) config.inject_faults.push_back(name);
      }
    } else if (arg == "--imitate") {
      if (!next() || value.empty()) return refuse("--imitate needs a profile name");
      if (auto why = imitate(config, value); !why.empty()) return refuse(why);
    } else if (arg == "--live-fetch") {
      config.live_fetch = true;
    } else if (arg == "--allow-private-targets") {
      config.allow_private_targets = true;
    } else if (arg == "--admin") {
      config.admin = true;
    } else if (arg == "--admin-on-public") {
      config.admin_on_public = true;
    } else if (arg == "--signature-header") {
      if (!next() || value.empty()) return refuse("--signature-header needs a header name");
      config.webhook_signature_header = value;
    } else if (arg == "--print-config") {
      out.print_config = true;
    } else {
      return refuse("unknown option '" + arg + "'");
    }
  }

  if (!keys.empty()) {
    std::vector<TeamConfig> teams;
    for (const auto& [key, id] : keys) {
      const std::string& team_id = id;  // C++17 lambdas cannot capture a structured binding
      auto it = std::find_if(teams.begin(), teams.end(),
                             [&](const TeamConfig& t) { return t.id == team_id; });
      if (it == teams.end()) {
        TeamConfig team;
        team.id = team_id;
        teams.push_back(team);
        it = std::prev(teams.end());
      }
      it->keys.push_back(key);
    }
    config.teams = std::move(teams);
  }
  if (credits || secret) {
    if (config.teams.empty()) config.teams = config.effective_teams();
    for (auto& team : config.teams) {
      if (credits) team.credits = *credits;
      if (secret) team.webhook_secret = *secret;
    }
  }
  std::set<std::string> seen_keys;
  for (const auto& team : config.effective_teams()) {
    for (const auto& key : team.keys) {
      if (!seen_keys.insert(key).second) return refuse("API key given to two teams");
    }
  }
  if (!config.web_root.empty()) {
    if (auto why = fixture_root_problem(config.web_root, true); !why.empty()) {
      return refuse(web_root_from + " '" + config.web_root + "': " + why);
    }
  } else if (default_web_root().empty()) {
    return refuse("the bundled virtual web is not installed next to webdata-mock; give --web-root DIR");
  }
  if (!config.api_stub_root.empty()) {
    if (auto why = fixture_root_problem(config.api_stub_root, false); !why.empty()) {
      return refuse(api_stubs_from + " '" + config.api_stub_root + "': " + why);
    }
  }
  const auto& tls = config.server.tls;
  if (tls.self_signed && (!tls.cert_file.empty() || !tls.key_file.empty())) {
    return refuse("--tls-self-signed and --tls-cert/--tls-key exclude each other");
  }
  if (tls.cert_file.empty() != tls.key_file.empty()) {
    return refuse("--tls-cert and --tls-key go together");
  }
  if (!tls.cert_file.empty()) {
    // Checked here, not at start: a wrong path is a usage error (exit 2), found before any
    // thread or socket exists.
    if (auto why = http::check_tls_files(tls.cert_file, tls.key_file); !why.empty()) {
      return refuse(why);
    }
  }
  if (config.admin && !is_loopback(config.server.host) && !config.admin_on_public) {
    return refuse("--admin on the non-loopback address " + config.server.host +
                  " needs --admin-on-public (the admin API can rewrite every answer)");
  }
  out.config = std::move(config);
  return out;
}

}  // namespace webdata::mock
