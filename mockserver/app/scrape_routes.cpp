#include "app/mock_server.hpp"

// POST /v1/scrape and POST /v2/scrape (specification 4.1, 4.2): one page through the scrape
// pipeline, billed after the work (wire-decisions section 8).

namespace webdata::mock {

using nlohmann::json;

void MockServer::add_scrape_routes() {
  for (const std::string version : {"v1", "v2"}) {
    api("POST", "/" + version + "/scrape", version + "/scrape.request", [this](ApiCall& call) {
      // The cheapest page costs one credit: refuse before doing any work when even that is
      // more than the team has.
      if (auto refused = require_credits(call.team, 1)) return *refused;
      scrape::Outcome outcome = scraper_->scrape(call.body, call.version, call.team);
      if (outcome.failure) {
        return http::Response::error(outcome.failure->http_status, outcome.failure->message,
                                     outcome.failure->code);
      }
      if (!teams_.try_charge(call.team.id, outcome.credits)) {
        return *require_credits(call.team, outcome.credits);
      }
      return http::Response::json(200, json{{"success", true}, {"data", outcome.document}});
    });
  }
}

}  // namespace webdata::mock
