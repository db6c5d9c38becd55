// Browser sessions and interact (webdata/browser.hpp; docs/reference/browser.md).
#include "client_core.hpp"
#include "codec.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

Call browser_call(const char* method, std::string target, const json* body = nullptr) {
  Call call;
  call.method = method;
  call.target = std::move(target);
  if (body != nullptr) call.body = dump(*body);
  return call;
}

void read_session(const json& j, BrowserSession& out, const Path& root) {
  Reader r(j, root);
  r.skip("success");
  r("id", out.id);
  r("status", out.status);
  r("cdpUrl", out.cdp_url);
  r("liveViewUrl", out.live_view_url);
  r("interactiveLiveViewUrl", out.interactive_live_view_url);
  r("expiresAt", out.expires_at);
  r("streamWebView", out.stream_web_view);
  r("createdAt", out.created_at);
  r("lastActivity", out.last_activity);
  r.rest(out.extras);
}

BrowserSession decode_session(const json& j) {
  BrowserSession out;
  const Path root = Path{}.collecting(out.diagnostics);
  read_session(j, out, root);
  return out;
}

std::vector<BrowserSession> decode_sessions(const json& j) {
  std::vector<BrowserSession> out;
  const auto found = j.find("sessions");
  if (found == j.end() || !found->is_array()) return out;
  for (const auto& item : *found) out.push_back(decode_session(item));
  return out;
}

BrowserRun decode_run(const json& j) {
  BrowserRun out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader r(j, root);
  r.skip("success");
  r("stdout", out.stdout_text);
  r("result", out.result);
  r("stderr", out.stderr_text);
  r("output", out.output);
  r("exitCode", out.exit_code);
  r("killed", out.killed);
  r("error", out.error);
  r.rest(out.extras);
  return out;
}

BrowserEnded decode_ended(const json& j) {
  BrowserEnded out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader r(j, root);
  r.skip("success");
  r("status", out.status);
  r("sessionDurationMs", out.session_duration_ms);
  r("creditsBilled", out.credits_billed);
  r.rest(out.extras);
  return out;
}

}  // namespace
}  // namespace detail

Result<BrowserSession> Client::create_browser(const BrowserRequest& request,
                                              const CallOptions& options) const {
  detail::json body = detail::json::object();
  if (request.ttl) body["ttl"] = *request.ttl;
  if (request.activity_ttl) body["activityTtl"] = *request.activity_ttl;
  if (request.stream_web_view) body["streamWebView"] = *request.stream_web_view;
  if (request.origin) body["origin"] = *request.origin;
  if (request.integration) body["integration"] = *request.integration;
  return detail::call_and_decode<BrowserSession>(
      *core_, detail::browser_call("POST", "/v2/browser", &body), options, "browser session",
      detail::decode_session);
}

Result<std::vector<BrowserSession>> Client::list_browsers(const std::string& status,
                                                          const CallOptions& options) const {
  const std::string target = status.empty() ? "/v2/browser" : "/v2/browser?status=" + status;
  return detail::call_and_decode<std::vector<BrowserSession>>(
      *core_, detail::browser_call("GET", target), options, "browser sessions",
      detail::decode_sessions);
}

Result<BrowserRun> Client::browser_execute(const std::string& id,
                                           const BrowserExecuteRequest& request,
                                           const CallOptions& options) const {
  detail::json body = {{"code", request.code}, {"language", request.language}};
  if (request.timeout) body["timeout"] = *request.timeout;
  return detail::call_and_decode<BrowserRun>(
      *core_,
      detail::browser_call("POST", "/v2/browser/" + detail::escape_segment(id) + "/execute",
                           &body),
      options, "browser execute", detail::decode_run);
}

Result<BrowserEnded> Client::delete_browser(const std::string& id,
                                            const CallOptions& options) const {
  return detail::call_and_decode<BrowserEnded>(
      *core_, detail::browser_call("DELETE", "/v2/browser/" + detail::escape_segment(id)),
      options, "browser delete", detail::decode_ended);
}

Result<BrowserRun> Client::interact(const std::string& scrape_id, const InteractRequest& request,
                                    const CallOptions& options) const {
  detail::json body = {{"language", request.language}};
  if (request.code) body["code"] = *request.code;
  if (request.prompt) body["prompt"] = *request.prompt;
  if (request.timeout) body["timeout"] = *request.timeout;
  return detail::call_and_decode<BrowserRun>(
      *core_,
      detail::browser_call("POST", "/v2/scrape/" + detail::escape_segment(scrape_id) + "/interact",
                           &body),
      options, "interact", detail::decode_run);
}

Result<BrowserEnded> Client::stop_interaction(const std::string& scrape_id,
                                              const CallOptions& options) const {
  return detail::call_and_decode<BrowserEnded>(
      *core_,
      detail::browser_call("DELETE", "/v2/scrape/" + detail::escape_segment(scrape_id) +
                                         "/interact"),
      options, "stop interaction", detail::decode_ended);
}

}  // namespace webdata
