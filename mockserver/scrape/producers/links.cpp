// links: every link of the whole page (not only its main content).
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> links(const FormatInput& in, const Row& row, nlohmann::json& data,
                             std::int64_t&) {
  data[row.field] = in.page.links();
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
