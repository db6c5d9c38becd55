#include "webdata/result.hpp"

#include <algorithm>
#include <cctype>

#include "webdata/transport.hpp"

namespace webdata {

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
  return out;
}

ApiError::ApiError(Error error) : std::runtime_error(error.describe()), error_(std::move(error)) {}

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
