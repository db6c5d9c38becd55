#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/services.hpp"
#include "core/teams.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "requests/requests.hpp"
#include "requests/validate.hpp"

namespace webdata::mock {

/// One authenticated API request as a handler receives it; a body comes beside it, checked and
/// decoded into its typed request (requests/requests.hpp).
struct ApiCall {
  const http::Request& request;
  const http::PathParams& params;
  const Team& team;
  std::string version;  ///< "v1" or "v2", the path's.
};
using ApiHandler = std::function<http::Response(ApiCall&)>;
template <class T>
using BodyHandler = std::function<http::Response(ApiCall&, std::shared_ptr<const T>)>;

/// Whether a route checks that the team can pay before it reads the body (the service's credit
/// check comes before its validation).
enum class Credits { checked, free };

/// 400 when a request with a body does not send it as `application/json`.
std::optional<http::Response> content_type_refusal(const http::Request& request);

/// The API's routes and the flow every API request goes through before its handler: JSON parse
/// -> auth -> credits -> body checks -> idempotency -> handler (app/api_routes.cpp; the body
/// checks and their memo in app/validation.cpp).
class ApiRoutes {
 public:
  explicit ApiRoutes(Services& services);

  /// Registers an API route without a body (GET, DELETE).
  void api(const std::string& method, const std::string& pattern, ApiHandler handler);
  /// Registers an API route whose body is a `T` of `version` (requests::decode).
  template <class T>
  void api(const std::string& method, const std::string& pattern, requests::Version version,
           Credits credits, BodyHandler<T> handler) {
    BodySpec spec{requests::schema_name<T>(version), credits,
                  [version](const nlohmann::json& body) -> std::shared_ptr<const void> {
                    return std::make_shared<const T>(requests::decode<T>(body, version));
                  }};
    add_route(
        method, pattern, std::move(spec),
        [handler = std::move(handler)](ApiCall& call, const std::shared_ptr<const void>& body) {
          return handler(call, std::static_pointer_cast<const T>(body));
        });
  }
  /// A route outside the API's flow (no auth, no journal of its own: GET /health).
  void plain(const std::string& method, const std::string& pattern, http::RouteHandler handler);
  const http::Router& router() const { return router_; }
  /// Forgets the x-idempotency-keys used so far (the admin reset).
  void forget_idempotency_keys();

 private:
  /// A route's body: the schema it is checked against, whether the team's credits are checked
  /// first, and how an accepted body becomes its typed request.
  struct BodySpec {
    std::string schema;
    Credits credits = Credits::checked;
    std::function<std::shared_ptr<const void>(const nlohmann::json&)> decode;
  };
  using ErasedHandler = std::function<http::Response(ApiCall&, const std::shared_ptr<const void>&)>;

  void add_route(const std::string& method, const std::string& pattern,
                 std::optional<BodySpec> spec, ErasedHandler handler);
  http::Response run_api(const http::Request& request, const http::PathParams& params,
                         const std::optional<BodySpec>& spec, const ErasedHandler& handler);
  /// The team of the request's key (everyone's first team under --inject-fault no-auth).
  AuthResult authenticate(const http::Request& request) const;
  /// Credits, body checks and idempotency of a route with a body; the typed body in `typed`.
  std::optional<http::Response> check_body(const BodySpec& spec, const http::Request& request,
                                           const Team& team, nlohmann::json& body,
                                           std::shared_ptr<const void>& typed);
  /// The body's typed request (checked and decoded now), or the refusal.
  std::shared_ptr<const void> accept_body(const BodySpec& spec, const http::Request& request,
                                          nlohmann::json& body,
                                          std::optional<http::Response>& refused) const;
  /// A body as the service's JSON reader takes it (strict: an object or an array at the top; a
  /// blank body is `{}`); nullopt for anything else (400 BAD_REQUEST_INVALID_JSON).
  static std::optional<nlohmann::json> parse_body(const std::string& text);
  /// 409 when the team already used this x-idempotency-key, 400 when it is not a UUID.
  std::optional<http::Response> check_idempotency(const http::Request& request, const Team& team);

  /// Accepted request bodies by schema and exact text, typed: checking and decoding are a pure
  /// function of the two, and they were the largest part of a cached scrape after the content
  /// work was cached (bench/analysis.md). Bounded; see validation.cpp.
  std::shared_ptr<const void> accepted_body(const std::string& schema,
                                            const std::string& text) const;
  void remember_accepted(const std::string& schema, const std::string& text,
                         std::shared_ptr<const void> request) const;

  Services& services_;
  /// How bodies are read beyond their schemas (--inject-fault baseline-validation: the
  /// Aug-2025 build's format types).
  requests::Rules rules_;
  http::Router router_;
  mutable std::mutex accepted_mutex_;
  mutable std::map<std::string, std::shared_ptr<const void>> accepted_;
  std::mutex idempotency_mutex_;
  std::map<std::string, std::chrono::system_clock::time_point> idempotency_keys_;
};

}  // namespace webdata::mock
