// webdata-mock's command line, read by CLI11 (ADR 0022): one table of flags, each with its group,
// help text and what it does to the configuration. CLI11 recognises the flags, takes their values
// and writes the help; the table's actions then run in command-line order, so a flag after
// --config overrides the file and one before it is overridden by it.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/config.hpp"
#include "web/stub_store.hpp"
#include "web/synthetic.hpp"

namespace webdata::mock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// What the command line builds up before it is checked as a whole.
struct Parsing {
  Config config;
  ProcessOptions process;
  std::vector<std::pair<std::string, std::string>> keys;  // key, team
  std::optional<std::int64_t> credits;
  std::optional<std::string> secret;
  std::vector<std::string> web_roots_from;  // which option set each web root, for messages
  bool web_roots_from_file = false;         // a --web-root after --config replaces its list
  std::string api_stubs_from = "--api-stubs";
  bool print_config = false;
};

// What a flag does with its value: "" when done, else why the value is refused.
using Action = std::function<std::string(Parsing&, const std::string& value)>;

struct Flag {
  std::string name;   // "--port" (or "-h,--help" style lists)
  std::string value;  // the value's name in the help ("N"); empty for a flag without one
  std::string help;
  Action action;
};

struct FlagGroup {
  std::string title;
  std::vector<Flag> flags;
};

template <class Int>
bool parse_int(const std::string& text, Int& out, long long min, long long max) {
  long long value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return false;
  out = static_cast<Int>(value);
  return true;
}

// A whole number from `min` to `max` into the field `field(parsing)` names.
template <class Field>
Action integer(Field field, long long min, long long max, std::string refusal) {
  return [=](Parsing& p, const std::string& value) {
    return parse_int(value, field(p), min, max) ? std::string() : refusal;
  };
}

// A non-empty text into the field `field(parsing)` names.
template <class Field>
Action text(Field field, std::string refusal) {
  return [=](Parsing& p, const std::string& value) {
    if (value.empty()) return refusal;
    field(p) = value;
    return std::string();
  };
}

// A switch: `field(parsing)` becomes `to`.
template <class Field>
Action set(Field field, bool to = true) {
  return [=](Parsing& p, const std::string&) {
    field(p) = to;
    return std::string();
  };
}

ParsedArgs refuse(const std::string& why, ProcessOptions process = {}) {
  ParsedArgs out;
  out.message = "webdata-mock: " + why + "\nTry 'webdata-mock --help'.";
  out.exit_code = 2;
  out.process = std::move(process);
  return out;
}

// The fields the actions write, named once.
auto& server(Parsing& p) {
  return p.config.server;
}

std::string read_config_file(Parsing& p, const std::string& path) {
  if (path.empty()) return "--config needs a file";
  std::ifstream in(path);
  if (!in) return "cannot read config file '" + path + "'";
  std::stringstream text;
  text << in.rdbuf();
  const json file = json::parse(text.str(), nullptr, false);
  if (file.is_discarded()) return "config file '" + path + "' is not valid JSON";
  const auto web_roots_before = p.config.web_roots;
  const std::string api_stubs_before = p.config.api_stub_root;
  if (auto err = apply_config_json(file, p.config); !err.empty()) {
    return "config file '" + path + "': " + err;
  }
  if (p.config.web_roots != web_roots_before) {
    p.web_roots_from.assign(p.config.web_roots.size(), "webRoot of '" + path + "'");
    p.web_roots_from_file = true;
  }
  if (p.config.api_stub_root != api_stubs_before)
    p.api_stubs_from = "apiStubRoot of '" + path + "'";
  return "";
}

std::string add_api_key(Parsing& p, const std::string& value) {
  const auto colon = value.find(':');
  if (value.empty() || colon == 0 || colon + 1 == value.size()) {
    return "--api-key needs KEY or KEY:TEAM";
  }
  p.keys.emplace_back(value.substr(0, colon),
                      colon == std::string::npos ? "team-1" : value.substr(colon + 1));
  return "";
}

std::string add_web_root(Parsing& p, const std::string& value) {
  if (value.empty()) return "--web-root needs a directory";
  if (p.web_roots_from_file) {
    p.config.web_roots.clear();
    p.web_roots_from.clear();
    p.web_roots_from_file = false;
  }
  p.config.web_roots.push_back(value);
  p.web_roots_from.push_back("--web-root");
  return "";
}

std::string add_faults(Parsing& p, const std::string& value) {
  if (value.empty()) return "--inject-fault needs a fault name";
  std::stringstream names(value);
  std::string name;
  const auto& known = fault_names();
  while (std::getline(names, name, ',')) {
    if (std::none_of(known.begin(), known.end(), [&](const auto& f) { return f.first == name; })) {
      std::string list;
      for (const auto& f : known) list += (list.empty() ? "" : ", ") + f.first;
      return "unknown fault '" + name + "' for --inject-fault (known: " + list + ")";
    }
    if (!p.config.has_fault(name)) p.config.inject_faults.push_back(name);
  }
  return "";
}

FlagGroup server_flags() {
  return {
      "Server",
      {{"--host", "ADDR", "address to listen on (default 127.0.0.1)",
        text(
            [](Parsing & p) -> auto& { return server(p).host; }, "--host needs an address")},
       {"--port", "N", "port, 0 for any free port (default 3002)",
        integer(
            [](Parsing & p) -> auto& { return server(p).port; }, 0, 65535,
            "--port needs a number from 0 to 65535")},
       {"--threads", "N", "I/O threads, each with its own event loop (default 2)",
        integer(
            [](Parsing & p) -> auto& { return server(p).threads; }, 1, 256,
            "--threads needs a number from 1 to 256")},
       {"--workers", "N",
        "most threads running request handlers, started on demand\n(default 64): how many "
        "requests may wait on slow pages at once",
        integer(
            [](Parsing & p) -> auto& { return server(p).workers; }, 1, 4096,
            "--workers needs a number from 1 to 4096")},
       {"--body-limit", "BYTES", "largest request body (default 10485760); larger answers 413",
        integer(
            [](Parsing & p) -> auto& { return server(p).body_limit; }, 1024, 1LL << 34,
            "--body-limit needs a byte count of at least 1024")},
       {"--header-timeout", "MS", "time to receive a request header (default 30000)",
        [](Parsing& p, const std::string& value) {
          long long ms = 0;
          if (!parse_int(value, ms, 1, 3600000)) {
            return std::string("--header-timeout needs milliseconds from 1 to 3600000");
          }
          server(p).header_timeout = std::chrono::milliseconds(ms);
          return std::string();
        }},
       {"--quiet", "", "no access log",
        set(
            [](Parsing & p) -> auto& { return server(p).access_log; }, false)},
       {"--tls-cert", "FILE", "serve HTTPS and WSS with this PEM certificate (chain) ...",
        text(
            [](Parsing & p) -> auto& { return server(p).tls.cert_file; },
            "--tls-cert needs a PEM certificate file")},
       {"--tls-key", "FILE", "... and this PEM private key; both or neither",
        text(
            [](Parsing & p) -> auto& { return server(p).tls.key_file; },
            "--tls-key needs a PEM private key file")},
       {"--tls-self-signed", "",
        "serve HTTPS and WSS with a throwaway self-signed certificate for\nlocalhost, "
        "127.0.0.1 and ::1; its path is printed at start (a\nclient trusts it as its CA); "
        "removed when the server stops",
        set([](Parsing & p) -> auto& { return server(p).tls.self_signed; })},
       {"--config", "FILE", "JSON config file (see docs/mockserver.md); flags after it override it",
        read_config_file}}};
}

FlagGroup team_flags() {
  return {
      "Teams and keys",
      {{"--api-key", "KEY[:TEAM]",
        "accept KEY for TEAM (default team-1); repeatable; replaces the\ndefault key test-key",
        add_api_key},
       {"--credits", "N", "credits of every team given by --api-key (default 1000000)",
        [](Parsing& p, const std::string& value) {
          std::int64_t n = 0;
          if (!parse_int(value, n, 0, 1LL << 53)) return std::string("--credits needs a number");
          p.credits = n;
          return std::string();
        }},
       {"--webhook-secret", "SECRET", "webhook signing secret of those teams (default test-secret)",
        [](Parsing& p, const std::string& value) {
          if (value.empty()) return std::string("--webhook-secret needs a value");
          p.secret = value;
          return std::string();
        }}}};
}

FlagGroup web_flags() {
  return {"Virtual web and behaviour",
          {{"--web-root", "DIR",
            "WireMock-layout fixtures the scraper fetches from, over the bundled\nvirtual web; "
            "repeatable, a later root over an earlier one (its\nmappings win at equal priority); "
            "refused at start unless DIR has\nmappings/*.json or synthetic.json that load",
            add_web_root},
           {"--no-bundled-web", "",
            "leave the bundled virtual web out: only the --web-root roots\n(and live pages with "
            "--live-fetch)",
            set(
                [](Parsing & p) -> auto& { return p.config.bundled_web; }, false)},
           {"--api-stubs", "DIR",
            "WireMock mappings matched before the built-in API; refused at start\nunless DIR has "
            "mappings/*.json that load",
            [](Parsing& p, const std::string& value) {
              if (value.empty()) return std::string("--api-stubs needs a directory");
              p.config.api_stub_root = value;
              p.api_stubs_from = "--api-stubs";
              return std::string();
            }},
           {"--chunk-bytes", "N", "job status chunk limit in bytes (default 10485760)",
            integer(
                [](Parsing & p) -> auto& { return p.config.chunk_bytes; }, 1, 1LL << 34,
                "--chunk-bytes needs a positive byte count")},
           {"--page-pacing", "MS",
            "pause per job page so `scraping` can be observed (default 20, 0: none)",
            integer(
                [](Parsing & p) -> auto& { return p.config.page_pacing_ms; }, 0, 60000,
                "--page-pacing needs milliseconds from 0 to 60000")},
           {"--agent-jobs", "",
            "run POST /v2/agent as a job: answer {success, id}, poll\nGET /v2/agent/{id}, cancel "
            "with DELETE (default: answer at once)",
            set([](Parsing & p) -> auto& { return p.config.agent_jobs; })},
           {"--agent-pacing", "MS",
            "with --agent-jobs, pause before each agent step: planning, each\npage read, the "
            "answer (default 250, 0: none)",
            integer(
                [](Parsing & p) -> auto& { return p.config.agent_pacing_ms; }, 0, 60000,
                "--agent-pacing needs milliseconds from 0 to 60000")},
           {"--state-dir", "DIR", "keep jobs and documents in DIR (SQLite) across restarts",
            text(
                [](Parsing & p) -> auto& { return p.config.state_dir; },
                "--state-dir needs a directory")},
           {"--live-fetch", "", "fetch real URLs that are not in the virtual web",
            set([](Parsing & p) -> auto& { return p.config.live_fetch; })},
           {"--allow-private-targets", "", "let live fetching reach loopback and private addresses",
            set([](Parsing & p) -> auto& { return p.config.allow_private_targets; })},
           {"--admin", "", "serve the admin API under /__admin/",
            set([](Parsing & p) -> auto& { return p.config.admin; })},
           {"--admin-on-public", "", "allow --admin on a non-loopback --host",
            set([](Parsing & p) -> auto& { return p.config.admin_on_public; })},
           {"--signature-header", "NAME", "webhook signature header (default X-Service-Signature)",
            text(
                [](Parsing & p) -> auto& { return p.config.webhook_signature_header; },
                "--signature-header needs a header name")}}};
}

FlagGroup script_flags() {
  return {
      "Running in scripts and CI",
      {{"--ready-file", "PATH",
        "removed at start; once listening, the base URL (http://HOST:PORT)\nis written to "
        "PATH (atomically, by a rename)",
        text(
            [](Parsing & p) -> auto& { return p.process.ready_file; },
            "--ready-file needs a path")},
       {"--pid-file", "PATH", "write the process id to PATH",
        text(
            [](Parsing & p) -> auto& { return p.process.pid_file; }, "--pid-file needs a path")},
       {"--detach", "",
        "run in the background: return once the server accepts\nconnections (exit 0, base URL "
        "on stdout) or failed to (exit 1)",
        set([](Parsing & p) -> auto& { return p.process.detach; })},
       {"--log-file", "PATH", "with --detach: append the server's output to PATH",
        text(
            [](Parsing & p) -> auto& { return p.process.log_file; }, "--log-file needs a path")}}};
}

// The --inject-fault names, one a line, for the end of the help.
std::string fault_list() {
  std::string text = "Faults for --inject-fault:";
  for (const auto& [name, what] : fault_names()) {
    const std::size_t pad = name.size() < 23 ? 23 - name.size() : 1;
    text += "\n  " + name + std::string(pad, ' ') + what;
  }
  return text;
}

// The --imitate profiles with their conditions, for the end of the help.
std::string profile_list() {
  std::string text = "Profiles for --imitate:";
  for (const auto& profile : imitation_profiles()) {
    std::string conditions;
    for (const auto& c : profile.conditions) conditions += (conditions.empty() ? "" : ", ") + c;
    text += "\n  " + profile.name + ": " + profile.what + ";\n    conditions: " + conditions;
  }
  return text;
}

FlagGroup other_flags() {
  return {"Other",
          {{"--inject-fault", "NAME[,NAME...]",
            "break the API on purpose or imitate a deployment's quirk,\nto prove what the "
            "conformance suite catches and accepts (never\nfor real use); repeatable, faults "
            "combine; the names are listed below",
            add_faults},
           {"--imitate", "PROFILE",
            "answer as a recorded deployment did: its conditions and quirks\nswitched on "
            "together, as --inject-fault each (never for real use);\nthe profiles are listed "
            "below",
            [](Parsing& p, const std::string& value) {
              return value.empty() ? std::string("--imitate needs a profile name")
                                   : imitate(p.config, value);
            }},
           {"--print-config", "", "print the effective settings as JSON and exit",
            set([](Parsing & p) -> auto& { return p.print_config; })}}};
}

const std::vector<FlagGroup>& flag_groups() {
  static const std::vector<FlagGroup> groups = {server_flags(), team_flags(), web_flags(),
                                                script_flags(), other_flags()};
  return groups;
}

// The command line as CLI11 reads it; `bound` gets each flag's option, to replay the actions.
std::unique_ptr<CLI::App> make_app(std::map<const CLI::Option*, const Flag*>& bound) {
  auto app = std::make_unique<CLI::App>(
      "A local mock of the web data extraction API (v1 and v2) that does the real work: auth,\n"
      "strict validation, content extraction from a virtual web, jobs, credits and webhooks.",
      "webdata-mock");
  app->get_formatter()->column_width(28);
  app->footer(fault_list() + "\n\n" + profile_list() +
              "\n\nStop it with Ctrl-C (SIGINT) or SIGTERM; in-flight requests are finished "
              "first.");
  for (const auto& group : flag_groups()) {
    for (const auto& flag : group.flags) {
      CLI::Option* option = flag.value.empty() ? app->add_flag(flag.name, flag.help)
                                               : app->add_option(flag.name, flag.help);
      option->group(group.title)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      if (!flag.value.empty()) option->type_name(flag.value)->expected(1);
      bound.emplace(option, &flag);
    }
  }
  // Set last, so it is listed last, with the flags of its group.
  app->set_help_flag("-h,--help", "show this text and exit")->group("Other");
  return app;
}

// Runs each flag's action in command-line order (a repeated flag once per value).
std::string replay(const CLI::App& app, const std::map<const CLI::Option*, const Flag*>& bound,
                   Parsing& p) {
  std::map<const CLI::Option*, std::size_t> taken;
  for (const CLI::Option* option : app.parse_order()) {
    const auto flag = bound.find(option);
    if (flag == bound.end()) continue;
    const auto& results = option->results();
    const std::size_t index = taken[option]++;
    const std::string value = index < results.size() ? results[index] : std::string();
    if (auto err = flag->second->action(p, flag->second->value.empty() ? "" : value);
        !err.empty()) {
      return err;
    }
  }
  return "";
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

// The teams the --api-key, --credits and --webhook-secret flags make (none when not given).
std::string apply_team_flags(Parsing& p) {
  Config& config = p.config;
  if (!p.keys.empty()) {
    std::vector<TeamConfig> teams;
    for (const auto& [key, id] : p.keys) {
      const std::string& team_id = id;  // C++17 lambdas cannot capture a structured binding
      auto it = std::find_if(teams.begin(), teams.end(),
                             [&](const TeamConfig& t) { return t.id == team_id; });
      if (it == teams.end()) {
        teams.push_back(TeamConfig{});
        teams.back().id = team_id;
        it = std::prev(teams.end());
      }
      it->keys.push_back(key);
    }
    config.teams = std::move(teams);
  }
  if (p.credits || p.secret) {
    if (config.teams.empty()) config.teams = config.effective_teams();
    for (auto& team : config.teams) {
      if (p.credits) team.credits = *p.credits;
      if (p.secret) team.webhook_secret = *p.secret;
    }
  }
  std::set<std::string> seen_keys;
  for (const auto& team : config.effective_teams()) {
    for (const auto& key : team.keys) {
      if (!seen_keys.insert(key).second) return "API key given to two teams";
    }
  }
  return "";
}

bool has_json_under(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
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

// Why a fixture root's files do not load ("" when they do): a mapping the mock does not
// support, a bodyFileName that is missing, a malformed synthetic.json. Loaded once more by the
// server, but found here it is a start-up error like a bad flag (exit 2, before --detach forks).
std::string fixture_load_problem(const std::string& path, bool synthetic_counts) {
  try {
    const web::StubStore stubs{fs::path(path)};
    if (synthetic_counts) {
      const web::SyntheticWeb synthetic{fs::path(path)};
    }
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string fixture_root_error(const std::string& path, bool synthetic_counts) {
  std::string why = fixture_root_problem(path, synthetic_counts);
  return why.empty() ? fixture_load_problem(path, synthetic_counts) : why;
}

std::string check_fixture_roots(const Parsing& p) {
  const Config& config = p.config;
  for (std::size_t i = 0; i < config.web_roots.size(); ++i) {
    if (auto why = fixture_root_error(config.web_roots[i], true); !why.empty()) {
      return p.web_roots_from[i] + " '" + config.web_roots[i] + "': " + why;
    }
  }
  if (config.bundled_web && default_web_root().empty()) {
    return "the bundled virtual web is not installed next to webdata-mock; give "
           "--no-bundled-web and --web-root DIR";
  }
  if (!config.bundled_web && config.web_roots.empty() && !config.live_fetch) {
    return "--no-bundled-web leaves nothing to scrape: add --web-root DIR or --live-fetch";
  }
  if (!config.api_stub_root.empty()) {
    if (auto why = fixture_root_error(config.api_stub_root, false); !why.empty()) {
      return p.api_stubs_from + " '" + config.api_stub_root + "': " + why;
    }
  }
  return "";
}

std::string check_server(const Parsing& p) {
  const auto& tls = p.config.server.tls;
  if (tls.self_signed && (!tls.cert_file.empty() || !tls.key_file.empty())) {
    return "--tls-self-signed and --tls-cert/--tls-key exclude each other";
  }
  if (tls.cert_file.empty() != tls.key_file.empty()) return "--tls-cert and --tls-key go together";
  if (!tls.cert_file.empty()) {
    // Checked here, not at start: a wrong path is a usage error (exit 2), found before any
    // thread or socket exists.
    if (auto why = http::check_tls_files(tls.cert_file, tls.key_file); !why.empty()) return why;
  }
  if (p.config.admin && !is_loopback(p.config.server.host) && !p.config.admin_on_public) {
    return "--admin on the non-loopback address " + p.config.server.host +
           " needs --admin-on-public (the admin API can rewrite every answer)";
  }
  if (!p.process.log_file.empty() && !p.process.detach) return "--log-file needs --detach";
  return "";
}

// CLI11's refusal in the words the flags had before: an argument no flag takes is an unknown
// option; a flag without its value says what the value should be, as its action does.
std::string parse_error_text(const CLI::ParseError& error, const CLI::App& app,
                             const std::map<const CLI::Option*, const Flag*>& bound) {
  const std::string text = error.what();
  const auto extra = app.remaining();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr && !extra.empty()) {
    return "unknown option '" + extra.front() + "'";
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    const std::string name = text.substr(0, text.find(':'));  // "--port: 1 required N missing"
    for (const auto& entry : bound) {
      const Flag* flag = entry.second;
      if (flag->name != name) continue;
      Parsing scratch;
      if (auto refusal = flag->action(scratch, ""); !refusal.empty()) return refusal;
    }
  }
  return text;
}

}  // namespace

std::string usage() {
  std::map<const CLI::Option*, const Flag*> bound;
  return make_app(bound)->help();
}

ParsedArgs parse_args(const std::vector<std::string>& args) {
  std::map<const CLI::Option*, const Flag*> bound;
  const auto app = make_app(bound);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads from the back
  try {
    app->parse(reversed);
  } catch (const CLI::CallForHelp&) {
    ParsedArgs out;
    out.message = app->help();
    return out;
  } catch (const CLI::ParseError& e) {
    ProcessOptions process;  // a stale ready file goes even when the flags are refused
    if (const auto& ready = app->get_option("--ready-file")->results(); !ready.empty()) {
      process.ready_file = ready.back();
    }
    return refuse(parse_error_text(e, *app, bound), process);
  }
  Parsing p;
  std::string why = replay(*app, bound, p);
  if (why.empty()) why = apply_team_flags(p);
  if (why.empty()) why = check_fixture_roots(p);
  if (why.empty()) why = check_server(p);
  if (!why.empty()) return refuse(why, std::move(p.process));
  ParsedArgs out;
  out.config = std::move(p.config);
  out.process = std::move(p.process);
  out.print_config = p.print_config;
  return out;
}

}  // namespace webdata::mock
