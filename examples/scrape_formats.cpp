// Scrapes one page once per v2 format and shows what each format returns.
//
//   scrape_formats [URL]     default https://www.example.com/ (a page of the mock's virtual web)
//
// Uses $WEBDATA_API_URL and $WEBDATA_API_KEY (the mock: http://127.0.0.1:3002, test-key).
#include <iostream>
#include <string>
#include <vector>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "https://www.example.com/";
  webdata::Client client;

  const auto schema = webdata::Json::parse(R"({
      "type": "object",
      "properties": {"product": {"type": "string"}, "tagline": {"type": "string"}},
      "required": ["product"]})").value();

  // Each entry is the `formats` list of one request. changeTracking compares markdown, so it
  // is asked for together with markdown.
  const std::vector<std::vector<webdata::FormatEntry>> requests = {
      {"markdown"},
      {"summary"},
      {"html"},
      {"rawHtml"},
      {"links"},
      {"images"},
      {webdata::FormatEntry::screenshot(/*full_page=*/true)},
      {webdata::FormatEntry::json_extraction(schema, "The product's name and tagline")},
      {"markdown", webdata::FormatEntry::change_tracking(std::vector<std::string>{"git-diff"})},
      {"branding"},
  };

  int failures = 0;
  for (const auto& formats : requests) {
    webdata::ScrapeRequest request;
    request.url = url;
    request.formats = formats;
    const std::string name = formats.back().type.value();
    auto result = client.scrape(request);
    if (!result.ok()) {
      std::cerr << name << ": " << result.error().describe() << "\n";
      ++failures;
      continue;
    }
    const webdata::Document& doc = *result;
    std::cout << name << ": ";
    if (name == "markdown" && doc.markdown) {
      std::cout << doc.markdown->size() << " characters, starts \""
                << doc.markdown->substr(0, doc.markdown->find('\n')) << "\"";
    } else if (name == "summary" && doc.summary) {
      std::cout << *doc.summary;
    } else if (name == "html" && doc.html) {
      std::cout << doc.html->size() << " characters of cleaned HTML";
    } else if (name == "rawHtml" && doc.raw_html) {
      std::cout << doc.raw_html->size() << " characters as served";
    } else if (name == "links" && doc.links) {
      std::cout << doc.links->size() << " links, first " << doc.links->front();
    } else if (name == "images" && doc.images) {
      std::cout << doc.images->size() << " images";
    } else if (name == "screenshot" && doc.screenshot) {
      std::cout << doc.screenshot->substr(0, doc.screenshot->find(',')) << " ("
                << doc.screenshot->size() << " characters)";
    } else if (name == "json" && doc.json) {
      std::cout << doc.json->text();
    } else if (name == "changeTracking" && doc.change_tracking) {
      std::cout << "changeStatus " << doc.change_tracking->change_status.value()
                << ", visibility " << doc.change_tracking->visibility.value();
    } else if (name == "branding" && doc.branding) {
      std::cout << doc.branding->text().substr(0, 120) << "...";
    } else {
      std::cout << "MISSING from the document";
      ++failures;
    }
    std::cout << "\n";
  }
  return failures == 0 ? 0 : 1;
}
