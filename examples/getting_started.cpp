#include <cstdlib>
#include <iostream>
#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  const char* page = argc > 1 ? argv[1] : std::getenv("WEBDATA_EXAMPLE_URL");
  if (page == nullptr) {
    std::cerr << "usage: getting_started URL   (or set WEBDATA_EXAMPLE_URL)\n";
    return 2;
  }
  webdata::Client client;  // the service at $WEBDATA_API_URL, with the key in $WEBDATA_API_KEY
  webdata::ScrapeRequest request;
  request.url = page;
  request.formats = std::vector<webdata::FormatEntry>{"markdown", "links"};

  auto doc = client.scrape(request);
  if (!doc.ok()) {
    std::cerr << doc.error().describe() << "\n";  // e.g. "HTTP 401 ...: Unauthorized"
    return 1;
  }
  std::cout << doc->metadata.title.value_or("") << "\n" << doc->markdown.value_or("") << "\n";
}
