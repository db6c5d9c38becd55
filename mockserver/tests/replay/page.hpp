#pragma once
// docs/mockserver/fidelity.md, made from its template (docs/mockserver/fidelity.md.in), the
// declarations and the results of the two replays. The template is markdown with directives:
//
//   {{counts}}          how many exchanges are the same, declared, conditions, pending
//   {{declarations}}    every declaration, by category, with its reason and exchanges
//   {{exchanges}}       every replayed exchange and what the two replays found
//   {{same K; K...}}    "same", for a behaviour the replay shows: each exchange K must be the
//                       same in the plain replay, or the page is not made
//   {{declared ID}}     the declaration ID's status and reason, for a behaviour it covers
//
// A template row that claims "same" through {{same}} therefore cannot be wrong about the
// exchanges it names.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "declarations.hpp"

namespace webdata::mock::replay {

struct PageInputs {
  std::string template_text;
  std::vector<Declaration> declarations;
  nlohmann::json plain;    ///< to_json() of the plain replay's judgement
  nlohmann::json imitate;  ///< ... and of the --imitate replay's
  std::string profile;     ///< The --imitate profile's name.
  std::vector<std::string> profile_conditions;
  std::vector<std::string> sources;  ///< Files the page is made from, named in its notice.
};

/// The page; throws std::runtime_error when a directive is unknown or claims what the replay
/// contradicts.
std::string render_page(const PageInputs& inputs);

}  // namespace webdata::mock::replay
