// Stage actions: the request's actions run on the fetched page before anything is made from it;
// a click on a link navigates through the virtual web, and every format is then made from the
// page the actions ended on.
#include "formats/actions.hpp"
#include "formats/screenshot.hpp"
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;
using requests::ScrapeOptions;

std::optional<Failure> Scraper::run_actions(const ScrapeOptions& options, const Plan& plan,
                                            const std::string& proxy_used,
                                            const content::Options& extract, content::Page& page,
                                            json& result, Outcome& out) const {
  formats::ActionSettings settings;
  if (options.mobile) {
    settings.viewport_width = formats::kMobileWidth;
    settings.viewport_height = formats::kMobileHeight;
  }
  settings.options = extract;
  // Each navigation starts when the previous page arrived, so its delay adds to the answer's.
  formats::Navigator navigate =
      [this, &options, proxy_used, fetch_timeout = plan.fetch_timeout,
       &ready_at = out.ready_at](const std::string& target) -> std::optional<content::Page> {
    web::FetchResult next = fetch(options, target, proxy_used, fetch_timeout, ready_at);
    ready_at = next.ready_at;
    if (!next.ok || !reads_as_page(next.content_type)) return std::nullopt;
    return page_of(std::move(next), target);
  };
  const formats::ActionRunner runner(std::move(navigate), settings);
  formats::ActionsOutcome ran = runner.run(page, json(*options.actions));
  if (ran.error) return Failure{500, ran.error->code, ran.error->message, nullptr};
  // Waits are not slept but spent from the scrape's time, as a browser would spend them.
  if (plan.wait_for + ran.waited >= plan.timeout) {
    return no_time_left("waitFor and wait actions", "leave", plan.wait_for + ran.waited,
                        plan.timeout);
  }
  page = std::move(ran.final_page);
  result = std::move(ran.result);
  return std::nullopt;
}

}  // namespace webdata::mock::scrape
