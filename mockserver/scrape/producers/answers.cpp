// question, query (its older form) and highlights: what the page's content says to a text the
// format object carries.
#include "formats/queries.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

namespace {

using Answerer = std::string (*)(const content::Document&, const content::Options&,
                                 std::string_view);

/// The answer to the text in `asked` of the format's object (a bare name asks nothing).
std::optional<Failure> answered(const FormatInput& in, const Row& row, nlohmann::json& data,
                                Answerer answer,
                                std::optional<std::string> requests::Format::*asked) {
  const requests::Format* f = in.options.format(row.name);
  if (f->as_object) {
    data[row.field] = answer(in.page.document(), in.page.options(), (f->*asked).value_or(""));
  }
  return std::nullopt;
}

}  // namespace

std::optional<Failure> question(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  return answered(in, row, data, formats::answer, &requests::Format::question);
}

std::optional<Failure> query(const FormatInput& in, const Row& row, nlohmann::json& data,
                             std::int64_t&) {
  return answered(in, row, data, formats::answer, &requests::Format::prompt);
}

std::optional<Failure> highlights(const FormatInput& in, const Row& row, nlohmann::json& data,
                                  std::int64_t&) {
  return answered(in, row, data, formats::highlights, &requests::Format::query);
}

}  // namespace webdata::mock::scrape::produce
