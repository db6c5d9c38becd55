#pragma once

// The format registry: one producer per format, each in its own file of this directory (or one
// file for a small family that shares its code), and one row per format in the table of
// registry.cpp, which is also the order formats are made in. Adding a format is its file here,
// its row (and declaration) in registry.cpp, and its file in scrape/CMakeLists.txt.

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "scrape/stages.hpp"

namespace webdata::mock::scrape::produce {

struct Row;

/// Makes one requested format into `data` (under `row.field`, unless the format says more) and
/// adds what it costs to `credits`; a failure refuses the whole scrape.
using Producer = std::optional<Failure>(const FormatInput& in, const Row& row,
                                        nlohmann::json& data, std::int64_t& credits);

/// What a producer is made from: the page, or the other formats as delivered (after redactPII).
enum class Reads { kPage, kDelivered };

struct Row {
  const char* name;      ///< In `formats` (v1's `screenshot@fullPage` counts as `screenshot`).
  const char* field;     ///< The field of the document it answers in.
  VersionMask versions;  ///< The versions that have it.
  Reads reads;
  Producer* produce;
};

/// The rows, in the order the formats are made.
const std::vector<Row>& rows();

/// redactPII: personal data in the text formats already made is replaced (redact.cpp).
void redact_delivered(const requests::ScrapeOptions& options, nlohmann::json& data);

}  // namespace webdata::mock::scrape::produce
