// The errors endpoint: pages a job could not scrape, and URLs robots.txt kept it from.
// A page answering 404 or 500 is not an error: it is a document with that statusCode.
//
//   crawl_errors URL     a site to crawl (with a robots.txt that disallows something, say)
#include <iostream>

#include "example_support.hpp"

namespace {

// Prints a job's errors; false when the call failed for another reason than a missing route.
bool show(const char* what, const webdata::Result<webdata::JobErrors>& errors) {
  if (!errors.ok()) {
    if (example::lacks_route(errors.error())) return true;
    example::failed(what, errors.error());
    return false;
  }
  std::cout << what << ": " << errors->errors.size() << " failed, " << errors->robots_blocked.size()
            << " blocked by robots.txt\n";
  for (const auto& e : errors->errors) {
    std::cout << "  failed  " << e.url << "  " << e.code << ": " << e.error << "\n";
  }
  for (const auto& url : errors->robots_blocked) std::cout << "  blocked " << url << "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("crawl_errors URL");
  webdata::Client client;
  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(200);
  polling.max_wait = std::chrono::minutes(2);

  webdata::CrawlRequest crawl;
  crawl.url = url;
  crawl.limit = 20;
  auto crawl_job = client.start_crawl(crawl);
  if (!crawl_job.ok()) return example::failed("crawl start", crawl_job.error());
  auto crawled = crawl_job->wait(polling);
  if (!crawled.ok()) return example::failed("crawl", crawled.error());
  int server_errors = 0;
  for (const auto& doc : crawled->data) {
    if (doc.metadata.status_code.value_or(200) >= 500) ++server_errors;
  }
  std::cout << "crawl: " << crawled->data.size() << " documents, " << server_errors
            << " of them pages answering 5xx\n";
  if (!show("crawl errors", crawl_job->errors())) return 1;

  // A batch with a host that does not resolve: that page fails and is listed with its code.
  webdata::BatchScrapeRequest batch;
  batch.urls = {url, "https://no-such-host.example.invalid/"};
  auto batch_job = client.start_batch_scrape(batch);
  if (!batch_job.ok()) return example::failed("batch start", batch_job.error());
  if (auto done = batch_job->poll_until_done(polling); !done.ok()) {
    return example::failed("batch", done.error());
  }
  return show("batch errors", batch_job->errors()) ? 0 : 1;
}
