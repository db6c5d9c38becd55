// question, query (its older form) and highlights: what the page's content says to a question,
// asked in a format object.
#include "formats/queries.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> question(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  const requests::Format* f = in.options.format(row.name);
  if (f->as_object) {
    data[row.field] =
        formats::answer(in.page.document(), in.page.options(), f->question.value_or(""));
  }
  return std::nullopt;
}

std::optional<Failure> query(const FormatInput& in, const Row& row, nlohmann::json& data,
                             std::int64_t&) {
  const requests::Format* f = in.options.format(row.name);
  if (f->as_object) {
    data[row.field] = formats::answer(in.page.document(), in.page.options(), f->prompt.value_or(""));
  }
  return std::nullopt;
}

std::optional<Failure> highlights(const FormatInput& in, const Row& row, nlohmann::json& data,
                                  std::int64_t&) {
  const requests::Format* f = in.options.format(row.name);
  if (f->as_object) {
    data[row.field] =
        formats::highlights(in.page.document(), in.page.options(), f->query.value_or(""));
  }
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
