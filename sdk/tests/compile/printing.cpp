// Compiled by sdk/tests/compile/compile_check.cmake in C++17 and C++20 with -Wall -Wextra
// -Werror: printing and comparing results, errors and states as users write it. C++20 adds
// rewritten comparison candidates, which must not make `state == "completed"` ambiguous.
#include <iostream>

#include <webdata/webdata.hpp>

int main() {
  webdata::Client client("http://127.0.0.1:9", "");
  auto status = client.crawl_status("00000000-0000-4000-8000-000000000000");
  if (!status) {
    std::cout << status.error() << " " << status.error().kind << "\n";
    return 1;
  }
  std::cout << status->status << "\n";
  const bool done = status->status == "completed" || "failed" == status->status ||
                    status->status != webdata::JobState::scraping();
  std::cout << status->error.value_or("") << status.value_or(webdata::JobStatus{}).total << done
            << "\n";
  return 0;
}
