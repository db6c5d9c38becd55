#include "webdata/result.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <ostream>

#include "webdata/transport.hpp"

namespace webdata {

namespace {

// Each kind's name (`to_string`) and the words `describe` begins with: kHttp adds the status,
// kNotJson has none (its message is the whole line: "this deployment has no GET /v2/...").
struct KindWords {
  ErrorKind kind;
  const char* name;
  const char* label;
};
constexpr KindWords kKindWords[] = {
    {ErrorKind::kHttp, "http", "HTTP"},
    {ErrorKind::kTransport, "transport", "transport error"},
    {ErrorKind::kTimeout, "timeout", "timeout"},
    {ErrorKind::kParse, "parse", "invalid response"},
    {ErrorKind::kCancelled, "cancelled", "cancelled"},
    {ErrorKind::kInvalidArgument, "invalid_argument", "invalid argument"},
    {ErrorKind::kNotJson, "not_json", ""},
};
static_assert(std::size(kKindWords) == static_cast<std::size_t>(ErrorKind::kNotJson) + 1,
              "every ErrorKind has its words");

const KindWords* words_of(ErrorKind kind) {
  for (const auto& words : kKindWords) {
    if (words.kind == kind) return &words;
  }
  return nullptr;
}

}  // namespace

const char* to_string(ErrorKind kind) noexcept {
  const KindWords* words = words_of(kind);
  return words != nullptr ? words->name : "unknown";
}

std::ostream& operator<<(std::ostream& os, ErrorKind kind) {
  return os << to_string(kind);
}

std::string Error::describe() const {
  const KindWords* words = words_of(kind);
  std::string out = words != nullptr ? words->label : "";
  if (kind == ErrorKind::kHttp) out += " " + std::to_string(http_status);
  if (!code.empty()) out += " " + code;
  if (!message.empty()) out += (out.empty() ? "" : ": ") + message;
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

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// "/v2/crawl/ID" of "http://host:3002/v2/crawl/ID?skip=2".
std::string path_of(const std::string& url) {
  std::size_t start = 0;
  if (const auto scheme = url.find("://"); scheme != std::string::npos) {
    start = url.find('/', scheme + 3);
    if (start == std::string::npos) return "/";
  }
  return url.substr(start, url.find_first_of("?#", start) - start);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// What the body is, as a person would name it: "HTML page", "empty body", "plain text", ...
std::string body_kind(const HttpResponse& response, std::size_t first) {
  const std::string& body = response.body;
  std::string type = lower(response.header("Content-Type").value_or(""));
  type = type.substr(0, type.find(';'));
  while (!type.empty() && is_space(type.back())) type.pop_back();
  if (first == body.size()) return "empty body";
  if (type.find("html") != std::string::npos || body[first] == '<') return "HTML page";
  if (type.empty() || type == "application/json") return "body that is not JSON";
  if (type == "text/plain") return "plain text";
  return type + " body";
}

}  // namespace

std::optional<std::string> describe_non_json_answer(const std::string& method,
                                                    const std::string& url,
                                                    const HttpResponse& response) {
  const std::string& body = response.body;
  std::size_t first = 0;
  if (body.compare(0, 3, "\xEF\xBB\xBF") == 0) first = 3;  // a byte order mark
  while (first < body.size() && is_space(body[first])) ++first;
  if (first < body.size() && (body[first] == '{' || body[first] == '[')) return std::nullopt;
  const std::string kind = body_kind(response, first);
  const std::string request = method + " " + path_of(url);
  const std::string status = "HTTP " + std::to_string(response.status);
  if (response.status == 404 || response.status == 405) {
    return "this deployment has no " + request + " (" + status + ", " + kind + ")";
  }
  // "an HTML page", "an empty body", "a text/xml body", "plain text".
  std::string article = kind.find_first_of("aeiouH") == 0 ? "an " : "a ";
  if (kind == "plain text") article.clear();
  return request + " answered " + status + " with " + article + kind + " instead of JSON";
}

}  // namespace webdata
