#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"

// Feedback on a job (POST /v2/feedback: scrape, parse, map or search) and on a search
// (POST /v2/search/{id}/feedback), stored per team (jobs::FeedbackStore) and listed by
// GET /__admin/feedback. A scrape's id must be one of the team's scrapes, a search's or a
// parse's one the mock answered the team within 24 h; maps answer no id, so any UUID is taken
// for them. A refusal carries the service's `feedbackErrorCode`. Free; the mock refunds nothing.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// A refusal as the service words it: the API's error envelope with `feedbackErrorCode`.
http::Response feedback_refusal(int status, const std::string& message, const std::string& code,
                                json details = nullptr) {
  json body = {{"success", false}, {"error", message}, {"feedbackErrorCode", code}};
  if (!details.is_null()) body["details"] = std::move(details);
  return http::Response::json(status, body);
}

/// Whether `job_id` names a job of `endpoint` that the team may give feedback on.
bool known_job(Services& s, const Team& team, const std::string& endpoint,
               const std::string& job_id) {
  if (!is_uuid(job_id)) return false;
  if (endpoint == "map") return true;
  if (endpoint == "search" || endpoint == "parse") {
    return s.feedback.issued(team.id, endpoint, job_id, s.clock.now());
  }
  const auto found = s.scraper->results().find(job_id, team.id, s.clock.now());
  return found.found == scrape::ScrapeStore::Found::yes;
}

http::Response store_feedback(Services& s, ApiCall& call, const std::string& endpoint,
                              const std::string& job_id, json body) {
  if (!known_job(s, call.team, endpoint, job_id)) {
    return endpoint == "search" ? feedback_refusal(404, "Search not found.", "SEARCH_NOT_FOUND")
                                : feedback_refusal(404, "Job not found.", "JOB_NOT_FOUND");
  }
  const auto added = s.feedback.add(call.team.id, endpoint, job_id, std::move(body), s.clock.now());
  json out = {{"success", true}, {"feedbackId", added.id}, {"creditsRefunded", 0}};
  if (added.already_submitted) out["alreadySubmitted"] = true;
  return http::Response::json(200, out);
}

bool has_entries(const std::optional<json>& list) { return list && !list->empty(); }

/// What a search feedback's rating needs: `good` a valuable source, `partial` a valuable source
/// or missing content, `bad` missing content or a query suggestion (the service's rules).
std::optional<std::string> rating_gap(const requests::SearchFeedbackRequest& r) {
  const bool sources = has_entries(r.valuable_sources);
  const bool missing = has_entries(r.missing_content);
  const bool suggestion = r.query_suggestions && !r.query_suggestions->empty();
  if (r.rating == "good" && !sources) return "A good rating needs at least one valuableSources entry";
  if (r.rating == "partial" && !sources && !missing) {
    return "A partial rating needs a valuableSources or a missingContent entry";
  }
  if (r.rating == "bad" && !missing && !suggestion) {
    return "A bad rating needs a missingContent entry or querySuggestions";
  }
  return std::nullopt;
}

http::Response store_search_feedback(Services& s, ApiCall& call,
                                     const requests::SearchFeedbackRequest& request) {
  if (auto gap = rating_gap(request)) {
    return feedback_refusal(
        400, "Invalid feedback body", "INVALID_BODY",
        json::array({{{"code", "custom"}, {"path", json::array({"rating"})}, {"message", *gap}}}));
  }
  return store_feedback(s, call, "search", call.params.at("id"), requests::encode(request));
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
        return store_search_feedback(s, call, *request);
      });
}

}  // namespace webdata::mock::handlers
