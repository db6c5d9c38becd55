#pragma once

#include <chrono>
#include <string>

namespace webdata::mock {

/// A random (version 4) UUID in canonical lower-case form.
std::string uuid4();
/// True for a canonical UUID (any version), case-insensitive.
bool is_uuid(const std::string& text);
/// ISO 8601 UTC with milliseconds: 2026-11-23T09:00:00.000Z.
std::string iso8601(std::chrono::system_clock::time_point t);

}  // namespace webdata::mock
