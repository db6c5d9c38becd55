#include "app/mock_server.hpp"
#include "core/url.hpp"
#include "jobs/crawl_prompt.hpp"

// POST /v2/crawl/params-preview: the crawl options a prompt implies, without starting a crawl
// (jobs::crawl_options_from_prompt). Registered beside GET/DELETE /v2/crawl/{id}: the router
// prefers the literal segment, so the preview is no longer answered 405.

namespace webdata::mock {

using nlohmann::json;

void MockServer::add_crawl_preview_routes() {
  api("POST", "/v2/crawl/params-preview", "v2/crawl-params-preview.request", [this](ApiCall& call) {
    // --inject-fault no-llm-key: the options come from a model, which a deployment may lack.
    if (config_.has_fault("no-llm-key")) {
      return http::Response::error(400,
                                   "Failed to process natural language prompt. Please try "
                                   "rephrasing.");
    }
    const std::string url = call.body.value("url", "");
    if (!parse_http_url(url)) {
      const std::string message = "Invalid URL '" + url + "': use an absolute http or https URL";
      return http::Response::error(400, "Invalid request parameters: " + message, "BAD_REQUEST",
                                   json::array({{{"code", "invalid_string"},
                                                 {"path", json::array({"url"})},
                                                 {"message", message}}}));
    }
    json data = jobs::crawl_options_from_prompt(call.body.value("prompt", ""));
    data["url"] = url;
    json body = {{"success", true}, {"data", data}};
    if (data.size() == 1) {
      body["warning"] = "The prompt implied no crawl options; the crawl would use the defaults.";
    }
    return http::Response::json(200, body);
  });
}

}  // namespace webdata::mock
