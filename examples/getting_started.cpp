#include <iostream>
#include <webdata/webdata.hpp>

int main() {
  webdata::Client client;  // the service at $WEBDATA_API_URL, with the key in $WEBDATA_API_KEY
  webdata::ScrapeRequest request;
  request.url = "https://docs.example.test/getting-started/quickstart";
  request.formats = std::vector<webdata::FormatEntry>{"markdown", "links"};

  auto doc = client.scrape(request);
  if (!doc.ok()) {
    std::cerr << doc.error().describe() << "\n";  // e.g. "HTTP 401 ...: Unauthorized"
    return 1;
  }
  std::cout << doc->metadata.title.value_or("") << "\n" << doc->markdown.value_or("") << "\n";
}
