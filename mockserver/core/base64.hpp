#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webdata::mock {

/// Standard base64 (RFC 4648, `+/`, padded), through OpenSSL's EVP encoder.
std::string base64_encode(std::string_view bytes);
/// Decodes standard base64. Blanks and line breaks are ignored and the `=` padding may be left
/// out; any other character outside the alphabet, or a length no encoder makes, gives nullopt.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace webdata::mock
