// What a deployment of the real service answers where it lacks a part or its validation differs
// (--imitate; --inject-fault express-404, no-database and baseline-validation): Express's own
// 404 page for a route it does not have, a 500 where its database is missing, and the build's
// validation answers. Texts and bytes as the recorded deployment's
// (tests/data/real/self-hosted-2025-08.json).
#include "app/mock_server.hpp"

#include <algorithm>
#include <optional>

#include "content/dom.hpp"
#include "core/ids.hpp"

namespace webdata::mock {

namespace {

/// Routes of the mock that the imitated build (August 2025) did not have: the agent, queue
/// status, v2 batch scrape errors, parse, historical usage, monitors, browser sessions and
/// interact, and the errors path without a version that only the specification writes.
const http::Router& newer_routes() {
  static const http::Router routes = [] {
    http::Router r;
    for (const char* pattern :
         {"/v2/agent", "/v2/agent/{id}", "/v2/agent/{id}/trace",
          "/v2/agent/{id}/snapshots/{snapshotId}", "/v2/agent/threads/{threadId}",
          "/v1/team/queue-status", "/v2/team/queue-status", "/v1/team/credit-usage/historical",
          "/v2/team/credit-usage/historical", "/v1/team/token-usage/historical",
          "/v2/team/token-usage/historical", "/v2/batch/scrape/{id}/errors", "/v2/parse",
          "/crawl/{id}/errors", "/v2/monitor", "/v2/monitor/{id}", "/v2/monitor/{id}/run",
          "/v2/monitor/{id}/checks", "/v2/monitor/{id}/checks/{checkId}", "/v2/browser",
          "/v2/browser/{id}", "/v2/browser/{id}/execute", "/v2/scrape/{id}/interact"}) {
      r.add("ANY", pattern, {});
    }
    return r;
  }();
  return routes;
}

/// A request as Express hands it on when its body is not sent as JSON: without a body.
http::Request without_body(const http::Request& request) {
  http::Request out = request;
  out.body.clear();
  return out;
}

/// The build's v2 batch scrape checked every URL unless the body itself said
/// `ignoreInvalidURLs: true` (the specification, and the mock, ignore them by default).
/// The request so rewritten; nullopt for any other request, and for a batch that names the flag.
std::optional<http::Request> batch_as_imitated(const http::Request& request) {
  if (request.path != "/v2/batch/scrape") return std::nullopt;
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
  if (!body.is_object() || body.find("ignoreInvalidURLs") != body.end()) return std::nullopt;
  http::Request out = request;
  body["ignoreInvalidURLs"] = false;
  out.body = body.dump();
  return out;
}

/// The build's v2 batch that checked its URLs still lists `invalidURLs`: empty, since every URL
/// passed.
http::Response with_no_invalid(http::Response response) {
  nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
  if (!body.is_object() || body.find("invalidURLs") != body.end()) return response;
  body["invalidURLs"] = nlohmann::json::array();
  return http::Response::json(response.status, body);
}

/// The build's quirk: a missing `url` is refused with the message of a URL without a domain.
void url_issue_as_imitated(nlohmann::json& issue) {
  if (!issue.is_object() || issue.value("code", "") != "invalid_type" ||
      issue.value("path", nlohmann::json()) != nlohmann::json::array({"url"})) {
    return;
  }
  const std::string message = issue.value("message", "");
  if (issue.value("received", "") != "undefined" &&
      (message.size() < 8 || message.compare(message.size() - 8, 8, "Required") != 0)) {
    return;
  }
  issue = {{"code", "custom"},
           {"message", "URL must have a valid top-level domain or be a valid path"},
           {"path", nlohmann::json::array({"url"})}};
}

/// The issues as zod prints them (JSON, two spaces, its key order): the text a v1 search
/// refusal carries as its `error`.
std::string zod_text(const nlohmann::json& details) {
  static const char* const order[] = {"code",    "expected", "received",   "minimum",
                                      "maximum", "type",     "inclusive",  "exact",
                                      "keys",    "options",  "validation", "unionErrors"};
  nlohmann::ordered_json issues = nlohmann::ordered_json::array();
  for (const auto& issue : details) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const char* key : order) {
      if (issue.contains(key)) out[key] = issue.at(key);
    }
    for (const auto& [key, value] : issue.items()) {
      if (!out.contains(key) && key != "message" && key != "path") out[key] = value;
    }
    for (const char* key : {"message", "path"}) {
      if (issue.contains(key)) out[key] = issue.at(key);
    }
    issues.push_back(std::move(out));
  }
  return issues.dump(2);
}

}  // namespace

bool MockServer::imitated_route(const http::Request& request) const {
  return api_routes_.router().knows(request.method, request.path) && !newer_routes().knows_path(request.path);
}

http::Response MockServer::express_not_found(const http::Request& request) {
  http::Response response;
  response.status = 404;
  response.set_header("Content-Type", "text/html; charset=utf-8");
  response.set_header("Content-Security-Policy", "default-src 'none'");
  response.set_header("X-Content-Type-Options", "nosniff");
  response.body =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>Error</title>\n</head>\n<body>\n<pre>Cannot ";
  content::dom::append_escaped_text(response.body, request.method + " " + request.path);
  response.body += "</pre>\n</body>\n</html>\n";
  return response;
}

http::Response MockServer::validate_as_imitated(const http::Request& request) const {
  // Express parses a body as JSON only when it is sent as JSON; any other body is none.
  const auto strict_batch = batch_as_imitated(request);
  http::Response response = content_type_refusal(request) ? api_routes_.router().dispatch(without_body(request))
                            : strict_batch              ? api_routes_.router().dispatch(*strict_batch)
                                                        : api_routes_.router().dispatch(request);
  if (strict_batch && response.status == 200) return with_no_invalid(std::move(response));
  if (response.status != 400) return response;
  nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
  if (!body.is_object() || !body.contains("details") || !body.at("details").is_array()) {
    return response;
  }
  for (auto& issue : body["details"]) url_issue_as_imitated(issue);
  body.erase("hint");  // the mock's own text of the first issue, which the build did not send
  // The build's search controllers validate themselves: v1 turns a refusal into a 500 whose
  // error is zod's text of the issues, v2 answers without a code.
  if (request.path == "/v1/search") {
    return http::Response::json(500, {{"success", false}, {"error", zod_text(body["details"])}});
  }
  if (request.path == "/v2/search") {
    body = {{"success", false}, {"error", "Invalid request body"}, {"details", body["details"]}};
  }
  return http::Response::json(400, body);
}

}  // namespace webdata::mock
