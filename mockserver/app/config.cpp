#include "app/config.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace webdata::mock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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

// "webRoot": one directory or a list of them, later over earlier.
std::string read_web_roots(const json& obj, std::vector<std::string>& out) {
  if (!obj.contains("webRoot")) return "";
  const json& value = obj.at("webRoot");
  const json list = value.is_string() ? json::array({value}) : value;
  const char* const error = "'webRoot' must be a directory or a list of directories";
  if (!list.is_array()) return error;
  std::vector<std::string> roots;
  for (const auto& root : list) {
    if (!root.is_string() || root.get<std::string>().empty()) return error;
    roots.push_back(root.get<std::string>());
  }
  out = std::move(roots);
  return "";
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
       "top-level-domain message, v1 search refusals are 500, v2 search's have no code, no "
       "hint, v2 batch URLs checked unless ignoreInvalidURLs is true"},
      {"baseline-fields",
       "no fields newer than Aug 2025: v1 search without id and creditsUsed, v2 search without "
       "id and warning, usage with the balance only, no v2 robots warning, no metadata.error"},
      {"first-status-without-next",
       "a job's status has total 0, no `next` and no data until its first page is done, and "
       "`next` only when total > skip + returned (the Aug-2025 server)"},
      {"extract-error-object", "a failed extract job answers \"error\": {} (the Aug-2025 server)"},
      {"no-pdf-engine",
       "no PDF engine: a scrape of a PDF fails with 500 SCRAPE_ALL_ENGINES_FAILED and no data"},
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
        "unsigned-webhooks",
        "first-status-without-next",
        "extract-error-object", "no-pdf-engine"}},
  };
  return profiles;
}

std::vector<std::string> profile_conditions(const std::string& name) {
  for (const auto& profile : imitation_profiles()) {
    if (profile.name == name) return profile.conditions;
  }
  return {};
}

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

std::vector<std::string> Config::effective_web_roots() const {
  std::vector<std::string> roots;
  if (bundled_web) roots.push_back(default_web_root());
  roots.insert(roots.end(), web_roots.begin(), web_roots.end());
  return roots;
}

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
          {"webRoot", web_roots},
          {"bundledWeb", bundled_web},
          {"bundledWebRoot", default_web_root()},
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

// "teams": replaces the configured teams; an error text or "".
std::string read_teams(const json& file, Config& config) {
  if (!file.contains("teams")) return "";
  const auto& teams = file.at("teams");
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
      "teams", "webRoot", "bundledWeb", "apiStubRoot", "chunkBytes", "admin", "adminOnPublic",
      "liveFetch", "allowPrivateTargets", "journalLimit", "webhookSignatureHeader", "stateDir",
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
  check(read_web_roots(file, config.web_roots));
  check(read_bool(file, "bundledWeb", config.bundled_web));
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

  return read_teams(file, config);
}

}  // namespace webdata::mock
