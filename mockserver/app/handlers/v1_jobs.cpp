#include <algorithm>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/url.hpp"
#include "jobs/llmstxt_jobs.hpp"
#include "search/research_jobs.hpp"

// The v1-only jobs the official v1 client still calls: deep research (POST /v1/deep-research,
// GET /v1/deep-research/{id}; search::ResearchEngine) and llms.txt (POST /v1/llmstxt,
// GET /v1/llmstxt/{id}; jobs::LlmsTxtEngine). Each start is billed what it read (a credit a
// source or page, at least one); a job is its team's, 404 to any other.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

search::ResearchSpec research_spec(const requests::DeepResearchRequest& request) {
  search::ResearchSpec spec;
  spec.query = request.subject();
  spec.max_depth = request.max_depth > 0 ? request.max_depth : 7;
  spec.max_urls = request.max_urls > 0 ? request.max_urls : 20;
  spec.json =
      std::find(request.formats.begin(), request.formats.end(), "json") != request.formats.end();
  if (request.json_options) {
    spec.schema = request.json_options->schema.value_or(json());
    spec.json_prompt = request.json_options->prompt.value_or("");
  }
  spec.analysis_prompt = request.analysis_prompt.value_or("");
  return spec;
}

http::Response start_research(Services& s, ApiCall& call,
                              const requests::DeepResearchRequest& request) {
  // The schema takes either name; one of them is required.
  if (request.subject().empty()) {
    return field_refusal("query", "Either query or topic must be provided");
  }
  const auto job = s.deep_research->start(call.team.id, research_spec(request));
  const auto credits = std::max<std::int64_t>(1, static_cast<std::int64_t>(job->sources.size()));
  if (!s.teams.try_charge(call.team.id, credits)) {
    s.deep_research->discard(job->id);
    return *s.require_credits(call.team, credits);
  }
  return http::Response::json(200, {{"success", true}, {"id", job->id}});
}

http::Response research_status(Services& s, ApiCall& call) {
  const auto job = s.deep_research->find(call.params.at("id"), call.team.id);
  if (!job) return http::Response::error(404, "Research job not found");
  return http::Response::json(200, s.deep_research->status_body(*job));
}

http::Response start_llmstxt(Services& s, ApiCall& call, const requests::LlmsTxtRequest& request) {
  const auto url = parse_http_url(request.url);
  if (!url) return field_refusal("url", "Invalid URL");
  const auto max_urls = static_cast<std::size_t>(request.max_urls > 0 ? request.max_urls : 10);
  const auto job = s.llmstxt->start(call.team, url->str(), max_urls, request.show_full_text);
  const auto credits = std::max<std::int64_t>(1, job->credits);
  if (!s.teams.try_charge(call.team.id, credits)) {
    s.llmstxt->discard(job->id);
    return *s.require_credits(call.team, credits);
  }
  return http::Response::json(200, {{"success", true}, {"id", job->id}});
}

http::Response llmstxt_status(Services& s, ApiCall& call) {
  const auto job = s.llmstxt->find(call.params.at("id"), call.team.id);
  if (!job) return http::Response::error(404, "LLMs.txt generation job not found");
  return http::Response::json(200, s.llmstxt->status_body(*job));
}

}  // namespace

void add_v1_job_routes(ApiRoutes& routes, Services& s) {
  const auto v1 = requests::Version::v1;
  routes.api<requests::DeepResearchRequest>(
      "POST", "/v1/deep-research", v1, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::DeepResearchRequest> request) {
        return start_research(s, call, *request);
      });
  routes.api("GET", "/v1/deep-research/{id}",
             [&s](ApiCall& call) { return research_status(s, call); });
  routes.api<requests::LlmsTxtRequest>(
      "POST", "/v1/llmstxt", v1, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::LlmsTxtRequest> request) {
        return start_llmstxt(s, call, *request);
      });
  routes.api("GET", "/v1/llmstxt/{id}", [&s](ApiCall& call) { return llmstxt_status(s, call); });
}

}  // namespace webdata::mock::handlers
