#pragma once

#include <string>

namespace webdata::mock {

/// A random (version 4) UUID in canonical lower-case form.
std::string uuid4();
/// True for a canonical UUID (any version), case-insensitive.
bool is_uuid(const std::string& text);

}  // namespace webdata::mock
