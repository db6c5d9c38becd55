// CrawlJob::watch: the crawl watcher's WebSocket when the service offers it, status polling
// otherwise (or after the socket breaks), resuming from the documents already delivered.
#include <algorithm>
#include <deque>
#include <memory>

#include "client_core.hpp"
#include "webdata/jobs.hpp"
#include "websocket_client.hpp"

namespace webdata {
namespace {

using detail::Deadline;

Error make_error(ErrorKind kind, std::string message) {
  Error err;
  err.kind = kind;
  err.message = std::move(message);
  err.retryable = kind == ErrorKind::kTimeout;
  return err;
}

bool same_progress(const JobStatus& a, const JobStatus& b) {
  return a.status == b.status && a.total == b.total && a.completed == b.completed &&
         a.credits_used == b.credits_used;
}

std::optional<std::string> job_error(const JobStatus& status) {
  const auto it = status.extras.find("error");
  if (it == status.extras.end()) return std::nullopt;
  return it->second.as_string();
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
        fail(make_error(ErrorKind::kCancelled, what_ + " cancelled by the caller"));
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
  detail::WebSocketClient::TimePoint socket_deadline() const {
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
    Headers headers;
    if (!core_->api_key().empty()) headers.emplace_back("Authorization", "Bearer " + core_->api_key());
    for (const auto& h : core_->default_headers()) headers.push_back(h);
    for (const auto& h : options_.headers) headers.push_back(h);
    auto timeout = policy_.connect_timeout;
    if (deadline_) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline_ - core_->clock().now());
      if (left.count() <= 0) return fail(make_error(ErrorKind::kTimeout, what_ + " timed out"));
      timeout = std::min(timeout, left);
    }
    const CancellationToken cancel = options_.cancel ? *options_.cancel : policy_.polling.cancel;
    auto socket = detail::WebSocketClient::connect(core_->api_url() + path_, headers, timeout,
                                                   policy_.max_message_bytes, cancel);
    if (socket.ok()) {
      socket_ = std::move(*socket);
      phase_ = Phase::kSocket;
      return;
    }
    const Error& err = socket.error();
    if (err.kind == ErrorKind::kCancelled) return fail(err);
    if (policy_.mode == WatchMode::kWebSocket) return fail(err);
    phase_ = Phase::kPolling;  // the service does not offer the watcher (or not reachably)
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
      // 1008 (unknown job, bad key, too slow) or a server going away: the status endpoint
      // either continues where the socket stopped or reports the error as HTTP does.
      return fall_back(make_error(ErrorKind::kTransport,
                                  "watcher closed with " + std::to_string(message->close_code) +
                                      " " + message->close_reason));
    }
    auto tree = detail::parse_body(message->text);
    if (!tree.ok() || !tree->is_object() || !tree->contains("type") ||
        !(*tree)["type"].is_string()) {
      return fall_back(make_error(ErrorKind::kParse, "unreadable watcher message"));
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
      if (auto e = job_error(known_)) error_ = e;
      emit(WatchEvent::Kind::kStatus);
      for (std::size_t i = delivered_; i < documents.size(); ++i) {
        ++delivered_;
        emit(WatchEvent::Kind::kDocument, std::move(documents[i]));
      }
    } else if (type == "document") {
      auto document = detail::decode_tree<Document>((*tree).value("data", detail::json::object()),
                                                    "watcher document");
      if (!document.ok()) return fall_back(document.error());
      ++delivered_;
      known_.completed = std::max<int>(known_.completed, static_cast<int>(delivered_));
      known_.total = std::max(known_.total, known_.completed);
      emit(WatchEvent::Kind::kDocument, std::move(*document));
    } else if (type == "error") {
      error_ = (*tree).value("error", std::string("the crawl failed"));
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
    if (auto e = job_error(known_)) error_ = e;
    emit(WatchEvent::Kind::kFinished);
    phase_ = Phase::kDone;
  }

  // One status request from the first document not yet delivered; waits an interval first
  // when the previous one brought nothing new.
  void poll() {
    if (idle_) {
      if (cancelled()) return fail(make_error(ErrorKind::kCancelled, what_ + " cancelled by the caller"));
      auto delay = policy_.polling.interval;
      if (deadline_) {
        const auto now = core_->clock().now();
        if (now >= *deadline_) return fail(make_error(ErrorKind::kTimeout, what_ + " timed out"));
        delay = std::min(delay, std::chrono::duration_cast<std::chrono::milliseconds>(*deadline_ - now));
      }
      core_->clock().sleep_for(delay, options_.cancel ? *options_.cancel : policy_.polling.cancel);
      if (cancelled()) return fail(make_error(ErrorKind::kCancelled, what_ + " cancelled by the caller"));
    }
    auto status = get("?skip=" + std::to_string(delivered_));
    if (!status.ok()) return fail(status.error());
    std::vector<Document> documents = std::move(status->data);
    const bool more = status->next.has_value();
    status->data.clear();
    status->next.reset();
    const bool changed = !started_ || !same_progress(*status, known_);
    started_ = true;
    known_ = std::move(*status);
    if (auto e = job_error(known_)) error_ = e;
    if (changed) emit(WatchEvent::Kind::kStatus);
    for (auto& document : documents) {
      ++delivered_;
      emit(WatchEvent::Kind::kDocument, std::move(document));
    }
    if (known_.status.is_terminal() && (!more || documents.empty())) {
      emit(WatchEvent::Kind::kFinished);
      phase_ = Phase::kDone;
      return;
    }
    idle_ = documents.empty();
  }

  std::shared_ptr<const detail::ClientCore> core_;
  std::string path_;
  std::string what_;
  WatchPolicy policy_;
  CallOptions options_;
  Deadline deadline_;
  Phase phase_ = Phase::kConnect;
  std::unique_ptr<detail::WebSocketClient> socket_;
  std::deque<Result<WatchEvent>> queue_;
  JobStatus known_;
  std::optional<std::string> error_;
  std::size_t delivered_ = 0;
  bool started_ = false;
  bool idle_ = false;
};

}  // namespace

Stream<WatchEvent> CrawlJob::watch(const WatchPolicy& policy, const CallOptions& options) const {
  auto cursor = std::make_shared<WatchCursor>(core(), resource(), id(), policy, options);
  return Stream<WatchEvent>([cursor] { return cursor->next(); });
}

}  // namespace webdata
