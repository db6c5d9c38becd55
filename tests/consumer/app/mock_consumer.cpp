// webdata::mock in a program of one's own: the whole mock service in-process on a free port,
// the SDK talking to it.
#include <iostream>
#include <sstream>

#include <webdata/webdata.hpp>

#include "app/mock_server.hpp"

int main() {
  webdata::mock::Config config;
  config.server.port = 0;
  config.server.access_log = false;
  std::ostringstream log;
  webdata::mock::MockServer server(config, log);
  server.start();

  webdata::Client client(server.base_url(), "test-key");
  webdata::ScrapeRequest request;
  request.url = "https://docs.example.test/getting-started/quickstart";
  auto doc = client.scrape(request);
  server.stop();
  if (!doc.ok()) {
    std::cerr << doc.error().describe() << "\n" << log.str();
    return 1;
  }
  std::cout << "in-process mock: " << doc->metadata.title.value_or("(none)") << "\n";
  return 0;
}
