#include <string>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"

// POST /v2/support/ask: an answer about one of the team's jobs, written from its real state
// (crawl or batch scrape: status, failure, failed pages, robots.txt blocks; a scrape: that it
// succeeded), or, without a job, a pointer to the documentation. Free.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

constexpr const char* kDocs = "https://docs.firecrawl.dev";

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// What went wrong with the job's pages: its failures and robots.txt blocks, a line each.
std::string page_lines(const jobs::JobProgress& progress) {
  std::string out;
  if (!progress.errors.empty()) {
    out += "\n" + plural(progress.errors.size(), "page") + " failed:";
    for (const auto& e : progress.errors) out += "\n- " + e.url + ": " + e.error;
  }
  if (!progress.robots_blocked.empty()) {
    out += "\n" + plural(progress.robots_blocked.size(), "page") +
           " were blocked by robots.txt (scrape them one at a time with /scrape):";
    for (const auto& url : progress.robots_blocked) out += "\n- " + url;
  }
  return out;
}

json job_answer(const jobs::Job& job) {
  const auto progress = job.lock();
  const std::string kind = job.kind == jobs::JobKind::crawl ? "crawl" : "batch scrape";
  const std::string status = jobs::state_name(progress->status);
  std::string answer = "This " + kind + " (" + job.id + ") is " + status + ": " +
                       std::to_string(progress->completed) + " of " +
                       std::to_string(progress->total) + " pages scraped, " +
                       std::to_string(progress->credits_used) + " credits used.";
  if (progress->error) answer += "\nIt failed because: " + *progress->error;
  answer += page_lines(*progress);
  if (progress->errors.empty() && progress->robots_blocked.empty() && !progress->error) {
    answer += "\nNo page failed.";
  }
  return {{"success", true},     {"answer", answer},
          {"jobId", job.id},     {"jobType", jobs::kind_name(job.kind)},
          {"status", status},    {"sources", json::array({{{"url", kDocs}}})}};
}

/// The team's crawl or batch scrape `id`, or nullptr.
std::shared_ptr<jobs::Job> find_job(Services& s, const Team& team, const std::string& id) {
  for (const auto kind : {jobs::JobKind::crawl, jobs::JobKind::batch_scrape}) {
    std::shared_ptr<jobs::Job> job;
    if (s.jobs->find(id, team.id, kind, job) == jobs::JobEngine::Lookup::found) return job;
  }
  return nullptr;
}

http::Response ask(Services& s, ApiCall& call, const requests::SupportAskRequest& request) {
  if (!request.job_id) {
    return http::Response::json(
        200, {{"success", true},
              {"answer", "Without a job id the mock can only point to the documentation (" +
                             std::string(kDocs) + ") for: " + request.question},
              {"sources", json::array({{{"url", kDocs}}})}});
  }
  const std::string& id = *request.job_id;
  if (const auto job = find_job(s, call.team, id)) return http::Response::json(200, job_answer(*job));
  if (is_uuid(id) && s.scraper->results().find(id, call.team.id, s.clock.now()).found ==
                         scrape::ScrapeStore::Found::yes) {
    return http::Response::json(
        200, {{"success", true},
              {"answer", "This scrape (" + id + ") succeeded; its document is readable at "
                         "GET /v2/scrape/" + id + " for 24 hours."},
              {"jobId", id}, {"jobType", "scrape"}, {"status", "completed"},
              {"sources", json::array({{{"url", kDocs}}})}});
  }
  return http::Response::error(404, "Job not found.");
}

}  // namespace

void add_support_routes(ApiRoutes& routes, Services& s) {
  routes.api<requests::SupportAskRequest>(
      "POST", "/v2/support/ask", requests::Version::v2, Credits::free,
      [&s](ApiCall& call, std::shared_ptr<const requests::SupportAskRequest> request) {
        return ask(s, call, *request);
      });
}

}  // namespace webdata::mock::handlers
