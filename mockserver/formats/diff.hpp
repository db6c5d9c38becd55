#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace webdata::mock::formats {

/// A line diff in the two forms changeTracking's git-diff mode returns.
struct UnifiedDiff {
  /// `git diff` text: "--- a/<file>\n+++ b/<file>\n@@ -1,3 +1,4 @@\n ..." with `context` lines
  /// around each change; empty when the texts have the same lines.
  std::string text;
  /// The same diff in the structure of the parse-diff package (what the real service returns):
  /// {files: [{from, to, additions, deletions, chunks: [{content, oldStart, oldLines, newStart,
  /// newLines, changes: [{type: add|del|normal, add|del|normal: true, ln | ln1+ln2, content}]}]}]}
  nlohmann::json json;
};

/// Myers' O((N+M)D) diff in linear space over lines (a trailing newline does not count as a
/// line). Minimal except past 4096 differing lines in one region, where that region is reported
/// as replaced whole (keeps hostile inputs fast). Deterministic; thread-safe.
UnifiedDiff unified_diff(std::string_view before, std::string_view after,
                         const std::string& file = "markdown", int context = 3);

}  // namespace webdata::mock::formats
