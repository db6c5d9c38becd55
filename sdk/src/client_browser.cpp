// Browser sessions and interact (webdata/browser.hpp; docs/reference/browser.md).
#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {

// The field lists of client_browser.fields.json, written as C++ by webdata_codegen.
#include "client_browser.fields.inc"

namespace {

std::string browser_path(const std::string& id, const char* tail = "") {
  return "/v2/browser/" + escape_segment(id) + tail;
}

std::string interact_path(const std::string& scrape_id) {
  return "/v2/scrape/" + escape_segment(scrape_id) + "/interact";
}

}  // namespace
}  // namespace detail

Result<BrowserSession> Client::create_browser(const BrowserRequest& request,
                                              const CallOptions& options) const {
  detail::json body = detail::json::object();
  if (request.ttl) body["ttl"] = *request.ttl;
  if (request.activity_ttl) body["activityTtl"] = *request.activity_ttl;
  if (request.stream_web_view) body["streamWebView"] = *request.stream_web_view;
  if (request.profile) {
    body["profile"] = {{"name", request.profile->name}};
    if (request.profile->save_changes) body["profile"]["saveChanges"] = *request.profile->save_changes;
  }
  if (request.origin) body["origin"] = *request.origin;
  if (request.integration) body["integration"] = *request.integration;
  return detail::call_for<BrowserSession>(*core_, detail::post("/v2/browser", body), options,
                                          "browser session");
}

Result<std::vector<BrowserSession>> Client::list_browsers(const std::string& status,
                                                          const CallOptions& options) const {
  detail::Query q("/v2/browser");
  if (!status.empty()) q.add("status", status);
  return detail::call_for_member<std::vector<BrowserSession>>(
      *core_, detail::get(q.target()), options, "browser sessions", "sessions");
}

Result<BrowserRun> Client::browser_execute(const std::string& id,
                                           const BrowserExecuteRequest& request,
                                           const CallOptions& options) const {
  detail::json body = {{"code", request.code}, {"language", request.language}};
  if (request.timeout) body["timeout"] = *request.timeout;
  return detail::call_for<BrowserRun>(
      *core_, detail::post(detail::browser_path(id, "/execute"), body), options,
      "browser execute");
}

Result<BrowserEnded> Client::delete_browser(const std::string& id,
                                            const CallOptions& options) const {
  return detail::call_for<BrowserEnded>(
      *core_, detail::json_call("DELETE", detail::browser_path(id)), options, "browser delete");
}

Result<BrowserRun> Client::interact(const std::string& scrape_id, const InteractRequest& request,
                                    const CallOptions& options) const {
  detail::json body = {{"language", request.language}};
  if (request.code) body["code"] = *request.code;
  if (request.prompt) body["prompt"] = *request.prompt;
  if (request.timeout) body["timeout"] = *request.timeout;
  return detail::call_for<BrowserRun>(
      *core_, detail::post(detail::interact_path(scrape_id), body), options, "interact");
}

Result<BrowserEnded> Client::stop_interaction(const std::string& scrape_id,
                                              const CallOptions& options) const {
  return detail::call_for<BrowserEnded>(
      *core_, detail::json_call("DELETE", detail::interact_path(scrape_id)), options,
      "stop interaction");
}

}  // namespace webdata
