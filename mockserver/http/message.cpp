#include "http/message.hpp"

#include "core/url.hpp"
#include "core/json_text.hpp"

namespace webdata::mock::http {

std::optional<std::string> Request::header(const std::string& name) const {
  return find_header(headers, name);
}

std::vector<std::pair<std::string, std::string>> Request::query_params() const {
  return parse_query(query);
}

std::optional<std::string> Request::query_param(const std::string& name) const {
  for (auto& [key, value] : query_params()) {
    if (key == name) return value;
  }
  return std::nullopt;
}

void Response::set_header(const std::string& name, std::string value) {
  for (auto& [key, existing] : headers) {
    if (iequals(key, name)) {
      existing = std::move(value);
      return;
    }
  }
  headers.emplace_back(name, std::move(value));
}

std::optional<std::string> Response::header(const std::string& name) const {
  return find_header(headers, name);
}

Response Response::json(int status, const nlohmann::json& body) {
  Response r;
  r.status = status;
  r.body = json_text(body);
  r.set_header("Content-Type", "application/json");
  return r;
}

Response Response::error(int status, const std::string& message, const std::string& code,
                         const nlohmann::json& details) {
  nlohmann::json body = {{"success", false}, {"error", message}};
  if (!code.empty()) body["code"] = code;
  if (!details.is_null()) body["details"] = details;
  return json(status, body);
}

}  // namespace webdata::mock::http
