#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "search/research.hpp"

// Related papers through the corpus's citation graph: a candidate is linked to a seed when one
// cites the other, when both are cited by the same paper (co-citation) or when they cite the
// same paper (coupling); `citers` and `references` keep only the direct links of that way.

namespace webdata::mock::search {

using nlohmann::json;

namespace {

bool paper_cites(const Paper& from, const std::string& to) {
  return std::find(from.references.begin(), from.references.end(), to) != from.references.end();
}

/// Links between `seed` and `candidate` of `papers` in the traversal `mode`.
int graph_links(const Paper& seed, const Paper& candidate, const std::string& mode,
                const std::vector<Paper>& papers) {
  const bool citer = paper_cites(candidate, seed.paper_id);
  const bool reference = paper_cites(seed, candidate.paper_id);
  if (mode == "citers") return citer ? 1 : 0;
  if (mode == "references") return reference ? 1 : 0;
  int count = (citer ? 1 : 0) + (reference ? 1 : 0);
  for (const auto& ref : seed.references) count += paper_cites(candidate, ref) ? 1 : 0;
  for (const auto& other : papers) {
    count += paper_cites(other, seed.paper_id) && paper_cites(other, candidate.paper_id) ? 1 : 0;
  }
  return count;
}

/// The share of the corpus that cites `paper` (its rank in the citation graph).
double paper_article_rank(const Paper& paper, const std::vector<Paper>& papers) {
  double citers = 0;
  for (const auto& other : papers) citers += paper_cites(other, paper.paper_id) ? 1 : 0;
  return citers / double(papers.size());
}

struct SimilarCandidate {
  const Paper* paper = nullptr;
  double structural = 0;
  int seeds = 0;
};

std::vector<SimilarCandidate> similar_candidates(const std::vector<const Paper*>& seeds,
                                                const std::string& mode,
                                                const std::vector<Paper>& papers) {
  std::vector<SimilarCandidate> out;
  for (const auto& paper : papers) {
    const bool is_seed = std::any_of(seeds.begin(), seeds.end(),
                                     [&](const Paper* s) { return s->paper_id == paper.paper_id; });
    if (is_seed) continue;
    SimilarCandidate candidate{&paper, 0, 0};
    for (const Paper* seed : seeds) {
      const int count = graph_links(*seed, paper, mode, papers);
      candidate.structural += count;
      candidate.seeds += count > 0 ? 1 : 0;
    }
    if (candidate.seeds > 0) out.push_back(candidate);
  }
  return out;
}

}  // namespace

std::optional<json> ResearchService::similar(const std::string& ref,
                                             const requests::ResearchSimilarRequest& request) const {
  const Paper* seed = find_paper(ref);
  if (seed == nullptr) return std::nullopt;
  std::vector<const Paper*> seeds{seed};
  for (const auto& anchor : request.anchor.value_or(std::vector<std::string>{})) {
    if (const Paper* more = find_paper(anchor)) seeds.push_back(more);
  }
  const auto terms = ranking_terms(request.intent);
  std::vector<std::pair<double, json>> scored;
  for (const auto& c : similar_candidates(seeds, request.mode, corpus_.papers)) {
    const std::size_t doc = std::size_t(c.paper - corpus_.papers.data());
    const double semantic = papers_.bm25(doc, terms);
    const double rank = paper_article_rank(*c.paper, corpus_.papers);
    json result = {{"paperId", c.paper->paper_id}, {"title", c.paper->title},
                   {"abstract", c.paper->abstract}};
    result["primaryId"] = c.paper->arxiv.empty() ? "doi:" + c.paper->doi : "arxiv:" + c.paper->arxiv;
    result["score"] = research_score(c.structural + semantic + rank);
    result["signals"] = {{"structural", c.structural}, {"semantic", research_score(semantic)},
                         {"articleRank", research_score(rank)}, {"seedOverlap", c.seeds}};
    scored.emplace_back(c.structural + semantic + rank, std::move(result));
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  json results = json::array();
  for (std::size_t i = 0; i < scored.size() && i < std::size_t(request.k); ++i) {
    results.push_back(scored[i].second);
  }
  json out = {{"success", true},
              {"results", results},
              {"poolSize", scored.size()},
              {"truncated", scored.size() > std::size_t(request.k)},
              {"note", nullptr}};
  if (scored.empty()) out["note"] = "No related papers were found through the citation graph.";
  return out;
}

}  // namespace webdata::mock::search
