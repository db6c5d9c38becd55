// Cancel a running crawl: the job ends `cancelled` and stays so.
//
//   cancel URL     a site large or slow enough that its crawl is still running after a second
#include <iostream>
#include <string>
#include <thread>

#include "example_support.hpp"

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("cancel URL");
  webdata::Client client;
  webdata::CrawlRequest request;
  request.url = url;
  request.max_concurrency = 1;

  auto job = client.start_crawl(request);
  if (!job.ok()) return example::failed("start", job.error());
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  auto before = job->status();
  if (!before.ok()) return example::failed("status", before.error());
  std::cout << "before: " << before->status.value() << ", " << before->completed << "/"
            << before->total << " pages\n";

  auto state = job->cancel();
  if (!state.ok() && state.error().http_status == 409) {
    std::cout << "the crawl had ended before the cancel: " << state.error().message << "\n";
    return 0;
  }
  if (!state.ok()) return example::failed("cancel", state.error());
  std::cout << "cancel answered: " << state->value() << "\n";

  auto after = job->status();
  if (!after.ok()) return example::failed("status", after.error());
  std::cout << "after: " << after->status.value() << ", " << after->completed << " pages kept\n";

  // Cancelling it again: an API error (409) from most deployments, `cancelled` from some.
  auto again = job->cancel();
  std::cout << "second cancel: " << (again.ok() ? again->value() : again.error().describe())
            << "\n";
  return after->status == webdata::JobState::cancelled() ? 0 : 1;
}
