#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "webdata/transport.hpp"

namespace webdata::testing {

/// One answer of the API under test: status, headers and the body parsed as JSON (null when the
/// body is not JSON; `text` keeps it as sent).
struct ApiReply {
  int status = 0;
  webdata::Headers headers;
  std::string text;
  nlohmann::json body;

  std::optional<std::string> header(const std::string& name) const {
    return webdata::find_header(headers, name);
  }
};

/// Raw JSON calls over real HTTP (libcurl), for handler tests that look at the exact wire.
class ApiClient {
 public:
  explicit ApiClient(std::string base_url, std::string api_key = "test-key")
      : base_(std::move(base_url)), key_(std::move(api_key)),
        transport_(webdata::make_curl_transport()) {}

  ApiReply post(const std::string& path, const nlohmann::json& body,
                webdata::Headers extra = {}) const {
    return send("POST", path, body.dump(), std::move(extra));
  }
  ApiReply post_text(const std::string& path, std::string body, webdata::Headers extra = {}) const {
    return send("POST", path, std::move(body), std::move(extra));
  }
  ApiReply get(const std::string& path, webdata::Headers extra = {}) const {
    return send("GET", path, "", std::move(extra));
  }
  ApiReply del(const std::string& path, webdata::Headers extra = {}) const {
    return send("DELETE", path, "", std::move(extra));
  }
  ApiReply put(const std::string& path, const nlohmann::json& body) const {
    return send("PUT", path, body.dump(), {});
  }

  /// Sends with the Authorization header given in `extra` (or none) instead of the key.
  ApiReply send(const std::string& method, const std::string& path, std::string body,
                webdata::Headers extra, bool with_key = true) const {
    webdata::HttpRequest request;
    request.method = method;
    request.url = base_ + path;
    request.body = std::move(body);
    request.timeout = std::chrono::seconds(30);
    bool has_auth = false;
    for (const auto& [name, value] : extra) {
      if (name == "Authorization") has_auth = true;
    }
    if (with_key && !has_auth && !key_.empty()) {
      request.headers.emplace_back("Authorization", "Bearer " + key_);
    }
    // A test may send its own Content-Type (or an empty one, to send none).
    if (!request.body.empty() && !webdata::find_header(extra, "Content-Type")) {
      request.headers.emplace_back("Content-Type", "application/json");
    }
    for (auto& header : extra) request.headers.push_back(std::move(header));
    auto result = transport_->send(request);
    ApiReply reply;
    if (!result.ok()) {
      reply.status = -1;
      reply.text = result.error().message;
      return reply;
    }
    reply.status = result.value().status;
    reply.headers = result.value().headers;
    reply.text = result.value().body;
    reply.body = nlohmann::json::parse(reply.text, nullptr, false);
    if (reply.body.is_discarded()) reply.body = nullptr;
    return reply;
  }

  /// Polls a job's status at `path` every `every` until it leaves `scraping`, or `timeout`
  /// passes; returns the last body read (still `scraping` on a timeout: the caller's check says
  /// so).
  nlohmann::json wait_job(const std::string& path,
                          std::chrono::milliseconds timeout = std::chrono::seconds(30),
                          std::chrono::milliseconds every = std::chrono::milliseconds(20)) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    nlohmann::json body;
    for (;;) {
      body = get(path).body;
      if (!body.is_object() || body.value("status", "") != "scraping" ||
          std::chrono::steady_clock::now() >= deadline) {
        return body;
      }
      std::this_thread::sleep_for(every);
    }
  }

 private:
  std::string base_;
  std::string key_;
  std::shared_ptr<webdata::Transport> transport_;
};

}  // namespace webdata::testing
