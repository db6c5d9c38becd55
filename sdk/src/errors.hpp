#pragma once

// Errors the SDK makes itself (not from an answer's body): a kind and a message.
#include <string>
#include <utility>

#include "webdata/result.hpp"

namespace webdata::detail {

/// An error of `kind` that says `message`; `retryable` when the same call may succeed later.
inline Error error_of(ErrorKind kind, std::string message, bool retryable = false) {
  Error err;
  err.kind = kind;
  err.message = std::move(message);
  err.retryable = retryable;
  return err;
}

}  // namespace webdata::detail
