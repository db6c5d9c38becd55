// Batch scrape with invalid URLs: with `ignore_invalid_urls` the service drops them, lists them
// in `invalidURLs`, and scrapes the rest. A URL whose host does not exist is not a document: it
// shows up in the job's errors (on deployments that have the errors route).
//
//   batch_scrape URL...
#include <iostream>

#include "example_support.hpp"

int main(int argc, char** argv) {
  webdata::BatchScrapeRequest request;
  request.urls = example::targets(argc, argv);
  if (request.urls.empty()) return example::usage("batch_scrape URL...");
  request.urls.emplace_back("not a url");                              // dropped at the start
  request.urls.emplace_back("https://unknown-host.example.invalid/");  // valid; its fetch fails
  request.ignore_invalid_urls = true;  // said explicitly: deployments differ in the default
  request.formats = std::vector<webdata::FormatEntry>{"markdown"};
  webdata::Client client;

  auto job = client.start_batch_scrape(request);
  if (!job.ok()) return example::failed("start", job.error());
  std::cout << "batch " << job->id() << " started\n";
  for (const auto& url : job->started().invalid_urls.value_or(std::vector<std::string>{})) {
    std::cout << "invalid URL dropped: " << url << "\n";
  }

  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(250);
  polling.max_wait = std::chrono::minutes(2);
  auto done = job->wait(polling);
  if (!done.ok()) return example::failed("wait", done.error());
  std::cout << "state " << done->status.value() << ", " << done->completed << "/" << done->total
            << " pages, " << done->credits_used << " credits\n";
  for (const auto& doc : done->data) {
    std::cout << "- " << doc.metadata.source_url.value_or("?") << " ("
              << doc.metadata.status_code.value_or(0) << ") " << doc.metadata.title.value_or("")
              << "\n";
  }

  auto errors = job->errors();
  if (!errors.ok() && !example::lacks_route(errors.error())) {
    return example::failed("errors", errors.error());
  }
  if (errors.ok()) {
    for (const auto& e : errors->errors) std::cout << "failed: " << e.url << " " << e.code << "\n";
  }
  return done->status == webdata::JobState::completed() ? 0 : 1;
}
