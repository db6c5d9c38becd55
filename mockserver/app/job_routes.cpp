#include <charconv>
#include <tuple>

#include "app/mock_server.hpp"
#include "core/ids.hpp"
#include "core/time.hpp"
#include "jobs/crawl_rules.hpp"
#include "core/url.hpp"
#include "core/json_text.hpp"

// Crawl and batch scrape endpoints, v1 and v2 (specification 4.4-4.8, wire-decisions 3).

namespace webdata::mock {

using nlohmann::json;
using jobs::JobEngine;
using jobs::JobKind;

namespace {

/// Parses a non-negative integer query parameter; nullopt when absent, error text when bad.
std::optional<std::string> read_count(const http::Request& request, const char* name,
                                      std::size_t min, std::size_t max, std::size_t& out) {
  const auto value = request.query_param(name);
  if (!value) return std::nullopt;
  std::size_t n = 0;
  const auto* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, n);
  if (value->empty() || ec != std::errc() || ptr != end || n < min || n > max) {
    return std::string("query parameter '") + name + "' must be an integer from " +
           std::to_string(min) + " to " + std::to_string(max);
  }
  out = n;
  return std::nullopt;
}

http::Response not_found_or_expired(JobEngine::Lookup lookup) {
  return http::Response::error(404, lookup == JobEngine::Lookup::expired ? "Job expired"
                                                                         : "Job not found");
}

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

/// `{"type":"catchup","data":<status response with every document so far>}`; job lock held.
/// The end of a watch: an error message first when the job failed, then close 1000 "done".
void end_watch(http::WebSocketConnection& connection, bool failed,
               const std::optional<std::string>& error) {
  if (failed) connection.send_text(error_message(error.value_or("The crawl failed")));
  connection.close(http::kCloseNormal, kDoneMessage);
}

}  // namespace

http::Response MockServer::start_batch(ApiCall& call,
                                       std::shared_ptr<const requests::BatchScrapeRequest> request) {
  // URLs the service would refuse are listed in `invalidURLs` when ignoreInvalidURLs is set
  // (without it, the checks refused them already).
  std::vector<std::string> valid;
  json invalid = json::array();
  for (const auto& url : request->urls) {
    if (requests::url_issues(url, json::array()).empty()) {
      valid.push_back(url);
    } else {
      invalid.push_back(url);
    }
  }
  if (auto refused = check_scrape_options(request->options, call.team)) return *refused;
  if (auto refused = check_webhook(request->webhook)) return *refused;
  const bool list_invalid = request->ignore_invalid_urls;
  std::string id;
  if (request->append_to_id) {
    // appendToId: the URLs join the team's existing batch (another team's id is not found,
    // where the service does not check ownership: no access to another team's results).
    id = *request->append_to_id;
    switch (jobs_->append_batch(call.team, id, request->options, valid)) {
      case JobEngine::AppendOutcome::appended:
        break;
      case JobEngine::AppendOutcome::not_found:
        return http::Response::error(404, "Job not found");
      case JobEngine::AppendOutcome::expired:
        return http::Response::error(404, "Job expired");
      case JobEngine::AppendOutcome::already_finished:
        return http::Response::error(409, "Job already finished");
    }
  } else {
    id = jobs_->start_batch(call.team, std::move(request), valid)->id;
  }
  json out = {{"success", true},
              {"id", id},
              {"url", public_base(call.request) + "/" + call.version + "/batch/scrape/" + id}};
  // v2 always reports invalidURLs when ignoring them; v1 leaves the field out unless asked.
  if (list_invalid) out["invalidURLs"] = invalid;
  return http::Response::json(200, out);
}

std::string MockServer::public_base(const http::Request& request) const {
  const auto host = request.header("Host");
  if (!host || host->empty()) return base_url();
  return request.scheme + "://" + *host;
}

std::optional<http::Response> MockServer::check_scrape_options(
    const requests::ScrapeOptions& options, const Team& team) const {
  if (auto refused = scraper_->check(options, team)) return failure_answer(*refused);
  return std::nullopt;
}

http::Response MockServer::failure_answer(const scrape::Failure& failure) {
  return http::Response::error(failure.http_status, failure.message, failure.code,
                               failure.details);
}

void MockServer::add_job_routes() {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    const std::string v = requests::version_name(version);
    // ---- crawl
    api<requests::CrawlRequest>(
        "POST", "/" + v + "/crawl", version, Credits::checked,
        [this](ApiCall& call, std::shared_ptr<const requests::CrawlRequest> request) {
          for (const auto& [key, patterns] :
               {std::pair<const char*, const std::vector<std::string>&>{"includePaths",
                                                                        request->include_paths},
                {"excludePaths", request->exclude_paths}}) {
            if (auto bad = jobs::check_patterns(patterns)) {
              return http::Response::error(400, std::string(key) + ": " + *bad, "BAD_REQUEST",
                                           json::array({{{"code", "invalid_string"},
                                                         {"path", json::array({key})},
                                                         {"message", *bad}}}));
            }
          }
          requests::ScrapeOptions scrape_options = request->scrape_options;
          if (request->zero_data_retention) scrape_options.zero_data_retention = true;
          if (auto refused = check_scrape_options(scrape_options, call.team)) return *refused;
          if (auto refused = check_webhook(request->webhook)) return *refused;
          const auto job = jobs_->start_crawl(call.team, std::move(request));
          return http::Response::json(200, {{"success", true},
                                            {"id", job->id},
                                            {"url", public_base(call.request) + "/" +
                                                        call.version + "/crawl/" + job->id}});
        });
    // `ongoing` is the service's older name of `active`; both are registered before {id}.
    for (const char* name : {"active", "ongoing"}) {
      api("GET", "/" + v + "/crawl/" + name, [this](ApiCall& call) {
        json crawls = json::array();
        for (const auto& job : jobs_->active_crawls(call.team.id)) {
          crawls.push_back(jobs_->active_entry(*job));
        }
        return http::Response::json(200, {{"success", true}, {"crawls", crawls}});
      });
    }
    add_job_resource_routes("/" + v + "/crawl", JobKind::crawl);

    // ---- batch scrape
    api<requests::BatchScrapeRequest>(
        "POST", "/" + v + "/batch/scrape", version, Credits::checked,
        [this](ApiCall& call, std::shared_ptr<const requests::BatchScrapeRequest> request) {
          return start_batch(call, std::move(request));
        });
    add_job_resource_routes("/" + v + "/batch/scrape", JobKind::batch_scrape);
  }
  // The specification writes the errors path once without a version: an alias of v2.
  api("GET", "/crawl/{id}/errors",
      [this](ApiCall& call) { return job_errors(call, JobKind::crawl); });
}

http::Response MockServer::job_errors(ApiCall& call, JobKind kind) {
  std::shared_ptr<jobs::Job> job;
  const auto lookup = jobs_->find(call.params.at("id"), call.team.id, kind, job);
  // Unlike its status, a job's errors answer another team that the job exists.
  if (lookup == JobEngine::Lookup::other_team) return http::Response::error(403, "Forbidden");
  if (lookup != JobEngine::Lookup::found) return not_found_or_expired(lookup);
  return http::Response::json(200, jobs_->errors_body(*job));
}

std::optional<http::WebSocketRoute> MockServer::watch_crawl(const http::Request& request) {
  if (request.method != "GET" || !watcher_enabled_) return std::nullopt;
  const std::string& path = request.path;
  if (path.rfind("/v1/crawl/", 0) != 0 && path.rfind("/v2/crawl/", 0) != 0) return std::nullopt;
  const std::string id = path.substr(std::string("/v1/crawl/").size());
  if (id.empty() || id.find('/') != std::string::npos || id == "active" || id == "ongoing") {
    return std::nullopt;
  }

  // The key comes as `Authorization: Bearer` or, from clients that cannot set headers (a
  // browser's WebSocket), as the offered subprotocol; an accepted protocol is echoed.
  const Team* team = nullptr;
  std::string refusal;
  std::string protocol;
  const auto offered = split_protocols(request.header("Sec-WebSocket-Protocol").value_or(""));
  if (const auto authorization = request.header("Authorization")) {
    const AuthResult auth = teams_.authenticate(authorization);
    team = auth.team;
    refusal = auth.error;
    for (const auto& candidate : offered) {
      if (team != nullptr && teams_.authenticate("Bearer " + candidate).team == team) {
        protocol = candidate;
        break;
      }
    }
  } else if (!offered.empty()) {
    for (const auto& candidate : offered) {
      if (const Team* found = teams_.authenticate("Bearer " + candidate).team) {
        team = found;
        protocol = candidate;
        break;
      }
    }
    if (team == nullptr) refusal = "Unauthorized: Invalid token";
  } else {
    refusal = "Unauthorized";
  }
  journal_.record(request, 101, false, clock_.now());

  http::WebSocketRoute route;
  route.subprotocol = protocol;
  {
    std::lock_guard<std::mutex> lock(watcher_mutex_);
    route.limits = watcher_limits_;
  }
  auto subscription = std::make_shared<std::atomic<std::uint64_t>>(0);
  auto open = open_watchers_;
  ++*open;
  route.on_open = [this, team, refusal, id,
                   subscription](const std::shared_ptr<http::WebSocketConnection>& connection) {
    if (team == nullptr) return connection->close(http::kClosePolicy, error_message(refusal));
    std::shared_ptr<jobs::Job> job;
    const auto lookup = jobs_->find(id, team->id, JobKind::crawl, job);
    if (lookup != JobEngine::Lookup::found) {
      return connection->close(http::kClosePolicy,
                               error_message(lookup == JobEngine::Lookup::expired
                                                 ? "Job expired"
                                                 : "Job not found"));
    }
    std::weak_ptr<http::WebSocketConnection> weak = connection;
    const auto snapshot = [&connection](const jobs::WatchSnapshot& snap) {
      connection->send_text("{\"type\":\"catchup\",\"data\":" + snap.body + "}");
      if (snap.state != jobs::JobState::scraping) {
        end_watch(*connection, snap.state == jobs::JobState::failed, snap.error);
      }
    };
    // Runs under the job's lock, on the thread that scraped the page: it only queues.
    auto listener = [weak](jobs::JobEvent event, std::string_view document,
                           const std::optional<std::string>& error) {
      const auto watcher = weak.lock();
      if (!watcher) return;
      switch (event) {
        case jobs::JobEvent::page:
          // The stored bytes as they are: what the status endpoint serves for this page.
          watcher->send_text(std::string("{\"type\":\"document\",\"data\":")
                                 .append(document)
                                 .append("}"));
          break;
        case jobs::JobEvent::completed: end_watch(*watcher, false, std::nullopt); break;
        case jobs::JobEvent::failed: end_watch(*watcher, true, error); break;
        case jobs::JobEvent::started: break;
      }
    };
    subscription->store(jobs_->watch(job, snapshot, std::move(listener)));
  };
  route.on_close = [this, subscription, open] {
    if (const auto watching = subscription->exchange(0)) jobs_->unwatch(watching);
    --*open;
  };
  return route;
}

void MockServer::set_watcher_limits(const http::WebSocketLimits& limits) {
  std::lock_guard<std::mutex> lock(watcher_mutex_);
  watcher_limits_ = limits;
}

std::size_t MockServer::open_watchers() const { return open_watchers_->load(); }

void MockServer::add_job_resource_routes(const std::string& prefix, jobs::JobKind kind) {
  api("GET", prefix + "/{id}", [this, prefix, kind](ApiCall& call) {
    std::size_t skip = 0;
    std::size_t limit = 0;
    for (auto [name, min, max, out] : {std::tuple<const char*, std::size_t, std::size_t,
                                                  std::size_t*>{"skip", 0, SIZE_MAX / 2, &skip},
                                       {"limit", 1, 1000, &limit}}) {
      if (auto bad = read_count(call.request, name, min, max, *out)) {
        // The text names the parameter (clients that show `error` say what is wrong).
        return http::Response::error(
            400, *bad, "BAD_REQUEST",
            json::array({{{"code", "custom"}, {"path", json::array({name})}, {"message", *bad}}}));
      }
    }
    std::shared_ptr<jobs::Job> job;
    const auto lookup = jobs_->find(call.params.at("id"), call.team.id, kind, job);
    if (lookup != JobEngine::Lookup::found) return not_found_or_expired(lookup);
    http::Response response;
    response.status = 200;
    response.set_header("Content-Type", "application/json");
    response.body = jobs_->status_body(*job, skip, limit,
                                       public_base(call.request) + prefix + "/" + job->id);
    return response;
  });
  api("DELETE", prefix + "/{id}", [this, kind](ApiCall& call) {
    switch (jobs_->cancel(call.params.at("id"), call.team.id, kind)) {
      case JobEngine::CancelOutcome::cancelled:
        // The service's cancel answer carries no `success` (clients check `status`).
        return http::Response::json(200, {{"status", "cancelled"}});
      case JobEngine::CancelOutcome::already_finished:
        return http::Response::error(409, "Job already finished");
      case JobEngine::CancelOutcome::expired: return http::Response::error(404, "Job expired");
      case JobEngine::CancelOutcome::not_found: break;
    }
    // --inject-fault bare-cancel-errors: as the Aug-2025 build, without `success`.
    if (config_.has_fault("bare-cancel-errors")) {
      return http::Response::json(404, {{"error", "Job not found"}});
    }
    return http::Response::error(404, "Job not found");
  });
  api("GET", prefix + "/{id}/errors",
      [this, kind](ApiCall& call) { return job_errors(call, kind); });
}

}  // namespace webdata::mock
