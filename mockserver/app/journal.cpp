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
  Entry entry;
  std::string host;
  entry.headers.reserve(request.headers.size());
  for (const auto& [name, value] : request.headers) {
    entry.headers.emplace_back(name, is_credential_header(name) ? std::string("<masked>") : value);
    if (iequals(name, "host")) host = value;
  }
  entry.id = uuid4();
  entry.target = request.target;
  entry.absolute_url = request.scheme + "://" + host + request.target;
  entry.method = request.method;
  entry.client_ip = request.remote_address;
  entry.body = request.body;
  entry.when = when;
  entry.status = status;
  entry.matched_stub = matched_stub;
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_front(std::move(entry));
  ++total_;
  while (entries_.size() > limit_) entries_.pop_back();
}

nlohmann::json Journal::entry_json(const Entry& e) {
  nlohmann::json headers = nlohmann::json::object();
  for (const auto& [name, value] : e.headers) headers[name] = value;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(e.when.time_since_epoch()).count();
  return {{"id", e.id},
          {"request",
           {{"url", e.target},
            {"absoluteUrl", e.absolute_url},
            {"method", e.method},
            {"clientIp", e.client_ip},
            {"headers", std::move(headers)},
            {"body", e.body},
            {"loggedDate", ms},
            {"loggedDateString", iso8601(e.when)}}},
          {"responseDefinition", {{"status", e.status}}},
          {"response", {{"status", e.status}}},
          {"wasMatched", e.matched_stub}};
}

nlohmann::json Journal::to_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json requests = nlohmann::json::array();
  for (const auto& e : entries_) requests.push_back(entry_json(e));
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
