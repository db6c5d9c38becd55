// Scrapes one URL and prints its markdown and metadata.
//
//   scrape URL       against $WEBDATA_API_URL (default http://127.0.0.1:3002)
//                    with $WEBDATA_API_KEY (default test-key)
#include <cstdlib>
#include <iostream>
#include <string>

#include "example_support.hpp"

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

void show(const char* label, const std::optional<std::string>& value) {
  if (value) std::cout << "  " << label << ": " << *value << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string url = example::target(argc, argv);
  if (url.empty()) return example::usage("scrape URL");
  webdata::Client client(env_or("WEBDATA_API_URL", "http://127.0.0.1:3002"),
                         env_or("WEBDATA_API_KEY", "test-key"));

  webdata::ScrapeRequest request;
  request.url = url;
  request.formats = {"markdown"};

  webdata::CallOptions call;
  call.timeout = std::chrono::seconds(60);
  auto result = client.scrape(request, call);
  if (!result.ok()) {
    std::cerr << "scrape failed: " << result.error().describe() << "\n";
    if (!result.error().details.empty()) std::cerr << result.error().details << "\n";
    return 1;
  }
  const webdata::Document& doc = *result;
  const webdata::Metadata& meta = doc.metadata;
  std::cout << "metadata:\n";
  show("title", meta.title);
  show("description", meta.description);
  show("language", meta.language);
  if (meta.status_code) std::cout << "  statusCode: " << *meta.status_code << "\n";
  show("sourceURL", meta.source_url);
  show("url", meta.url);
  show("contentType", meta.content_type);
  show("error", meta.error);
  for (const auto& [key, value] : meta.extras) {
    if (const auto* text = std::get_if<std::string>(&value))
      std::cout << "  " << key << ": " << *text << "\n";
  }
  if (doc.warning) std::cout << "warning: " << *doc.warning << "\n";
  std::cout << "\nmarkdown:\n" << doc.markdown.value_or("(none)") << "\n";
  return 0;
}
