#pragma once

// Following a crawl or batch scrape job through its status answers, driven by the job's state
// (docs/sdk.md, "How a job is followed"): `Job::pages()`, `Job::documents()` (and so `wait()`)
// and the crawl watcher's polling read the job through one `JobFollower`.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "client_core.hpp"

namespace webdata::detail {

/// The kCancelled error of a wait the caller cancelled.
Error cancelled_by_caller(const std::string& what);

/// The kTimeout error of a wait that outlived its deadline.
Error did_not_end_in_time(const std::string& what);

/// Sleeps one polling interval (shortened to the deadline) on the client's clock; the error
/// when the deadline has passed or `cancel` (or the policy's token) fired.
std::optional<Error> pause_between_polls(const ClientCore& core, const PollingPolicy& policy,
                                         const CancellationToken& cancel, Deadline deadline,
                                         const std::string& what);

/// Asks `status()` again, `policy.interval` apart on the client's clock, until its answer is an
/// error or `done(answer)`: kTimeout at `deadline` (`wait_deadline`), kCancelled when the
/// policy's token fires; `what` names the job in those errors. The waits of the jobs without
/// documents (extract, the v1 jobs, a monitor's check) are this loop.
template <class T, class Status, class Done>
Result<T> poll_until(const ClientCore& core, const PollingPolicy& policy, Deadline deadline,
                     const std::string& what, Status status, Done done) {
  for (;;) {
    Result<T> current = status();
    if (!current.ok() || done(*current)) return current;
    if (auto stop = pause_between_polls(core, policy, policy.cancel, deadline, what)) return *stop;
  }
}

/// What identifies a document across status answers: its `metadata.scrapeId`, else its JSON.
std::string document_key(const Document& doc);

/// Reads a job's status answers from the first one on, each with only the documents not
/// delivered before:
/// - it ends once the job is in a terminal state and no `next` remains, or a terminal answer
///   brings nothing new (deployments keep `next` on a cancelled job);
/// - while the job runs, an answer without `next` (a deployment's first status, `total: 0`) is
///   asked for again after the policy's interval with `skip` = documents delivered so far, and
///   an answer that brings nothing new waits an interval before its `next` (which may repeat
///   the same `skip`);
/// - an answer that starts over at the job's first document although `skip` asked for more
///   (deployments that ignore `skip`) has the documents already delivered dropped.
/// The policy's `max_wait` and the call's deadline bound the whole following.
class JobFollower {
 public:
  /// `status_path` is the job's status resource ("/v2/crawl/ID"); `what` names the job in
  /// errors ("job ID").
  JobFollower(std::shared_ptr<const ClientCore> core, std::string status_path, PollingPolicy policy,
              CallOptions options, std::string what);

  /// Continues after `received` documents delivered by other means (the watcher's WebSocket),
  /// the first of them identified by `first_key` (`document_key`).
  void resume(std::size_t received, std::optional<std::string> first_key);

  /// The next status answer, its head decoded and its documents not yet decoded; nullopt once
  /// the job ended and nothing remains. After an error, nothing more.
  std::optional<Result<StatusChunk>> next();

  /// A document of the last answer failed to decode: the following ends there.
  void stop();

 private:
  void drop_delivered(StatusChunk& chunk);
  void plan_after(const StatusChunk& chunk);

  std::shared_ptr<const ClientCore> core_;
  std::string status_path_;
  PollingPolicy policy_;
  CallOptions options_;
  Deadline deadline_;
  std::string what_;
  std::string target_;
  std::size_t received_ = 0;
  std::optional<std::string> first_key_;
  bool wait_first_ = false;  ///< The next request waits one interval.
  bool done_ = false;
  std::optional<Error> pending_;  ///< An error to report after the answer that caused it.
};

}  // namespace webdata::detail
