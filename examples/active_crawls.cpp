// List the team's running crawls (GET /v2/crawl/active), then cancel the one started here.
//
//   active_crawls URL     a site whose crawl runs for a while (large, or slow pages)
#include <iostream>

#include "example_support.hpp"

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("active_crawls URL");
  webdata::Client client;

  webdata::CrawlRequest request;
  request.url = url;
  request.max_concurrency = 1;
  request.scrape_options = webdata::ScrapeOptions{};
  request.scrape_options->formats = std::vector<webdata::FormatEntry>{"markdown", "links"};
  auto job = client.start_crawl(request);
  if (!job.ok()) return example::failed("start", job.error());

  auto active = client.active_crawls();
  if (!active.ok()) {
    if (example::lacks_route(active.error())) return 0;
    return example::failed("active crawls", active.error());
  }
  bool listed = false;
  std::cout << active->size() << " active crawl(s)\n";
  for (const auto& crawl : *active) {
    std::cout << "- " << crawl.id << "  " << crawl.url << "  team " << crawl.team_id;
    if (crawl.created_at) std::cout << "  since " << crawl.created_at->text();
    std::cout << "\n";
    if (crawl.scrape_options && crawl.scrape_options->formats) {
      std::cout << "  formats:";
      for (const auto& f : *crawl.scrape_options->formats) std::cout << " " << f.type.value();
      std::cout << "\n";
    }
    listed = listed || crawl.id == job->id();
  }
  std::cout << "this crawl " << (listed ? "is" : "is not (it ended already)") << " listed\n";

  if (auto cancelled = job->cancel(); !cancelled.ok() && cancelled.error().http_status != 409) {
    return example::failed("cancel", cancelled.error());
  }
  auto after = client.active_crawls();
  if (!after.ok()) return example::failed("active crawls", after.error());
  std::cout << "after cancel: " << after->size() << " active crawl(s)\n";
  return 0;
}
