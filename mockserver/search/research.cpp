#include "search/research.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/text.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

std::vector<PageRecord> research_paper_pages(const std::vector<Paper>& papers) {
  std::vector<PageRecord> pages;
  for (const auto& paper : papers) {
    PageRecord page;
    page.url = paper.url;
    page.host = kPapersHost;
    page.title = paper.title;
    page.description = paper.abstract;
    page.text = paper.abstract;
    pages.push_back(std::move(page));
  }
  return pages;
}

std::string research_code_url(const Repo& repo, const ResearchService::CodeDoc& doc) {
  std::string url = std::string("https://") + kCodeHost + "/" + repo.name;
  if (doc.kind == "readme") return url;
  return url + (doc.kind == "issue" ? "/issues/" : "/pull/") + std::to_string(doc.number);
}

std::vector<ResearchService::CodeDoc> research_code_docs(const std::vector<Repo>& repos) {
  std::vector<ResearchService::CodeDoc> docs;
  for (std::size_t r = 0; r < repos.size(); ++r) {
    docs.push_back({r, "readme", 0});
    for (const auto& item : repos[r].items) docs.push_back({r, item.kind, item.number});
  }
  return docs;
}

const RepoItem* research_item_of(const Repo& repo, const ResearchService::CodeDoc& doc) {
  for (const auto& item : repo.items) {
    if (item.number == doc.number) return &item;
  }
  return nullptr;
}

std::vector<PageRecord> research_code_pages(const std::vector<Repo>& repos,
                                           const std::vector<ResearchService::CodeDoc>& docs) {
  std::vector<PageRecord> pages;
  for (const auto& doc : docs) {
    const Repo& repo = repos[doc.repo];
    PageRecord page;
    page.url = research_code_url(repo, doc);
    page.host = kCodeHost;
    if (const RepoItem* item = research_item_of(repo, doc)) {
      page.title = repo.name + " #" + std::to_string(item->number) + ": " + item->title;
      page.text = item->body;
    } else {
      page.title = repo.name + ": " + repo.description;
      page.text = repo.readme;
    }
    pages.push_back(std::move(page));
  }
  return pages;
}

bool research_contains_ci(const std::string& haystack, const std::string& needle) {
  return to_lower(haystack).find(to_lower(needle)) != std::string::npos;
}

/// The paper passes the search's author, category and date filters.
bool paper_passes_filters(const Paper& paper, const requests::ResearchPapersRequest& request) {
  for (const auto& author : request.authors.value_or(std::vector<std::string>{})) {
    if (!research_contains_ci(paper.authors, author)) return false;
  }
  for (const auto& category : request.categories.value_or(std::vector<std::string>{})) {
    if (std::find(paper.categories.begin(), paper.categories.end(), category) ==
        paper.categories.end()) {
      return false;
    }
  }
  if (request.from && paper.created < *request.from) return false;
  return !(request.to && paper.created.substr(0, request.to->size()) > *request.to);
}

json paper_id_map(const Paper& paper) {
  json ids = json::object();
  if (!paper.arxiv.empty()) ids["arxiv"] = json::array({paper.arxiv});
  if (!paper.doi.empty()) ids["doi"] = json::array({paper.doi});
  return ids;
}

std::string paper_primary_id(const Paper& paper) {
  return paper.arxiv.empty() ? "doi:" + paper.doi : "arxiv:" + paper.arxiv;
}

json paper_result(const Paper& paper, double score) {
  return {{"paperId", paper.paper_id}, {"primaryId", paper_primary_id(paper)}, {"ids", paper_id_map(paper)},
          {"title", paper.title},      {"abstract", paper.abstract},   {"score", research_score(score)}};
}

json paper_metadata(const Paper& paper) {
  return {{"paperId", paper.paper_id}, {"ids", paper_id_map(paper)},
          {"title", paper.title},      {"abstract", paper.abstract},
          {"authors", paper.authors},  {"categories", paper.categories},
          {"createdDate", paper.created}, {"updateDate", paper.updated}};
}

/// (score, index) pairs best first, ties by index.
void rank_scored(std::vector<std::pair<double, std::size_t>>& scored) {
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
}

}  // namespace

double research_score(double score) { return std::round(score * 10000.0) / 10000.0; }

std::vector<std::string> ranking_terms(const std::string& text) {
  std::vector<std::string> terms;
  for (auto& term : tokenize(text)) {
    if (is_stop_word(term) || std::find(terms.begin(), terms.end(), term) != terms.end()) continue;
    terms.push_back(std::move(term));
  }
  return terms;
}

json best_passages(const std::vector<std::string>& passages, const std::vector<std::string>& terms,
                   std::size_t count) {
  std::vector<std::pair<double, std::size_t>> scored;
  for (std::size_t i = 0; i < passages.size(); ++i) {
    const auto words = tokenize(passages[i]);
    std::size_t shared = 0;
    for (const auto& term : terms) shared += std::count(words.begin(), words.end(), term) > 0;
    if (shared > 0) scored.emplace_back(double(shared) / double(terms.size()), i);
  }
  rank_scored(scored);
  json out = json::array();
  for (std::size_t i = 0; i < scored.size() && i < count; ++i) {
    out.push_back({{"text", passages[scored[i].second]}, {"score", research_score(scored[i].first)}});
  }
  return out;
}

ResearchService::ResearchService(SearchService& search)
    : search_(search), corpus_(read_research_corpus(search.web())),
      papers_(research_paper_pages(corpus_.papers)), code_docs_(research_code_docs(corpus_.repos)),
      code_(research_code_pages(corpus_.repos, code_docs_)) {}

const Paper* ResearchService::find_paper(const std::string& ref) const {
  std::string key = ref;
  if (const auto abs = key.find("/abs/"); abs != std::string::npos) key = "arxiv:" + key.substr(abs + 5);
  for (const auto& paper : corpus_.papers) {
    if (key == paper.paper_id || ref == paper.url) return &paper;
    if (!paper.arxiv.empty() && (key == paper.arxiv || key == "arxiv:" + paper.arxiv)) return &paper;
    if (!paper.doi.empty() && to_lower(key) == "doi:" + paper.doi) return &paper;
  }
  return nullptr;
}

json ResearchService::search_papers(const requests::ResearchPapersRequest& request) const {
  const auto terms = ranking_terms(request.query);
  std::vector<std::pair<double, std::size_t>> scored;
  for (std::size_t i = 0; i < corpus_.papers.size(); ++i) {
    const double score = papers_.bm25(i, terms);
    if (score > 0 && paper_passes_filters(corpus_.papers[i], request)) scored.emplace_back(score, i);
  }
  rank_scored(scored);
  json results = json::array();
  for (std::size_t i = 0; i < scored.size() && i < std::size_t(request.k); ++i) {
    results.push_back(paper_result(corpus_.papers[scored[i].second], scored[i].first));
  }
  return {{"success", true}, {"results", results}};
}

std::optional<json> ResearchService::paper(const std::string& ref,
                                           const requests::ResearchPaperRequest& request) const {
  const Paper* paper = find_paper(ref);
  if (paper == nullptr) return std::nullopt;
  json out = {{"success", true}, {"paper", paper_metadata(*paper)}};
  if (!request.query) return out;
  out["paperId"] = paper->paper_id;
  out["query"] = *request.query;
  out["passages"] = best_passages(paper->body, ranking_terms(*request.query), std::size_t(request.k));
  return out;
}

}  // namespace webdata::mock::search
