// rawHtml and rawBase64: the body exactly as fetched, as text or base64-encoded.
#include "core/base64.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> raw_html(const FormatInput& in, const Row& row, nlohmann::json& data,
                                std::int64_t&) {
  data[row.field] = in.page.document().raw_html();
  return std::nullopt;
}

std::optional<Failure> raw_base64(const FormatInput& in, const Row& row, nlohmann::json& data,
                                  std::int64_t&) {
  data[row.field] = base64_encode(in.page.document().raw_html());
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
