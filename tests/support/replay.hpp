#pragma once

// Recorded exchanges with a real deployment (tests/data/real/*.json, README there), replayed:
// a `ReplayBook` answers each route (method and path, the query left out) with that route's
// recorded answers in recorded order, the last one again once the others are used (a finished
// job stays finished). `ReplayServer` serves a book over HTTP for programs with their own HTTP
// client (the CLI); replay_transport.hpp hands one to the SDK as its Transport.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::testing {

/// One recorded exchange, the answer as the deployment sent it.
struct RecordedExchange {
  std::size_t index = 0;  ///< Position in the recordings file.
  std::string scenario;
  std::string step;
  std::string method;
  std::string path;  ///< As requested, query included.
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<nlohmann::json> json;  ///< The answer when it was JSON.
  std::string body;                    ///< The answer's text (JSON written compactly).

  /// The path without its query.
  std::string route_path() const { return path.substr(0, path.find('?')); }
};

/// Every exchange of a recordings file, in recorded order; throws when it cannot be read.
std::vector<RecordedExchange> load_recordings(const std::string& file);

/// The exchanges of `scenario` whose step is one of `steps` (every step when empty).
std::vector<RecordedExchange> select(const std::vector<RecordedExchange>& all,
                                     const std::string& scenario,
                                     const std::vector<std::string>& steps = {});

/// Recorded answers per route, each route in recorded order. Thread-safe.
class ReplayBook {
 public:
  explicit ReplayBook(std::vector<RecordedExchange> exchanges);

  /// The next answer for `method` and `url` (a path or a whole URL; the query is ignored);
  /// nullopt when nothing of that route was recorded. Every request is kept (`requests`).
  std::optional<RecordedExchange> answer(const std::string& method, const std::string& url);

  /// The requests answered or refused so far, "METHOD /path?query", in order.
  std::vector<std::string> requests() const;

 private:
  struct Route {
    std::vector<RecordedExchange> answers;
    std::size_t next = 0;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Route> routes_;
  std::vector<std::string> requests_;
};

/// A book served over HTTP on 127.0.0.1 at a free port, on its own thread (stopped on
/// destruction). A route that was not recorded answers 404 with a JSON error that says so.
class ReplayServer {
 public:
  explicit ReplayServer(std::vector<RecordedExchange> exchanges);
  ~ReplayServer();
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  /// "http://127.0.0.1:<port>".
  std::string url() const;
  std::vector<std::string> requests() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace webdata::testing
