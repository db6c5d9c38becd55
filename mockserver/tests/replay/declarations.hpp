#pragma once
// The declared differences between the mock and the recorded deployment
// (mockserver/tests/replay/declarations.json), and the verdict on a replay against them: every
// difference must be declared, and every declaration must still match a difference.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare.hpp"
#include "recording.hpp"
#include "replayer.hpp"

namespace webdata::mock::replay {

/// How the mock was started for a replay.
enum class Mode { plain, imitate };
const char* mode_name(Mode mode);

/// One declared difference.
struct Declaration {
  std::string id;
  /// `condition`: the recorded deployment's conditions (no model, no search provider, ...);
  /// `decision`: the mock chooses otherwise, for `reason`; `pending`: another branch fixes it
  /// (`fixed_by`), printed but not failed on until then.
  std::string category;
  std::string what;         ///< One line: what differs.
  std::string reason;       ///< Why, in words a user accepts.
  std::string imitated_by;  ///< The --imitate condition that removes it (conditions, decisions).
  std::string fixed_by;     ///< The branch and change that removes it (pending).
  std::vector<std::string> exchanges;  ///< Keys ("scenario/step") of the exchanges it covers.
  std::vector<std::string> aspects;    ///< Aspects it covers: exact, "prefix.*" or "*".
  std::vector<Mode> modes;             ///< The replays it applies to.

  bool applies(Mode mode) const;
  bool matches(const std::string& exchange_key, const std::string& aspect) const;
};

/// Reads the declarations file and checks it against the recording and the profile's
/// conditions; throws std::runtime_error naming the problem.
std::vector<Declaration> load_declarations(const std::string& path, const Recording& recording,
                                           const std::vector<std::string>& profile_conditions);

/// What became of one replayed exchange.
struct Verdict {
  const Exchange* exchange = nullptr;
  /// `same`, `condition`, `decision`, `pending` or `undeclared` (the most serious of its
  /// differences, in that order from the least).
  std::string outcome = "same";
  std::vector<Difference> differences;
  std::vector<std::string> declared_by;  ///< Per difference: the declaration's id, or "".
};

struct Judgement {
  Mode mode = Mode::plain;
  std::vector<Verdict> verdicts;
  std::vector<std::string> problems;  ///< Undeclared differences, stale or overlapping entries.
  std::vector<std::string> pending;   ///< Pending differences, for the report.
};

Judgement judge(Mode mode, const std::vector<Observation>& observations,
                const std::vector<Declaration>& declarations);

/// The judgement as JSON: what the page generator reads.
nlohmann::json to_json(const Judgement& judgement);

}  // namespace webdata::mock::replay
