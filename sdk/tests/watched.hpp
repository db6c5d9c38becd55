#pragma once

// What the watch tests (plain and TLS) read off a crawl watch: every event, the documents' URLs
// in order, and the error that ended it; and what both set a watch up with: the crawl, the
// policy, and a client whose requests are counted.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "webdata/webdata.hpp"

namespace webdata::testing {

struct Watched {
  std::vector<WatchEvent> events;
  std::vector<std::string> urls;  // of the documents, in order
  std::optional<Error> error;
};

/// Reads `stream` to its end (or its first error).
inline Watched watch_all(Stream<WatchEvent> stream) {
  Watched out;
  for (auto& event : stream) {
    if (!event.ok()) {
      out.error = event.error();
      break;
    }
    if (event->document) out.urls.push_back(event->document->metadata.source_url.value_or(""));
    out.events.push_back(std::move(*event));
  }
  return out;
}

/// `mode`, polling every 30 ms for at most a minute.
inline WatchPolicy policy_for(WatchMode mode) {
  WatchPolicy policy;
  policy.mode = mode;
  policy.polling.interval = std::chrono::milliseconds(30);
  policy.polling.max_wait = std::chrono::seconds(60);
  return policy;
}

/// A crawl of `url`, one page at a time.
inline CrawlRequest crawl_of(const std::string& url) {
  CrawlRequest crawl;
  crawl.url = url;
  crawl.max_concurrency = 1;
  return crawl;
}

/// Forwards to an inner transport (by default the libcurl one) and its connection options,
/// counting requests and the documents their answers carried.
class CountingTransport : public Transport {
 public:
  explicit CountingTransport(std::shared_ptr<Transport> inner = make_curl_transport())
      : inner_(std::move(inner)) {}
  Result<HttpResponse> send(const HttpRequest& request) override {
    ++requests;
    auto response = inner_->send(request);
    if (response.ok()) {
      const auto body = nlohmann::json::parse(response->body, nullptr, false);
      if (body.is_object() && body.contains("data") && body["data"].is_array()) {
        documents += body["data"].size();
      }
    }
    return response;
  }
  std::optional<CurlTransportOptions> connection_options() const override {
    return inner_->connection_options();
  }
  std::atomic<int> requests{0};
  std::atomic<std::size_t> documents{0};

 private:
  std::shared_ptr<Transport> inner_;
};

/// A client of `url` with the test key whose requests go through `transport`.
inline Client client_through(const std::string& url, std::shared_ptr<Transport> transport) {
  ClientOptions options;
  options.api_url = url;
  options.api_key = "test-key";
  options.transport = std::move(transport);
  return Client(options);
}

}  // namespace webdata::testing
