// images: the page's image URLs.
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> images(const FormatInput& in, const Row& row, nlohmann::json& data,
                              std::int64_t&) {
  data[row.field] = in.page.document().images();
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
