#pragma once

#include <optional>

#include "app/api_routes.hpp"
#include "app/services.hpp"
#include "http/router.hpp"
#include "http/server.hpp"

// The API's resources, one file each under app/handlers/: each `add_*_routes` registers its
// routes, every route a few lines calling a named handler function of its file.

namespace webdata::mock::handlers {

/// POST /v1|v2/scrape, GET /v1|v2/scrape/{id} (handlers/scrape.cpp).
void add_scrape_routes(ApiRoutes& routes, Services& s);
/// POST /v1|v2/crawl, GET /v1|v2/crawl/active (and `ongoing`) (handlers/crawl.cpp).
void add_crawl_routes(ApiRoutes& routes, Services& s);
/// POST /v1|v2/batch/scrape (handlers/batch.cpp).
void add_batch_routes(ApiRoutes& routes, Services& s);
/// GET and DELETE .../{id} and GET .../{id}/errors of crawls and batch scrapes
/// (handlers/job_status.cpp).
void add_job_status_routes(ApiRoutes& routes, Services& s);
/// POST /v1|v2/search (handlers/search.cpp).
void add_search_routes(ApiRoutes& routes, Services& s);
/// POST /v2/agent, its status, cancel, list, trace, snapshots and threads (handlers/agent.cpp).
void add_agent_routes(ApiRoutes& routes, Services& s);
/// POST /v1|v2/map (handlers/map.cpp).
void add_map_routes(ApiRoutes& routes, Services& s);
/// GET team/credit-usage, token-usage (+ historical), queue-status, concurrency-check
/// (handlers/team.cpp).
void add_team_routes(ApiRoutes& routes, Services& s);
/// POST /v2/crawl/params-preview (handlers/crawl_preview.cpp).
void add_crawl_preview_routes(ApiRoutes& routes, Services& s);
/// POST /v2/parse, a multipart file upload (handlers/parse.cpp).
void add_parse_routes(ApiRoutes& routes, Services& s);
/// POST /v1|v2/extract, GET /v1|v2/extract/{id} (handlers/extract.cpp).
void add_extract_routes(ApiRoutes& routes, Services& s);
/// POST/GET /v2/monitor, GET/PATCH/DELETE /v2/monitor/{id}, POST .../run, GET .../checks and
/// .../checks/{checkId} (handlers/monitors.cpp).
void add_monitor_routes(ApiRoutes& routes, Services& s);
/// GET /v2/search/research/papers[/{id}[/similar]], GET /v2/search/research/github,
/// POST /v2/search/developer (handlers/research.cpp).
void add_research_routes(ApiRoutes& routes, Services& s);
/// POST /v2/feedback, POST /v2/search/{id}/feedback (handlers/feedback.cpp); the admin list.
void add_feedback_routes(ApiRoutes& routes, Services& s);
http::Response list_feedback(Services& s, const http::Request&, const http::PathParams&);
/// POST /v2/support/ask (handlers/support.cpp).
void add_support_routes(ApiRoutes& routes, Services& s);
/// POST/GET /v2/browser, POST /v2/browser/{id}/execute, DELETE /v2/browser/{id},
/// POST/DELETE /v2/scrape/{id}/interact (handlers/browser.cpp).
void add_browser_routes(ApiRoutes& routes, Services& s);

/// GET /browser/live/{id} and GET /browser/cdp/{id} (a plain GET of the WebSocket URL): a
/// browser session's own URLs, without an API key (handlers/browser_view.cpp).
void add_browser_view_routes(ApiRoutes& routes, Services& s);
/// The CDP WebSocket of a live browser session (`/browser/cdp/{id}` upgrade requests);
/// nullopt for any other upgrade request.
std::optional<http::WebSocketRoute> browser_cdp(Services& s, const http::Request& request);
/// GET /exchange/discover (handlers/exchange.cpp): the mock's teams have no Exchange (Alexandria
/// tool catalogue), so it answers as the service does for such a team.
void add_exchange_routes(ApiRoutes& routes, Services& s);
/// 403 "Exchange is not enabled for this team." (also a v2 search asking for Exchange tools).
http::Response exchange_not_enabled();
/// POST /v1/deep-research, GET /v1/deep-research/{id}, POST /v1/llmstxt, GET /v1/llmstxt/{id}
/// (handlers/v1_jobs.cpp).
void add_v1_job_routes(ApiRoutes& routes, Services& s);
/// The admin API under /__admin/: journal, reset, clock, settings, watchers, webhooks
/// (handlers/admin.cpp), mappings and scenarios (handlers/admin_mappings.cpp).
void add_admin_routes(http::Router& admin, Services& s, ApiRoutes& routes);
void add_admin_mapping_routes(http::Router& admin, Services& s);
/// An admin route's handler, and a table of them registered on the admin router.
using AdminHandler = http::Response (*)(Services&, const http::Request&, const http::PathParams&);
struct AdminRoute {
  const char* method;
  const char* path;
  AdminHandler handler;
};
template <std::size_t N>
void add_admin_table(http::Router& admin, Services& s, const AdminRoute (&table)[N]) {
  for (const auto& route : table) {
    admin.add(route.method, route.path,
              [&s, handler = route.handler](const http::Request& request,
                                            const http::PathParams& params) {
                return handler(s, request, params);
              });
  }
}

/// The crawl watcher: a WebSocket route for `GET /v1|v2/crawl/{id}` upgrade requests
/// (handlers/crawl_watch.cpp); nullopt for any other upgrade request.
std::optional<http::WebSocketRoute> watch_crawl(Services& s, const http::Request& request);

}  // namespace webdata::mock::handlers
