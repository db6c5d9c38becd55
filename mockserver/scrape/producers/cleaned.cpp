// markdown and html: the cleaned content (main content, include/exclude tags), as Markdown or as
// an HTML fragment.
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

namespace {

/// A rendering of the cleaned page; a selector that does not parse refuses the scrape.
template <class Render>
std::optional<Failure> rendered(const FormatInput& in, const Row& row, nlohmann::json& data,
                                Render render) {
  try {
    data[row.field] = render(in.page);
  } catch (const content::SelectorError& e) {
    return bad_selector(in.options, e);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Failure> markdown(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  return rendered(in, row, data, [](const Cleaned& page) { return page.markdown(); });
}

std::optional<Failure> html(const FormatInput& in, const Row& row, nlohmann::json& data,
                            std::int64_t&) {
  return rendered(in, row, data, [](const Cleaned& page) { return page.html(); });
}

}  // namespace webdata::mock::scrape::produce
