#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webdata::mock::requests {

/// The API version a request came through: its schema, its defaults and its answer's shape.
enum class Version { v1, v2 };

/// "v1" | "v2"
const char* version_name(Version version);
/// The version of a path ("/v1/scrape" is v1; anything else v2, as the unversioned aliases are).
Version version_of_path(std::string_view path);
/// nullopt for anything but "v1" and "v2".
std::optional<Version> parse_version(std::string_view name);

}  // namespace webdata::mock::requests
