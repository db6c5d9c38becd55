// Errors as values or as exceptions: every call returns webdata::Result<T>; `value()` throws
// webdata::ApiError for those who prefer exceptions. Error::kind tells what went wrong.
//
//   error_handling URL     a page the deployment can scrape
#include <cstdlib>
#include <iostream>

#include "example_support.hpp"

namespace {

const char* kind_name(webdata::ErrorKind kind) {
  switch (kind) {
    case webdata::ErrorKind::kHttp: return "kHttp";
    case webdata::ErrorKind::kTransport: return "kTransport";
    case webdata::ErrorKind::kTimeout: return "kTimeout";
    case webdata::ErrorKind::kParse: return "kParse";
    case webdata::ErrorKind::kCancelled: return "kCancelled";
    case webdata::ErrorKind::kInvalidArgument: return "kInvalidArgument";
    case webdata::ErrorKind::kNotJson: return "kNotJson";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string page = example::target(argc, argv);
  if (page.empty()) return example::usage("error_handling URL");
  int checks_failed = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok) {
      std::cerr << "unexpected: " << what << "\n";
      ++checks_failed;
    }
  };
  webdata::Client client;

  // 1. The service refuses the request: HTTP status, code, message and field-level details.
  webdata::ScrapeRequest bad;
  bad.url = page;
  bad.timeout = std::chrono::minutes(10);  // above the 300 s maximum
  auto refused = client.scrape(bad);
  expect(!refused.ok() && refused.error().kind == webdata::ErrorKind::kHttp &&
             refused.error().http_status == 400,
         "a 400 for a timeout over the limit");
  if (!refused.ok()) {
    std::cout << "validation: " << kind_name(refused.error().kind) << " "
              << refused.error().describe() << "\n  details: " << refused.error().details << "\n";
  }

  // 2. The page cannot be fetched: an API error with the service's code (which one depends on
  // the deployment: SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_ALL_ENGINES_FAILED, ...).
  webdata::ScrapeRequest unknown;
  unknown.url = "https://no-such-host.example.invalid/";
  auto dns = client.scrape(unknown);
  expect(!dns.ok() && dns.error().kind == webdata::ErrorKind::kHttp && !dns.error().code.empty(),
         "an API error with a code");
  if (!dns.ok()) std::cout << "fetch: " << dns.error().describe() << "\n";

  // 3. A wrong key: 401, not retryable (a deployment with authentication off takes any key).
  const char* url_env = std::getenv("WEBDATA_API_URL");
  const std::string api_url = url_env != nullptr ? url_env : "http://127.0.0.1:3002";
  webdata::Client wrong_key(api_url, "not-a-key");
  auto unauthorized = wrong_key.crawl_status("00000000-0000-4000-8000-000000000000");
  if (!unauthorized.ok() && unauthorized.error().http_status == 401) {
    std::cout << "auth: " << unauthorized.error().describe() << "\n";
  } else {
    std::cout << "auth: this deployment does not check keys (authentication off)\n";
  }

  // 4. An unknown job: 404 "Job not found".
  auto missing = client.crawl_status("00000000-0000-4000-8000-000000000000");
  expect(!missing.ok() && missing.error().http_status == 404, "a 404");
  if (!missing.ok()) std::cout << "job: " << missing.error().describe() << "\n";

  // 5. Nothing listens: a transport error, never an HTTP status. No retries for the demo.
  webdata::ClientOptions nowhere;
  nowhere.api_url = "http://127.0.0.1:1";
  nowhere.retry = webdata::RetryPolicy::none();
  auto unreachable = webdata::Client(nowhere).active_crawls();
  expect(!unreachable.ok() && unreachable.error().kind == webdata::ErrorKind::kTransport,
         "a transport error");
  if (!unreachable.ok()) {
    std::cout << "transport: " << kind_name(unreachable.error().kind) << " "
              << unreachable.error().describe() << "\n";
  }

  // 6. The same with exceptions.
  try {
    webdata::Document doc = client.scrape(unknown).value();
    expect(false, "value() of an error returned");
  } catch (const webdata::ApiError& e) {
    std::cout << "exception: " << e.what() << " (code " << e.error().code << ")\n";
  }
  return checks_failed == 0 ? 0 : 1;
}
