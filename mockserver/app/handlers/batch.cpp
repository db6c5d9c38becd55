#include "app/handlers/handlers.hpp"
#include "requests/validate.hpp"

// POST /v1|v2/batch/scrape (specification 4.6, wire-decisions 3): a new batch, or more pages
// for one (`appendToId`). Its status, cancel and errors are handlers/job_status.cpp.

namespace webdata::mock::handlers {

using jobs::JobEngine;
using nlohmann::json;

namespace {

/// 404/409 for an `appendToId` the team cannot add to; nullopt when the pages were added.
std::optional<http::Response> append_refusal(JobEngine::AppendOutcome outcome) {
  switch (outcome) {
    case JobEngine::AppendOutcome::appended:
      break;
    case JobEngine::AppendOutcome::not_found:
      return http::Response::error(404, "Job not found");
    case JobEngine::AppendOutcome::expired:
      return http::Response::error(404, "Job expired");
    case JobEngine::AppendOutcome::already_finished:
      return http::Response::error(409, "Job already finished");
  }
  return std::nullopt;
}

http::Response start_batch(Services& s, ApiCall& call,
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
  if (auto refused = s.check_scrape_options(request->options, call.team)) return *refused;
  if (auto refused = s.check_webhook(request->webhook)) return *refused;
  const bool list_invalid = request->ignore_invalid_urls;
  std::string id;
  if (request->append_to_id) {
    // appendToId: the URLs join the team's existing batch (another team's id is not found,
    // where the service does not check ownership: no access to another team's results).
    id = *request->append_to_id;
    const auto outcome = s.jobs->append_batch(call.team, id, request->options, valid);
    if (auto refused = append_refusal(outcome)) return *refused;
  } else {
    id = s.jobs->start_batch(call.team, std::move(request), valid)->id;
  }
  json out = {{"success", true},
              {"id", id},
              {"url", s.public_base(call.request) + "/" + call.version + "/batch/scrape/" + id}};
  // v2 always reports invalidURLs when ignoring them; v1 leaves the field out unless asked.
  if (list_invalid) out["invalidURLs"] = invalid;
  return http::Response::json(200, out);
}

}  // namespace

void add_batch_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    routes.api<requests::BatchScrapeRequest>(
        "POST", std::string("/") + requests::version_name(version) + "/batch/scrape", version,
        Credits::checked,
        [&s](ApiCall& call, std::shared_ptr<const requests::BatchScrapeRequest> request) {
          return start_batch(s, call, std::move(request));
        });
  }
}

}  // namespace webdata::mock::handlers
