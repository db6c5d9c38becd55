#include "search/research_corpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "content/document.hpp"
#include "content/dom.hpp"
#include "content/pipeline.hpp"
#include "content/selector.hpp"
#include "core/text.hpp"
#include "core/url.hpp"
#include "search/page_reader.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::search {

namespace {

using nlohmann::json;
namespace dom = content::dom;

std::optional<content::Document> read_document(const web::VirtualWeb& web, const std::string& url) {
  web::FetchRequest request;
  request.url = url;
  request.timeout = kIndexFetchTimeout;
  web::FetchResult got = web.fetch_deferred(request);
  if (!got.ok || got.status != 200) return std::nullopt;
  return content::Document::parse({got.url, got.content_type, got.status, std::move(got.body)});
}

/// The elements `selector` matches, in document order.
std::vector<const dom::Node*> select_all(const content::Document& doc, const char* selector) {
  const auto list = content::selector::SelectorList::parse(selector);
  std::vector<const dom::Node*> out;
  for (const auto& node : doc.parsed().tree.nodes) {
    if (node.is_element() && list.matches(node)) out.push_back(&node);
  }
  return out;
}

/// The text of each element `selector` matches (whitespace collapsed), empty ones left out.
std::vector<std::string> texts(const content::Document& doc, const char* selector) {
  std::vector<std::string> out;
  for (const dom::Node* node : select_all(doc, selector)) {
    std::string text = dom::collapsed_text(*node);
    if (!text.empty()) out.push_back(std::move(text));
  }
  return out;
}

std::string first_text(const content::Document& doc, const char* selector) {
  auto all = texts(doc, selector);
  return all.empty() ? std::string() : std::move(all.front());
}

std::string first_attr(const content::Document& doc, const char* selector, const char* name) {
  for (const dom::Node* node : select_all(doc, selector)) {
    if (const std::string* value = node->attr(name)) return *value;
  }
  return "";
}

/// The values of a meta tag: Document::metadata() keeps a repeated name as a list.
std::vector<std::string> meta_values(const json& metadata, const char* name) {
  std::vector<std::string> out;
  const auto it = metadata.find(name);
  if (it == metadata.end()) return out;
  if (it->is_string()) out.push_back(it->get<std::string>());
  for (const auto& value : it->is_array() ? *it : json::array()) {
    if (value.is_string()) out.push_back(value.get<std::string>());
  }
  return out;
}

std::string meta_value(const json& metadata, const char* name) {
  auto values = meta_values(metadata, name);
  return values.empty() ? std::string() : std::move(values.front());
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

/// A paper as its page gives it, with the URLs of the papers it cites (made ids once every
/// paper is read).
struct PaperPage {
  Paper paper;
  std::vector<std::string> cited;
};

/// Highwire Press tags (`citation_*`, what scholarly indexes read) for the metadata; the
/// paragraphs of the body section for the passages; the reference list's links.
std::optional<PaperPage> paper_of(const content::Document& doc, const std::string& url) {
  const json metadata = doc.metadata();
  PaperPage page;
  Paper& paper = page.paper;
  paper.title = meta_value(metadata, "citation_title");
  paper.paper_id = meta_value(metadata, "paper_id");
  if (paper.title.empty() || paper.paper_id.empty()) return std::nullopt;
  paper.arxiv = meta_value(metadata, "citation_arxiv_id");
  paper.doi = meta_value(metadata, "citation_doi");
  paper.abstract = meta_value(metadata, "citation_abstract");
  paper.authors = joined(meta_values(metadata, "citation_author"), ", ");
  paper.categories = meta_values(metadata, "citation_keywords");
  paper.created = meta_value(metadata, "citation_publication_date");  // YYYY/MM/DD
  std::replace(paper.created.begin(), paper.created.end(), '/', '-');
  paper.updated = first_attr(doc, "time.revised", "datetime");
  if (paper.updated.empty()) paper.updated = paper.created;
  paper.body = texts(doc, "section.body p");
  paper.url = url;
  for (const dom::Node* link : select_all(doc, "section.references a[href]")) {
    page.cited.push_back(content::absolute_url(doc.parsed(), *link->attr("href")));
  }
  return page;
}

/// The papers by paper id, each citing the ids of the cited pages the corpus holds.
std::vector<Paper> resolve_references(std::vector<PaperPage> pages) {
  std::map<std::string, std::string> id_of_url;
  for (const auto& page : pages) id_of_url[page.paper.url] = page.paper.paper_id;
  std::vector<Paper> papers;
  for (auto& page : pages) {
    for (const auto& url : page.cited) {
      const auto found = id_of_url.find(url);
      if (found != id_of_url.end()) page.paper.references.push_back(found->second);
    }
    papers.push_back(std::move(page.paper));
  }
  // Paper ids are decimal strings: shorter first, then in order.
  std::sort(papers.begin(), papers.end(), [](const Paper& a, const Paper& b) {
    if (a.paper_id.size() != b.paper_id.size()) return a.paper_id.size() < b.paper_id.size();
    return a.paper_id < b.paper_id;
  });
  return papers;
}

Repo repo_of(const content::Document& doc, const std::string& name) {
  Repo repo;
  repo.name = name;
  repo.description = first_text(doc, ".about .description");
  repo.language = first_text(doc, ".facts .language");
  repo.license = first_attr(doc, ".facts .license", "data-spdx");
  repo.stars = std::strtoll(first_attr(doc, ".facts .stars", "data-count").c_str(), nullptr, 10);
  repo.archived = !select_all(doc, ".flag-archived").empty();
  repo.fork = !select_all(doc, ".flag-fork").empty();
  repo.topics = texts(doc, ".topics .topic");
  content::Options readme;
  readme.only_main_content = false;
  readme.include_tags = {"#readme"};
  repo.readme = std::string(trim(doc.markdown(readme)));
  return repo;
}

/// An issue (`issues/<n>`) or pull request (`pull/<n>`) page; nullopt for any other.
std::optional<RepoItem> item_of(const content::Document& doc, const std::string& section,
                                const std::string& number) {
  RepoItem item;
  item.kind = section == "issues" ? "issue" : section == "pull" ? "pull_request" : "";
  item.number = std::strtoll(number.c_str(), nullptr, 10);
  item.title = first_text(doc, ".item-title");
  item.body = joined(texts(doc, ".comment-body p"), "\n\n");
  if (item.kind.empty() || item.number <= 0 || item.title.empty()) return std::nullopt;
  return item;
}

std::vector<std::string> path_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (end > start) out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// The repositories and their issues and pull requests as the code site's pages give them.
struct CodePages {
  std::vector<Repo> repos;
  std::map<std::string, std::vector<RepoItem>> items;  ///< by repository name

  void read(const content::Document& doc, const std::vector<std::string>& segments) {
    if (segments.size() == 2 && !select_all(doc, "#readme").empty()) {
      repos.push_back(repo_of(doc, segments[0] + "/" + segments[1]));
    } else if (segments.size() == 4) {
      if (auto item = item_of(doc, segments[2], segments[3])) {
        items[segments[0] + "/" + segments[1]].push_back(std::move(*item));
      }
    }
  }

  std::vector<Repo> finish() {
    std::sort(repos.begin(), repos.end(), [](const Repo& a, const Repo& b) { return a.name < b.name; });
    for (auto& repo : repos) {
      repo.items = std::move(items[repo.name]);
      std::sort(repo.items.begin(), repo.items.end(),
                [](const RepoItem& a, const RepoItem& b) { return a.number < b.number; });
    }
    return std::move(repos);
  }
};

}  // namespace

ResearchCorpus read_research_corpus(const web::VirtualWeb& web) {
  std::vector<PaperPage> papers;
  CodePages code;
  for (const auto& url : web.known_urls()) {
    const auto parsed = parse_http_url(url);
    if (!parsed || (parsed->host != kPapersHost && parsed->host != kCodeHost)) continue;
    const auto doc = read_document(web, url);
    if (!doc) continue;
    if (parsed->host == kCodeHost) {
      code.read(*doc, path_segments(parsed->path));
    } else if (auto paper = paper_of(*doc, url)) {
      papers.push_back(std::move(*paper));
    }
  }
  return {resolve_references(std::move(papers)), code.finish()};
}

}  // namespace webdata::mock::search
