// Search with sources (web, images, news), categories (github, research, pdf) and query
// operators ("exact phrase", -word, site:, intitle:, filetype:). A deployment without a search
// provider finds nothing: it is said so, in one line, and is not a failure.
//
//   search URL     a site, for the `site:` operator
#include <iostream>

#include "example_support.hpp"

namespace {

// The results found, printed; -1 when the search failed.
int print(const std::string& title, const webdata::Result<webdata::SearchResults>& res) {
  std::cout << "== " << title << "\n";
  if (!res.ok()) {
    std::cerr << res.error().describe() << "\n";
    return -1;
  }
  int n = 0;
  for (const auto& r : res->web.value_or(std::vector<webdata::WebResult>{})) {
    std::cout << "web    " << r.url << "  " << r.title.value_or("");
    if (r.category) std::cout << "  [" << *r.category << "]";
    std::cout << "\n";
    ++n;
  }
  for (const auto& r : res->images.value_or(std::vector<webdata::ImageResult>{})) {
    std::cout << "image  " << r.image_url.value_or("") << "  " << r.image_width.value_or(0) << "x"
              << r.image_height.value_or(0) << "\n";
    ++n;
  }
  for (const auto& r : res->news.value_or(std::vector<webdata::NewsResult>{})) {
    std::cout << "news   " << r.url.value_or("") << "  " << r.date.value_or("") << "\n";
    ++n;
  }
  return n;
}

// "docs.example.test" of "https://docs.example.test/guide/".
std::string host_of(const std::string& url) {
  const auto start = url.find("://") == std::string::npos ? 0 : url.find("://") + 3;
  return url.substr(start, url.find_first_of("/:?#", start) - start);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string site = example::target(argc, argv);
  if (site.empty()) return example::usage("search URL");
  webdata::Client client;
  int found = 0;
  int failed = 0;
  auto run = [&](const std::string& title, const webdata::SearchRequest& req) {
    const int n = print(title, client.search(req));
    if (n < 0) ++failed;
    found += std::max(n, 0);
  };

  webdata::SearchRequest sources;
  sources.query = "harbour";
  sources.sources = std::vector<webdata::SearchSource>{webdata::SearchSource::web(),
                                                       webdata::SearchSource::images(),
                                                       webdata::SearchSource::news()};
  sources.limit = 3;
  run("sources: web, images, news", sources);

  webdata::SearchRequest categories;
  categories.query = "river level";
  categories.categories = std::vector<webdata::SearchCategory>{
      webdata::SearchCategory::github(), webdata::SearchCategory::research()};
  run("categories: github, research", categories);

  webdata::SearchRequest operators;
  operators.query = "intitle:pipelines site:" + host_of(site) + " -docker";
  run("operators: intitle:, site:, -word", operators);

  webdata::SearchRequest with_content;
  with_content.query = "\"trail kettle\"";
  with_content.limit = 1;
  with_content.scrape_options = webdata::ScrapeOptions{};
  with_content.scrape_options->formats = std::vector<webdata::FormatEntry>{"markdown"};
  auto scraped = client.search(with_content);
  if (!scraped.ok()) ++failed;
  if (scraped.ok() && scraped->web && !scraped->web->empty() && scraped->web->front().markdown) {
    std::cout << "== exact phrase with scrapeOptions: "
              << scraped->web->front().markdown->size() << " characters of markdown\n";
  }
  if (found == 0 && failed == 0) {
    std::cout << "this deployment found nothing: it may have no search provider\n";
  }
  return failed == 0 ? 0 : 1;
}
