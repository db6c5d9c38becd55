// summary: a model's summary in the real service; made here from the content's best sentences
// (docs/mockserver/model-formats.md).
#include "formats/summary.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> summary(const FormatInput& in, const Row& row, nlohmann::json& data,
                               std::int64_t&) {
  data[row.field] = formats::summarize(in.page.document(), in.page.options());
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
