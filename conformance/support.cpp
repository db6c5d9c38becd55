#include "support.hpp"

#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <webdata/contract/schemas.hpp>

namespace webdata::conformance {

namespace {

std::shared_ptr<webdata::Transport> transport() {
  static const auto t = webdata::make_curl_transport();
  return t;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string ApiResponse::header(const std::string& name) const {
  return webdata::find_header(headers, name).value_or("");
}

Answer ApiResponse::answer() const {
  Answer a;
  a.status = status;
  a.content_type = header("Content-Type");
  a.body = body;
  a.json = body_json;
  a.transport_error = transport_error;
  return a;
}

std::string ApiResponse::describe() const {
  if (status == 0) return "no HTTP answer: " + transport_error;
  std::string shown = body.size() > 600
                          ? body.substr(0, 600) + "...(" + std::to_string(body.size()) + " bytes)"
                          : body;
  return "HTTP " + std::to_string(status) + ": " + shown;
}

ApiResponse call(const Call& c) {
  webdata::HttpRequest req;
  req.method = c.method;
  req.url = c.path.rfind("http", 0) == 0 ? c.path : target().base_url + c.path;
  req.timeout = target().scaled(c.timeout);
  bool has_auth = false;
  for (const auto& h : c.headers) has_auth = has_auth || lower(h.first) == "authorization";
  if (!has_auth) {
    if (c.auth == Auth::kKey && !target().api_key.empty()) {
      req.headers.emplace_back("Authorization", "Bearer " + target().api_key);
    } else if (c.auth == Auth::kOtherTeam) {
      req.headers.emplace_back("Authorization", "Bearer " + target().other_api_key);
    }
  }
  for (const auto& h : c.headers) req.headers.push_back(h);
  if (c.raw_body) {
    req.body = *c.raw_body;
  } else if (c.body) {
    req.body = c.body->dump();
  }
  // JSON unless the case sends its own media type (the Content-Type rule).
  bool has_type = false;
  for (const auto& h : c.headers) has_type = has_type || lower(h.first) == "content-type";
  if ((c.raw_body || c.body) && !has_type) {
    req.headers.emplace_back("Content-Type", "application/json");
  }
  ApiResponse out;
  auto res = transport()->send(req);
  if (!res.ok()) {
    out.transport_error = res.error().describe();
    return out;
  }
  out.status = res->status;
  out.headers = res->headers;
  out.body = std::move(res->body);
  out.body_json = json::parse(out.body, nullptr, false);
  return out;
}

ApiResponse get(const std::string& path, Auth auth) {
  Call c;
  c.path = path;
  c.auth = auth;
  return call(c);
}

ApiResponse post(const std::string& path, const json& body, Auth auth) {
  Call c;
  c.method = "POST";
  c.path = path;
  c.body = body;
  c.auth = auth;
  return call(c);
}

ApiResponse del(const std::string& path, Auth auth) {
  Call c;
  c.method = "DELETE";
  c.path = path;
  c.auth = auth;
  return call(c);
}

ApiResponse admin(const std::string& method, const std::string& path, const json& body) {
  Call c;
  c.method = method;
  c.path = path;
  c.auth = Auth::kNone;
  if (!body.is_null()) c.body = body;
  return call(c);
}

std::string schema_problems(const std::string& name, const json& value) {
  if (value.is_discarded()) return "the answer is not JSON";
  std::string out;
  for (const auto& issue : webdata::contract::SchemaSet::embedded().validate(name, value)) {
    out += issue.code + " at " + issue.path.dump() + ": " + issue.message + "\n";
  }
  return out;
}

std::string site_url(const std::string& path) {
  return "http://" + target().site_host + path;
}

std::string site_path(const std::string& url) {
  const std::string prefix = lower("http://" + target().site_host);
  if (lower(url.substr(0, prefix.size())) != prefix) return {};
  std::string path = url.substr(prefix.size());
  path = path.substr(0, path.find('#'));
  if (path.empty()) path = "/";
  if (path.size() >= 11 && path.compare(path.size() - 11, 11, "/index.html") == 0) {
    path.resize(path.size() - 10);
  }
  const auto last = path.rfind('/');
  if (path.back() != '/' && path.find('.', last) == std::string::npos &&
      path.find('?') == std::string::npos) {
    path += '/';
  }
  return path;
}

std::string unique_token() {
  static std::mutex mutex;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

namespace {

// "status scraping, completed 3, total 13, 3 documents": what a job's status says of its progress.
std::string progress_of(const json& status) {
  const json data = status.value("data", json::array());
  return "status " + status.value("status", std::string("?")) + ", completed " +
         status.value("completed", json()).dump() + ", total " +
         status.value("total", json()).dump() + ", " +
         std::to_string(data.is_array() ? data.size() : 0) + " documents";
}

// Ends the running case as stalled: the job is reported with its counters, and nothing the case
// would have judged after the wait counts against the deployment.
[[noreturn]] void stall(const std::string& reason) {
  mark_stalled(reason);
  WARN("STALLED: " << reason);
  throw Catch::TestFailureException();
}

std::string seconds(std::chrono::milliseconds ms) {
  return std::to_string((ms.count() + 500) / 1000) + " s";
}

}  // namespace

json wait_job(const std::string& resource, const std::string& id, std::vector<std::string>* seen,
              WaitBounds bounds, const std::function<void(const json&)>& each) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const auto idle = target().scaled(bounds.idle);
  const auto overall = target().scaled(bounds.overall);
  auto idle_until = started + idle;
  std::string progress;  // status, counters and document count of the last poll
  while (true) {
    const auto res = get(resource + "/" + id);
    const json last = res.body_json;
    if (res.status != 200 || !last.is_object()) return last;
    if (each) each(last);
    const std::string status = last.value("status", "");
    if (seen != nullptr) seen->push_back(status);
    if (status == "completed" || status == "failed" || status == "cancelled") return last;
    const std::string now_seen = progress_of(last);
    const auto now = Clock::now();
    // A job still making progress is waited for: slow deployments are not failed for being slow.
    if (now_seen != progress) {
      progress = now_seen;
      idle_until = now + idle;
    }
    const std::string job = "GET " + resource + "/" + id;
    if (now > idle_until) {
      stall("job stalled: " + job + " made no progress for " + seconds(idle) + " (" + now_seen +
            "); a slower deployment needs a larger --timeout-scale");
    }
    if (now - started > overall) {
      stall("job unfinished: " + job + " still runs after " + seconds(overall) +
            " although it made progress (" + now_seen + ")");
    }
    std::this_thread::sleep_for(now - started < 10s ? 200ms : 1000ms);
  }
}

Chunks collect_chunks(const std::string& first, int max_chunks) {
  Chunks out;
  std::string url = first;
  std::set<std::string> visited;
  for (int i = 0; i < max_chunks; ++i) {
    // A `next` seen before would repeat forever: stop, and let the caller fail the walk.
    if (!visited.insert(url).second) break;
    out.responses.push_back(get(url));
    const auto& body = out.responses.back().body_json;
    if (out.responses.back().status != 200 || !body.is_object()) return out;
    if (body.contains("data") && body.at("data").is_array()) {
      for (const auto& d : body.at("data")) out.documents.push_back(d);
    }
    if (!body.contains("next") || !body.at("next").is_string()) return out;
    url = body.at("next").get<std::string>();
  }
  out.looped = true;
  return out;
}

std::string source_url(const json& document) {
  if (!document.is_object() || !document.contains("metadata")) return {};
  const auto& m = document.at("metadata");
  if (m.contains("sourceURL") && m.at("sourceURL").is_string()) return m.at("sourceURL");
  if (m.contains("url") && m.at("url").is_string()) return m.at("url");
  return {};
}

webdata::Client sdk() {
  webdata::ClientOptions o;
  o.api_url = target().base_url;
  o.api_key = target().api_key;
  o.timeout = target().scaled(120s);
  return webdata::Client(o);
}

webdata::v1::Client sdk_v1() {
  webdata::ClientOptions o;
  o.api_url = target().base_url;
  o.api_key = target().api_key;
  o.timeout = target().scaled(120s);
  return webdata::v1::Client(o);
}

}  // namespace webdata::conformance
