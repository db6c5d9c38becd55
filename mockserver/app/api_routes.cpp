#include "app/api_routes.hpp"

#include "app/answers.hpp"
#include "core/ids.hpp"
#include "core/usage.hpp"

namespace webdata::mock {

using nlohmann::json;

ApiRoutes::ApiRoutes(Services& services) : services_(services) {
  rules_.aug_2025 = services_.config.has_fault("baseline-validation");
}

void ApiRoutes::api(const std::string& method, const std::string& pattern, ApiHandler handler) {
  add_route(method, pattern, std::nullopt,
            [handler = std::move(handler)](ApiCall& call, const std::shared_ptr<const void>&) {
              return handler(call);
            });
}

void ApiRoutes::plain(const std::string& method, const std::string& pattern,
                      http::RouteHandler handler) {
  router_.add(method, pattern, std::move(handler));
}

void ApiRoutes::add_route(const std::string& method, const std::string& pattern,
                          std::optional<BodySpec> spec, ErasedHandler handler) {
  router_.add(method, pattern,
              [this, spec = std::move(spec), handler = std::move(handler)](
                  const http::Request& request, const http::PathParams& params) {
                return run_api(request, params, spec, handler);
              });
}

http::Response ApiRoutes::run_api(const http::Request& request, const http::PathParams& params,
                                  const std::optional<BodySpec>& spec,
                                  const ErasedHandler& handler) {
  // Malformed JSON is reported before authentication (wire-decisions section 1). A body seen and
  // accepted before (same schema, same bytes) is neither parsed, checked nor decoded again.
  std::shared_ptr<const void> typed = spec ? accepted_body(spec->schema, request.body) : nullptr;
  json body;
  if (spec && !typed) {
    auto parsed = parse_body(request.body);
    if (!parsed) return malformed_json();
    body = std::move(*parsed);
  }
  const AuthResult auth = authenticate(request);
  if (auth.team == nullptr) return http::Response::error(401, auth.error);
  if (spec) {
    if (auto refused = check_body(*spec, request, *auth.team, body, typed)) return *refused;
  }
  ApiCall call{request, params, *auth.team,
               requests::version_name(requests::version_of_path(request.path))};
  const UsageAttribution attribution(auth.key);  // what the handler charges is this key's use
  return handler(call, typed);
}

AuthResult ApiRoutes::authenticate(const http::Request& request) const {
  AuthResult auth = services_.teams.authenticate(request.header("Authorization"));
  // --inject-fault no-auth: a self-hosted deployment with authentication off serves everyone.
  if (auth.team == nullptr && services_.config.has_fault("no-auth")) {
    auth.team = services_.teams.find(services_.config.effective_teams().front().id);
  }
  return auth;
}

std::optional<http::Response> ApiRoutes::check_body(const BodySpec& spec,
                                                    const http::Request& request, const Team& team,
                                                    json& body,
                                                    std::shared_ptr<const void>& typed) {
  // The service checks credits before it reads the body (its middleware order: auth,
  // credits, ..., then the controller's validation).
  if (spec.credits == Credits::checked) {
    if (auto refused = services_.require_credits(team, 1)) return refused;
  }
  if (!typed) {
    std::optional<http::Response> refused;
    typed = accept_body(spec, request, body, refused);
    if (refused) return refused;
  } else if (auto refused = content_type_refusal(request)) {
    return refused;
  }
  return check_idempotency(request, team);
}

std::optional<http::Response> ApiRoutes::check_idempotency(const http::Request& request,
                                                           const Team& team) {
  const auto key = request.header("x-idempotency-key");
  if (!key) return std::nullopt;
  // --inject-fault no-database: the keys are kept in the database a deployment may not have.
  if (services_.config.has_fault("no-database")) return database_unavailable();
  if (!is_uuid(*key)) {
    return http::Response::error(400, "x-idempotency-key must be a UUID", "BAD_REQUEST",
                                 json::array({{{"code", "invalid_string"},
                                               {"validation", "uuid"},
                                               {"path", json::array({"x-idempotency-key"})},
                                               {"message", "Invalid uuid"}}}));
  }
  const auto now = services_.clock.now();
  std::lock_guard<std::mutex> lock(idempotency_mutex_);
  // Keys are remembered for 24 hours, like job results.
  for (auto it = idempotency_keys_.begin(); it != idempotency_keys_.end();) {
    it = now - it->second > std::chrono::hours(24) ? idempotency_keys_.erase(it) : std::next(it);
  }
  if (!idempotency_keys_.emplace(team.id + "/" + *key, now).second) {
    return http::Response::error(409, "Idempotency key already used");
  }
  return std::nullopt;
}

void ApiRoutes::forget_idempotency_keys() {
  std::lock_guard<std::mutex> lock(idempotency_mutex_);
  idempotency_keys_.clear();
}

}  // namespace webdata::mock
