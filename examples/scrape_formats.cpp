// Scrapes one page once per v2 format and shows what each format returns. A format the
// deployment cannot make (json, summary and branding need a language model, screenshot a
// browser) is said in one line; only a page that cannot be scraped at all is a failure.
//
//   scrape_formats URL
//
// Uses $WEBDATA_API_URL and $WEBDATA_API_KEY (the mock: http://127.0.0.1:3002, test-key).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "example_support.hpp"

namespace {

// What the document holds of format `name`, in a few words; nullopt when it holds nothing.
std::optional<std::string> shown(const std::string& name, const webdata::Document& doc) {
  if (name == "markdown" && doc.markdown) {
    return std::to_string(doc.markdown->size()) + " characters, starts \"" +
           doc.markdown->substr(0, doc.markdown->find('\n')) + "\"";
  }
  if (name == "summary" && doc.summary) return *doc.summary;
  if (name == "html" && doc.html) {
    return std::to_string(doc.html->size()) + " characters of cleaned HTML";
  }
  if (name == "rawHtml" && doc.raw_html) {
    return std::to_string(doc.raw_html->size()) + " characters as served";
  }
  if (name == "links" && doc.links && !doc.links->empty()) {
    return std::to_string(doc.links->size()) + " links, first " + doc.links->front();
  }
  if (name == "images" && doc.images) return std::to_string(doc.images->size()) + " images";
  if (name == "screenshot" && doc.screenshot) {
    return doc.screenshot->substr(0, doc.screenshot->find(',')) + " (" +
           std::to_string(doc.screenshot->size()) + " characters)";
  }
  if (name == "json" && doc.json) return doc.json->text();
  if (name == "changeTracking" && doc.change_tracking) {
    return "changeStatus " + doc.change_tracking->change_status.value() + ", visibility " +
           doc.change_tracking->visibility.value();
  }
  if (name == "branding" && doc.branding) return doc.branding->text().substr(0, 120) + "...";
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("scrape_formats URL");
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

  for (const auto& formats : requests) {
    webdata::ScrapeRequest request;
    request.url = url;
    request.formats = formats;
    const std::string name = formats.back().type.value();
    auto result = client.scrape(request);
    if (!result.ok() && name == "markdown") return example::failed("scrape", result.error());
    if (!result.ok()) {
      std::cout << name << ": this deployment cannot give it (" << result.error().describe()
                << ")\n";
      continue;
    }
    const auto what = shown(name, *result);
    std::cout << name << ": "
              << what.value_or("not in the answer: this deployment does not make it" +
                               (result->warning ? " (" + *result->warning + ")" : std::string()))
              << "\n";
  }
  return 0;
}
