// branding: the page's colours, fonts, logo and components, read from its styles.
#include "formats/branding.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> branding(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  data[row.field] = formats::branding(in.page.document());
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
