#include <webdata/contract/schemas.hpp>

#include "app/mock_server.hpp"

namespace webdata::mock {

std::optional<http::Response> MockServer::validate_request(const std::string& schema,
                                                           nlohmann::json& body) const {
  const auto& schemas = contract::SchemaSet::embedded();
  const auto issues = schemas.validate(schema, body);
  if (!issues.empty()) {
    nlohmann::json details = nlohmann::json::array();
    for (const auto& issue : issues) details.push_back(issue.to_json());
    std::string message = "Bad Request";
    // The first issue in the message too, so a client that shows only `error` says what is wrong.
    message += ": " + issues.front().message;
    return http::Response::error(400, message, "BAD_REQUEST", details);
  }
  body = schemas.with_defaults(schema, std::move(body));
  return std::nullopt;
}

}  // namespace webdata::mock
