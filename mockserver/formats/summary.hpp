#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// Bounds of an extractive summary.
struct SummaryLimits {
  std::size_t max_sentences = 5;
  std::size_t max_chars = 1000;  ///< bytes of UTF-8, separators included
};

/// The v2 `summary` format: an extractive summary of the page's content under `options` (main
/// content by default). Sentences are scored by position (earlier is better), by how frequent
/// their content words are in the page, and by overlap with the page title; the best ones are
/// returned in document order, joined by spaces, within `limits`. Headings, captions and other
/// short lines without sentence punctuation are never picked. Empty when the page has no text.
/// Deterministic and thread-safe.
std::string summarize(const content::Document& doc, const content::Options& options,
                      const SummaryLimits& limits = {});

/// The same scoring over plain text (one block per line) and a title; used by summarize() and
/// by callers that already hold the text (the agent).
std::string summarize_text(std::string_view text, std::string_view title,
                           const SummaryLimits& limits = {});

}  // namespace webdata::mock::formats
