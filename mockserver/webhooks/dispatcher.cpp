#include "webhooks/dispatcher.hpp"

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "core/json_text.hpp"

namespace webdata::mock::webhooks {

namespace {

using Steady = std::chrono::steady_clock;

const std::set<std::string>& known_events(EventSet set) {
  static const std::set<std::string> kJobEvents = {"started", "page", "completed", "failed"};
  static const std::set<std::string> kAgentEvents = {"started", "action", "completed", "failed",
                                                     "cancelled"};
  return set == EventSet::agent ? kAgentEvents : kJobEvents;
}

std::string short_event(const std::string& type) {
  const auto dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

bool iequals(const std::string& a, const std::string& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

bool is_token(const std::string& name) {
  static const std::string kSpecials = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || kSpecials.find(static_cast<char>(c)) != std::string::npos;
  });
}

bool is_header_value(const std::string& value) {
  return value.find_first_of(std::string("\r\n\0", 3)) == std::string::npos;
}

// Absolute http(s) URL with a host, as libcurl itself will read it.
bool valid_url(const std::string& url, std::string* why) {
  CURLU* handle = curl_url();
  if (handle == nullptr) throw std::bad_alloc();
  bool ok = false;
  if (curl_url_set(handle, CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    *why = "is not a valid absolute URL";
  } else {
    char* scheme = nullptr;
    char* host = nullptr;
    curl_url_get(handle, CURLUPART_SCHEME, &scheme, 0);
    curl_url_get(handle, CURLUPART_HOST, &host, 0);
    const std::string s = scheme != nullptr ? scheme : "";
    if (s != "http" && s != "https") {
      *why = "must use http or https";
    } else if (host == nullptr || *host == '\0') {
      *why = "has no host";
    } else {
      ok = true;
    }
    curl_free(scheme);
    curl_free(host);
  }
  curl_url_cleanup(handle);
  return ok;
}

std::optional<Target> fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return std::nullopt;
}

std::string iso_time(std::chrono::system_clock::time_point when) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch());
  const std::time_t seconds = static_cast<std::time_t>(ms.count() / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[40];
  const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms.count() % 1000));
  return std::string(text, n) + millis;
}

struct CurlDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

std::size_t discard_body(char*, std::size_t size, std::size_t count, void*) {
  return size * count;
}

struct AbortCheck {
  const std::atomic<std::uint64_t>* generation;
  std::uint64_t started_under;
};

// Called by libcurl often while data moves and about once a second while waiting: the bound on
// how long reset() or destruction leaves an attempt running.
int abort_if_stale(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* check = static_cast<const AbortCheck*>(user);
  return check->generation->load() != check->started_under ? 1 : 0;
}

}  // namespace

struct Dispatcher::Event {
  std::string job_id;
  std::string type;
  std::string url;
  std::vector<std::string> header_lines;
  std::string body;
  std::string signature;
};

struct Dispatcher::Job {
  std::deque<std::shared_ptr<const Event>> events;
  int head_attempts = 0;
};

struct Dispatcher::LogEntry {
  std::string job_id;
  std::string type;
  std::string url;
  int attempt = 0;
  std::optional<long> status;
  std::chrono::milliseconds latency{0};
  std::optional<std::string> error;
  std::string outcome;
  std::chrono::system_clock::time_point attempted_at;
  std::size_t payload_bytes = 0;
  std::string signature;
};

struct Dispatcher::Attempt {
  std::optional<long> status;
  std::optional<std::string> error;
  bool delivered = false;
  bool aborted = false;
  std::chrono::milliseconds latency{0};
};

std::optional<Target> Target::parse(const nlohmann::json& field, std::string* error,
                                    EventSet event_set) {
  Target target;
  std::string why;
  if (field.is_string()) {
    target.url = field.get<std::string>();
    if (!valid_url(target.url, &why)) return fail(error, "webhook: URL " + why);
    return target;
  }
  if (!field.is_object()) return fail(error, "webhook: must be a URL string or an object");
  for (const auto& item : field.items()) {
    const std::string& key = item.key();
    if (key != "url" && key != "headers" && key != "metadata" && key != "events") {
      return fail(error, "webhook: unrecognized key '" + key + "'");
    }
  }
  if (!field.contains("url") || !field.at("url").is_string()) {
    return fail(error, "webhook.url: required string");
  }
  target.url = field.at("url").get<std::string>();
  if (!valid_url(target.url, &why)) return fail(error, "webhook.url: " + why);
  if (field.contains("headers")) {
    const auto& headers = field.at("headers");
    if (!headers.is_object()) return fail(error, "webhook.headers: must be an object of strings");
    for (const auto& item : headers.items()) {
      if (!item.value().is_string()) {
        return fail(error, "webhook.headers." + item.key() + ": must be a string");
      }
      const auto value = item.value().get<std::string>();
      if (!is_token(item.key())) {
        return fail(error, "webhook.headers: '" + item.key() + "' is not a valid header name");
      }
      if (!is_header_value(value)) {
        return fail(error, "webhook.headers." + item.key() + ": must not contain CR, LF or NUL");
      }
      target.headers.emplace_back(item.key(), value);
    }
  }
  if (field.contains("metadata")) {
    if (!field.at("metadata").is_object())
      return fail(error, "webhook.metadata: must be an object");
    target.metadata = field.at("metadata");
  }
  if (field.contains("events")) {
    const auto& events = field.at("events");
    if (!events.is_array()) return fail(error, "webhook.events: must be an array");
    // An explicit empty list cannot be told apart from "all" once parsed; asking for no events
    // at all is refused rather than silently widened.
    const std::string names = event_set == EventSet::agent
                                  ? "started, action, completed, failed, cancelled"
                                  : "started, page, completed, failed";
    if (events.empty()) {
      return fail(error, "webhook.events: must list at least one of " + names);
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto& name = events.at(i);
      if (!name.is_string() || known_events(event_set).count(name.get<std::string>()) == 0) {
        return fail(error, "webhook.events." + std::to_string(i) + ": must be one of " + names);
      }
      target.events.insert(name.get<std::string>());
    }
  }
  return target;
}

bool Target::wants(const std::string& type) const {
  return events.empty() || events.count(short_event(type)) != 0;
}

std::string sign(const std::string& body, const std::string& secret) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
           reinterpret_cast<const unsigned char*>(body.data()), body.size(), digest,
           &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  static const char kHex[] = "0123456789abcdef";
  std::string out = "sha256=";
  out.reserve(out.size() + 2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0x0f];
  }
  return out;
}

std::string build_payload(const std::string& job_id, const std::string& type, bool success,
                          const nlohmann::json& data, const nlohmann::json& metadata,
                          const std::optional<std::string>& error) {
  std::string documents = "[]";
  if (data.is_array()) {
    documents = json_text(data);
  } else if (short_event(type) == "page" && !data.is_null()) {
    documents = "[" + json_text(data) + "]";
  }
  std::string out = "{\"success\":";
  out += success ? "true" : "false";
  out += ",\"type\":" + json_text(type);
  out += ",\"id\":" + json_text(job_id);
  out += ",\"data\":" + documents;
  out += ",\"metadata\":" + (metadata.is_object() ? json_text(metadata) : std::string("{}"));
  out += ",\"error\":" + (error ? json_text(*error) : std::string("null"));
  out += "}";
  return out;
}

Dispatcher::Dispatcher(Settings settings, const Clock& clock)
    : clock_(clock),
      settings_(std::move(settings)),
      clock_advanced_(clock, [this] {
        const std::lock_guard<std::mutex> lock(mutex_);
        work_cv_.notify_all();
      }) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Dispatcher::~Dispatcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    ++generation_;
  }
  work_cv_.notify_all();
  drained_cv_.notify_all();
  // No worker is added once stopping_ is set, so workers_ is stable here.
  for (auto& worker : workers_) worker.join();
}

void Dispatcher::enqueue(const std::string& job_id, const Target& target, const std::string& secret,
                         const std::string& type, bool success, nlohmann::json data,
                         std::optional<std::string> error) {
  if (!target.wants(type)) return;
  auto event = std::make_shared<Event>();
  event->job_id = job_id;
  event->type = type;
  event->url = target.url;
  event->body = build_payload(job_id, type, success, data, target.metadata, error);
  // No secret, no signature: the real service signs only when a secret is configured.
  event->signature = secret.empty() ? std::string() : sign(event->body, secret);

  const std::string signature_header = settings().signature_header;
  bool own_content_type = false;
  for (const auto& [name, value] : target.headers) {
    if (iequals(name, signature_header)) continue;
    own_content_type = own_content_type || iequals(name, "Content-Type");
    // "Name:" would make libcurl drop the header; "Name;" sends it empty.
    event->header_lines.push_back(value.empty() ? name + ";" : name + ": " + value);
  }
  if (!own_content_type)
    event->header_lines.insert(event->header_lines.begin(), "Content-Type: application/json");
  if (!event->signature.empty()) {
    event->header_lines.push_back(signature_header + ": " + event->signature);
  }
  // libcurl would otherwise wait for "100 Continue" before sending large bodies.
  event->header_lines.push_back("Expect:");

  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  auto [it, created] = jobs_.try_emplace(job_id);
  it->second.events.push_back(std::move(event));
  if (created) {
    runnable_.push_back(job_id);
    start_worker_if_needed();
    work_cv_.notify_one();
  }
}

void Dispatcher::start_worker_if_needed() {
  const std::size_t waiting = runnable_.size() + delayed_.size();
  const std::size_t limit = std::max<std::size_t>(1, settings_.workers);
  if (stopping_ || waiting <= idle_workers_ || workers_.size() >= limit) return;
  workers_.emplace_back([this] { worker_loop(); });
}

bool Dispatcher::next_job(std::unique_lock<std::mutex>& lock, std::string& job_id) {
  while (!stopping_) {
    const auto now = clock_.steady_now();
    while (!delayed_.empty() && delayed_.begin()->first <= now) {
      runnable_.push_back(delayed_.begin()->second);
      delayed_.erase(delayed_.begin());
    }
    if (!runnable_.empty()) {
      job_id = std::move(runnable_.front());
      runnable_.pop_front();
      return true;
    }
    ++idle_workers_;
    if (delayed_.empty()) {
      work_cv_.wait(lock);
    } else {
      // A copy: the map node may be gone by the time the wait re-reads its deadline.
      // On the mock's clock: a wait for its time, cut short when the clock is advanced.
      const auto deadline = delayed_.begin()->first;
      work_cv_.wait_for(lock, deadline - now);
    }
    --idle_workers_;
  }
  return false;
}

Dispatcher::Attempt Dispatcher::attempt(void* curl_handle, const Event& event,
                                        const Settings& settings, std::uint64_t generation) const {
  CURL* curl = static_cast<CURL*>(curl_handle);
  curl_easy_reset(curl);
  curl_slist* raw_headers = nullptr;
  for (const auto& line : event.header_lines) {
    curl_slist* next = curl_slist_append(raw_headers, line.c_str());
    if (next == nullptr) {
      curl_slist_free_all(raw_headers);
      throw std::bad_alloc();
    }
    raw_headers = next;
  }
  std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);
  AbortCheck check{&generation_, generation};
  char error_text[CURL_ERROR_SIZE] = {0};
  const long timeout_ms =
      static_cast<long>(std::max<std::int64_t>(1, settings.receiver_timeout.count()));

  curl_easy_setopt(curl, CURLOPT_URL, event.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, event.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(event.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "webdata-mock-webhooks");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard_body);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, abort_if_stale);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &check);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);

  Attempt result;
  const auto started = Steady::now();  // the real latency of the POST, not the mock's time
  const CURLcode code = curl_easy_perform(curl);
  result.latency = std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - started);
  if (code == CURLE_ABORTED_BY_CALLBACK) {
    result.aborted = true;
  } else if (code == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    result.status = status;
    result.delivered = status >= 200 && status < 300;
    if (!result.delivered) result.error = "receiver answered HTTP " + std::to_string(status);
  } else if (code == CURLE_OPERATION_TIMEDOUT) {
    result.error = "timeout: no answer within " + std::to_string(timeout_ms) + " ms";
  } else {
    result.error = error_text[0] != '\0' ? std::string(error_text) : curl_easy_strerror(code);
  }
  return result;
}

void Dispatcher::worker_loop() {
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  std::unique_lock<std::mutex> lock(mutex_);
  std::string job_id;
  while (next_job(lock, job_id)) {
    Job& job = jobs_.at(job_id);
    const std::shared_ptr<const Event> event = job.events.front();
    const int attempt_number = ++job.head_attempts;
    const Settings settings = settings_;
    const std::uint64_t generation = generation_;
    const auto attempted_at = std::chrono::system_clock::now();  // wall clock, as documented
    lock.unlock();

    Attempt result;
    if (curl) {
      result = attempt(curl.get(), *event, settings, generation);
    } else {
      result.error = "curl_easy_init failed";
    }

    lock.lock();
    if (result.aborted || generation != generation_) continue;  // reset() already dropped the job
    const bool give_up = !result.delivered && attempt_number >= settings.max_attempts;
    LogEntry entry;
    entry.job_id = job_id;
    entry.type = event->type;
    entry.url = event->url;
    entry.attempt = attempt_number;
    entry.status = result.status;
    entry.latency = result.latency;
    entry.error = result.error;
    entry.outcome = result.delivered ? "delivered" : give_up ? "failed" : "retrying";
    entry.attempted_at = attempted_at;
    entry.payload_bytes = event->body.size();
    entry.signature = event->signature;
    append_log(std::move(entry));

    if (result.delivered || give_up) {
      job.events.pop_front();
      job.head_attempts = 0;
      if (job.events.empty()) {
        jobs_.erase(job_id);
        drained_cv_.notify_all();
      } else {
        runnable_.push_back(job_id);
        start_worker_if_needed();
      }
    } else {
      const double factor = std::pow(std::max(1.0, settings.backoff_factor), attempt_number - 1);
      const auto wait =
          std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double, std::milli>(
              static_cast<double>(settings.first_backoff.count()) * factor));
      delayed_.emplace(clock_.steady_now() + wait, job_id);
      start_worker_if_needed();
    }
  }
}

void Dispatcher::append_log(LogEntry entry) {
  log_.push_back(std::move(entry));
  while (log_.size() > settings_.log_limit) log_.pop_front();
}

bool Dispatcher::drain(const std::string& job_id, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return drained_cv_.wait_for(
      lock, timeout, [&] { return job_id.empty() ? jobs_.empty() : jobs_.count(job_id) == 0; });
}

nlohmann::json Dispatcher::log_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto out = nlohmann::json::array();
  for (const auto& entry : log_) {
    out.push_back({
        {"jobId", entry.job_id},
        {"event", entry.type},
        {"url", entry.url},
        {"attempt", entry.attempt},
        {"status", entry.status ? nlohmann::json(*entry.status) : nlohmann::json(nullptr)},
        {"latencyMs", entry.latency.count()},
        {"error", entry.error ? nlohmann::json(*entry.error) : nlohmann::json(nullptr)},
        {"outcome", entry.outcome},
        {"attemptedAt", iso_time(entry.attempted_at)},
        {"payloadBytes", entry.payload_bytes},
        {"signature", entry.signature},
    });
  }
  return out;
}

void Dispatcher::clear_log() {
  std::lock_guard<std::mutex> lock(mutex_);
  log_.clear();
}

void Dispatcher::reset() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++generation_;
    jobs_.clear();
    runnable_.clear();
    delayed_.clear();
    log_.clear();
  }
  work_cv_.notify_all();
  drained_cv_.notify_all();
}

Settings Dispatcher::settings() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return settings_;
}

void Dispatcher::set_settings(Settings settings) {
  std::lock_guard<std::mutex> lock(mutex_);
  settings_ = std::move(settings);
  while (log_.size() > settings_.log_limit) log_.pop_front();
}

}  // namespace webdata::mock::webhooks
