#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "search/research.hpp"

// The research paper index and its GitHub slice (GET /v2/search/research/..., options in the
// query string, checked against their request schemas like a body), and developer search
// (GET or POST /v2/search/developer), over search::ResearchService. One credit a call.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// The call's query parameters as a `T`, or the 400 refusal with `details`.
template <class T>
std::optional<http::Response> read_query(const ApiCall& call, T& out) {
  const std::string schema = requests::schema_name<T>(requests::Version::v2);
  json body = requests::query_body(schema, call.request.query_params());
  if (auto refusal = requests::validate(schema, body)) return refusal_answer(*refusal);
  out = requests::decode<T>(body, requests::Version::v2);
  return std::nullopt;
}

/// The answer, billed one credit; 404 when there is none (an unknown paper).
http::Response billed(Services& s, ApiCall& call, const std::optional<json>& answer) {
  if (!answer) return http::Response::error(404, "Paper not found");
  s.teams.charge(call.team.id, 1);
  return http::Response::json(200, *answer);
}

/// Reads the query as a `T` (after the credit check) and answers what `answer` makes of it.
template <class T, class F>
http::Response query_route(Services& s, ApiCall& call, F answer) {
  if (auto refused = s.require_credits(call.team, 1)) return *refused;
  T request;
  if (auto refused = read_query(call, request)) return *refused;
  return billed(s, call, answer(request));
}

http::Response search_papers(Services& s, ApiCall& call) {
  return query_route<requests::ResearchPapersRequest>(
      s, call, [&s](const auto& r) { return std::optional<json>(s.research->search_papers(r)); });
}

http::Response inspect_paper(Services& s, ApiCall& call) {
  const std::string id = call.params.at("id");
  return query_route<requests::ResearchPaperRequest>(
      s, call, [&s, &id](const auto& r) { return s.research->paper(id, r); });
}

http::Response related_papers(Services& s, ApiCall& call) {
  const std::string id = call.params.at("id");
  return query_route<requests::ResearchSimilarRequest>(
      s, call, [&s, &id](const auto& r) { return s.research->similar(id, r); });
}

http::Response search_github(Services& s, ApiCall& call) {
  return query_route<requests::ResearchGithubRequest>(
      s, call, [&s](const auto& r) { return std::optional<json>(s.research->search_github(r)); });
}

http::Response developer_search(Services& s, ApiCall& call) {
  return query_route<requests::DeveloperSearchRequest>(
      s, call, [&s](const auto& r) { return std::optional<json>(s.research->developer(r)); });
}

}  // namespace

void add_research_routes(ApiRoutes& routes, Services& s) {
  routes.api("GET", "/v2/search/research/papers",
             [&s](ApiCall& call) { return search_papers(s, call); });
  routes.api("GET", "/v2/search/research/papers/{id}",
             [&s](ApiCall& call) { return inspect_paper(s, call); });
  routes.api("GET", "/v2/search/research/papers/{id}/similar",
             [&s](ApiCall& call) { return related_papers(s, call); });
  routes.api("GET", "/v2/search/research/github",
             [&s](ApiCall& call) { return search_github(s, call); });
  // The CLI sends developer search as a GET with query parameters, the SDK as a POST body.
  routes.api("GET", "/v2/search/developer",
             [&s](ApiCall& call) { return developer_search(s, call); });
  routes.api<requests::DeveloperSearchRequest>(
      "POST", "/v2/search/developer", requests::Version::v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::DeveloperSearchRequest> request) {
        return billed(s, call, s.research->developer(*request));
      });
}

}  // namespace webdata::mock::handlers
