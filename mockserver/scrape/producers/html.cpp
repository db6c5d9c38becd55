// html: the cleaned content as an HTML fragment.
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> html(const FormatInput& in, const Row& row, nlohmann::json& data,
                            std::int64_t&) {
  try {
    data[row.field] = in.page.html();
  } catch (const content::SelectorError& e) {
    return bad_selector(in.options, e);
  }
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
