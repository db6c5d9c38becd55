// Using webdata-mock in your own tests: start it as a process on a free port, add a stub through
// its admin API, exercise your code against it, assert, stop it.
//
//   mock_in_tests [PATH-TO-webdata-mock]    default: $WEBDATA_MOCK, else webdata-mock on PATH
//
// The same steps work from any test framework (and any language: see docs/mockserver.md).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <webdata/webdata.hpp>

namespace {

// A webdata-mock child process; SIGTERM and reaped on destruction.
class Mock {
 public:
  explicit Mock(const std::string& executable) {
    ready_file_ = std::filesystem::temp_directory_path() /
                  ("webdata-mock-" + std::to_string(getpid()) + ".url");
    std::filesystem::remove(ready_file_);
    pid_ = fork();
    if (pid_ == 0) {
      // --port 0: any free port; --ready-file: the mock writes its URL there once it accepts
      // connections; --admin: the /__admin/ API for stubs; --page-pacing 0: jobs at full speed.
      execlp(executable.c_str(), executable.c_str(), "--port", "0", "--admin", "--quiet",
             "--page-pacing", "0", "--ready-file", ready_file_.c_str(), static_cast<char*>(nullptr));
      std::perror("cannot start webdata-mock");
      _exit(127);
    }
    for (int i = 0; i < 300 && url_.empty(); ++i) {
      std::ifstream in(ready_file_);
      if (!(in && std::getline(in, url_))) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
          pid_ = -1;
          throw std::runtime_error("webdata-mock exited at start");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    if (url_.empty()) throw std::runtime_error("webdata-mock did not become ready");
  }
  ~Mock() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& url() const { return url_; }

  /// POST /__admin/mappings: a WireMock stub mapping, as JSON text.
  bool add_stub(const std::string& mapping) const {
    webdata::HttpRequest req;
    req.method = "POST";
    req.url = url_ + "/__admin/mappings";
    req.headers = {{"Content-Type", "application/json"}};
    req.body = mapping;
    auto res = webdata::make_curl_transport()->send(req);
    return res.ok() && res->status == 201;
  }

 private:
  pid_t pid_ = -1;
  std::filesystem::path ready_file_;
  std::string url_;
};

int failures = 0;
void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok    " : "FAIL  ") << what << "\n";
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  std::string exe = argc > 1 ? argv[1] : "";
  if (exe.empty()) {
    const char* env = std::getenv("WEBDATA_MOCK");
    exe = env != nullptr && *env != '\0' ? env : "webdata-mock";
  }
  Mock mock(exe);
  std::cout << "mock at " << mock.url() << "\n";
  webdata::Client client(mock.url(), "test-key");

  // 1. A page of the virtual web, only for this test: a mapping with a host matcher.
  check(mock.add_stub(R"({
      "request": {"method": "GET", "host": {"equalTo": "my-app.test"}, "url": "/pricing"},
      "response": {"status": 200, "headers": {"Content-Type": "text/html"},
                   "body": "<html><head><title>Pricing</title></head><body><main><h1>Plans</h1><p>Pro costs 42 EUR.</p></main></body></html>"}})"),
        "stub page added");
  webdata::ScrapeRequest page;
  page.url = "https://my-app.test/pricing";
  auto doc = client.scrape(page);
  check(doc.ok(), "scrape of the stubbed page succeeds");
  if (doc.ok()) {
    check(doc->metadata.title.value_or("") == "Pricing", "title comes from the stub");
    check(doc->markdown.value_or("").find("Pro costs 42 EUR.") != std::string::npos,
          "markdown holds the stub's text");
  }

  // 2. An API stub (no host matcher): pin the service's answer, here a rate limit, to test the
  //    caller's error handling.
  check(mock.add_stub(R"({
      "request": {"method": "POST", "url": "/v2/scrape",
                  "bodyPatterns": [{"contains": "rate-limited.test"}]},
      "response": {"status": 429, "headers": {"Retry-After": "0"},
                   "jsonBody": {"success": false, "error": "Rate limit exceeded"}}})"),
        "API stub added");
  webdata::ClientOptions no_retry;
  no_retry.api_url = mock.url();
  no_retry.api_key = "test-key";
  no_retry.retry = webdata::RetryPolicy::none();
  webdata::ScrapeRequest limited;
  limited.url = "https://rate-limited.test/";
  auto refused = webdata::Client(no_retry).scrape(limited);
  check(!refused.ok() && refused.error().http_status == 429 && refused.error().retryable,
        "the pinned 429 reaches the caller as a retryable error");

  // 3. Everything else still behaves like the real service.
  webdata::ScrapeRequest bundled;
  bundled.url = "https://docs.example.test/";
  auto normal = client.scrape(bundled);
  check(normal.ok() && normal->metadata.status_code == 200, "bundled sites still answer");

  std::cout << (failures == 0 ? "all checks passed" : "some checks failed") << "\n";
  return failures == 0 ? 0 : 1;
}  // ~Mock stops the server
