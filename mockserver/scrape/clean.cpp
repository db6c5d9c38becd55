// Stage clean: the page, parsed once, seen through the request's content options. A cached page
// keeps its renderings per set of options, so a hit repeats neither the parse nor the cleaning.
#include "core/text.hpp"
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

std::string Cleaned::markdown() const {
  return cached_ ? cached_->markdown(page_.url, options_) : document_.markdown(options_);
}

std::string Cleaned::html() const {
  return cached_ ? cached_->html(page_.url, options_) : document_.html(options_);
}

const std::vector<std::string>& Cleaned::links() const {
  if (!links_) links_ = cached_ ? cached_->links(page_.url) : document_.links();
  return *links_;
}

json Cleaned::metadata() const {
  json metadata = cached_ ? cached_->metadata(page_.url) : document_.metadata();
  if (!metadata.is_object()) metadata = json::object();
  if (page_.status_code >= 400) metadata["error"] = reason_phrase(page_.status_code);
  return metadata;
}

}  // namespace webdata::mock::scrape
