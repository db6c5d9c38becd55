#include "webdata/result.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>

#include "webdata/transport.hpp"

namespace webdata {

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::kHttp: return "http";
    case ErrorKind::kTransport: return "transport";
    case ErrorKind::kTimeout: return "timeout";
    case ErrorKind::kParse: return "parse";
    case ErrorKind::kCancelled: return "cancelled";
    case ErrorKind::kInvalidArgument: return "invalid_argument";
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& os, ErrorKind kind) {
  return os << to_string(kind);
}

std::string Error::describe() const {
  std::string out;
  switch (kind) {
    case ErrorKind::kHttp:
      out = "HTTP " + std::to_string(http_status);
      break;
    case ErrorKind::kTransport:
      out = "transport error";
      break;
    case ErrorKind::kTimeout:
      out = "timeout";
      break;
    case ErrorKind::kParse:
      out = "invalid response";
      break;
    case ErrorKind::kCancelled:
      out = "cancelled";
      break;
    case ErrorKind::kInvalidArgument:
      out = "invalid argument";
      break;
  }
  if (!code.empty()) out += " " + code;
  if (!message.empty()) out += ": " + message;
  if (!request_id.empty()) out += " (request id " + request_id + ")";
  return out;
}

std::ostream& operator<<(std::ostream& os, const Error& error) {
  return os << error.describe();
}

ApiError::ApiError(Error error) : std::runtime_error(error.describe()), error_(std::move(error)) {}

BadResultAccess::BadResultAccess()
    : std::logic_error("webdata::Result::error() called on a successful result (check ok() first)") {}

std::optional<std::string> find_header(const Headers& headers, const std::string& name) {
  auto same = [&](const std::string& other) {
    return other.size() == name.size() &&
           std::equal(other.begin(), other.end(), name.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           });
  };
  for (const auto& [key, value] : headers) {
    if (same(key)) return value;
  }
  return std::nullopt;
}

}  // namespace webdata
