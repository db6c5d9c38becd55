// Cancel a running crawl: the job ends `cancelled` and stays so.
//
//   cancel [URL]     default: a generated site whose pages answer slowly, so the crawl runs
#include <iostream>
#include <string>
#include <thread>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  webdata::Client client;
  webdata::CrawlRequest request;
  request.url = argc > 1 ? argv[1] : "https://cancel-me.delay-200.pages-500.synthetic.test/";
  request.max_concurrency = 1;

  auto job = client.start_crawl(request);
  if (!job.ok()) {
    std::cerr << "start failed: " << job.error().describe() << "\n";
    return 1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  auto before = job->status();
  if (!before.ok()) {
    std::cerr << before.error().describe() << "\n";
    return 1;
  }
  std::cout << "before: " << before->status.value() << ", " << before->completed << "/"
            << before->total << " pages\n";

  auto state = job->cancel();
  if (!state.ok()) {
    std::cerr << "cancel failed: " << state.error().describe() << "\n";
    return 1;
  }
  std::cout << "cancel answered: " << state->value() << "\n";

  auto after = job->status();
  if (!after.ok()) {
    std::cerr << after.error().describe() << "\n";
    return 1;
  }
  std::cout << "after: " << after->status.value() << ", " << after->completed << " pages kept\n";

  // A second cancel of a finished job is an API error (409), reported as a value.
  auto again = job->cancel();
  std::cout << "second cancel: " << (again.ok() ? again->value() : again.error().describe())
            << "\n";
  return after->status == webdata::JobState::cancelled() && !again.ok() ? 0 : 1;
}
