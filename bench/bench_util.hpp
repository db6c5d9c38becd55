#pragma once

// Small helpers shared by the benchmark programs: clocks, statistics, /proc memory figures and
// a bare libcurl client (the baseline the SDK is compared with, and the crawl benchmark's
// client, so that the SDK's own costs never blur the server's figures).

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace webdata::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(rank, v.size() - 1)];
}

inline double max_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

/// A `VmHWM:`-style line of /proc/<pid>/status in KiB ("self" for this process); -1 if absent.
inline std::int64_t proc_status_kib(const std::string& pid, const std::string& key) {
  std::ifstream in("/proc/" + pid + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      std::istringstream fields(line.substr(key.size() + 1));
      std::int64_t kib = -1;
      fields >> kib;
      return kib;
    }
  }
  return -1;
}

inline double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

/// One reused libcurl easy handle: keep-alive, no decoding, the body kept in a string.
class RawHttp {
 public:
  struct Response {
    long status = 0;
    std::string body;
    double seconds = 0;  ///< curl_easy_perform only.
  };

  RawHttp() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    handle_ = curl_easy_init();
    if (handle_ == nullptr) throw std::runtime_error("curl_easy_init failed");
  }
  ~RawHttp() {
    if (headers_ != nullptr) curl_slist_free_all(headers_);
    curl_easy_cleanup(handle_);
  }
  RawHttp(const RawHttp&) = delete;
  RawHttp& operator=(const RawHttp&) = delete;

  /// Sets the headers of every following request (e.g. "Authorization: Bearer k").
  void set_headers(const std::vector<std::string>& lines) {
    if (headers_ != nullptr) curl_slist_free_all(headers_);
    headers_ = nullptr;
    for (const auto& line : lines) headers_ = curl_slist_append(headers_, line.c_str());
    headers_ = curl_slist_append(headers_, "Expect:");
  }

  Response get(const std::string& url) { return perform(url, nullptr); }
  /// GET into a caller's buffer, reused across calls so that its pages are already mapped
  /// (only the server's work and the transfer are timed). Returns the status.
  long get_into(const std::string& url, std::string& into, double& seconds) {
    into.clear();
    Sink sink{handle_, &into};
    curl_easy_setopt(handle_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, &RawHttp::on_body);
    curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle_, CURLOPT_HTTPGET, 1L);
    const auto start = Clock::now();
    const CURLcode rc = curl_easy_perform(handle_);
    seconds = seconds_since(start);
    if (rc != CURLE_OK) {
      throw std::runtime_error(std::string("curl: ") + curl_easy_strerror(rc) + " (" + url + ")");
    }
    long status = 0;
    curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &status);
    return status;
  }
  Response post(const std::string& url, const std::string& body) { return perform(url, &body); }

 private:
  struct Sink {
    CURL* handle;
    std::string* body;
  };

  // Reserves the announced length up front: growing a 10 MB body by doubling costs copies and
  // page faults that would be charged to the server's chunk time.
  static size_t on_body(char* data, size_t size, size_t count, void* user) {
    auto* sink = static_cast<Sink*>(user);
    if (sink->body->empty()) {
      curl_off_t length = -1;
      curl_easy_getinfo(sink->handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
      if (length > 0 && static_cast<std::size_t>(length) > sink->body->capacity()) {
        sink->body->reserve(static_cast<std::size_t>(length));
      }
    }
    sink->body->append(data, size * count);
    return size * count;
  }

  Response perform(const std::string& url, const std::string* body) {
    Response out;
    Sink sink{handle_, &out.body};
    curl_easy_setopt(handle_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, &RawHttp::on_body);
    curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
    if (body != nullptr) {
      curl_easy_setopt(handle_, CURLOPT_POST, 1L);
      curl_easy_setopt(handle_, CURLOPT_POSTFIELDS, body->data());
      curl_easy_setopt(handle_, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(body->size()));
    } else {
      curl_easy_setopt(handle_, CURLOPT_HTTPGET, 1L);
    }
    const auto start = Clock::now();
    const CURLcode rc = curl_easy_perform(handle_);
    out.seconds = seconds_since(start);
    if (rc != CURLE_OK) {
      throw std::runtime_error(std::string("curl: ") + curl_easy_strerror(rc) + " (" + url + ")");
    }
    curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &out.status);
    return out;
  }

  CURL* handle_ = nullptr;
  curl_slist* headers_ = nullptr;
};

/// Reads `--name value` pairs; `fallback` when absent.
inline std::string arg(int argc, char** argv, const std::string& name,
                       const std::string& fallback = "") {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return argv[i + 1];
  }
  return fallback;
}

inline std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace webdata::bench
