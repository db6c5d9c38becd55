#include <algorithm>
#include <cctype>
#include <utility>

#include "app/answers.hpp"
#include "app/api_routes.hpp"

// The HTTP side of request checks: the Content-Type a body must come with, the strict JSON
// reader, the 400 answer of a refused body, and the memo of accepted bodies. What is checked and
// how a body is decoded is the requests layer's (requests/validate.hpp, requests/requests.hpp).

namespace webdata::mock {

namespace {

/// The memo of accepted bodies: bodies up to 8 KiB, 256 of them at most (emptied when full:
/// clients repeat a handful of bodies, and the worst case stays a few MB).
constexpr std::size_t kMaxRememberedBodyBytes = 8192;
constexpr std::size_t kMaxRememberedBodies = 256;

nlohmann::json custom_issue(const std::string& message) {
  return {{"code", "custom"}, {"path", nlohmann::json::array()}, {"message", message}};
}

}  // namespace

std::optional<http::Response> content_type_refusal(const http::Request& request) {
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
  const std::string sent = request.header("Content-Type").value_or("");
  std::string media = sent.substr(0, sent.find(';'));
  media.erase(0, media.find_first_not_of(" \t"));
  media.erase(media.find_last_not_of(" \t") + 1);
  std::transform(media.begin(), media.end(), media.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (media == "application/json") return std::nullopt;
  const std::string message =
      "Content-Type must be application/json: the body was sent " +
      (sent.empty() ? std::string("without a Content-Type") : "as '" + sent + "'") +
      ", and the service reads a request body only when it is sent as JSON";
  return refusal_answer(requests::Refusal{"Bad Request", nlohmann::json::array({custom_issue(message)}),
                                          message});
}

std::optional<nlohmann::json> ApiRoutes::parse_body(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return nlohmann::json::object();
  // The service's reader is strict: a string, a number, true, false or null at the top is
  // malformed JSON, not a body of the wrong type.
  if (text[first] != '{' && text[first] != '[') return std::nullopt;
  nlohmann::json body = nlohmann::json::parse(text, nullptr, false);
  if (body.is_discarded()) return std::nullopt;
  return body;
}

std::shared_ptr<const void> ApiRoutes::accept_body(const BodySpec& spec,
                                                    const http::Request& request,
                                                    nlohmann::json& body,
                                                    std::optional<http::Response>& refused) const {
  if ((refused = content_type_refusal(request))) return nullptr;
  if (auto refusal = requests::validate(spec.schema, body, rules_)) {
    refused = refusal_answer(*refusal);
    return nullptr;
  }
  auto typed = spec.decode(body);
  remember_accepted(spec.schema, request.body, typed);
  return typed;
}

std::shared_ptr<const void> ApiRoutes::accepted_body(const std::string& schema,
                                                      const std::string& text) const {
  if (text.size() > kMaxRememberedBodyBytes) return nullptr;
  const std::string key = schema + '\n' + text;
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  const auto it = accepted_.find(key);
  return it == accepted_.end() ? nullptr : it->second;
}

void ApiRoutes::remember_accepted(const std::string& schema, const std::string& text,
                                   std::shared_ptr<const void> request) const {
  if (text.size() > kMaxRememberedBodyBytes) return;
  std::map<std::string, std::shared_ptr<const void>> dropped;  // freed unlocked
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  if (accepted_.size() >= kMaxRememberedBodies) dropped.swap(accepted_);
  accepted_.emplace(schema + '\n' + text, std::move(request));
}

}  // namespace webdata::mock
