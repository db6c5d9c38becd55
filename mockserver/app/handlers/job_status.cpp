#include <charconv>
#include <tuple>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"

// A crawl's or a batch scrape's status (paged by `skip` and `limit`), cancel and errors, v1 and
// v2 (specification 4.5, 4.7, 4.8, wire-decisions 3).

namespace webdata::mock::handlers {

using jobs::JobEngine;
using jobs::JobKind;
using nlohmann::json;

namespace {

/// `skip` and `limit` of a status request, or the refusal naming the bad one.
std::optional<http::Response> read_paging(const http::Request& request, std::size_t& skip,
                                          std::size_t& limit) {
  for (auto [name, min, max, out] :
       {std::tuple<const char*, std::size_t, std::size_t, std::size_t*>{"skip", 0, SIZE_MAX / 2,
                                                                        &skip},
        {"limit", 1, 1000, &limit}}) {
    // The text names the parameter (clients that show `error` say what is wrong).
    if (auto bad = query_count(request, name, min, max, *out)) return field_error(name, *bad, *bad);
  }
  return std::nullopt;
}

http::Response not_found_or_expired(JobEngine::Lookup lookup) {
  return http::Response::error(
      404, lookup == JobEngine::Lookup::expired ? "Job expired" : "Job not found");
}

http::Response job_status(Services& s, ApiCall& call, const std::string& prefix, JobKind kind) {
  std::size_t skip = 0;
  std::size_t limit = 0;
  if (auto refused = read_paging(call.request, skip, limit)) return *refused;
  std::shared_ptr<jobs::Job> job;
  const auto lookup = s.jobs->find(call.params.at("id"), call.team.id, kind, job);
  if (lookup != JobEngine::Lookup::found) return not_found_or_expired(lookup);
  http::Response response;
  response.status = 200;
  response.set_header("Content-Type", "application/json");
  response.body =
      s.jobs->status_body(*job, skip, limit, s.public_base(call.request) + prefix + "/" + job->id);
  return response;
}

http::Response cancel_job(Services& s, ApiCall& call, JobKind kind) {
  switch (s.jobs->cancel(call.params.at("id"), call.team.id, kind)) {
    case JobEngine::CancelOutcome::cancelled:
      // The service's cancel answer carries no `success` (clients check `status`).
      return http::Response::json(200, {{"status", "cancelled"}});
    case JobEngine::CancelOutcome::already_finished:
      return http::Response::error(409, "Job already finished");
    case JobEngine::CancelOutcome::expired:
      return http::Response::error(404, "Job expired");
    case JobEngine::CancelOutcome::not_found:
      break;
  }
  // --inject-fault bare-cancel-errors: as the Aug-2025 build, without `success`.
  if (s.config.has_fault("bare-cancel-errors")) {
    return http::Response::json(404, {{"error", "Job not found"}});
  }
  return http::Response::error(404, "Job not found");
}

http::Response job_errors(Services& s, ApiCall& call, JobKind kind) {
  std::shared_ptr<jobs::Job> job;
  const auto lookup = s.jobs->find(call.params.at("id"), call.team.id, kind, job);
  // Unlike its status, a job's errors answer another team that the job exists.
  if (lookup == JobEngine::Lookup::other_team) return http::Response::error(403, "Forbidden");
  if (lookup != JobEngine::Lookup::found) return not_found_or_expired(lookup);
  return http::Response::json(200, s.jobs->errors_body(*job));
}

void add_job_resource_routes(ApiRoutes& routes, Services& s, const std::string& prefix,
                             JobKind kind) {
  routes.api("GET", prefix + "/{id}",
             [&s, prefix, kind](ApiCall& call) { return job_status(s, call, prefix, kind); });
  routes.api("DELETE", prefix + "/{id}",
             [&s, kind](ApiCall& call) { return cancel_job(s, call, kind); });
  routes.api("GET", prefix + "/{id}/errors",
             [&s, kind](ApiCall& call) { return job_errors(s, call, kind); });
}

}  // namespace

void add_job_status_routes(ApiRoutes& routes, Services& s) {
  for (const std::string v : {"v1", "v2"}) {
    add_job_resource_routes(routes, s, "/" + v + "/crawl", JobKind::crawl);
    add_job_resource_routes(routes, s, "/" + v + "/batch/scrape", JobKind::batch_scrape);
  }
  // The specification writes the errors path once without a version: an alias of v2.
  routes.api("GET", "/crawl/{id}/errors",
             [&s](ApiCall& call) { return job_errors(s, call, JobKind::crawl); });
}

}  // namespace webdata::mock::handlers
