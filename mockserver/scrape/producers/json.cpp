// json, deterministicJson (v2) and extract (v1): values for the caller's schema or prompt,
// extracted from the page (a model's work in the real service; docs/mockserver/model-formats.md).
#include "formats/extract.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

namespace {

/// What a model-made extraction costs beyond the page.
constexpr std::int64_t kModelCredits = 4;

nlohmann::json extracted(const FormatInput& in, const requests::ExtractSpec& spec) {
  return formats::extract(in.page.document(), in.page.options(), spec.schema, spec.prompt);
}

}  // namespace

std::optional<Failure> json_format(const FormatInput& in, const Row& row, nlohmann::json& data,
                                   std::int64_t& credits) {
  const auto spec = in.options.json_format();
  if (!spec) return std::nullopt;
  data[row.field] = extracted(in, *spec);
  credits += kModelCredits;
  return std::nullopt;
}

std::optional<Failure> deterministic_json(const FormatInput& in, const Row& row,
                                          nlohmann::json& data, std::int64_t&) {
  // The newer service's json variant made without a model: it answers in `json` like the json
  // format (which wins when both are asked for), and the mock's extraction is deterministic
  // anyway. No model, so no surcharge.
  const auto spec = in.options.deterministic_json_format();
  if (!spec || in.options.json_format()) return std::nullopt;
  data[row.field] = extracted(in, *spec);
  return std::nullopt;
}

std::optional<Failure> extract(const FormatInput& in, const Row& row, nlohmann::json& data,
                               std::int64_t& credits) {
  const auto spec = in.options.extract_format();
  if (!spec) return std::nullopt;
  data[row.field] = extracted(in, *spec);
  credits += kModelCredits;
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
