#include "app/journal.hpp"

#include "core/ids.hpp"
#include "core/time.hpp"

namespace webdata::mock {

namespace {

bool is_credential_header(const std::string& name) {
  return iequals(name, "authorization") || iequals(name, "x-api-key") ||
         iequals(name, "proxy-authorization") || iequals(name, "cookie");
}

}  // namespace

void Journal::record(const http::Request& request, int status, bool matched_stub,
                     std::chrono::system_clock::time_point when) {
  if (limit_ == 0) return;
  nlohmann::json headers = nlohmann::json::object();
  std::string host;
  for (const auto& [name, value] : request.headers) {
    headers[name] = is_credential_header(name) ? std::string("<masked>") : value;
    if (iequals(name, "host")) host = value;
  }
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
  nlohmann::json entry = {
      {"id", uuid4()},
      {"request",
       {{"url", request.target},
        {"absoluteUrl", request.scheme + "://" + host + request.target},
        {"method", request.method},
        {"clientIp", request.remote_address},
        {"headers", headers},
        {"body", request.body},
        {"loggedDate", ms},
        {"loggedDateString", iso8601(when)}}},
      {"responseDefinition", {{"status", status}}},
      {"response", {{"status", status}}},
      {"wasMatched", matched_stub}};
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_front(std::move(entry));
  ++total_;
  while (entries_.size() > limit_) entries_.pop_back();
}

nlohmann::json Journal::to_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& e : entries_) requests.push_back(e);
  return {{"requests", requests},
          {"meta", {{"total", total_}}},
          {"requestJournalDisabled", limit_ == 0}};
}

void Journal::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  total_ = 0;
}

}  // namespace webdata::mock
