#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/time.hpp"
#include "scrape/browser_sessions.hpp"

// Browser sessions: POST /v2/browser, GET /v2/browser, POST /v2/browser/{id}/execute,
// DELETE /v2/browser/{id}; and the interactive session on the page of an earlier scrape:
// POST and DELETE /v2/scrape/{id}/interact (scrape::BrowserSessions; docs/reference/browser.md).
// Sessions are the team's: another team's id answers 404 as an unknown one.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// The session's URLs: a CDP WebSocket URL and live views on this server (nothing serves them).
void add_urls(Services& s, const ApiCall& call, const scrape::BrowserSession& session,
              json& out) {
  const std::string base = s.public_base(call.request);
  const std::string ws = (base.rfind("https", 0) == 0 ? "wss" : "ws") + base.substr(base.find(':'));
  out["cdpUrl"] = ws + "/browser/cdp/" + session.id;
  out["liveViewUrl"] = base + "/browser/live/" + session.id;
  out["interactiveLiveViewUrl"] = base + "/browser/live/" + session.id + "?interactive=true";
}

http::Response create_browser(Services& s, ApiCall& call, const requests::BrowserRequest& r) {
  scrape::BrowserSessionOptions options;
  options.ttl = std::chrono::seconds(r.ttl);
  options.activity_ttl = std::chrono::seconds(r.activity_ttl);
  options.stream_web_view = r.stream_web_view;
  if (r.profile) {
    options.profile = r.profile->name;
    options.save_profile = r.profile->save_changes;
  }
  const auto session = s.browsers->create(call.team.id, options);
  json out = {{"success", true}, {"id", session.id}};
  add_urls(s, call, session, out);
  out["expiresAt"] = iso8601(session.expires_at);
  return http::Response::json(200, out);
}

http::Response list_browsers(Services& s, ApiCall& call) {
  const std::string status = call.request.query_param("status").value_or("");
  if (!status.empty() && status != "active" && status != "destroyed") {
    return http::Response::error(400, "status must be 'active' or 'destroyed'");
  }
  json sessions = json::array();
  for (const auto& session : s.browsers->list(call.team.id, status)) {
    json item = {{"id", session.id}, {"status", session.destroyed ? "destroyed" : "active"}};
    add_urls(s, call, session, item);
    item["streamWebView"] = session.stream_web_view;
    item["createdAt"] = iso8601(session.created_at);
    item["lastActivity"] = iso8601(session.last_activity);
    sessions.push_back(std::move(item));
  }
  return http::Response::json(200, {{"success", true}, {"sessions", sessions}});
}

/// The answer of code or a prompt run in a session.
http::Response run_answer(Services& s, const ApiCall& call, const scrape::BrowserSession& session,
                          scrape::BrowserSessions::Ran ran, const scrape::BrowserRun& run) {
  using Ran = scrape::BrowserSessions::Ran;
  if (ran == Ran::not_found) return http::Response::error(404, "Browser session not found");
  if (ran == Ran::ended) {
    return http::Response::error(410, "Browser session has ended (destroyed or expired)");
  }
  json out = {{"success", true},     {"stdout", run.stdout_text}, {"result", run.result},
              {"stderr", run.stderr_text}, {"exitCode", run.exit_code}, {"killed", false},
              {"output", run.stdout_text + run.stderr_text}};
  add_urls(s, call, session, out);
  return http::Response::json(200, out);
}

http::Response execute_browser(Services& s, ApiCall& call,
                               const requests::BrowserExecuteRequest& r) {
  const std::string& id = call.params.at("id");
  scrape::BrowserRun run;
  const auto ran = s.browsers->execute(id, call.team.id, r.code, run);
  scrape::BrowserSession session;
  session.id = id;
  return run_answer(s, call, session, ran, run);
}

json ended_answer(const scrape::BrowserSession& session) {
  const auto lived = std::chrono::duration_cast<std::chrono::milliseconds>(session.ended_at -
                                                                           session.created_at);
  return {{"success", true},
          {"status", "destroyed"},
          {"sessionDurationMs", lived.count()},
          {"creditsBilled", session.credits_billed}};
}

http::Response delete_browser(Services& s, ApiCall& call) {
  const auto session = s.browsers->destroy(call.params.at("id"), call.team.id);
  if (!session) return http::Response::error(404, "Browser session not found");
  return http::Response::json(200, ended_answer(*session));
}

/// The URL of the team's earlier scrape `id`, or nullopt when the team has none by that id.
std::optional<std::string> scraped_url(Services& s, const ApiCall& call, const std::string& id) {
  const auto found = s.scraper->results().find(id, call.team.id, s.clock.now());
  if (found.found != scrape::ScrapeStore::Found::yes) return std::nullopt;
  const json document = json::parse(*found.document, nullptr, false);
  const auto found_metadata = document.is_object() ? document.find("metadata") : document.end();
  const json metadata = found_metadata != document.end() ? *found_metadata : json::object();
  for (const char* key : {"url", "sourceURL"}) {
    if (metadata.contains(key) && metadata[key].is_string()) return metadata[key].get<std::string>();
  }
  return std::nullopt;
}

http::Response interact(Services& s, ApiCall& call, const requests::InteractRequest& r) {
  if (!r.code && !r.prompt) return field_refusal("code", "Either 'code' or 'prompt' must be provided");
  const std::string& scrape_id = call.params.at("id");
  const auto url = scraped_url(s, call, scrape_id);
  if (!url) return http::Response::error(404, "Scrape job not found");
  const auto session = s.browsers->interact_session(scrape_id, call.team.id, *url);
  scrape::BrowserRun run;
  const bool is_prompt = !r.code.has_value();
  const auto ran = s.browsers->execute(session.id, call.team.id,
                                       is_prompt ? r.prompt.value_or("") : *r.code, run,
                                       is_prompt);
  if (is_prompt && ran == scrape::BrowserSessions::Ran::ok) {
    run.stdout_text += run.result + "\n";
  }
  return run_answer(s, call, session, ran, run);
}

http::Response stop_interaction(Services& s, ApiCall& call) {
  const auto id = s.browsers->interact_id(call.params.at("id"), call.team.id);
  const auto session = id ? s.browsers->destroy(*id, call.team.id) : std::nullopt;
  if (!session) return http::Response::error(404, "No interaction session for this scrape");
  return http::Response::json(200, ended_answer(*session));
}

}  // namespace

void add_browser_routes(ApiRoutes& routes, Services& s) {
  const auto v2 = requests::Version::v2;
  routes.api<requests::BrowserRequest>(
      "POST", "/v2/browser", v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::BrowserRequest> request) {
        return create_browser(s, call, *request);
      });
  routes.api("GET", "/v2/browser", [&s](ApiCall& call) { return list_browsers(s, call); });
  routes.api<requests::BrowserExecuteRequest>(
      "POST", "/v2/browser/{id}/execute", v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::BrowserExecuteRequest> request) {
        return execute_browser(s, call, *request);
      });
  routes.api("DELETE", "/v2/browser/{id}",
             [&s](ApiCall& call) { return delete_browser(s, call); });
  routes.api<requests::InteractRequest>(
      "POST", "/v2/scrape/{id}/interact", v2, Credits::checked,
      [&s](ApiCall& call, std::shared_ptr<const requests::InteractRequest> request) {
        return interact(s, call, *request);
      });
  routes.api("DELETE", "/v2/scrape/{id}/interact",
             [&s](ApiCall& call) { return stop_interaction(s, call); });
}

}  // namespace webdata::mock::handlers
