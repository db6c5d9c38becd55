#include "app/handlers/handlers.hpp"
#include "jobs/crawl_prompt.hpp"

// POST /v2/crawl/params-preview: the crawl options a prompt implies, without starting a crawl
// (jobs::crawl_options_from_prompt). Registered beside GET/DELETE /v2/crawl/{id}: the router
// prefers the literal segment, so the preview is no longer answered 405.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

http::Response preview_crawl(Services& s, const requests::CrawlPreviewRequest& request) {
  // --inject-fault no-llm-key: the options come from a model, which a deployment may lack.
  if (s.config.has_fault("no-llm-key")) {
    return http::Response::error(
        400, "Failed to process natural language prompt. Please try rephrasing.");
  }
  json data = jobs::crawl_options_from_prompt(request.prompt);
  data["url"] = request.url;
  json body = {{"success", true}, {"data", data}};
  if (data.size() == 1) {
    body["warning"] = "The prompt implied no crawl options; the crawl would use the defaults.";
  }
  return http::Response::json(200, body);
}

}  // namespace

void add_crawl_preview_routes(ApiRoutes& routes, Services& s) {
  routes.api<requests::CrawlPreviewRequest>(
      "POST", "/v2/crawl/params-preview", requests::Version::v2, Credits::free,
      [&s](ApiCall&, std::shared_ptr<const requests::CrawlPreviewRequest> request) {
        return preview_crawl(s, *request);
      });
}

}  // namespace webdata::mock::handlers
