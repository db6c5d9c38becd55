#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace webdata {

/// Why a call failed. `kHttp` carries an API error answer; the others never reached one.
enum class ErrorKind {
  kHttp,             ///< The service answered with a non-2xx status.
  kTransport,        ///< Connection, DNS, TLS or protocol failure before an answer.
  kTimeout,          ///< A per-request timeout or the overall deadline expired.
  kParse,            ///< The answer was not the JSON the contract promises.
  kCancelled,        ///< The caller's cancellation token fired.
  kInvalidArgument,  ///< The call was refused before anything was sent.
};

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

  /// "HTTP 400 BAD_REQUEST: <message>" style text for logs and exceptions.
  std::string describe() const;
};

/// Thrown by `Result<T>::value()` when the result holds an error.
class ApiError : public std::runtime_error {
 public:
  explicit ApiError(Error error);
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

/// The outcome of a call: a value or an `Error`. Callers choose between checking `ok()` and
/// calling `value()`, which throws `ApiError`.
///
///     auto doc = client.scrape(req);
///     if (!doc.ok()) std::cerr << doc.error().describe() << "\n";
template <class T>
class Result {
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

  /// The error; only meaningful when `!ok()`.
  const Error& error() const { return std::get<1>(state_); }

 private:
  void throw_if_error() const {
    if (!ok()) throw ApiError(std::get<1>(state_));
  }
  std::variant<T, Error> state_;
};

/// Result of a call that returns nothing on success.
template <>
class Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  void value() const {
    if (error_) throw ApiError(*error_);
  }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace webdata
