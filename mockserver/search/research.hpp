#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/requests.hpp"
#include "search/index.hpp"
#include "search/research_corpus.hpp"

namespace webdata::mock::search {

class SearchService;

/// The research routes over the corpus the virtual web holds (research_corpus.hpp, read once
/// when the service is made) and developer search over that corpus's repositories and the
/// virtual web's documentation pages. Ranking is the search engine's BM25 (Index) with ties
/// broken by id, so every answer is deterministic. Answers are the service's wire shapes.
/// Thread-safe (immutable after construction; the docs index is the search service's snapshot).
class ResearchService {
 public:
  explicit ResearchService(SearchService& search);

  const ResearchCorpus& corpus() const { return corpus_; }

  nlohmann::json search_papers(const requests::ResearchPapersRequest& request) const;
  /// Metadata, or with `query` the passages that answer it; nullopt for an unknown paper.
  std::optional<nlohmann::json> paper(const std::string& ref,
                                      const requests::ResearchPaperRequest& request) const;
  /// Related papers through the citation graph; nullopt for an unknown seed.
  std::optional<nlohmann::json> similar(const std::string& ref,
                                        const requests::ResearchSimilarRequest& request) const;
  nlohmann::json search_github(const requests::ResearchGithubRequest& request) const;
  nlohmann::json developer(const requests::DeveloperSearchRequest& request) const;

  /// The paper a reference names: its paperId, `arxiv:`/`doi:` keys, a bare arXiv id, or an
  /// arXiv-style URL (`/abs/<id>`); nullptr when none.
  const Paper* find_paper(const std::string& ref) const;

  /// One readme, issue or pull request of the corpus as the code index holds it.
  struct CodeDoc {
    std::size_t repo = 0;
    std::string kind;  ///< readme | issue | pull_request
    std::int64_t number = 0;
  };

 private:
  SearchService& search_;
  ResearchCorpus corpus_;
  Index papers_;
  std::vector<CodeDoc> code_docs_;
  Index code_;
};

/// A score as answers show it (4 decimals).
double research_score(double score);
/// The terms of a query that rank (tokenized, no stop words, each once).
std::vector<std::string> ranking_terms(const std::string& text);
/// The `count` passages of `passages` sharing the most terms with `terms`, best first (ties in
/// order), each with its share of the terms as `score`; passages sharing none are left out.
nlohmann::json best_passages(const std::vector<std::string>& passages,
                             const std::vector<std::string>& terms, std::size_t count);

}  // namespace webdata::mock::search
