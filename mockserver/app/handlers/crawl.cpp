#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "jobs/crawl_rules.hpp"

// POST /v1|v2/crawl starts a crawl (specification 4.4, wire-decisions 3); GET .../crawl/active
// lists the team's running crawls. A crawl's status, cancel and errors are handlers/job_status.cpp,
// its watcher handlers/crawl_watch.cpp.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// 400 naming the first includePaths/excludePaths pattern that is not a usable regex.
std::optional<http::Response> check_crawl_patterns(const requests::CrawlRequest& request) {
  for (const auto& [key, patterns] : {std::pair<const char*, const std::vector<std::string>&>{
                                          "includePaths", request.include_paths},
                                      {"excludePaths", request.exclude_paths}}) {
    if (auto bad = jobs::check_patterns(patterns)) {
      return field_error(key, std::string(key) + ": " + *bad, *bad, "invalid_string");
    }
  }
  return std::nullopt;
}

http::Response start_crawl(Services& s, ApiCall& call,
                           std::shared_ptr<const requests::CrawlRequest> request) {
  if (auto refused = check_crawl_patterns(*request)) return *refused;
  requests::ScrapeOptions scrape_options = request->scrape_options;
  if (request->zero_data_retention) scrape_options.zero_data_retention = true;
  if (auto refused = s.check_scrape_options(scrape_options, call.team)) return *refused;
  if (auto refused = s.check_webhook(request->webhook)) return *refused;
  const auto job = s.jobs->start_crawl(call.team, std::move(request));
  return http::Response::json(
      200, {{"success", true},
            {"id", job->id},
            {"url", s.public_base(call.request) + "/" + call.version + "/crawl/" + job->id}});
}

http::Response active_crawls(Services& s, ApiCall& call) {
  json crawls = json::array();
  for (const auto& job : s.jobs->active_crawls(call.team.id)) {
    crawls.push_back(s.jobs->active_entry(*job));
  }
  return http::Response::json(200, {{"success", true}, {"crawls", crawls}});
}

}  // namespace

void add_crawl_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    const std::string v = requests::version_name(version);
    routes.api<requests::CrawlRequest>(
        "POST", "/" + v + "/crawl", version, Credits::checked,
        [&s](ApiCall& call, std::shared_ptr<const requests::CrawlRequest> request) {
          return start_crawl(s, call, std::move(request));
        });
    // `ongoing` is the service's older name of `active`; both are registered before {id}.
    for (const char* name : {"active", "ongoing"}) {
      routes.api("GET", "/" + v + "/crawl/" + name,
                 [&s](ApiCall& call) { return active_crawls(s, call); });
    }
  }
}

}  // namespace webdata::mock::handlers
