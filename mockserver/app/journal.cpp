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
  thread_local Entry entry;  // storage reused: the ring hands back the entry it replaces
  std::string_view host;
  std::size_t n = 0;
  for (const auto& [name, value] : request.headers) {
    if (n == entry.headers.size()) entry.headers.emplace_back();
    auto& [kept_name, kept_value] = entry.headers[n++];
    kept_name.assign(name);
    if (is_credential_header(name)) {
      kept_value.assign("<masked>");
    } else {
      kept_value.assign(value);
    }
    if (host.empty() && iequals(name, "host")) host = value;
  }
  entry.headers.resize(n);
  entry.id.resize(kUuidLength);
  write_uuid4(entry.id.data());
  entry.target.assign(request.target);
  entry.absolute_url.assign(request.scheme).append("://").append(host).append(request.target);
  entry.method.assign(request.method);
  entry.client_ip.assign(request.remote_address);
  entry.body.assign(request.body);
  entry.when = when;
  entry.status = status;
  entry.matched_stub = matched_stub;
  std::lock_guard<std::mutex> lock(mutex_);
  if (ring_.size() < limit_) {
    ring_.push_back(std::move(entry));
    entry = Entry();
  } else {
    std::swap(ring_[next_], entry);
  }
  next_ = (next_ + 1) % limit_;
  ++total_;
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
  // Newest first: backwards from the last slot written.
  for (std::size_t i = 0; i < ring_.size(); ++i) {
    requests.push_back(entry_json(ring_[(next_ + ring_.size() - 1 - i) % ring_.size()]));
  }
  return {{"requests", requests},
          {"meta", {{"total", total_}}},
          {"requestJournalDisabled", limit_ == 0}};
}

void Journal::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  ring_.clear();
  next_ = 0;
  total_ = 0;
}

}  // namespace webdata::mock
