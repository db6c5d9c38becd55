#pragma once

#include <filesystem>

// The schema tree of the source checkout, which the contract tests read.
namespace webdata::contract::testing {
inline const std::filesystem::path kSource = WEBDATA_SCHEMAS_SOURCE_DIR;
}  // namespace webdata::contract::testing
