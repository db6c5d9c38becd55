// attributes: the values of the attributes the caller's selectors name.
#include "formats/queries.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> attributes(const FormatInput& in, const Row& row, nlohmann::json& data,
                                  std::int64_t&) {
  const requests::Format* wanted = in.options.format(row.name);
  try {
    data[row.field] = formats::attributes(in.page.document(),
                                          wanted->selectors.value_or(nlohmann::json::array()));
  } catch (const content::SelectorError& e) {
    return bad_option(std::string("Invalid CSS selector in attributes: ") + e.what(), "formats");
  }
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
