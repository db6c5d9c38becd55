#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "requests/validate.hpp"
#include "core/url.hpp"
#include "jobs/extract_jobs.hpp"

// POST /v1|v2/extract starts an extract job (jobs::ExtractEngine); GET /v1|v2/extract/{id} reads
// it. A job made through one version is readable through the other, as deployments share one
// store; the status answer has the same shape in both.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

bool ends_with_glob(const std::string& url) {
  return url.size() >= 2 && url.compare(url.size() - 2, 2, "/*") == 0;
}

http::Response start_extract(Services& s, ApiCall& call, const requests::ExtractRequest& request) {
  // --inject-fault no-llm-key: the recorded build's v1 extract fails outright without one.
  if (call.version == "v1" && s.config.has_fault("no-llm-key")) {
    return http::Response::error(500, "Internal server error");
  }
  jobs::ExtractRequest job;
  // With ignoreInvalidURLs, the URLs the service would refuse are skipped (without it, the
  // checks refused them already). A trailing `/*` is a glob over the site's pages.
  json invalid = json::array();
  for (const auto& url : request.urls) {
    if (requests::url_issues(url, json::array()).empty()) {
      const bool glob = ends_with_glob(url);
      const std::string page = parse_http_url(glob ? url.substr(0, url.size() - 1) : url)->str();
      job.urls.push_back(page + (!glob ? "" : page.back() == '/' ? "*" : "/*"));
    } else {
      invalid.push_back(url);
    }
  }
  if (job.urls.empty()) {
    return field_refusal("urls", "No valid URL to extract from");
  }
  if (!invalid.empty()) {
    job.warnings.push_back("Skipped " + std::to_string(invalid.size()) + " invalid URL" +
                           (invalid.size() == 1 ? "" : "s") + ".");
  }
  if (request.enable_web_search) {
    job.warnings.push_back(
        "enableWebSearch: the mock reads only the URLs given and the pages they stand for.");
  }
  if (auto refused = s.check_scrape_options(request.scrape_options, call.team)) return *refused;
  job.scrape_options = request.scrape_options;
  job.spec = requests::ExtractSpec{request.schema.value_or(json()), request.prompt.value_or(""),
                                   request.system_prompt.value_or("")};
  job.allow_external_links = request.allow_external_links;
  job.include_subdomains = request.takes_subdomains();
  job.show_sources = request.show_sources;
  const auto started = s.extracts->start(call.team, std::move(job));
  // The service answers the start with the (empty) trace of the URLs it will consider.
  json out = {{"success", true}, {"id", started->id}, {"urlTrace", json::array()}};
  if (request.ignore_invalid_urls && !invalid.empty()) out["invalidURLs"] = invalid;
  return http::Response::json(200, out);
}

http::Response extract_status(Services& s, ApiCall& call) {
  const auto job = s.extracts->find(call.params.at("id"), call.team.id);
  if (!job) return http::Response::error(404, "Extract job not found");
  return http::Response::json(200, s.extracts->status_body(*job));
}

}  // namespace

void add_extract_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    const std::string v = requests::version_name(version);
    routes.api<requests::ExtractRequest>(
        "POST", "/" + v + "/extract", version, Credits::checked,
        [&s](ApiCall& call, std::shared_ptr<const requests::ExtractRequest> request) {
          return start_extract(s, call, *request);
        });
    routes.api("GET", "/" + v + "/extract/{id}",
               [&s](ApiCall& call) { return extract_status(s, call); });
  }
}

}  // namespace webdata::mock::handlers
