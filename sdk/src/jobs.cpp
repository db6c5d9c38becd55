#include "webdata/jobs.hpp"

#include <algorithm>

#include "client_core.hpp"

namespace webdata {
namespace {

using detail::Call;
using detail::Deadline;

Error cancelled(const std::string& what) {
  Error err;
  err.kind = ErrorKind::kCancelled;
  err.message = what + " cancelled by the caller";
  return err;
}

Error timed_out(const std::string& what) {
  Error err;
  err.kind = ErrorKind::kTimeout;
  err.message = what + " did not end within the time allowed";
  err.retryable = true;
  return err;
}

constexpr const char* kStatusWhat = "job status";

Result<detail::StatusChunk> get_chunk(const detail::ClientCore& core, const std::string& target,
                                      const CallOptions& options, Deadline deadline) {
  Call call;
  call.target = target;
  return core.execute_status(call, options, deadline, kStatusWhat);
}

Result<JobStatus> get_status(const detail::ClientCore& core, const std::string& target,
                             const CallOptions& options, Deadline deadline) {
  auto chunk = get_chunk(core, target, options, deadline);
  if (!chunk.ok()) return chunk.error();
  return std::move(*chunk).take_all();
}

// Sleeps one polling interval unless the deadline or the token comes first.
std::optional<Error> pause(const detail::ClientCore& core, const PollingPolicy& policy,
                           Deadline deadline, const std::string& what) {
  if (policy.cancel.cancelled()) return cancelled(what);
  auto delay = policy.interval;
  if (deadline) {
    const auto now = core.clock().now();
    if (now >= *deadline) return timed_out(what);
    delay = std::min(delay, std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now));
  }
  core.clock().sleep_for(delay, policy.cancel);
  if (policy.cancel.cancelled()) return cancelled(what);
  return std::nullopt;
}

Deadline earlier(Deadline a, Deadline b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

}  // namespace

Job::Job(std::shared_ptr<const detail::ClientCore> core, std::string resource, JobStarted started)
    : core_(std::move(core)), resource_(std::move(resource)), started_(std::move(started)) {}

Result<JobStatus> Job::status(const CallOptions& options) const {
  return get_status(*core_, resource_ + "/" + detail::escape_segment(id()), options,
                    core_->deadline_for(options));
}

Result<JobStatus> Job::poll_until_done(const PollingPolicy& policy,
                                       const CallOptions& options) const {
  Deadline deadline = core_->deadline_for(options);
  if (policy.max_wait) deadline = earlier(deadline, core_->clock().now() + *policy.max_wait);
  const std::string what = "job " + id();
  // `limit=1` keeps each poll small; deployments that ignore it still answer one chunk.
  const std::string target = resource_ + "/" + detail::escape_segment(id()) + "?limit=1";
  for (;;) {
    auto st = get_status(*core_, target, options, deadline);
    if (!st.ok()) return st;
    if (st->status.is_terminal()) {
      st->data.clear();
      st->next.reset();
      return st;
    }
    if (auto stop = pause(*core_, policy, deadline, what)) return *stop;
  }
}

Result<JobStatus> Job::wait(const PollingPolicy& policy, const CallOptions& options) const {
  // One budget for the polls and the download that follows.
  CallOptions within = options;
  within.deadline = core_->deadline_for(options);
  if (policy.max_wait) {
    within.deadline = earlier(within.deadline, core_->clock().now() + *policy.max_wait);
  }
  within.total_timeout.reset();
  PollingPolicy unbounded = policy;
  unbounded.max_wait.reset();
  auto done = poll_until_done(unbounded, within);
  if (!done.ok()) return done;
  JobStatus all = std::move(*done);
  for (auto& page : pages(unbounded, within)) {
    if (!page.ok()) return page.error();
    std::move(page->data.begin(), page->data.end(), std::back_inserter(all.data));
    all.status = page->status;
    all.total = page->total;
    all.completed = page->completed;
    all.credits_used = page->credits_used;
    if (page->expires_at) all.expires_at = page->expires_at;
  }
  all.next.reset();
  return all;
}

namespace {

// Follows `next` one status chunk at a time; `pages()` decodes each chunk whole, `documents()`
// one document at a time, so that only the chunk's text and one document are held.
struct ChunkCursor {
  std::shared_ptr<const detail::ClientCore> core;
  PollingPolicy policy;
  CallOptions options;
  Deadline deadline;
  std::string what;
  std::string target;
  bool done = false;
  bool idle = false;  ///< Last chunk brought nothing and the job still ran.
  std::optional<Error> pending;

  std::optional<Result<detail::StatusChunk>> next() {
    if (pending) {
      done = true;
      Error err = std::move(*pending);
      pending.reset();
      return Result<detail::StatusChunk>(std::move(err));
    }
    if (done) return std::nullopt;
    if (idle) {
      if (auto stop = pause(*core, policy, deadline, what)) {
        done = true;
        return Result<detail::StatusChunk>(*stop);
      }
    }
    auto chunk = get_chunk(*core, target, options, deadline);
    if (!chunk.ok()) {
      done = true;
      return chunk;
    }
    const JobStatus& head = chunk->head();
    idle = chunk->size() == 0 && !head.status.is_terminal();
    if (head.next) {
      auto resolved = core->resolve_next(*head.next);
      if (resolved.ok()) {
        target = std::move(*resolved);
      } else {
        pending = resolved.error();  // this chunk is good; the failure comes next
      }
    } else {
      done = true;
    }
    return chunk;
  }

  /// A document of the last chunk failed to decode: the range ends with that error.
  void stop() {
    done = true;
    pending.reset();
  }
};

std::shared_ptr<ChunkCursor> chunk_cursor(const std::shared_ptr<const detail::ClientCore>& core,
                                          const std::string& resource, const std::string& id,
                                          const PollingPolicy& policy,
                                          const CallOptions& options) {
  auto cursor = std::make_shared<ChunkCursor>();
  cursor->core = core;
  cursor->policy = policy;
  cursor->options = options;
  cursor->deadline = core->deadline_for(options);
  if (policy.max_wait) {
    cursor->deadline = earlier(cursor->deadline, core->clock().now() + *policy.max_wait);
  }
  cursor->what = "job " + id;
  cursor->target = resource + "/" + detail::escape_segment(id);
  return cursor;
}

}  // namespace

Stream<JobStatus> Job::pages(const PollingPolicy& policy, const CallOptions& options) const {
  auto cursor = chunk_cursor(core_, resource_, id(), policy, options);
  return Stream<JobStatus>([cursor]() -> std::optional<Result<JobStatus>> {
    auto chunk = cursor->next();
    if (!chunk) return std::nullopt;
    if (!chunk->ok()) return Result<JobStatus>(chunk->error());
    auto page = std::move(**chunk).take_all();
    if (!page.ok()) cursor->stop();
    return page;
  });
}

Stream<Document> Job::documents(const PollingPolicy& policy, const CallOptions& options) const {
  struct DocumentCursor {
    std::shared_ptr<ChunkCursor> chunks;
    std::optional<detail::StatusChunk> chunk;
    std::size_t index = 0;

    std::optional<Result<Document>> next() {
      for (;;) {
        if (chunk && index < chunk->size()) {
          auto doc = chunk->document(index++);
          if (!doc.ok()) {
            chunks->stop();
            chunk.reset();
          }
          return doc;
        }
        chunk.reset();  // the finished chunk's text goes before the next one arrives
        auto next = chunks->next();
        if (!next) return std::nullopt;
        if (!next->ok()) return Result<Document>(next->error());
        chunk = std::move(**next);
        index = 0;
      }
    }
  };
  auto cursor = std::make_shared<DocumentCursor>();
  cursor->chunks = chunk_cursor(core_, resource_, id(), policy, options);
  return Stream<Document>([cursor] { return cursor->next(); });
}

Result<JobState> Job::cancel(const CallOptions& options) const {
  Call call;
  call.method = "DELETE";
  call.target = resource_ + "/" + detail::escape_segment(id());
  auto tree = core_->execute_json(call, options, core_->deadline_for(options));
  if (!tree.ok()) return tree.error();
  // Deployments omit `success`; the state is what counts.
  if (tree->is_object() && tree->contains("status") && (*tree)["status"].is_string()) {
    return JobState((*tree)["status"].get<std::string>());
  }
  return JobState::cancelled();
}

Result<JobErrors> Job::errors(const CallOptions& options) const {
  Call call;
  call.target = resource_ + "/" + detail::escape_segment(id()) + "/errors";
  return detail::decode_response<JobErrors>(
      core_->execute_json(call, options, core_->deadline_for(options)), "job errors");
}

CrawlJob::CrawlJob(std::shared_ptr<const detail::ClientCore> core, ApiVersion version,
                   JobStarted started)
    : CrawlJob(std::move(core), std::string(to_string(version)), std::move(started)) {}

CrawlJob::CrawlJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                   JobStarted started)
    : Job(std::move(core), "/" + version + "/crawl", std::move(started)) {}

BatchScrapeJob::BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core,
                               ApiVersion version, JobStarted started)
    : BatchScrapeJob(std::move(core), std::string(to_string(version)), std::move(started)) {}

BatchScrapeJob::BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                               JobStarted started)
    : Job(std::move(core), "/" + version + "/batch/scrape", std::move(started)) {}

}  // namespace webdata
