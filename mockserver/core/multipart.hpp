#pragma once

// multipart/form-data request bodies (RFC 7578 over RFC 2046), for the one API route that takes a
// file upload (POST /v2/parse). Whole-body parsing: the HTTP layer has already read the body, and
// bounded it, before any handler runs.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"

namespace webdata::mock {

/// One part of a multipart/form-data body.
struct MultipartPart {
  std::string name;                     ///< Content-Disposition `name`.
  std::optional<std::string> filename;  ///< Content-Disposition `filename` (or `filename*`).
  std::string content_type;             ///< The part's Content-Type as sent; "" when none.
  HeaderList headers;                   ///< Every header of the part, names as sent.
  std::string body;                     ///< The content, byte for byte (NULs and CRs included).
};

/// A parsed body, or why it is not one.
struct MultipartResult {
  std::vector<MultipartPart> parts;
  std::string error;  ///< Empty when the body parsed.
  bool ok() const { return error.empty(); }
  /// The first part named `name`, or null.
  const MultipartPart* find(std::string_view name) const;
};

/// Bounds on what one body may hold beyond its size (which the HTTP layer bounds).
struct MultipartLimits {
  std::size_t max_parts = 64;
  std::size_t max_header_bytes = 16 * 1024;  ///< Per part, all header lines together.
};

/// The boundary of a `multipart/form-data` Content-Type value (the parameter quoted or not, any
/// case of the names); nullopt when the value is another media type or has no usable boundary
/// (RFC 2046: 1 to 70 characters).
std::optional<std::string> multipart_boundary(std::string_view content_type);

/// True when the Content-Type value's media type is multipart/form-data (boundary or not).
bool is_multipart_form_data(std::string_view content_type);

/// Splits `body` at `boundary`. A preamble before the first delimiter and an epilogue after the
/// closing one are ignored, as RFC 2046 says. Refused (error set): no first delimiter, no closing
/// delimiter, a part without the blank line that ends its headers, a header line without a colon,
/// a part without `Content-Disposition: form-data; name=...`, and bodies past `limits`.
MultipartResult parse_multipart(std::string_view body, std::string_view boundary,
                                const MultipartLimits& limits = {});

/// The value of parameter `name` (any case) in a header value such as
/// `form-data; name="file"; filename="a.pdf"`: quoted strings unescaped, RFC 5987 `name*`
/// (`UTF-8''%e2%82%ac`) percent-decoded and preferred to `name`. nullopt when absent.
std::optional<std::string> header_parameter(std::string_view value, std::string_view name);

}  // namespace webdata::mock
