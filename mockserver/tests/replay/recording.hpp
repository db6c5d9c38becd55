#pragma once
// The recorded exchanges with a real deployment (tests/data/real/, README there), as the replay
// reads them, and the one shape both a recorded and a replayed answer take.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::mock::replay {

/// One HTTP answer: the recorded one or the mock's.
struct Answer {
  int status = 0;
  std::string content_type;  ///< As sent, parameters included; empty when there was none.
  std::string text;          ///< The body as sent.
  nlohmann::json json;       ///< The body parsed as JSON; null when it is not JSON.
};

/// One recorded exchange (a request and the deployment's answer).
struct Exchange {
  std::size_t index = 0;  ///< Position in the recording.
  std::string scenario;
  std::string step;
  long long t_ms = 0;  ///< From the scenario's start.
  long long took_ms = 0;
  std::string method;
  std::string path;  ///< Target: path and query.
  std::vector<std::pair<std::string, std::string>> headers;
  bool has_body = false;
  std::string body;  ///< The bytes sent (a JSON string in the file is sent as its raw text).
  Answer answer;

  /// "scenario/step": names a non-poll exchange uniquely.
  std::string key() const { return scenario + "/" + step; }
  /// A status read of a job, kept when it changed (part of the job's sequence of states).
  bool is_poll() const { return step == "poll"; }
};

struct Recording {
  std::string site;  ///< The recorded site's base URL.
  std::vector<Exchange> exchanges;
  /// The exchanges of each scenario, in recorded order; scenarios in order of first appearance.
  std::vector<std::vector<const Exchange*>> scenarios() const;
  /// The non-poll exchange named `key`, or null.
  const Exchange* find(const std::string& key) const;
};

/// Reads the recording file; throws std::runtime_error naming the file and the problem.
Recording load_recording(const std::string& path);

/// Reads a whole file; throws std::runtime_error naming it when it cannot.
std::string read_file(const std::string& path);

}  // namespace webdata::mock::replay
