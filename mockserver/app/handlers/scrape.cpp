#include <algorithm>
#include <cctype>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/time.hpp"

// POST /v1/scrape and POST /v2/scrape (specification 4.1, 4.2): one page through the scrape
// pipeline, billed after the work (wire-decisions section 8). GET /v1|v2/scrape/{id}: a past
// scrape by its `metadata.scrapeId`, as deployments with a database serve it
// (docs/reference/scrape.md#a-past-scrape-by-its-id).

namespace webdata::mock::handlers {

namespace {

/// The service's v2 scrape waits in its concurrency queue, and says so when it times out.
scrape::Failure queued_words(scrape::Failure failure, requests::Version version) {
  if (version == requests::Version::v2 && failure.message == "Scrape timed out") {
    failure.message = "Scrape timed out after waiting in the concurrency limit queue";
  }
  return failure;
}

/// The answer of a scrape done: billed, kept for GET /scrape/{id} unless it keeps nothing.
http::Response scrape_answer(Services& s, ApiCall& call, const requests::ScrapeRequest& request,
                             const scrape::Outcome& outcome, requests::Version version) {
  if (outcome.failure) return failure_answer(queued_words(*outcome.failure, version));
  if (!s.teams.try_charge(call.team.id, outcome.credits)) {
    return *s.require_credits(call.team, outcome.credits);
  }
  // Serialized once: the same text is the answer and what GET /scrape/{id} serves.
  auto text = std::make_shared<const std::string>(json_text(outcome.document));
  if (!request.options.keeps_nothing()) {
    s.scraper->results().add(scrape::scrape_id_of(outcome.document), call.team.id, text,
                             s.clock.now());
  }
  return document_answer(*text);
}

http::Response scrape_page(Services& s, ApiCall& call, const requests::ScrapeRequest& request,
                           requests::Version version) {
  // A slow page's delay is not slept here: the answer is made now and the I/O thread writes it
  // on a timer when it is due, so the wait holds no thread (ADR 0015).
  const scrape::Outcome outcome =
      s.scraper->scrape_deferred(request.options, request.url, call.team);
  http::Response response = scrape_answer(s, call, request, outcome, version);
  response.delay = s.clock.due_in(outcome.ready_at);
  return response;
}

// The texts and the order of the checks are the service's: the id's form, then whether it is
// known, then whose it is. A scrape past its retention, or one that kept nothing, is unknown.
// Either version reads a scrape made through the other; the document keeps the shape of the
// version that made it.
http::Response scrape_by_id(Services& s, ApiCall& call) {
  std::string id = call.params.at("id");
  if (!is_uuid(id)) {
    return http::Response::error(400, "Invalid job ID format. Job ID must be a valid UUID.");
  }
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // --inject-fault no-scrape-store: a self-hosted deployment has no database to read from;
  // no-database: the one recorded answers 500 for want of it.
  if (s.config.has_fault("no-database")) return database_unavailable();
  if (s.config.has_fault("no-scrape-store")) return http::Response::error(404, "Job not found.");
  const auto found = s.scraper->results().find(id, call.team.id, s.clock.now());
  switch (found.found) {
    case scrape::ScrapeStore::Found::yes:
      return document_answer(*found.document);
    case scrape::ScrapeStore::Found::other_team:
      return http::Response::error(403, "You are not allowed to access this resource.");
    case scrape::ScrapeStore::Found::not_found:
      break;
  }
  return http::Response::error(404, "Job not found.");
}

}  // namespace

void add_scrape_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    const std::string v = requests::version_name(version);
    routes.api<requests::ScrapeRequest>(
        "POST", "/" + v + "/scrape", version, Credits::checked,
        [&s, version](ApiCall& call, std::shared_ptr<const requests::ScrapeRequest> request) {
          return scrape_page(s, call, *request, version);
        });
    routes.api("GET", "/" + v + "/scrape/{id}",
               [&s](ApiCall& call) { return scrape_by_id(s, call); });
  }
}

}  // namespace webdata::mock::handlers
