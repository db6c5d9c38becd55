// The v1 API: scrape with v1 options (formats as strings, jsonOptions) through webdata::v1::Client.
//
//   scrape_v1 URL
#include <iostream>
#include <string>

#include "example_support.hpp"

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("scrape_v1 URL");
  webdata::v1::Client client;  // $WEBDATA_API_URL, $WEBDATA_API_KEY

  webdata::v1::ScrapeRequest request;
  request.url = url;
  request.formats = std::vector<std::string>{"markdown", "links", "json"};
  webdata::v1::JsonOptions extraction;
  extraction.schema = webdata::Json::parse(R"({
      "type": "object",
      "properties": {"name": {"type": "string"}, "price": {"type": "string"}},
      "required": ["name"]})").value();
  extraction.prompt = "The product's name and price";
  request.json_options = extraction;
  request.only_main_content = true;

  auto doc = client.scrape(request);
  if (!doc.ok() && doc.error().kind == webdata::ErrorKind::kHttp) {
    // A deployment without a language model may refuse the json format: the page without it.
    std::cout << "json: this deployment cannot extract it (" << doc.error().describe() << ")\n";
    request.formats = std::vector<std::string>{"markdown", "links"};
    request.json_options.reset();
    doc = client.scrape(request);
  }
  if (!doc.ok()) return example::failed("v1 scrape", doc.error());
  std::cout << "title: " << doc->metadata.title.value_or("(none)") << "\n";
  std::cout << "statusCode: " << doc->metadata.status_code.value_or(0) << "\n";
  std::cout << "links: " << (doc->links ? doc->links->size() : 0) << "\n";
  std::cout << "json: "
            << (doc->json
                    ? doc->json->text()
                    : "(none: this deployment extracts no json; it may have no language model)")
            << "\n";
  // v1 documents never carry the v2-only formats.
  if (doc->summary || doc->branding) {
    std::cerr << "unexpected v2 field in a v1 document\n";
    return 1;
  }
  return doc->markdown ? 0 : 1;
}
