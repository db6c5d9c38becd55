// The smallest useful program on the SDK: scrape one page, print its title and size.
//   consumer URL      against $WEBDATA_API_URL with $WEBDATA_API_KEY
#include <iostream>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer URL\n";
    return 2;
  }
  webdata::Client client;
  webdata::ScrapeRequest request;
  request.url = argv[1];
  request.formats = std::vector<webdata::FormatEntry>{"markdown"};
  std::cout << "request: " << webdata::to_json(request).text() << "\n";
  auto doc = client.scrape(request);
  if (!doc.ok()) {
    std::cerr << doc.error() << "\n";
    return 1;
  }
  std::cout << "title: " << doc->metadata.title.value_or("(none)") << "\n";
  std::cout << "markdown: " << doc->markdown.value_or("").size() << " characters\n";
  return 0;
}
