// Batch scrape with invalid URLs: the service drops them (v2 default ignoreInvalidURLs: true),
// lists them in `invalidURLs`, and scrapes the rest. A URL whose host does not exist is not a
// document: it shows up in the job's errors.
//
//   batch_scrape
#include <iostream>

#include <webdata/webdata.hpp>

int main() {
  webdata::Client client;

  webdata::BatchScrapeRequest request;
  request.urls = {
      "https://docs.example.test/",
      "https://docs.example.test/faq",
      "https://blog.example.test/",
      "not a url",                               // invalid: dropped at the start
      "https://unknown-host.example.invalid/",  // valid, but its fetch fails
  };
  request.formats = std::vector<webdata::FormatEntry>{"markdown"};

  auto job = client.start_batch_scrape(request);
  if (!job.ok()) {
    std::cerr << "start failed: " << job.error().describe() << "\n";
    return 1;
  }
  std::cout << "batch " << job->id() << " started\n";
  for (const auto& url : job->started().invalid_urls.value_or(std::vector<std::string>{})) {
    std::cout << "invalid URL dropped: " << url << "\n";
  }

  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(250);
  polling.max_wait = std::chrono::minutes(2);
  auto done = job->wait(polling);
  if (!done.ok()) {
    std::cerr << "wait failed: " << done.error().describe() << "\n";
    return 1;
  }
  std::cout << "state " << done->status.value() << ", " << done->completed << "/" << done->total
            << " pages, " << done->credits_used << " credits\n";
  for (const auto& doc : done->data) {
    std::cout << "- " << doc.metadata.source_url.value_or("?") << " ("
              << doc.metadata.status_code.value_or(0) << ") "
              << doc.metadata.title.value_or("") << "\n";
  }

  auto errors = job->errors();
  if (!errors.ok()) {
    std::cerr << "errors failed: " << errors.error().describe() << "\n";
    return 1;
  }
  for (const auto& e : errors->errors) std::cout << "failed: " << e.url << " " << e.code << "\n";
  return done->status == webdata::JobState::completed() && done->data.size() == 3 ? 0 : 1;
}
