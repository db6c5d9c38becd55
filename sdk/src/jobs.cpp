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

Result<JobStatus> get_status(const detail::ClientCore& core, const std::string& target,
                             const CallOptions& options, Deadline deadline) {
  Call call;
  call.target = target;
  return detail::decode_response<JobStatus>(core.execute_json(call, options, deadline),
                                            "job status");
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

struct PageCursor {
  std::shared_ptr<const detail::ClientCore> core;
  PollingPolicy policy;
  CallOptions options;
  Deadline deadline;
  std::string what;
  std::string target;
  bool done = false;
  bool idle = false;  ///< Last chunk brought nothing and the job still ran.
  std::optional<Error> pending;

  std::optional<Result<JobStatus>> next() {
    if (pending) {
      done = true;
      Error err = std::move(*pending);
      pending.reset();
      return Result<JobStatus>(std::move(err));
    }
    if (done) return std::nullopt;
    if (idle) {
      if (auto stop = pause(*core, policy, deadline, what)) {
        done = true;
        return Result<JobStatus>(*stop);
      }
    }
    auto chunk = get_status(*core, target, options, deadline);
    if (!chunk.ok()) {
      done = true;
      return chunk;
    }
    idle = chunk->data.empty() && !chunk->status.is_terminal();
    if (chunk->next) {
      auto resolved = core->resolve_next(*chunk->next);
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
};

}  // namespace

Stream<JobStatus> Job::pages(const PollingPolicy& policy, const CallOptions& options) const {
  auto cursor = std::make_shared<PageCursor>();
  cursor->core = core_;
  cursor->policy = policy;
  cursor->options = options;
  cursor->deadline = core_->deadline_for(options);
  if (policy.max_wait) {
    cursor->deadline = earlier(cursor->deadline, core_->clock().now() + *policy.max_wait);
  }
  cursor->what = "job " + id();
  cursor->target = resource_ + "/" + detail::escape_segment(id());
  return Stream<JobStatus>([cursor] { return cursor->next(); });
}

Stream<Document> Job::documents(const PollingPolicy& policy, const CallOptions& options) const {
  struct DocumentCursor {
    Stream<JobStatus> pages;
    Stream<JobStatus>::iterator it;
    bool started = false;
    std::vector<Document> chunk;
    std::size_t index = 0;

    std::optional<Result<Document>> next() {
      while (index >= chunk.size()) {
        if (!started) {
          started = true;
          it = pages.begin();
        } else {
          ++it;
        }
        if (it == pages.end()) return std::nullopt;
        if (!it->ok()) return Result<Document>(it->error());
        chunk = std::move((*it)->data);
        index = 0;
      }
      return Result<Document>(std::move(chunk[index++]));
    }
  };
  auto cursor =
      std::make_shared<DocumentCursor>(DocumentCursor{pages(policy, options), {}, false, {}, 0});
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

CrawlJob::CrawlJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                   JobStarted started)
    : Job(std::move(core), "/" + version + "/crawl", std::move(started)) {}

BatchScrapeJob::BatchScrapeJob(std::shared_ptr<const detail::ClientCore> core, std::string version,
                               JobStarted started)
    : Job(std::move(core), "/" + version + "/batch/scrape", std::move(started)) {}

}  // namespace webdata
