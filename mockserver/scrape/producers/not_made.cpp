// audio, video, product and menu: formats the mock cannot make from a page without a browser or
// a model. Accepted, as the service accepts them, and named in a `warning` instead of an answer
// that would be made up.
#include "core/text.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> not_made(const FormatInput&, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  static const std::string kNotMade =
      "The mock does not produce these formats (they need the service's browser or models): ";
  // One warning names them all, in the registry's order.
  auto it = data.find(row.field);
  if (it != data.end() && it->is_string() && starts_with(it->get<std::string>(), kNotMade)) {
    *it = it->get<std::string>() + ", " + row.name;
  } else {
    data[row.field] = kNotMade + row.name;
  }
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
