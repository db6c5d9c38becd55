// webdata-mock-replay: replays the exchanges recorded from a real deployment against the mock
// and keeps docs/mockserver/fidelity.md in step with what it finds.
//
//   webdata-mock-replay replay --recording F --declarations F --site DIR [--imitate]
//                              [--results OUT] [--jobs N]
//       starts a mock per scenario (in-process, the recorded site as its virtual web; with
//       --imitate, under the declarations file's deployment profile), replays, and exits 1 on a
//       difference no declaration covers or a declaration that covers nothing any more
//   webdata-mock-replay page --recording F --declarations F --template F --plain R
//                            --imitated R --root DIR (--write PAGE | --check PAGE)
//       makes the page from the template and the two replays' results; --check exits 1 when
//       the committed page differs from it
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "app/config.hpp"
#include "app/mock_server.hpp"
#include "declarations.hpp"
#include "page.hpp"
#include "recording.hpp"
#include "replayer.hpp"

namespace {

using namespace webdata::mock;
using namespace webdata::mock::replay;
using nlohmann::json;

struct Options {
  std::string command;
  std::map<std::string, std::string> values;  ///< --name VALUE
  bool imitate = false;
  std::size_t jobs = 10;  ///< Scenarios at once: they mostly wait, so all of them.

  const std::string& need(const std::string& name) const {
    const auto it = values.find(name);
    if (it == values.end()) throw std::runtime_error("--" + name + " is needed");
    return it->second;
  }
  std::string get(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? std::string() : it->second;
  }
};

Options parse(int argc, char** argv) {
  Options o;
  if (argc < 2) throw std::runtime_error("usage: webdata-mock-replay replay|page [options]");
  o.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--imitate") {
      o.imitate = true;
    } else if (arg.rfind("--", 0) == 0 && i + 1 < argc) {
      o.values[arg.substr(2)] = argv[++i];
    } else {
      throw std::runtime_error("unknown or incomplete option '" + arg + "'");
    }
  }
  if (!o.get("jobs").empty()) {
    const std::string& n = o.get("jobs");
    if (n.find_first_not_of("0123456789") != std::string::npos || n.size() > 3 || n == "0") {
      throw std::runtime_error("--jobs needs a number of scenarios from 1 to 999");
    }
    o.jobs = std::stoul(n);
  }
  return o;
}

/// The deployment profile the declarations are written for.
std::string profile_of(const std::string& declarations_path) {
  const json file = json::parse(read_file(declarations_path), nullptr, false);
  const std::string profile = file.is_object() ? file.value("profile", "") : "";
  if (profile.empty()) throw std::runtime_error(declarations_path + ": no \"profile\"");
  return profile;
}

/// The deployment's own base URL, as its job answers name it.
std::string recorded_base(const Recording& recording) {
  for (const auto& x : recording.exchanges) {
    const json& answer = x.answer.json;
    if (!answer.is_object() || !answer.contains("url") || !answer.at("url").is_string()) continue;
    const std::string url = answer.at("url").get<std::string>();
    for (const char* version : {"/v1/", "/v2/"}) {
      const auto at = url.find(version);
      if (at != std::string::npos) return url.substr(0, at);
    }
  }
  return "";
}

Config mock_config(const Options& o, const std::string& profile) {
  // Pages of a job one after another, 150 ms apart, and the seed's robots.txt slow (the site's
  // fixture): every state the recording shows lasts long enough to be polled.
  std::vector<std::string> args = {"--port",        "0",  "--quiet", "--web-root", o.need("site"),
                                   "--page-pacing", "150"};
  if (o.imitate) args.insert(args.end(), {"--imitate", profile});
  auto parsed = parse_args(args);
  if (!parsed.config) throw std::runtime_error(parsed.message);
  Config config = *parsed.config;
  config.teams = config.effective_teams();
  for (auto& team : config.teams) team.concurrency = 1;
  return config;
}

std::vector<Observation> replay_scenario(const std::vector<const Exchange*>& scenario,
                                         const Config& config, const std::string& base) {
  std::ostringstream log;
  MockServer server(config, log);
  server.start();
  Replayer replayer(server.base_url(), base, "test-key");
  auto out = replayer.run(scenario);
  server.stop();
  return out;
}

/// Every scenario against a fresh mock of its own, `jobs` scenarios at a time.
std::vector<Observation> replay_all(const Recording& recording, const Options& o,
                                    const Config& config) {
  const auto scenarios = recording.scenarios();
  const std::string base = recorded_base(recording);
  std::vector<std::vector<Observation>> found(scenarios.size());
  std::vector<std::string> errors(scenarios.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < scenarios.size(); i = next++) {
      try {
        found[i] = replay_scenario(scenarios[i], config, base);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t j = 0; j < std::min(o.jobs, scenarios.size()); ++j) threads.emplace_back(work);
  for (auto& thread : threads) thread.join();
  std::vector<Observation> out;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    if (!errors[i].empty())
      throw std::runtime_error(scenarios[i].front()->scenario + ": " + errors[i]);
    for (auto& seen : found[i]) out.push_back(std::move(seen));
  }
  return out;
}

void report(const Judgement& judgement, const std::string& profile) {
  std::map<std::string, int> counts;
  for (const auto& verdict : judgement.verdicts) {
    ++counts[verdict.outcome];
    if (verdict.differences.empty()) continue;
    std::cout << verdict.exchange->key() << ": " << verdict.outcome << "\n";
    for (std::size_t i = 0; i < verdict.differences.size(); ++i) {
      const Difference& d = verdict.differences[i];
      std::cout << "    " << d.aspect << " ["
                << (verdict.declared_by[i].empty() ? "UNDECLARED" : verdict.declared_by[i])
                << "]: recorded " << d.recorded << " | mock " << d.mock << "\n";
    }
  }
  for (const auto& line : judgement.pending) std::cout << "pending: " << line << "\n";
  for (const auto& line : judgement.problems) std::cout << "PROBLEM: " << line << "\n";
  std::cout << "replay " << (judgement.mode == Mode::imitate ? "--imitate " + profile : "plain")
            << ": " << judgement.verdicts.size() << " exchanges: " << counts["same"] << " same, "
            << counts["decision"] << " differ on purpose, " << counts["condition"]
            << " deployment conditions, " << counts["pending"] << " pending, "
            << counts["undeclared"] << " undeclared; " << judgement.problems.size()
            << " problems\n";
}

int run_replay(const Options& o) {
  const Recording recording = load_recording(o.need("recording"));
  const std::string profile = profile_of(o.need("declarations"));
  const auto declarations =
      load_declarations(o.need("declarations"), recording, profile_conditions(profile));
  const Config config = mock_config(o, profile);
  const auto observations = replay_all(recording, o, config);
  const Judgement judgement =
      judge(o.imitate ? Mode::imitate : Mode::plain, observations, declarations);
  report(judgement, profile);
  if (!o.get("results").empty()) {
    std::ofstream out(o.get("results"));
    out << to_json(judgement).dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.get("results"));
  }
  return judgement.problems.empty() ? 0 : 1;
}

int run_page(const Options& o) {
  const Recording recording = load_recording(o.need("recording"));
  PageInputs in;
  in.profile = profile_of(o.need("declarations"));
  in.profile_conditions = profile_conditions(in.profile);
  in.declarations = load_declarations(o.need("declarations"), recording, in.profile_conditions);
  in.template_text = read_file(o.need("template"));
  in.plain = json::parse(read_file(o.need("plain")));
  in.imitate = json::parse(read_file(o.need("imitated")));
  // Named as a reader of the repository finds them.
  const std::filesystem::path root = o.need("root");
  for (const char* name : {"template", "declarations", "recording"}) {
    in.sources.push_back(std::filesystem::path(o.need(name)).lexically_relative(root).string());
  }
  const std::string page = render_page(in);
  if (!o.get("write").empty()) {
    std::ofstream(o.get("write"), std::ios::binary) << page;
    return 0;
  }
  if (read_file(o.need("check")) == page) return 0;
  std::cout << o.need("check") << " is not what the replay makes of its template; run `cmake "
            << "--build build --target fidelity-page` and commit the page\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    if (o.command == "replay") return run_replay(o);
    if (o.command == "page") return run_page(o);
    throw std::runtime_error("unknown command '" + o.command + "' (replay, page)");
  } catch (const std::exception& e) {
    std::cerr << "webdata-mock-replay: " << e.what() << "\n";
    return 2;
  }
}
