#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace webdata {

/// Header list in send order; names compare case-insensitively on lookup.
using Headers = std::vector<std::pair<std::string, std::string>>;

/// Case-insensitive lookup of the first header named `name`.
std::optional<std::string> find_header(const Headers& headers, const std::string& name);

}  // namespace webdata
