// The errors endpoint: pages a job could not scrape, and URLs robots.txt kept it from.
// A page answering 404 or 500 is not an error: it is a document with that statusCode.
//
//   crawl_errors
#include <iostream>

#include <webdata/webdata.hpp>

namespace {

bool show(const char* what, const webdata::Result<webdata::JobErrors>& errors) {
  if (!errors.ok()) {
    std::cerr << what << ": " << errors.error().describe() << "\n";
    return false;
  }
  std::cout << what << ": " << errors->errors.size() << " failed, "
            << errors->robots_blocked.size() << " blocked by robots.txt\n";
  for (const auto& e : errors->errors) {
    std::cout << "  failed  " << e.url << "  " << e.code << ": " << e.error << "\n";
  }
  for (const auto& url : errors->robots_blocked) std::cout << "  blocked " << url << "\n";
  return true;
}

}  // namespace

int main() {
  webdata::Client client;
  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(200);
  polling.max_wait = std::chrono::minutes(2);

  // A generated site: `private` links to a /private/ page that robots.txt disallows, `errors-4`
  // makes every 4th page answer 500 (those are documents, not errors).
  webdata::CrawlRequest crawl;
  crawl.url = "https://demo.private.errors-4.pages-12.synthetic.test/";
  auto crawl_job = client.start_crawl(crawl);
  if (!crawl_job.ok()) {
    std::cerr << crawl_job.error().describe() << "\n";
    return 1;
  }
  auto crawled = crawl_job->wait(polling);
  if (!crawled.ok()) {
    std::cerr << crawled.error().describe() << "\n";
    return 1;
  }
  int server_errors = 0;
  for (const auto& doc : crawled->data) {
    if (doc.metadata.status_code.value_or(200) >= 500) ++server_errors;
  }
  std::cout << "crawl: " << crawled->data.size() << " documents, " << server_errors
            << " of them pages answering 5xx\n";
  const auto crawl_errors = crawl_job->errors();
  if (!show("crawl errors", crawl_errors)) return 1;

  // A batch with a host that does not resolve: that page fails and is listed with its code.
  webdata::BatchScrapeRequest batch;
  batch.urls = {"https://docs.example.test/faq", "https://no-such-host.example.invalid/"};
  auto batch_job = client.start_batch_scrape(batch);
  if (!batch_job.ok()) {
    std::cerr << batch_job.error().describe() << "\n";
    return 1;
  }
  if (auto done = batch_job->poll_until_done(polling); !done.ok()) {
    std::cerr << done.error().describe() << "\n";
    return 1;
  }
  const auto batch_errors = batch_job->errors();
  if (!show("batch errors", batch_errors)) return 1;

  const bool ok = server_errors > 0 && crawl_errors->robots_blocked.size() == 1 &&
                  batch_errors->errors.size() == 1 &&
                  batch_errors->errors.front().code == "SCRAPE_DNS_RESOLUTION_ERROR";
  return ok ? 0 : 1;
}
