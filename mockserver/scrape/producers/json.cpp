// json, deterministicJson (v2) and extract (v1): values for the caller's schema or prompt,
// extracted from the page (a model's work in the real service; docs/mockserver/model-formats.md).
#include "formats/extract.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

namespace {

/// What a model-made extraction costs beyond the page.
constexpr std::int64_t kModelCredits = 4;

/// The extraction `spec` asks for (none when the request has none), for `cost` credits.
std::optional<Failure> extracted(const FormatInput& in, const Row& row, nlohmann::json& data,
                                 std::int64_t& credits,
                                 const std::optional<requests::ExtractSpec>& spec,
                                 std::int64_t cost) {
  if (!spec) return std::nullopt;
  data[row.field] =
      formats::extract(in.page.document(), in.page.options(), spec->schema, spec->prompt);
  credits += cost;
  return std::nullopt;
}

}  // namespace

std::optional<Failure> json_format(const FormatInput& in, const Row& row, nlohmann::json& data,
                                   std::int64_t& credits) {
  return extracted(in, row, data, credits, in.options.json_format(), kModelCredits);
}

std::optional<Failure> deterministic_json(const FormatInput& in, const Row& row,
                                          nlohmann::json& data, std::int64_t& credits) {
  // The newer service's json variant made without a model: it answers in `json` like the json
  // format (which wins when both are asked for), and the mock's extraction is deterministic
  // anyway. No model, so no surcharge.
  if (in.options.json_format()) return std::nullopt;
  return extracted(in, row, data, credits, in.options.deterministic_json_format(), 0);
}

std::optional<Failure> extract(const FormatInput& in, const Row& row, nlohmann::json& data,
                               std::int64_t& credits) {
  return extracted(in, row, data, credits, in.options.extract_format(), kModelCredits);
}

}  // namespace webdata::mock::scrape::produce
