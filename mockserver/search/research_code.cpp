#include <algorithm>
#include <cmath>

#include "core/text.hpp"
#include "search/research.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

// The GitHub slice of the research index (deprecated by the service, still answering with its
// warning) and developer search: the corpus's repositories plus the virtual web's documentation
// pages (the search engine's `developer` category), ranked together.

namespace webdata::mock::search {

using nlohmann::json;

namespace {

constexpr const char* kGithubDeprecation =
    "The research index GitHub search is deprecated; use POST /v2/search/developer instead.";

bool research_listed(const std::optional<std::vector<std::string>>& list, const std::string& value) {
  if (!list) return true;
  return std::any_of(list->begin(), list->end(),
                     [&](const std::string& x) { return to_lower(x) == to_lower(value); });
}

/// The repository passes the developer search's repository filters.
bool repo_passes(const Repo& repo, const requests::DeveloperSearchRequest& r) {
  if (!research_listed(r.repos, repo.name)) return false;
  if (r.language && to_lower(*r.language) != to_lower(repo.language)) return false;
  if (r.license && to_lower(*r.license) != to_lower(repo.license)) return false;
  for (const auto& topic : r.topic.value_or(std::vector<std::string>{})) {
    if (std::find(repo.topics.begin(), repo.topics.end(), to_lower(topic)) == repo.topics.end()) {
      return false;
    }
  }
  if (r.min_stars && repo.stars < *r.min_stars) return false;
  if (r.max_stars && repo.stars > *r.max_stars) return false;
  if (r.archived && *r.archived != repo.archived) return false;
  return !(r.fork && *r.fork != repo.fork);
}

bool repo_filters_set(const requests::DeveloperSearchRequest& r) {
  return r.repos || r.language || r.license || r.topic || r.min_stars || r.max_stars ||
         r.archived || r.fork;
}

json repo_license(const Repo& repo) {
  if (repo.license.empty()) return {{"state", "known_absent"}, {"spdx_id", nullptr}};
  return {{"state", "licensed"}, {"spdx_id", repo.license}};
}

struct CodeHit {
  double score = 0;
  json result;
};

void sort_code_hits(std::vector<CodeHit>& hits) {
  std::stable_sort(hits.begin(), hits.end(), [](const CodeHit& a, const CodeHit& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.result["url"].get<std::string>() < b.result["url"].get<std::string>();
  });
}

json developer_result(const std::string& id, const PageRecord& page, const json& passages) {
  json result = {{"id", id}, {"url", page.url}, {"title", page.title}, {"passages", json::array()}};
  for (const auto& passage : passages) {
    result["passages"].push_back({{"text", passage["text"]}, {"citation_url", page.url}});
  }
  return result;
}

json repo_statuses(const std::vector<Repo>& repos, const std::vector<std::string>& names) {
  json out = json::array();
  for (const auto& name : names) {
    const auto it = std::find_if(repos.begin(), repos.end(),
                                 [&](const Repo& r) { return to_lower(r.name) == to_lower(name); });
    const auto has = [&](const char* kind) {
      return it != repos.end() && std::any_of(it->items.begin(), it->items.end(),
                                              [&](const RepoItem& i) { return i.kind == kind; });
    };
    out.push_back({{"repo", name},
                   {"indexed", it != repos.end()},
                   {"types", {{"issue", has("issue")},
                              {"pullRequest", has("pull_request")},
                              {"readme", it != repos.end()}}}});
  }
  return out;
}

}  // namespace

json ResearchService::search_github(const requests::ResearchGithubRequest& request) const {
  const auto terms = ranking_terms(request.query);
  std::vector<CodeHit> hits;
  for (std::size_t doc = 0; doc < code_docs_.size(); ++doc) {
    const double score = code_.bm25(doc, terms);
    if (score <= 0) continue;
    const CodeDoc& code = code_docs_[doc];
    const PageRecord& page = code_.page(doc);
    json item = {{"repo", corpus_.repos[code.repo].name},
                 {"url", page.url},
                 {"snippet", clip(page.text, 200)},
                 {"contentMd", page.text},
                 {"scores", {{"lexical", research_score(score)}}}};
    if (code.kind == "readme") {
      item["resultType"] = "repo_readme";
      item["readmeUrl"] = page.url + "#readme";
    } else {
      item["resultType"] = "github_history";
      item["pageType"] = code.kind == "issue" ? "issue" : "pull";
      item["number"] = code.number;
      item["segmentCount"] = 1;
    }
    hits.push_back({score, std::move(item)});
  }
  sort_code_hits(hits);
  json results = json::array();
  for (std::size_t i = 0; i < hits.size() && i < std::size_t(request.k); ++i) {
    results.push_back(hits[i].result);
  }
  return {{"success", true},
          {"results", results},
          {"warnings", json::array({kGithubDeprecation})},
          {"replacement", "/v2/search/developer"}};
}

json ResearchService::developer(const requests::DeveloperSearchRequest& request) const {
  const auto terms = ranking_terms(request.query);
  const auto count = std::size_t(request.passages);
  std::vector<CodeHit> hits;
  const bool skills_only = request.skills.has_value();  // the corpus packages no agent skills
  for (std::size_t doc = 0; doc < code_docs_.size() && !skills_only; ++doc) {
    const CodeDoc& code = code_docs_[doc];
    const Repo& repo = corpus_.repos[code.repo];
    const double score = code_.bm25(doc, terms);
    if (score <= 0 || !research_listed(request.types, code.kind) || !repo_passes(repo, request)) continue;
    const PageRecord& page = code_.page(doc);
    const std::string id = code.kind + ":" + repo.name +
                           (code.number ? "#" + std::to_string(code.number) : std::string());
    json result = developer_result(id, page, best_passages(split_sentences(page.text), terms, count));
    result["license"] = repo_license(repo);
    hits.push_back({score, std::move(result)});
  }
  const bool docs_wanted = research_listed(request.types, "doc") && !repo_filters_set(request);
  const auto index = docs_wanted && !skills_only ? search_.index() : nullptr;
  for (std::size_t doc = 0; index && doc < index->size(); ++doc) {
    const PageRecord& page = index->page(doc);
    const double score = index->bm25(doc, terms);
    if (score <= 0 || !in_category(page, "developer") || !research_listed(request.sources, page.host)) continue;
    json result = developer_result("doc:" + page.url, page, best_passages(index->sentences(doc), terms, count));
    result["license"] = {{"state", "unknown"}, {"spdx_id", nullptr}};
    hits.push_back({score, std::move(result)});
  }
  sort_code_hits(hits);
  json out = {{"success", true}, {"results", json::array()}};
  for (std::size_t i = 0; i < hits.size() && i < std::size_t(request.k); ++i) {
    out["results"].push_back(hits[i].result);
  }
  if (request.repos) out["repos"] = repo_statuses(corpus_.repos, *request.repos);
  if (request.sources) {
    out["sources"] = json::array();
    for (const auto& source : *request.sources) {
      const bool indexed = index && std::any_of(index->pages().begin(), index->pages().end(),
                                                [&](const PageRecord& p) { return p.host == source; });
      out["sources"].push_back({{"source", source}, {"indexed", indexed}});
    }
  }
  return out;
}

}  // namespace webdata::mock::search
