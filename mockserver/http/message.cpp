#include "http/message.hpp"

#include <algorithm>
#include <cctype>
#include <mutex>

namespace webdata::mock::http {

bool iequals(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<std::string> Request::header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> Request::query_params() const {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  while (pos <= query.size() && !query.empty()) {
    std::size_t end = query.find('&', pos);
    if (end == std::string::npos) end = query.size();
    const std::string part = query.substr(pos, end - pos);
    if (!part.empty()) {
      const auto eq = part.find('=');
      if (eq == std::string::npos) {
        out.emplace_back(percent_decode(part, true), "");
      } else {
        out.emplace_back(percent_decode(part.substr(0, eq), true),
                         percent_decode(part.substr(eq + 1), true));
      }
    }
    pos = end + 1;
  }
  return out;
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
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return std::nullopt;
}

Response Response::json(int status, const nlohmann::json& body) {
  Response r;
  r.status = status;
  r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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

std::string percent_decode(const std::string& text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
  }
}

namespace {

std::mutex large_buffers_mutex;
std::vector<std::string>& large_buffers() {
  static std::vector<std::string> pool;
  return pool;
}

}  // namespace

namespace {

// Capacities are rounded up so that chunks of about the same size share buffers (a 10 MB chunk
// limit gives bodies a few bytes either side of 10 MB); pages never written stay unmapped.
std::size_t rounded(std::size_t capacity) {
  constexpr std::size_t kStep = std::size_t{4} << 20;
  return (capacity + kStep - 1) / kStep * kStep;
}

}  // namespace

std::string LargeBuffers::take(std::size_t capacity) {
  if (capacity >= kMinCapacity) capacity = rounded(capacity);
  std::string out;
  if (capacity >= kMinCapacity) {
    std::lock_guard<std::mutex> lock(large_buffers_mutex);
    auto& pool = large_buffers();
    // The smallest buffer that fits, so that one large chunk does not take the biggest buffer.
    auto best = pool.end();
    for (auto it = pool.begin(); it != pool.end(); ++it) {
      if (it->capacity() >= capacity && (best == pool.end() || it->capacity() < best->capacity())) {
        best = it;
      }
    }
    if (best != pool.end()) {
      out = std::move(*best);
      pool.erase(best);
    }
  }
  out.clear();
  out.reserve(capacity);
  return out;
}

void LargeBuffers::recycle(std::string&& buffer) {
  std::string dropped;  // freed after the lock is released
  if (buffer.capacity() < kMinCapacity || buffer.capacity() > kMaxCapacity) {
    dropped = std::move(buffer);
    return;
  }
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  auto& pool = large_buffers();
  if (pool.size() < kMaxBuffers) {
    pool.push_back(std::move(buffer));
    return;
  }
  // Full: keep the larger buffers (they serve every request size).
  auto smallest = std::min_element(pool.begin(), pool.end(), [](const auto& a, const auto& b) {
    return a.capacity() < b.capacity();
  });
  if (smallest->capacity() < buffer.capacity()) {
    dropped = std::move(*smallest);
    *smallest = std::move(buffer);
  } else {
    dropped = std::move(buffer);
  }
}

void LargeBuffers::prefault(std::size_t capacity, std::size_t count) {
  capacity = rounded(std::max(capacity, kMinCapacity));
  if (capacity > kMaxCapacity) return;
  count = std::min(count, kMaxBuffers);
  std::size_t missing = 0;
  {
    std::lock_guard<std::mutex> lock(large_buffers_mutex);
    const auto& pool = large_buffers();
    const auto fitting = std::count_if(pool.begin(), pool.end(), [&](const std::string& b) {
      return b.capacity() >= capacity;
    });
    missing = count > static_cast<std::size_t>(fitting) ? count - fitting : 0;
  }
  for (std::size_t i = 0; i < missing; ++i) {
    std::string buffer;
    buffer.resize(capacity);  // writes every page once
    recycle(std::move(buffer));
  }
}

void LargeBuffers::clear() {
  std::vector<std::string> dropped;
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  dropped.swap(large_buffers());
}

std::size_t LargeBuffers::pooled() {
  std::lock_guard<std::mutex> lock(large_buffers_mutex);
  return large_buffers().size();
}

}  // namespace webdata::mock::http
