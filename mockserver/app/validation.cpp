#include <webdata/contract/schemas.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "app/mock_server.hpp"

namespace webdata::mock {
namespace {

/// Request limits beyond the schemas (which follow the public API and set none): a URL longer
/// than any browser sends, or a batch larger than a job should hold, is refused up front with a
/// `too_big` issue instead of being queued page by page.
constexpr std::size_t kMaxUrlBytes = 8192;
constexpr std::size_t kMaxUrlsPerRequest = 10000;
/// Deeper JSON is refused before anything walks it recursively (validator, extraction, copies):
/// parsing is iterative, but a 100,000-level body would overflow a thread's stack later.
constexpr std::size_t kMaxDepth = 256;

/// The memo of accepted bodies: bodies up to 8 KiB, 256 of them at most (emptied when full:
/// clients repeat a handful of bodies, and the worst case stays a few MB).
constexpr std::size_t kMaxRememberedBodyBytes = 8192;
constexpr std::size_t kMaxRememberedBodies = 256;

/// Nesting depth of a value (a scalar is 0), without recursion; stops counting past `limit`.
std::size_t depth_of(const nlohmann::json& root, std::size_t limit) {
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&root, 0}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const auto& child : *value) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

nlohmann::json too_big(nlohmann::json path, std::size_t maximum, const std::string& type,
                       const std::string& message) {
  return {{"code", "too_big"}, {"path", std::move(path)}, {"maximum", maximum},
          {"type", type},      {"inclusive", true},       {"message", message}};
}

/// Issues for the limits above; empty when the body is within them.
nlohmann::json limit_issues(const nlohmann::json& body) {
  nlohmann::json issues = nlohmann::json::array();
  if (depth_of(body, kMaxDepth) > kMaxDepth) {
    issues.push_back(too_big(nlohmann::json::array(), kMaxDepth, "depth",
                             "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
    return issues;
  }
  if (!body.is_object()) return issues;
  const auto url = body.find("url");
  if (url != body.end() && url->is_string() && url->get_ref<const std::string&>().size() > kMaxUrlBytes) {
    issues.push_back(too_big({"url"}, kMaxUrlBytes, "string",
                             "url: longer than " + std::to_string(kMaxUrlBytes) + " bytes"));
  }
  const auto urls = body.find("urls");
  if (urls != body.end() && urls->is_array()) {
    if (urls->size() > kMaxUrlsPerRequest) {
      issues.push_back(too_big({"urls"}, kMaxUrlsPerRequest, "array",
                               "urls: more than " + std::to_string(kMaxUrlsPerRequest) +
                                   " URLs in one request (got " + std::to_string(urls->size()) +
                                   ")"));
      return issues;
    }
    for (std::size_t i = 0; i < urls->size(); ++i) {
      const auto& item = (*urls)[i];
      if (item.is_string() && item.get_ref<const std::string&>().size() > kMaxUrlBytes) {
        issues.push_back(too_big({"urls", i}, kMaxUrlBytes, "string",
                                 "urls." + std::to_string(i) + ": longer than " +
                                     std::to_string(kMaxUrlBytes) + " bytes"));
      }
    }
  }
  return issues;
}

}  // namespace

std::shared_ptr<const nlohmann::json> MockServer::accepted_body(const std::string& schema,
                                                                const std::string& text) const {
  if (text.size() > kMaxRememberedBodyBytes) return nullptr;
  const std::string key = schema + '\n' + text;
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  const auto it = accepted_.find(key);
  return it == accepted_.end() ? nullptr : it->second;
}

void MockServer::remember_accepted(const std::string& schema, const std::string& text,
                                   const nlohmann::json& body) const {
  if (text.size() > kMaxRememberedBodyBytes) return;
  auto entry = std::make_shared<const nlohmann::json>(body);
  std::map<std::string, std::shared_ptr<const nlohmann::json>> dropped;  // freed unlocked
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  if (accepted_.size() >= kMaxRememberedBodies) dropped.swap(accepted_);
  accepted_.emplace(schema + '\n' + text, std::move(entry));
}

std::optional<http::Response> MockServer::validate_request(const std::string& schema,
                                                           nlohmann::json& body) const {
  // Limits first: they are cheap, and they keep a huge batch from reaching the validator.
  if (auto limits = limit_issues(body); !limits.empty()) {
    const std::string message = "Bad Request: " + limits.front()["message"].get<std::string>();
    return http::Response::error(400, message, "BAD_REQUEST", std::move(limits));
  }
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
