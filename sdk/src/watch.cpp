// CrawlJob::watch: the crawl watcher's WebSocket (ws or wss) when the service offers it, status
// polling otherwise (or after the socket breaks), resuming from the documents already delivered.
#include <algorithm>
#include <deque>
#include <memory>

#include "job_follower.hpp"
#include "webdata/jobs.hpp"
#include "watch_socket.hpp"

namespace webdata {
namespace {

using detail::Deadline;

bool same_progress(const JobStatus& a, const JobStatus& b) {
  return a.status == b.status && a.total == b.total && a.completed == b.completed &&
         a.credits_used == b.credits_used;
}

// Auto mode falls back to polling only when the service does not offer the watcher: it
// declined the upgrade (any HTTP status but an authentication refusal) or never completed it.
// A TLS failure, a refused key or proxy, a bad URL are errors: polling would hide them or
// fail the same way less clearly.
bool watcher_not_offered(const Error& err) {
  if (err.kind == ErrorKind::kHttp) {
    return err.http_status != 401 && err.http_status != 403 && err.http_status != 407;
  }
  return false;
}

// The `error` of a watcher close reason (`{"type":"error","error":"..."}`), else the reason.
std::string close_message(const std::string& reason) {
  auto tree = detail::parse_body(reason);
  if (tree.ok() && tree->is_object() && tree->contains("error") && (*tree)["error"].is_string()) {
    return (*tree)["error"].get<std::string>();
  }
  return reason;
}

class WatchCursor {
 public:
  WatchCursor(std::shared_ptr<const detail::ClientCore> core, std::string resource, std::string id,
              WatchPolicy policy, CallOptions options)
      : core_(std::move(core)),
        path_(std::move(resource) + "/" + detail::escape_segment(id)),
        what_("watch of crawl " + id),
        policy_(std::move(policy)),
        options_(std::move(options)) {
    deadline_ = core_->deadline_for(options_);
    if (policy_.polling.max_wait) {
      const auto end = core_->clock().now() + *policy_.polling.max_wait;
      deadline_ = deadline_ ? std::min(*deadline_, end) : end;
    }
    options_.deadline = deadline_;
    options_.total_timeout.reset();
    if (!options_.cancel) options_.cancel = policy_.polling.cancel;
    phase_ = policy_.mode == WatchMode::kPolling ? Phase::kPolling : Phase::kConnect;
  }

  ~WatchCursor() {
    if (socket_) socket_->close(1000);  // the caller stopped reading: say goodbye
  }

  std::optional<Result<WatchEvent>> next() {
    while (queue_.empty()) {
      if (phase_ == Phase::kDone) return std::nullopt;
      if (cancelled()) {
        fail(detail::cancelled_by_caller(what_));
        continue;
      }
      switch (phase_) {
        case Phase::kConnect: connect(); break;
        case Phase::kSocket: read_socket(); break;
        case Phase::kPolling: poll(); break;
        case Phase::kDone: break;
      }
    }
    auto event = std::move(queue_.front());
    queue_.pop_front();
    return event;
  }

 private:
  enum class Phase { kConnect, kSocket, kPolling, kDone };

  bool cancelled() const {
    return policy_.polling.cancel.cancelled() || (options_.cancel && options_.cancel->cancelled());
  }

  void fail(Error error) {
    if (socket_) socket_->close(1000);
    socket_.reset();
    queue_.emplace_back(std::move(error));
    phase_ = Phase::kDone;
  }

  // The deadline on the steady clock the socket waits on (the client's clock may be a test's).
  detail::WatchSocket::TimePoint socket_deadline() const {
    const auto now = std::chrono::steady_clock::now();
    if (!deadline_) return now + std::chrono::hours(24 * 365);
    const auto left = *deadline_ - core_->clock().now();
    return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::max(left, decltype(left)::zero()));
  }

  void emit(WatchEvent::Kind kind, std::optional<Document> document = std::nullopt) {
    WatchEvent event;
    event.kind = kind;
    event.status = known_;
    event.document = std::move(document);
    event.error = error_;
    event.websocket = phase_ == Phase::kSocket;
    queue_.emplace_back(std::move(event));
  }

  void connect() {
    detail::WatchSocketSettings settings;
    settings.connection = core_->connection_options();
    if (!core_->api_key().empty()) {
      settings.headers.emplace_back("Authorization", "Bearer " + core_->api_key());
    }
    for (const auto& h : core_->default_headers()) settings.headers.push_back(h);
    for (const auto& h : options_.headers) settings.headers.push_back(h);
    settings.open_timeout = policy_.connect_timeout;
    settings.max_message_bytes = policy_.max_message_bytes;
    if (deadline_) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline_ - core_->clock().now());
      if (left.count() <= 0)
        return fail(detail::error_of(ErrorKind::kTimeout, what_ + " timed out", true));
      settings.open_timeout = std::min(settings.open_timeout, left);
    }
    const std::string url = core_->api_url() + path_;
    if (auto why = detail::WatchSocket::unsupported_proxy(url, settings.connection)) {
      // libcurl speaks that proxy, so status polling still reaches the service.
      if (policy_.mode == WatchMode::kWebSocket) {
        return fail(detail::error_of(ErrorKind::kInvalidArgument, *why));
      }
      phase_ = Phase::kPolling;
      return;
    }
    const CancellationToken cancel = options_.cancel ? *options_.cancel : policy_.polling.cancel;
    auto socket = detail::WatchSocket::connect(url, settings, cancel);
    if (socket.ok()) {
      socket_ = std::move(*socket);
      phase_ = Phase::kSocket;
      return;
    }
    Error err = socket.error();
    if (policy_.mode == WatchMode::kAuto && watcher_not_offered(err)) {
      phase_ = Phase::kPolling;
      return;
    }
    // The opening ran out of the watch's own time, not just its connect budget.
    if (err.kind == ErrorKind::kTimeout && policy_.mode == WatchMode::kAuto &&
        (!deadline_ || core_->clock().now() < *deadline_)) {
      phase_ = Phase::kPolling;  // an upgrade that never completes: a watcher not offered
      return;
    }
    fail(std::move(err));
  }

  // Over the WebSocket: catchup, documents, then the close. Anything unexpected hands over to
  // polling, which resumes after the documents already delivered.
  void read_socket() {
    const CancellationToken cancel = options_.cancel ? *options_.cancel : policy_.polling.cancel;
    auto message = socket_->next(socket_deadline(), cancel);
    if (!message.ok()) {
      const Error& err = message.error();
      if (err.kind == ErrorKind::kCancelled || err.kind == ErrorKind::kTimeout) return fail(err);
      return fall_back(err);
    }
    if (message->closed) {
      socket_.reset();
      if (message->close_code == 1000) return finish();
      // The service's own authentication refusals (3000 unauthorized, 3003 forbidden) are
      // errors as their HTTP counterparts are, not a reason to poll.
      if (message->close_code == 3000 || message->close_code == 3003) {
        Error err = detail::error_of(ErrorKind::kHttp, close_message(message->close_reason));
        err.http_status = message->close_code == 3000 ? 401 : 403;
        return fail(std::move(err));
      }
      // 1008 (unknown job, bad key, too slow) or a server going away: the status endpoint
      // either continues where the socket stopped or reports the error as HTTP does.
      return fall_back(detail::error_of(
          ErrorKind::kTransport, "watcher closed with " + std::to_string(message->close_code) +
                                     " " + message->close_reason));
    }
    auto tree = detail::parse_body(message->text);
    if (!tree.ok() || !tree->is_object() || !tree->contains("type") ||
        !(*tree)["type"].is_string()) {
      return fall_back(detail::error_of(ErrorKind::kParse, "unreadable watcher message"));
    }
    const std::string type = (*tree)["type"].get<std::string>();
    if (type == "catchup") {
      auto status = detail::decode_tree<JobStatus>((*tree).value("data", detail::json::object()),
                                                   "watcher catchup");
      if (!status.ok()) return fall_back(status.error());
      std::vector<Document> documents = std::move(status->data);
      status->data.clear();
      status->next.reset();
      known_ = std::move(*status);
      if (known_.error) error_ = known_.error;
      emit(WatchEvent::Kind::kStatus);
      for (std::size_t i = delivered_; i < documents.size(); ++i) deliver(std::move(documents[i]));
    } else if (type == "document") {
      auto document = detail::decode_tree<Document>((*tree).value("data", detail::json::object()),
                                                    "watcher document");
      if (!document.ok()) return fall_back(document.error());
      known_.completed = std::max<int>(known_.completed, static_cast<int>(delivered_ + 1));
      known_.total = std::max(known_.total, known_.completed);
      deliver(std::move(*document));
    } else if (type == "error") {
      error_ = (*tree).value("error", std::string("the crawl failed"));
      known_.error = error_;
    } else if (type == "done") {
      socket_->close(1000);
      socket_.reset();
      finish();
    }
    // Other types are newer than this SDK: ignored.
  }

  void fall_back(const Error& why) {
    if (socket_) socket_->close(1000);
    socket_.reset();
    if (policy_.mode == WatchMode::kWebSocket) return fail(why);
    phase_ = Phase::kPolling;
  }

  Result<JobStatus> get(const std::string& query) {
    detail::Call call;
    call.target = path_ + query;
    auto chunk = core_->execute_status(call, options_, deadline_, "job status");
    if (!chunk.ok()) return chunk.error();
    return std::move(*chunk).take_all();
  }

  // The watcher said done: one small status request for the final state and counters (past the
  // documents already delivered, so it carries none of them again).
  void finish() {
    auto status = get("?skip=" + std::to_string(delivered_) + "&limit=1");
    if (!status.ok()) return fail(status.error());
    status->data.clear();
    status->next.reset();
    known_ = std::move(*status);
    if (known_.error) error_ = known_.error;
    if (!known_.error) known_.error = error_;
    emit(WatchEvent::Kind::kFinished);
    phase_ = Phase::kDone;
  }

  // One status answer through the job follower (from the first document not yet delivered,
  // the job's state deciding when to ask again and when it ended).
  void poll() {
    if (!follower_) {
      follower_ = std::make_unique<detail::JobFollower>(core_, path_, policy_.polling, options_,
                                                        what_);
      follower_->resume(delivered_, first_key_);
    }
    auto chunk = follower_->next();
    if (!chunk) {
      emit(WatchEvent::Kind::kFinished);
      phase_ = Phase::kDone;
      return;
    }
    if (!chunk->ok()) return fail(chunk->error());
    auto status = std::move(**chunk).take_all();
    if (!status.ok()) return fail(status.error());
    std::vector<Document> documents = std::move(status->data);
    status->data.clear();
    status->next.reset();
    const bool changed = !started_ || !same_progress(*status, known_);
    started_ = true;
    known_ = std::move(*status);
    if (known_.error) error_ = known_.error;
    if (changed) emit(WatchEvent::Kind::kStatus);
    for (auto& document : documents) deliver(std::move(document));
  }

  // One document to the caller; the first one is remembered, to recognise a deployment that
  // answers polls from the job's first document whatever `skip` says.
  void deliver(Document document) {
    if (delivered_ == 0) first_key_ = detail::document_key(document);
    ++delivered_;
    emit(WatchEvent::Kind::kDocument, std::move(document));
  }

  std::shared_ptr<const detail::ClientCore> core_;
  std::string path_;
  std::string what_;
  WatchPolicy policy_;
  CallOptions options_;
  Deadline deadline_;
  Phase phase_ = Phase::kConnect;
  std::unique_ptr<detail::WatchSocket> socket_;
  std::deque<Result<WatchEvent>> queue_;
  JobStatus known_;
  std::optional<std::string> error_;
  std::size_t delivered_ = 0;
  std::optional<std::string> first_key_;  ///< `document_key` of the first document delivered.
  std::unique_ptr<detail::JobFollower> follower_;
  bool started_ = false;
};

}  // namespace

Stream<WatchEvent> CrawlJob::watch(const WatchPolicy& policy, const CallOptions& options) const {
  auto cursor = std::make_shared<WatchCursor>(core(), resource(), id(), policy, options);
  return Stream<WatchEvent>([cursor] { return cursor->next(); });
}

}  // namespace webdata
