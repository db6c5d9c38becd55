#include "declarations.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace webdata::mock::replay {

using nlohmann::json;

namespace {

const std::vector<std::string> kOutcomes = {"same", "condition", "decision", "pending",
                                            "undeclared"};

int rank(const std::string& outcome) {
  return static_cast<int>(std::find(kOutcomes.begin(), kOutcomes.end(), outcome) -
                          kOutcomes.begin());
}

std::vector<std::string> strings(const json& entry, const char* key, const std::string& where) {
  if (!entry.contains(key)) return {};
  const json& list = entry.at(key);
  if (!list.is_array() || list.empty())
    throw std::runtime_error(where + ": '" + key + "' must be a non-empty list");
  std::vector<std::string> out;
  for (const auto& item : list) {
    if (!item.is_string()) throw std::runtime_error(where + ": '" + key + "' holds a non-string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<Mode> modes_of(const json& entry, const std::string& category,
                           const std::string& where) {
  const auto names = strings(entry, "modes", where);
  if (names.empty()) {
    // Conditions and decisions are what --imitate undoes; pending work shows in both replays.
    if (category == "pending") return {Mode::plain, Mode::imitate};
    return {Mode::plain};
  }
  std::vector<Mode> out;
  for (const auto& name : names) {
    if (name != "plain" && name != "imitate") {
      throw std::runtime_error(where + ": unknown mode '" + name + "' (plain, imitate)");
    }
    out.push_back(name == "plain" ? Mode::plain : Mode::imitate);
  }
  return out;
}

/// Checks what each category needs: conditions and decisions name the --imitate condition that
/// undoes them, pending entries the branch that fixes them.
void check_category(const Declaration& d, const std::vector<std::string>& conditions,
                    const std::string& where) {
  if (d.category == "pending") {
    if (d.fixed_by.empty()) throw std::runtime_error(where + ": a pending entry names 'fixedBy'");
    return;
  }
  if (d.category != "condition" && d.category != "decision") {
    throw std::runtime_error(where + ": category must be condition, decision or pending");
  }
  if (std::find(conditions.begin(), conditions.end(), d.imitated_by) == conditions.end()) {
    throw std::runtime_error(where + ": 'imitatedBy' must name a condition of the profile, not '" +
                             d.imitated_by + "'");
  }
}

Declaration read_declaration(const json& entry, const Recording& recording,
                             const std::vector<std::string>& conditions) {
  Declaration d;
  d.id = entry.value("id", "");
  const std::string where = "declaration '" + d.id + "'";
  d.category = entry.value("category", "");
  d.what = entry.value("what", "");
  d.reason = entry.value("reason", "");
  d.imitated_by = entry.value("imitatedBy", "");
  d.fixed_by = entry.value("fixedBy", "");
  d.exchanges = strings(entry, "exchanges", where);
  d.aspects = strings(entry, "aspects", where);
  d.modes = modes_of(entry, d.category, where);
  if (d.id.empty() || d.what.empty() || d.reason.empty() || d.exchanges.empty() ||
      d.aspects.empty()) {
    throw std::runtime_error(where + ": needs id, what, reason, exchanges and aspects");
  }
  check_category(d, conditions, where);
  for (const auto& key : d.exchanges) {
    if (recording.find(key) == nullptr) {
      throw std::runtime_error(where + ": no recorded exchange is named '" + key + "'");
    }
  }
  return d;
}

std::string describe(const Verdict& verdict, const Difference& difference) {
  return verdict.exchange->key() + ": " + difference.aspect + ": recorded " + difference.recorded +
         ", mock " + difference.mock;
}

/// The declarations of `mode` matching a difference (an overlap is a problem of the file).
const Declaration* declaration_of(Mode mode, const std::string& key, const Difference& difference,
                                  const std::vector<Declaration>& declarations,
                                  std::vector<std::string>& problems) {
  const Declaration* found = nullptr;
  for (const auto& d : declarations) {
    if (!d.applies(mode) || !d.matches(key, difference.aspect)) continue;
    if (found != nullptr) {
      problems.push_back(key + ": " + difference.aspect + " is declared twice, by '" + found->id +
                         "' and '" + d.id + "'");
      continue;
    }
    found = &d;
  }
  return found;
}

}  // namespace

const char* mode_name(Mode mode) {
  return mode == Mode::plain ? "plain" : "imitate";
}

bool Declaration::applies(Mode mode) const {
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

bool Declaration::matches(const std::string& exchange_key, const std::string& aspect) const {
  if (std::find(exchanges.begin(), exchanges.end(), exchange_key) == exchanges.end()) return false;
  return std::any_of(aspects.begin(), aspects.end(), [&](const std::string& pattern) {
    if (pattern == "*") return true;
    if (pattern.size() > 1 && pattern.back() == '*') {
      return aspect.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
    }
    return aspect == pattern;
  });
}

std::vector<Declaration> load_declarations(const std::string& path, const Recording& recording,
                                           const std::vector<std::string>& profile_conditions) {
  const json file = json::parse(read_file(path), nullptr, false);
  if (file.is_discarded() || !file.is_object() || !file.contains("declarations") ||
      !file.at("declarations").is_array()) {
    throw std::runtime_error(path + ": expected a JSON object with a \"declarations\" list");
  }
  // Conditions another branch adds to the profile: declarations may name them already.
  std::vector<std::string> conditions = profile_conditions;
  for (const auto& name : strings(file, "pendingConditions", path)) {
    if (std::find(conditions.begin(), conditions.end(), name) != conditions.end()) {
      throw std::runtime_error(path + ": pendingConditions lists '" + name +
                               "', which the profile has now: take it off the list");
    }
    conditions.push_back(name);
  }
  std::vector<Declaration> out;
  std::set<std::string> ids;
  for (const auto& entry : file.at("declarations")) {
    try {
      out.push_back(read_declaration(entry, recording, conditions));
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    if (!ids.insert(out.back().id).second) {
      throw std::runtime_error(path + ": two declarations are named '" + out.back().id + "'");
    }
  }
  return out;
}

Judgement judge(Mode mode, const std::vector<Observation>& observations,
                const std::vector<Declaration>& declarations) {
  Judgement out;
  out.mode = mode;
  std::set<std::string> used;
  for (const auto& seen : observations) {
    Verdict verdict;
    verdict.exchange = seen.exchange;
    verdict.differences = seen.differences;
    for (const auto& difference : seen.differences) {
      const Declaration* d =
          declaration_of(mode, seen.exchange->key(), difference, declarations, out.problems);
      const std::string outcome = d == nullptr ? "undeclared" : d->category;
      if (rank(outcome) > rank(verdict.outcome)) verdict.outcome = outcome;
      verdict.declared_by.push_back(d == nullptr ? "" : d->id);
      if (d != nullptr) used.insert(d->id);
      if (d == nullptr) out.problems.push_back("undeclared: " + describe(verdict, difference));
      if (d != nullptr && d->category == "pending") {
        out.pending.push_back(d->id + " (" + d->fixed_by + "): " + describe(verdict, difference));
      }
    }
    out.verdicts.push_back(std::move(verdict));
  }
  for (const auto& d : declarations) {
    if (d.applies(mode) && used.count(d.id) == 0) {
      out.problems.push_back("declaration '" + d.id + "' (" + d.category +
                             ") matches no difference "
                             "of the " +
                             mode_name(mode) + " replay any more: remove it" +
                             (d.category == "pending" ? " (its fix has landed)" : ""));
    }
  }
  return out;
}

json to_json(const Judgement& judgement) {
  json exchanges = json::array();
  for (const auto& verdict : judgement.verdicts) {
    json differences = json::array();
    for (std::size_t i = 0; i < verdict.differences.size(); ++i) {
      const Difference& d = verdict.differences[i];
      differences.push_back({{"aspect", d.aspect},
                             {"recorded", d.recorded},
                             {"mock", d.mock},
                             {"declaration", verdict.declared_by[i]}});
    }
    exchanges.push_back({{"key", verdict.exchange->key()},
                         {"outcome", verdict.outcome},
                         {"differences", differences}});
  }
  return {{"mode", mode_name(judgement.mode)},
          {"exchanges", exchanges},
          {"problems", judgement.problems},
          {"pending", judgement.pending}};
}

}  // namespace webdata::mock::replay
