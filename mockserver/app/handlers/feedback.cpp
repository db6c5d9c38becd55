#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"

// Feedback on a job (POST /v2/feedback: scrape, parse, map or search) and on a search
// (POST /v2/search/{id}/feedback), stored per team (jobs::FeedbackStore) and listed by
// GET /__admin/feedback. A scrape's id must be one of the team's scrapes; the other endpoints'
// ids are not kept by the mock, so any UUID is taken. Free; the mock refunds nothing.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// Whether `job_id` names a job of `endpoint` that the team may give feedback on.
bool known_job(Services& s, const Team& team, const std::string& endpoint,
               const std::string& job_id) {
  if (!is_uuid(job_id)) return false;
  if (endpoint != "scrape") return true;
  const auto found = s.scraper->results().find(job_id, team.id, s.clock.now());
  return found.found == scrape::ScrapeStore::Found::yes;
}

http::Response store_feedback(Services& s, ApiCall& call, const std::string& endpoint,
                              const std::string& job_id, json body) {
  if (!known_job(s, call.team, endpoint, job_id)) return http::Response::error(404, "Job not found.");
  const auto added = s.feedback.add(call.team.id, endpoint, job_id, std::move(body), s.clock.now());
  json out = {{"success", true}, {"feedbackId", added.id}, {"creditsRefunded", 0}};
  if (added.already_submitted) out["alreadySubmitted"] = true;
  return http::Response::json(200, out);
}

}  // namespace

http::Response list_feedback(Services& s, const http::Request&, const http::PathParams&) {
  return http::Response::json(200, {{"feedback", s.feedback.list()}});
}

void add_feedback_routes(ApiRoutes& routes, Services& s) {
  routes.api<requests::FeedbackRequest>(
      "POST", "/v2/feedback", requests::Version::v2, Credits::free,
      [&s](ApiCall& call, std::shared_ptr<const requests::FeedbackRequest> request) {
        return store_feedback(s, call, request->endpoint, request->job_id,
                              requests::encode(*request));
      });
  routes.api<requests::SearchFeedbackRequest>(
      "POST", "/v2/search/{id}/feedback", requests::Version::v2, Credits::free,
      [&s](ApiCall& call, std::shared_ptr<const requests::SearchFeedbackRequest> request) {
        return store_feedback(s, call, "search", call.params.at("id"), requests::encode(*request));
      });
}

}  // namespace webdata::mock::handlers
