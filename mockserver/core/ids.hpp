#pragma once

#include <cstddef>
#include <string>

namespace webdata::mock {

/// Characters of a canonical UUID.
inline constexpr std::size_t kUuidLength = 36;
/// A random (version 4) UUID in canonical lower-case form.
std::string uuid4();
/// The same, written to `out` (kUuidLength characters, no terminator): for callers that keep
/// their storage (the request journal).
void write_uuid4(char* out);
/// True for a canonical UUID (any version), case-insensitive.
bool is_uuid(const std::string& text);

}  // namespace webdata::mock
