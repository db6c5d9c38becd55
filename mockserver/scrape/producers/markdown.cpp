// markdown: the cleaned content as Markdown.
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> markdown(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  try {
    data[row.field] = in.page.markdown();
  } catch (const content::SelectorError& e) {
    return bad_selector(in.options, e);
  }
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
