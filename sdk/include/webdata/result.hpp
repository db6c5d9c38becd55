#pragma once

#include <chrono>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "webdata/headers.hpp"

namespace webdata {

/// Why a call failed. `kHttp` carries an API error answer; the others never reached one.
enum class ErrorKind {
  kHttp,             ///< The service answered with a non-2xx status.
  kTransport,        ///< Connection, DNS, TLS or protocol failure before an answer.
  kTimeout,          ///< A per-request timeout or the overall deadline expired.
  kParse,            ///< The answer was not the JSON the contract promises.
  kCancelled,        ///< The caller's cancellation token fired.
  kInvalidArgument,  ///< The call was refused before anything was sent.
  /// The service answered, but not with JSON: the HTML 404 page of a deployment that lacks the
  /// route, a proxy's error page, an empty body. `message` says so in one line, e.g.
  /// "this deployment has no GET /v2/team/queue-status (HTTP 404, HTML page)";
  /// `http_status` and `raw_body` are the answer's.
  kNotJson,
};

/// "http", "transport", "timeout", "parse", "cancelled", "invalid_argument", "not_json".
const char* to_string(ErrorKind kind) noexcept;
/// Writes `to_string(kind)`.
std::ostream& operator<<(std::ostream& os, ErrorKind kind);

/// One error value for every failure of the SDK.
struct Error {
  ErrorKind kind = ErrorKind::kHttp;
  int http_status = 0;      ///< 0 when no HTTP answer was received.
  std::string code;         ///< The body's `code` (e.g. `BAD_REQUEST`), empty when absent.
  std::string message;      ///< The body's `error`, or a description of the failure.
  std::string details;      ///< The body's `details` as JSON text, empty when absent.
  std::string raw_body;     ///< The raw answer body, for diagnostics.
  bool retryable = false;   ///< Whether repeating the same request may succeed.
  std::optional<std::chrono::milliseconds> retry_after;  ///< From a `Retry-After` header.
  /// The answer's request id (`x-request-id`, `request-id`, `x-amzn-requestid` or `cf-ray`),
  /// empty when the answer had none or there was no answer. Quote it to the service's support.
  std::string request_id;
  /// The headers of the answer that failed; empty when there was no answer.
  Headers headers;

  /// "HTTP 400 BAD_REQUEST: <message> (request id r-1)" style text for logs and exceptions.
  std::string describe() const;
};

/// Writes `error.describe()`: `std::cerr << result.error() << "\n";`.
std::ostream& operator<<(std::ostream& os, const Error& error);

/// Thrown by `Result<T>::value()` when the result holds an error.
class ApiError : public std::runtime_error {
 public:
  explicit ApiError(Error error);
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

/// Thrown by `Result<T>::error()` on a successful result: asking a success for its error is a
/// bug of the calling code (check `ok()` first), reported as one instead of undefined behaviour.
class BadResultAccess : public std::logic_error {
 public:
  BadResultAccess();
};

/// The outcome of a call: a value or an `Error`. Callers choose between checking `ok()` and
/// calling `value()`, which throws `ApiError`. Discarding a `Result` is a compiler warning: a
/// call whose outcome nobody reads hides its failure.
///
///     auto doc = client.scrape("https://example.com", {webdata::Format::markdown});
///     if (!doc) std::cerr << doc.error() << "\n";
///     std::string title = doc ? doc->metadata.title.value_or("") : "";
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}     // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & {
    throw_if_error();
    return std::get<0>(state_);
  }
  const T& value() const& {
    throw_if_error();
    return std::get<0>(state_);
  }
  T&& value() && {
    throw_if_error();
    return std::get<0>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The value, or `fallback` when the call failed (the error is dropped).
  ///
  ///     int credits = client.crawl_status(id).value_or(webdata::JobStatus{}).credits_used;
  template <class U = T>
  T value_or(U&& fallback) const& {
    static_assert(std::is_convertible_v<U&&, T>, "value_or: the fallback must convert to T");
    return ok() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U = T>
  T value_or(U&& fallback) && {
    static_assert(std::is_convertible_v<U&&, T>, "value_or: the fallback must convert to T");
    return ok() ? std::get<0>(std::move(state_)) : static_cast<T>(std::forward<U>(fallback));
  }

  /// The error. Precondition: `!ok()`; on a success it throws `BadResultAccess`.
  const Error& error() const {
    if (ok()) throw BadResultAccess();
    return std::get<1>(state_);
  }

 private:
  void throw_if_error() const {
    if (!ok()) throw ApiError(std::get<1>(state_));
  }
  std::variant<T, Error> state_;
};

/// Result of a call that returns nothing on success.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  void value() const {
    if (error_) throw ApiError(*error_);
  }
  /// The error. Precondition: `!ok()`; on a success it throws `BadResultAccess`.
  const Error& error() const {
    if (!error_) throw BadResultAccess();
    return *error_;
  }

 private:
  std::optional<Error> error_;
};

}  // namespace webdata
