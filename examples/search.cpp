// Search with sources (web, images, news), categories (github, research, pdf) and query
// operators ("exact phrase", -word, site:, intitle:, filetype:).
//
//   search
#include <iostream>

#include <webdata/webdata.hpp>

namespace {

int print(const char* title, const webdata::Result<webdata::SearchResults>& res) {
  std::cout << "== " << title << "\n";
  if (!res.ok()) {
    std::cerr << res.error().describe() << "\n";
    return 0;
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

}  // namespace

int main() {
  webdata::Client client;
  int found = 0;
  int empty_searches = 0;
  auto run = [&](const char* title, const webdata::SearchRequest& req) {
    const int n = print(title, client.search(req));
    found += n;
    if (n == 0) ++empty_searches;
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
  operators.query = "intitle:pipelines site:docs.example.test -docker";
  run("operators: intitle:, site:, -word", operators);

  webdata::SearchRequest with_content;
  with_content.query = "\"trail kettle\"";
  with_content.limit = 1;
  with_content.scrape_options = webdata::ScrapeOptions{};
  with_content.scrape_options->formats = std::vector<webdata::FormatEntry>{"markdown"};
  auto scraped = client.search(with_content);
  if (scraped.ok() && scraped->web && !scraped->web->empty() && scraped->web->front().markdown) {
    std::cout << "== exact phrase with scrapeOptions: "
              << scraped->web->front().markdown->size() << " characters of markdown\n";
  } else {
    ++empty_searches;
  }
  return found > 0 && empty_searches == 0 ? 0 : 1;
}
