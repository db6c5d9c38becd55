// The v1 API: scrape with v1 options (formats as strings, jsonOptions) through webdata::v1::Client.
//
//   scrape_v1 [URL]     default https://shop.example.test/products/trail-kettle
#include <iostream>
#include <string>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  webdata::v1::Client client;  // $WEBDATA_API_URL, $WEBDATA_API_KEY

  webdata::v1::ScrapeRequest request;
  request.url = argc > 1 ? argv[1] : "https://shop.example.test/products/trail-kettle";
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
  if (!doc.ok()) {
    std::cerr << "v1 scrape failed: " << doc.error().describe() << "\n";
    return 1;
  }
  std::cout << "title: " << doc->metadata.title.value_or("(none)") << "\n";
  std::cout << "statusCode: " << doc->metadata.status_code.value_or(0) << "\n";
  std::cout << "links: " << (doc->links ? doc->links->size() : 0) << "\n";
  std::cout << "json: " << (doc->json ? doc->json->text() : "(none)") << "\n";
  // v1 documents never carry the v2-only formats.
  if (doc->summary || doc->branding) {
    std::cerr << "unexpected v2 field in a v1 document\n";
    return 1;
  }
  return doc->markdown && doc->json ? 0 : 1;
}
