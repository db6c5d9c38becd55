// The SDK's response parsers: one untrusted body is handed to the client as the answer of each
// endpoint (through a transport that returns it, as 200 and as an error status), read into every
// response model with from_json, parsed as a webhook event, and its first line is read as a
// Retry-After value.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <webdata/client.hpp>
#include <webdata/serialize.hpp>
#include <webdata/transport.hpp>
#include <webdata/webhooks.hpp>

#include "client_core.hpp"

namespace {

class EchoTransport : public webdata::Transport {
 public:
  webdata::Result<webdata::HttpResponse> send(const webdata::HttpRequest&) override {
    return response;
  }
  webdata::HttpResponse response;
};

template <class T>
void read_as(const std::string& text) {
  auto result = webdata::from_json<T>(text);
  if (result.ok()) {
    (void)webdata::to_json(*result);
  } else {
    (void)result.error().message;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);

  read_as<webdata::Document>(body);
  read_as<webdata::JobStatus>(body);
  read_as<webdata::JobStarted>(body);
  read_as<webdata::JobErrors>(body);
  read_as<webdata::ActiveCrawl>(body);
  read_as<webdata::SearchResults>(body);
  read_as<webdata::AgentResult>(body);
  read_as<webdata::ScrapeRequest>(body);
  read_as<webdata::CrawlRequest>(body);
  read_as<webdata::v1::SearchResults>(body);
  read_as<webdata::webhooks::Event>(body);
  (void)webdata::webhooks::parse_event(body);
  (void)webdata::webhooks::verify_signature("secret", body, body.substr(0, 80));
  (void)webdata::detail::parse_retry_after(body.substr(0, body.find('\n')));

  auto transport = std::make_shared<EchoTransport>();
  webdata::ClientOptions options;
  options.api_url = "http://127.0.0.1:1";
  options.api_key = "test-key";
  options.transport = transport;
  options.retry = webdata::RetryPolicy::none();
  const webdata::Client client(options);
  for (const int status : {200, 400 + static_cast<int>(size % 200)}) {
    transport->response = webdata::HttpResponse{};
    transport->response.status = status;
    transport->response.headers = {{"Content-Type", "application/json"}, {"Retry-After", "1"}};
    transport->response.body = body;
    webdata::ScrapeRequest scrape;
    scrape.url = "https://example.com";
    (void)client.scrape(scrape);
    (void)client.crawl_status("00000000-0000-4000-8000-000000000000");
    (void)client.crawl_errors("00000000-0000-4000-8000-000000000000");
    (void)client.cancel_crawl("00000000-0000-4000-8000-000000000000");
    (void)client.active_crawls();
    (void)client.agent_status("00000000-0000-4000-8000-000000000000");
    webdata::SearchRequest search;
    search.query = "q";
    (void)client.search(search);
    webdata::CrawlRequest crawl;
    crawl.url = "https://example.com";
    if (auto job = client.start_crawl(crawl); job.ok()) (void)job->status();
    (void)webdata::detail::http_error(transport->response);
  }
  return 0;
}
