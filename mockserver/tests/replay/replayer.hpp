#pragma once
// Sends a scenario's recorded requests to a running mock, in order, and compares each answer
// with the recorded one. Poll records are not sent one by one: where the recording polls a job,
// the replayer polls the mock's job from that moment until it reaches the recorded last state,
// and the two sequences of states (shape, not timing) are compared as the `states` aspect of
// the request that started the job.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compare.hpp"
#include "recording.hpp"
#include "webdata/transport.hpp"

namespace webdata::mock::replay {

/// One replayed (non-poll) exchange.
struct Observation {
  const Exchange* exchange = nullptr;
  Answer mock;
  std::vector<Difference> differences;
};

class Replayer {
 public:
  /// `base_url`: the mock; `api_key` replaces the recording's `<key>` placeholder.
  Replayer(std::string base_url, std::string recorded_base, std::string api_key);

  /// Replays one scenario (its exchanges in recorded order) and returns what its non-poll
  /// exchanges observed. Job ids of the recording are mapped to the mock's as jobs start.
  std::vector<Observation> run(const std::vector<const Exchange*>& scenario);

 private:
  struct Trace {
    std::vector<std::string> recorded;
    std::vector<std::string> mock;
  };
  Answer send(const Exchange& exchange) const;
  /// The request target with the recording's job ids replaced by the mock's.
  std::string mock_target(const std::string& recorded) const;
  void remember_job(const Exchange& exchange, const Answer& mock);
  /// Polls the mock's job of a run of poll records until it reaches the run's last state.
  void follow(const std::vector<const Exchange*>& polls);
  /// Sleeps as long as the recording waited on purpose between two requests.
  static void keep_pause(const Exchange* before, const Exchange& next);

  std::string base_;
  Hosts hosts_;
  std::string key_;
  std::shared_ptr<Transport> transport_;
  std::map<std::string, std::string> ids_;     ///< Recorded job id -> the mock's.
  std::map<std::string, std::string> starts_;  ///< Recorded job id -> key of its start.
  std::map<std::string, Trace> traces_;        ///< By key of the job's start.
};

}  // namespace webdata::mock::replay
