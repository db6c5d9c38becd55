#pragma once

#include <optional>
#include <string>

#include "search/query.hpp"

namespace webdata::mock::search {

/// Reads the width and height of a PNG, GIF, JPEG or WebP image from the header in its bytes
/// (what `imagesize:` and `larger:` compare); nullopt for anything else or a truncated header.
std::optional<Size> image_size(const std::string& bytes);

}  // namespace webdata::mock::search
