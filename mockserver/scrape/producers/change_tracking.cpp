// changeTracking: this scrape's markdown (as delivered, after redactPII) compared with the
// previous scrape of the same team, URL and tag.
#include <algorithm>

#include "formats/change_tracking.hpp"
#include "formats/extract.hpp"
#include "scrape/producers/registry.hpp"

namespace webdata::mock::scrape::produce {

std::optional<Failure> change_tracking(const FormatInput& in, const Row& row,
                                       nlohmann::json& data, std::int64_t&) {
  const auto spec = in.options.change_tracking();
  if (!spec) return std::nullopt;
  formats::ChangeTrackingInput input;
  input.team = in.history.team;
  input.url = in.history.url;
  const auto markdown = data.find("markdown");
  input.markdown = markdown != data.end() && markdown->is_string() ? markdown->get<std::string>()
                                                                   : std::string();
  input.status_code = in.page.page().status_code;
  input.store = in.history.store;
  input.now = in.history.now;
  input.tag = spec->tag;
  input.modes = spec->modes;
  if (std::find(input.modes.begin(), input.modes.end(), "json") != input.modes.end()) {
    input.json =
        formats::extract(in.page.document(), in.page.options(), spec->schema, spec->prompt);
  }
  data[row.field] = in.history.tracker->track(input);
  return std::nullopt;
}

}  // namespace webdata::mock::scrape::produce
