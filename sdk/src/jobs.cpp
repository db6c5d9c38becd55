#include "webdata/jobs.hpp"

#include <algorithm>

#include "job_follower.hpp"

namespace webdata {
namespace {

using detail::Call;
using detail::Deadline;

constexpr const char* kStatusWhat = "job status";

Result<JobStatus> get_status(const detail::ClientCore& core, const std::string& target,
                             const CallOptions& options, Deadline deadline) {
  auto chunk = core.execute_status(detail::get(target), options, deadline, kStatusWhat);
  if (!chunk.ok()) return chunk.error();
  return std::move(*chunk).take_all();
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
  const Deadline deadline = detail::wait_deadline(*core_, policy, options);
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
    if (auto stop = detail::pause_between_polls(*core_, policy, policy.cancel, deadline, what)) {
      return *stop;
    }
  }
}

Result<JobStatus> Job::wait(const PollingPolicy& policy, const CallOptions& options) const {
  // One budget for the polls and the download that follows.
  CallOptions within = options;
  within.deadline = detail::wait_deadline(*core_, policy, options);
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

// `pages()` decodes each status answer whole, `documents()` one document at a time, so that only
// the answer's text and one document are held.
std::shared_ptr<detail::JobFollower> follow(const std::shared_ptr<const detail::ClientCore>& core,
                                            const std::string& resource, const std::string& id,
                                            const PollingPolicy& policy,
                                            const CallOptions& options) {
  return std::make_shared<detail::JobFollower>(core, resource + "/" + detail::escape_segment(id),
                                               policy, options, "job " + id);
}

}  // namespace

Stream<JobStatus> Job::pages(const PollingPolicy& policy, const CallOptions& options) const {
  auto cursor = follow(core_, resource_, id(), policy, options);
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
    std::shared_ptr<detail::JobFollower> chunks;
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
  cursor->chunks = follow(core_, resource_, id(), policy, options);
  return Stream<Document>([cursor] { return cursor->next(); });
}

Result<JobState> Job::cancel(const CallOptions& options) const {
  const Call call = detail::json_call("DELETE", resource_ + "/" + detail::escape_segment(id()));
  auto tree = core_->execute_json(call, options, core_->deadline_for(options));
  if (!tree.ok()) return tree.error();
  // Deployments omit `success`; the state is what counts.
  if (tree->is_object() && tree->contains("status") && (*tree)["status"].is_string()) {
    return JobState((*tree)["status"].get<std::string>());
  }
  return JobState::cancelled();
}

Result<JobErrors> Job::errors(const CallOptions& options) const {
  const Call call = detail::get(resource_ + "/" + detail::escape_segment(id()) + "/errors");
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
