#include "app/handlers/handlers.hpp"

// Exchange (the Alexandria catalogue of data providers the official MCP server's
// firecrawl_find_tools browses, and a v2 search's `alexandria` source and `domainTools`). The
// mock's teams have no Exchange, so each answers as the service does for a team without it.

namespace webdata::mock::handlers {

http::Response exchange_not_enabled() {
  return http::Response::json(
      403, {{"success", false}, {"error", "Exchange is not enabled for this team."}});
}

void add_exchange_routes(ApiRoutes& routes, Services&) {
  routes.api("GET", "/exchange/discover", [](ApiCall&) { return exchange_not_enabled(); });
}

}  // namespace webdata::mock::handlers
