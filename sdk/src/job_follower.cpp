#include "job_follower.hpp"

#include <algorithm>

#include "webdata/serialize.hpp"

namespace webdata::detail {

Error cancelled_by_caller(const std::string& what) {
  return error_of(ErrorKind::kCancelled, what + " cancelled by the caller");
}

Error did_not_end_in_time(const std::string& what) {
  return error_of(ErrorKind::kTimeout, what + " did not end within the time allowed", true);
}

std::optional<Error> pause_between_polls(const ClientCore& core, const PollingPolicy& policy,
                                         const CancellationToken& cancel, Deadline deadline,
                                         const std::string& what) {
  const auto stopped = [&] { return policy.cancel.cancelled() || cancel.cancelled(); };
  if (stopped()) return cancelled_by_caller(what);
  auto delay = policy.interval;
  if (deadline) {
    const auto now = core.clock().now();
    if (now >= *deadline) return did_not_end_in_time(what);
    delay = std::min(delay, std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now));
  }
  core.clock().sleep_for(delay, cancel);
  if (stopped()) return cancelled_by_caller(what);
  return std::nullopt;
}

std::string document_key(const Document& doc) {
  if (doc.metadata.scrape_id) return "scrapeId " + *doc.metadata.scrape_id;
  return to_json(doc).text();
}

JobFollower::JobFollower(std::shared_ptr<const ClientCore> core, std::string status_path,
                         PollingPolicy policy, CallOptions options, std::string what)
    : core_(std::move(core)),
      status_path_(std::move(status_path)),
      policy_(std::move(policy)),
      options_(std::move(options)),
      deadline_(wait_deadline(*core_, policy_, options_)),
      what_(std::move(what)),
      target_(status_path_) {}

void JobFollower::resume(std::size_t received, std::optional<std::string> first_key) {
  received_ = received;
  first_key_ = std::move(first_key);
  if (received_ > 0) target_ = status_path_ + "?skip=" + std::to_string(received_);
}

std::optional<Result<StatusChunk>> JobFollower::next() {
  if (pending_) {
    done_ = true;
    Error err = std::move(*pending_);
    pending_.reset();
    return Result<StatusChunk>(std::move(err));
  }
  if (done_) return std::nullopt;
  if (wait_first_) {
    const CancellationToken cancel = options_.cancel ? *options_.cancel : policy_.cancel;
    if (auto stop = pause_between_polls(*core_, policy_, cancel, deadline_, what_)) {
      done_ = true;
      return Result<StatusChunk>(std::move(*stop));
    }
  }
  Call call;
  call.target = target_;
  auto chunk = core_->execute_status(call, options_, deadline_, "job status");
  if (!chunk.ok()) {
    done_ = true;
    return chunk;
  }
  drop_delivered(*chunk);
  received_ += chunk->size();
  plan_after(*chunk);
  return chunk;
}

// A deployment that ignores `skip` answers from the job's first document again: the answer is
// recognised by that document, and what was delivered before is dropped from its front.
void JobFollower::drop_delivered(StatusChunk& chunk) {
  if (chunk.size() == 0) return;
  if (received_ > 0 && !first_key_) return;  // resumed without knowing the first document
  auto first = chunk.document(0);
  if (!first.ok()) return;  // the caller meets that error when it reads the document
  std::string key = document_key(*first);
  if (received_ == 0) {
    first_key_ = std::move(key);
  } else if (key == *first_key_) {
    chunk.drop_front(std::min(received_, chunk.size()));
  }
}

// Where the next answer comes from, and whether there is one.
void JobFollower::plan_after(const StatusChunk& chunk) {
  const JobStatus& head = chunk.head();
  const bool terminal = head.status.is_terminal();
  const bool brought = chunk.size() > 0;
  if (head.next && (brought || !terminal)) {
    auto resolved = core_->resolve_next(*head.next);
    if (!resolved.ok()) {
      pending_ = resolved.error();  // this answer is good; the failure comes next
      return;
    }
    // A finished job whose `next` asks again for what was just answered has nothing more.
    done_ = terminal && *resolved == target_;
    target_ = std::move(*resolved);
    wait_first_ = !brought;  // still running, nothing new yet: the same `skip` again, later
    return;
  }
  if (terminal) {
    done_ = true;
    return;
  }
  // Running without `next` (before the first page, or while every queued page is done).
  target_ = status_path_ + "?skip=" + std::to_string(received_);
  wait_first_ = true;
}

void JobFollower::stop() {
  done_ = true;
  pending_.reset();
}

}  // namespace webdata::detail
