// List the team's running crawls (GET /v2/crawl/active), then cancel the one started here.
//
//   active_crawls
#include <iostream>

#include <webdata/webdata.hpp>

int main() {
  webdata::Client client;

  webdata::CrawlRequest request;
  request.url = "https://active-demo.delay-200.pages-300.synthetic.test/";
  request.max_concurrency = 1;
  request.scrape_options = webdata::ScrapeOptions{};
  request.scrape_options->formats = std::vector<webdata::FormatEntry>{"markdown", "links"};
  auto job = client.start_crawl(request);
  if (!job.ok()) {
    std::cerr << job.error().describe() << "\n";
    return 1;
  }

  auto active = client.active_crawls();
  if (!active.ok()) {
    std::cerr << active.error().describe() << "\n";
    return 1;
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

  if (auto cancelled = job->cancel(); !cancelled.ok()) {
    std::cerr << cancelled.error().describe() << "\n";
    return 1;
  }
  auto after = client.active_crawls();
  if (!after.ok()) return 1;
  bool still_listed = false;
  for (const auto& crawl : *after) still_listed = still_listed || crawl.id == job->id();
  std::cout << "after cancel: " << after->size() << " active crawl(s)\n";
  return listed && !still_listed ? 0 : 1;
}
