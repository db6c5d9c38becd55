#include "app/answers.hpp"

#include <algorithm>
#include <charconv>

#include "core/ids.hpp"

namespace webdata::mock {

using nlohmann::json;

http::Response refusal_answer(const requests::Refusal& refusal) {
  json body = {{"success", false},
               {"code", "BAD_REQUEST"},
               {"error", refusal.error},
               {"details", refusal.details}};
  if (!refusal.hint.empty()) body["hint"] = refusal.hint;
  return http::Response::json(400, body);
}

http::Response field_refusal(const std::string& path_text, const json& path,
                             const std::string& message, const std::string& code) {
  return refusal_answer(requests::Refusal{
      "Bad Request", json::array({{{"code", code}, {"path", path}, {"message", message}}}),
      path_text + ": " + message});
}

http::Response field_refusal(const std::string& field, const std::string& message) {
  return field_refusal(field, json::array({field}), message);
}

http::Response field_error(const std::string& field, const std::string& error,
                           const std::string& message, const std::string& code) {
  return http::Response::error(
      400, error, "BAD_REQUEST",
      json::array({{{"code", code}, {"path", json::array({field})}, {"message", message}}}));
}

http::Response failure_answer(const scrape::Failure& failure) {
  return http::Response::error(failure.http_status, failure.message, failure.code, failure.details);
}

http::Response document_answer(const std::string& document) {
  // Written around the serialized text, in the order nlohmann gives the same object, so that a
  // scrape and a read of it by id answer byte for byte alike.
  http::Response response;
  response.status = 200;
  response.body.reserve(document.size() + 32);
  response.body.append("{\"data\":").append(document).append(",\"success\":true}");
  response.set_header("Content-Type", "application/json");
  return response;
}

http::Response malformed_json() {
  return http::Response::error(400, "Bad request, malformed JSON", "BAD_REQUEST_INVALID_JSON");
}

http::Response database_unavailable() {
  std::string id = uuid4();
  id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
  return http::Response::error(500,
                               "An unexpected error occurred. Please contact help@firecrawl.com "
                               "for help. Your exception ID is " +
                                   id,
                               "UNKNOWN_ERROR");
}

/// Parses a non-negative integer query parameter; nullopt when absent, error text when bad.
std::optional<std::string> query_count(const http::Request& request, const char* name,
                                       std::size_t min, std::size_t max, std::size_t& out) {
  const auto value = request.query_param(name);
  if (!value) return std::nullopt;
  std::size_t n = 0;
  const auto* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, n);
  if (value->empty() || ec != std::errc() || ptr != end || n < min || n > max) {
    return std::string("query parameter '") + name + "' must be an integer from " +
           std::to_string(min) + " to " + std::to_string(max);
  }
  out = n;
  return std::nullopt;
}

}  // namespace webdata::mock
