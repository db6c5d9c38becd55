#pragma once
// What the replay compares between a recorded answer and the mock's: status, `code`, `error`,
// `details[0]` code and message, the keys and value types of the answer, of `data` (its first
// item when it is a list) and of its `metadata`; a body that is not JSON by media type and text.
// Values that are ids, times or hosts are never compared: they are left out of the texts
// compared (normalize()) and only the type of a field is.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "recording.hpp"

namespace webdata::mock::replay {

/// One way a mock answer differs from the recorded one. `aspect` names what differs: `status`,
/// `code`, `error`, `details[0].code`, `details[0].message`, `keys.K`, `data.K`, `metadata.K`
/// (a key K present in one only, or of another type), `body` (JSON in one only),
/// `content-type`, `text`, and `states` (a job's sequence of states).
struct Difference {
  std::string aspect;
  std::string recorded;
  std::string mock;
};

/// The bases whose host and port are the deployment's or the mock's, not the API's behaviour.
struct Hosts {
  std::string recorded;  ///< e.g. "http://127.0.0.1:3302"
  std::string mock;
};

std::vector<Difference> compare_answers(const Answer& recorded, const Answer& mock,
                                        const Hosts& hosts);

/// A text with its ids (UUIDs, 32-digit hex ids), ISO times and the two hosts replaced by
/// placeholders.
std::string normalize(std::string text, const Hosts& hosts);

/// The shape of one job status answer: its status, `success` and the keys with their types,
/// e.g. `scraping success=true {completed:number, data:array, ...}`.
std::string state_shape(const nlohmann::json& status);

/// The JSON type name of a value: object, array, string, number, boolean or null.
std::string type_name(const nlohmann::json& value);

}  // namespace webdata::mock::replay
