#include "app/handlers/handlers.hpp"
#include "scrape/browser_sessions.hpp"

// A browser session's own URLs (docs/reference/browser.md#live-view-and-cdp): the live view
// (`GET /browser/live/{id}`: the page the session is on, as HTML) and the Chrome DevTools
// Protocol WebSocket (`/browser/cdp/{id}`: a small subset of CDP run on the session's page).
// As on the service, the unguessable session id in the URL is the credential: no API key.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// CDP's JSON-RPC error codes.
constexpr int kParseError = -32700;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kServerError = -32000;

/// The session, or the answer for an unknown (404) or ended (410) one.
std::optional<http::Response> session_refusal(const std::optional<scrape::BrowserSession>& session) {
  if (!session) return http::Response::error(404, "Browser session not found");
  if (session->destroyed) {
    return http::Response::error(410, "Browser session has ended (destroyed or expired)");
  }
  return std::nullopt;
}

http::Response live_view(Services& s, const http::Request&, const http::PathParams& params) {
  const auto session = s.browsers->find_by_id(params.at("id"));
  if (auto refused = session_refusal(session)) return *refused;
  http::Response r;
  r.status = 200;
  r.set_header("Content-Type", "text/html; charset=utf-8");
  r.set_header("Cache-Control", "no-store");
  r.body = session->page ? session->page->body
                         : "<!DOCTYPE html><html><head><title>about:blank</title></head><body></body></html>";
  if (session->page) r.set_header("X-Webdata-Page-Url", session->page->url);
  return r;
}

/// A plain GET of the CDP URL: what a WebSocket client gets before it upgrades.
http::Response cdp_without_upgrade(Services& s, const http::Request&, const http::PathParams& params) {
  if (auto refused = session_refusal(s.browsers->find_by_id(params.at("id")))) return *refused;
  http::Response r = http::Response::error(426, "This is a WebSocket endpoint (Chrome DevTools Protocol)");
  r.set_header("Upgrade", "websocket");
  return r;
}

/// `text` as one double-quoted word of the session's code (browser_code.cpp): one line.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  return out + "\"";
}

/// CDP's RemoteObject of a value the mock's evaluator printed: a number, a boolean, null or a
/// string as JSON reads it, else the text as a string.
json remote_object(const std::string& text) {
  const json value = json::parse(text, nullptr, false);
  if (value.is_discarded() || value.is_object() || value.is_array()) {
    return {{"type", "string"}, {"value", text}};
  }
  if (value.is_null()) return {{"type", "object"}, {"subtype", "null"}, {"value", nullptr}};
  return {{"type", value.is_boolean() ? "boolean" : value.is_number() ? "number" : "string"},
          {"value", value}};
}

struct CdpCall {
  Services& s;
  std::string session_id;
  std::string team_id;

  /// Runs one line of session code; the run, or a CDP error.
  std::optional<json> run(const std::string& code, scrape::BrowserRun& out) const {
    using Ran = scrape::BrowserSessions::Ran;
    const Ran ran = s.browsers->execute(session_id, team_id, code, out);
    if (ran != Ran::ok) return json{{"code", kServerError}, {"message", "Browser session has ended"}};
    if (out.exit_code != 0) return json{{"code", kServerError}, {"message", out.stderr_text}};
    return std::nullopt;
  }

  json evaluate(const json& params, json& error) const {
    const auto expression = params.find("expression");
    if (expression == params.end() || !expression->is_string()) {
      error = {{"code", kInvalidParams}, {"message", "Invalid parameters: expression: string value expected"}};
      return nullptr;
    }
    scrape::BrowserRun out;
    if (auto failed = run("eval " + quoted(*expression), out)) {
      // A script that throws is a result with exceptionDetails, not a protocol error.
      return {{"result", {{"type", "undefined"}}},
              {"exceptionDetails", {{"exceptionId", 1}, {"text", (*failed)["message"]}}}};
    }
    return {{"result", remote_object(out.result)}};
  }

  json navigate(const json& params, json& error) const {
    const auto url = params.find("url");
    if (url == params.end() || !url->is_string()) {
      error = {{"code", kInvalidParams}, {"message", "Invalid parameters: url: string value expected"}};
      return nullptr;
    }
    scrape::BrowserRun out;
    if (auto failed = run("open " + quoted(*url), out)) return {{"frameId", session_id}, {"errorText", (*failed)["message"]}};
    return {{"frameId", session_id}, {"loaderId", session_id}};
  }

  json screenshot(json& error) const {
    scrape::BrowserRun out;
    if (auto failed = run("screenshot", out)) {
      error = *failed;
      return nullptr;
    }
    const auto comma = out.result.find(',');
    return {{"data", comma == std::string::npos ? out.result : out.result.substr(comma + 1)}};
  }

  json targets() const {
    const auto session = s.browsers->find_by_id(session_id);
    const bool page = session && session->page;
    return {{"targetInfos",
             {{{"targetId", session_id},
               {"type", "page"},
               {"title", page ? session->page->url : "about:blank"},
               {"url", page ? session->page->url : "about:blank"},
               {"attached", true}}}}};
  }

  /// The result of `method`, or nullptr with `error` set.
  json answer(const std::string& method, const json& params, json& error) const {
    if (method == "Browser.getVersion") {
      return {{"protocolVersion", "1.3"}, {"product", "webdata-mock"}, {"revision", ""},
              {"userAgent", "webdata-mock"}, {"jsVersion", ""}};
    }
    if (method == "Runtime.evaluate") return evaluate(params, error);
    if (method == "Page.navigate") return navigate(params, error);
    if (method == "Page.captureScreenshot") return screenshot(error);
    if (method == "Target.getTargets") return targets();
    error = {{"code", kMethodNotFound}, {"message", "'" + method + "' wasn't found"}};
    return nullptr;
  }

  /// One protocol message in, one out: {id, result} or {id, error}.
  std::string reply(const std::string& text) const {
    const json message = json::parse(text, nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
      return json{{"error", {{"code", kParseError}, {"message", "Message must be a valid JSON"}}}}.dump();
    }
    const json id = message.contains("id") ? message["id"] : json(nullptr);
    const auto method = message.find("method");
    json error;
    json result = method != message.end() && method->is_string()
                      ? answer(*method, message.value("params", json::object()), error)
                      : nullptr;
    if (method == message.end() || !method->is_string()) {
      error = {{"code", kInvalidParams}, {"message", "Message must have string 'method' property"}};
    }
    json out = {{"id", id}};
    if (message.contains("sessionId")) out["sessionId"] = message["sessionId"];
    if (!error.is_null()) out["error"] = error;
    else out["result"] = result.is_null() ? json::object() : result;
    return out.dump();
  }
};

}  // namespace

void add_browser_view_routes(ApiRoutes& routes, Services& s) {
  routes.plain("GET", "/browser/live/{id}", [&s](const http::Request& request, const http::PathParams& params) {
    return live_view(s, request, params);
  });
  routes.plain("GET", "/browser/cdp/{id}", [&s](const http::Request& request, const http::PathParams& params) {
    return cdp_without_upgrade(s, request, params);
  });
}

std::optional<http::WebSocketRoute> browser_cdp(Services& s, const http::Request& request) {
  const std::string prefix = "/browser/cdp/";
  if (request.path.rfind(prefix, 0) != 0) return std::nullopt;
  const auto session = s.browsers->find_by_id(request.path.substr(prefix.size()));
  if (!session || session->destroyed) return std::nullopt;  // the plain route answers 404/410
  http::WebSocketRoute route;
  route.max_message_bytes = 1024 * 1024;
  const CdpCall call{s, session->id, session->team_id};
  route.on_message = [call](const std::shared_ptr<http::WebSocketConnection>& connection,
                            const std::string& text) { connection->send_text(call.reply(text)); };
  return route;
}

}  // namespace webdata::mock::handlers
