#include "app/handlers/handlers.hpp"
#include "core/json_text.hpp"

// The crawl watcher (wire-decisions 3): `GET /v1|v2/crawl/{id}` as a WebSocket upgrade. A
// catchup message with the status so far, a document message per page, and the close frame.

namespace webdata::mock::handlers {

using jobs::JobEngine;
using nlohmann::json;

namespace {

// Crawl watcher messages. As on the public service, the last word is the close frame's reason:
// `{"type":"done"}` with 1000, or `{"type":"error","error":...}` with 1008.
constexpr const char* kDoneMessage = R"({"type":"done"})";

std::string error_message(const std::string& error) {
  return json_text(json{{"type", "error"}, {"error", error}});
}

std::vector<std::string> split_protocols(const std::string& header) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= header.size()) {
    std::size_t end = header.find(',', start);
    if (end == std::string::npos) end = header.size();
    std::string token = header.substr(start, end - start);
    const auto first = token.find_first_not_of(" \t");
    const auto last = token.find_last_not_of(" \t");
    if (first != std::string::npos) out.push_back(token.substr(first, last - first + 1));
    start = end + 1;
  }
  return out;
}

/// The end of a watch: an error message first when the job failed, then close 1000 "done".
void end_watch(http::WebSocketConnection& connection, bool failed,
               const std::optional<std::string>& error) {
  if (failed) connection.send_text(error_message(error.value_or("The crawl failed")));
  connection.close(http::kCloseNormal, kDoneMessage);
}

/// The crawl id of a watcher path, or "" when the path is not one.
std::string watched_crawl_id(const std::string& path) {
  if (path.rfind("/v1/crawl/", 0) != 0 && path.rfind("/v2/crawl/", 0) != 0) return std::string();
  const std::string id = path.substr(std::string("/v1/crawl/").size());
  if (id.find('/') != std::string::npos || id == "active" || id == "ongoing") return std::string();
  return id;
}

/// Who is watching: the team (null when refused, with the refusal's text) and the accepted
/// subprotocol, echoed back.
struct Watcher {
  const Team* team = nullptr;
  std::string refusal;
  std::string protocol;
};

// The key comes as `Authorization: Bearer` or, from clients that cannot set headers (a
// browser's WebSocket), as the offered subprotocol; an accepted protocol is echoed.
Watcher authenticate_watcher(Teams& teams, const http::Request& request) {
  Watcher watcher;
  const auto offered = split_protocols(request.header("Sec-WebSocket-Protocol").value_or(""));
  if (const auto authorization = request.header("Authorization")) {
    const AuthResult auth = teams.authenticate(authorization);
    watcher.team = auth.team;
    watcher.refusal = auth.error;
    for (const auto& candidate : offered) {
      if (watcher.team != nullptr &&
          teams.authenticate("Bearer " + candidate).team == watcher.team) {
        watcher.protocol = candidate;
        break;
      }
    }
    return watcher;
  }
  for (const auto& candidate : offered) {
    if (const Team* found = teams.authenticate("Bearer " + candidate).team) {
      watcher.team = found;
      watcher.protocol = candidate;
      return watcher;
    }
  }
  watcher.refusal = offered.empty() ? "Unauthorized" : "Unauthorized: Invalid token";
  return watcher;
}

/// What a watcher is sent as the job goes on. Runs under the job's lock, on the thread that
/// scraped the page: it only queues.
jobs::WatchListener watch_listener(std::weak_ptr<http::WebSocketConnection> weak) {
  return [weak](jobs::JobEvent event, std::string_view document,
                const std::optional<std::string>& error) {
    const auto watcher = weak.lock();
    if (!watcher) return;
    switch (event) {
      case jobs::JobEvent::page:
        // The stored bytes as they are: what the status endpoint serves for this page.
        watcher->send_text(
            std::string("{\"type\":\"document\",\"data\":").append(document).append("}"));
        break;
      case jobs::JobEvent::completed:
        end_watch(*watcher, false, std::nullopt);
        break;
      case jobs::JobEvent::failed:
        end_watch(*watcher, true, error);
        break;
      case jobs::JobEvent::started:
        break;
    }
  };
}

/// The opened connection: refused, or subscribed to the crawl after its catchup message.
void open_watch(Services& s, const Watcher& watcher, const std::string& id,
                std::atomic<std::uint64_t>& subscription,
                const std::shared_ptr<http::WebSocketConnection>& connection) {
  if (watcher.team == nullptr) {
    return connection->close(http::kClosePolicy, error_message(watcher.refusal));
  }
  std::shared_ptr<jobs::Job> job;
  const auto lookup = s.jobs->find(id, watcher.team->id, jobs::JobKind::crawl, job);
  if (lookup != JobEngine::Lookup::found) {
    return connection->close(
        http::kClosePolicy,
        error_message(lookup == JobEngine::Lookup::expired ? "Job expired" : "Job not found"));
  }
  const auto snapshot = [&connection](const jobs::WatchSnapshot& snap) {
    connection->send_text("{\"type\":\"catchup\",\"data\":" + snap.body + "}");
    if (snap.state != jobs::JobState::scraping) {
      end_watch(*connection, snap.state == jobs::JobState::failed, snap.error);
    }
  };
  subscription.store(s.jobs->watch(job, snapshot, watch_listener(connection)));
}

}  // namespace

std::optional<http::WebSocketRoute> watch_crawl(Services& s, const http::Request& request) {
  if (request.method != "GET" || !s.watchers.enabled()) return std::nullopt;
  const std::string id = watched_crawl_id(request.path);
  if (id.empty()) return std::nullopt;
  const Watcher watcher = authenticate_watcher(s.teams, request);
  s.journal.record(request, 101, false, s.clock.now());

  http::WebSocketRoute route;
  route.subprotocol = watcher.protocol;
  route.limits = s.watchers.limits();
  auto subscription = std::make_shared<std::atomic<std::uint64_t>>(0);
  auto open = s.watchers.open();
  ++*open;
  route.on_open = [&s, watcher, id,
                   subscription](const std::shared_ptr<http::WebSocketConnection>& connection) {
    open_watch(s, watcher, id, *subscription, connection);
  };
  route.on_close = [&s, subscription, open] {
    if (const auto watching = subscription->exchange(0)) s.jobs->unwatch(watching);
    --*open;
  };
  return route;
}

}  // namespace webdata::mock::handlers
