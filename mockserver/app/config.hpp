#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/teams.hpp"
#include "http/server.hpp"

namespace webdata::mock {

/// Everything the mock can be told at start-up, by flags or a JSON config file.
struct Config {
  http::ServerOptions server;
  std::vector<TeamConfig> teams;  ///< Empty means the default: key `test-key`, team `team-1`.
  /// Fixture roots (WireMock layout) over the bundled virtual web, later over earlier.
  std::vector<std::string> web_roots;
  bool bundled_web = true;        ///< The bundled virtual web lies under web_roots.
  std::string api_stub_root;      ///< WireMock mappings matched before the built-in API.
  std::size_t chunk_bytes = 10485760;  ///< Job status chunk limit (docs/reference/jobs.md#chunking).
  bool admin = false;                  ///< Serve /__admin/.
  bool admin_on_public = false;        ///< Allow /__admin/ on a non-loopback bind.
  bool live_fetch = false;             ///< Fetch real URLs outside the virtual web.
  bool allow_private_targets = false;  ///< Let live fetching reach private/loopback addresses.
  std::size_t journal_limit = 1000;    ///< Requests kept by GET /__admin/requests.
  std::string state_dir;               ///< Where jobs persist (SQLite); empty: in memory only.
  long long page_pacing_ms = 20;       ///< Pause per scraped job page, so `scraping` is observable.
  bool agent_jobs = false;             ///< POST /v2/agent starts a job instead of answering.
  long long agent_pacing_ms = 250;     ///< Pause per agent job step (plan, each page, answer).
  /// Deliberate defects and deployment quirks (--inject-fault, repeatable), for proving what the
  /// conformance suite catches and what it accepts (never for real use); see fault_names().
  std::vector<std::string> inject_faults;
  /// The deployment profile given by --imitate (its conditions are in inject_faults); "" none.
  std::string imitate;
  std::string webhook_signature_header = "X-Service-Signature";

  bool has_fault(const std::string& name) const;
  /// The virtual web's roots, bottom first: the bundled one (when on), then web_roots.
  std::vector<std::string> effective_web_roots() const;
  /// The teams in force (the default team when none are configured).
  std::vector<TeamConfig> effective_teams() const;
  /// The effective settings as JSON (secrets and keys masked), for --print-config.
  nlohmann::json to_json(bool mask_secrets = true) const;
};

/// Flags about the process rather than the server; main.cpp acts on them.
struct ProcessOptions {
  std::string ready_file;  ///< Written with the base URL once the server accepts connections.
  std::string pid_file;    ///< Written with the process id at start.
  bool detach = false;     ///< Run in the background; return once ready, printing the URL.
  std::string log_file;    ///< Where a detached server's output goes (default: nowhere).
};

/// Outcome of reading the command line: a config to run, or text to print and an exit code.
struct ParsedArgs {
  std::optional<Config> config;
  std::string message;  ///< Help text or the reason the arguments were refused.
  int exit_code = 0;
  bool print_config = false;
  /// The process flags read (also when the rest was refused, so a stale ready file still goes).
  ProcessOptions process;
};

/// Reads webdata-mock's flags (app/command_line.cpp, CLI11): refusals exit 2, --help 0.
ParsedArgs parse_args(const std::vector<std::string>& args);
/// Applies a JSON config file's settings onto `config`; returns an error text or "".
std::string apply_config_json(const nlohmann::json& file, Config& config);
/// The --help text.
std::string usage();
/// The names --inject-fault takes, each with what it does.
const std::vector<std::pair<std::string, std::string>>& fault_names();

/// A recorded deployment imitated as one named set of conditions (--imitate NAME): what it was,
/// and the faults and quirks that make the mock answer as it did (docs/mockserver.md).
struct ImitationProfile {
  std::string name;
  std::string what;
  std::vector<std::string> conditions;  ///< Names of fault_names().
};
const std::vector<ImitationProfile>& imitation_profiles();
/// The conditions of the profile `name`; empty when there is no such profile.
std::vector<std::string> profile_conditions(const std::string& name);
/// Switches on the conditions of the profile `name` (--imitate, config key `imitate`); the
/// reason when there is no such profile, else "".
std::string imitate(Config& config, const std::string& name);

/// The bundled virtual web: next to the executable when installed, else the source tree.
std::string default_web_root();

}  // namespace webdata::mock
