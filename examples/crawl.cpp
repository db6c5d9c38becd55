// Crawl a site: progress while it runs and lazy iteration over its documents, one status chunk
// in memory at a time (`pages()` follows the job until it ends; `documents()` flattens the
// chunks).
//
//   crawl URL [LIMIT]     at most LIMIT pages, 15 by default
#include <iostream>
#include <string>

#include "example_support.hpp"

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("crawl URL [LIMIT]");
  webdata::Client client;

  webdata::CrawlRequest request;
  request.url = url;
  request.limit = argc > 2 ? std::stoi(argv[2]) : 15;
  request.scrape_options = webdata::ScrapeOptions{};
  request.scrape_options->formats = std::vector<webdata::FormatEntry>{"markdown"};

  auto job = client.start_crawl(request);
  if (!job.ok()) return example::failed("crawl start", job.error());
  std::cout << "crawl " << job->id() << " started\n";

  // While the crawl runs, each chunk tells how far it got and brings the new documents. A
  // deployment's first answers may have no documents and no `next`: the job's state, not the
  // chunk, says when it ended.
  webdata::PollingPolicy polling;
  polling.interval = std::chrono::milliseconds(200);
  polling.max_wait = std::chrono::minutes(2);
  int seen = 0;
  webdata::JobState state;
  for (auto& chunk : job->pages(polling)) {
    if (!chunk.ok()) return example::failed("status", chunk.error());
    seen += static_cast<int>(chunk->data.size());
    state = chunk->status;
    std::cout << "progress: " << chunk->completed << "/" << chunk->total << " pages, "
              << chunk->status.value() << ", +" << chunk->data.size() << " documents\n";
  }
  std::cout << "crawl ended " << state.value() << " with " << seen << " documents\n";

  // Once finished, the documents can be walked again, lazily: nothing is held but one chunk.
  int with_title = 0;
  int count = 0;
  for (auto& doc : job->documents()) {
    if (!doc.ok()) return example::failed("paging", doc.error());
    ++count;
    if (doc->metadata.title) {
      ++with_title;
      std::cout << "  " << doc->metadata.source_url.value_or("?") << "  " << *doc->metadata.title
                << "\n";
    }
  }
  std::cout << count << " documents, " << with_title << " with a title\n";
  return state == webdata::JobState::completed() && count == seen ? 0 : 1;
}
