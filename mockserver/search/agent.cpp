#include <algorithm>
#include <set>

#include "search/schema_fill.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

// The agent (wire-decisions section 6): pick pages for the prompt, score their sentences
// against it, answer with the best passages and cite the pages they came from.

namespace webdata::mock::search {

namespace {

constexpr std::size_t kPagesToRead = 3;
constexpr std::size_t kPassages = 5;
constexpr std::size_t kPassagesPerPage = 3;

struct Passage {
  std::size_t page = 0;   ///< Into the pages read.
  std::size_t order = 0;  ///< Position in its page.
  double score = 0;
  std::string text;
};

/// The prompt's words that say something, each once.
std::vector<std::string> prompt_terms(const std::string& prompt) {
  std::vector<std::string> terms;
  for (auto& term : tokenize(prompt)) {
    if (!is_stop_word(term) && std::find(terms.begin(), terms.end(), term) == terms.end()) {
      terms.push_back(std::move(term));
    }
  }
  return terms;
}

}  // namespace

std::vector<std::string> SearchService::agent_pages(const AgentRequest& request,
                                                    std::chrono::steady_clock::time_point* due) {
  const auto idx = index();
  const std::vector<std::string> terms = prompt_terms(request.prompt);
  const std::size_t budget =
      request.max_credits ? static_cast<std::size_t>(*request.max_credits) : kPagesToRead;
  std::vector<std::string> pages;
  if (!request.urls.empty()) {
    // The given URLs that can be read (from the index, else fetched).
    for (const auto& url : request.urls) {
      if (pages.size() >= budget) break;
      if (idx->find(url) || read_page(url, "", due)) pages.push_back(url);
    }
    return pages;
  }
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t d = 0; d < idx->size(); ++d) {
    const double score = idx->bm25(d, terms);
    if (score > 0) ranked.emplace_back(score, d);
  }
  std::sort(ranked.begin(), ranked.end(), [&idx](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first
                              : idx->page(a.second).url < idx->page(b.second).url;
  });
  // Pages far below the best one are noise: read those within a third of its score.
  for (const auto& [score, doc] : ranked) {
    if (pages.size() >= std::min(budget, kPagesToRead)) break;
    if (score < ranked.front().first / 3) break;
    pages.push_back(idx->page(doc).url);
  }
  return pages;
}

AgentAnswer SearchService::agent(const AgentRequest& request,
                                 std::chrono::steady_clock::time_point* due) {
  return agent_answer(request, agent_pages(request, due), due);
}

AgentAnswer SearchService::agent_answer(const AgentRequest& request,
                                        const std::vector<std::string>& urls,
                                        std::chrono::steady_clock::time_point* due) {
  AgentAnswer answer;
  const auto idx = index();
  const std::vector<std::string> terms = prompt_terms(request.prompt);
  std::vector<PageRecord> outside;  // pages not in the index, kept alive here
  outside.reserve(urls.size());
  std::vector<const PageRecord*> pages;
  for (const auto& url : urls) {
    if (auto doc = idx->find(url)) {
      pages.push_back(&idx->page(*doc));
    } else if (auto page = read_page(url, "", due)) {
      outside.push_back(std::move(*page));
      pages.push_back(&outside.back());
    }
  }
  answer.pages_read = static_cast<std::int64_t>(pages.size());

  // Sentences scored by the prompt words they contain, weighted by rarity.
  std::vector<Passage> passages;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const auto sentences = split_sentences(pages[p]->text);
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      const auto words = tokenize(sentences[s]);
      double score = 0;
      for (const auto& term : terms) {
        if (std::find(words.begin(), words.end(), term) != words.end()) score += 1 + idx->idf(term);
      }
      // Headings and fragments say little on their own.
      if (words.size() < 5) score *= 0.5;
      if (score > 0)
        passages.push_back({p, s, score - 0.01 * static_cast<double>(p), sentences[s]});
    }
  }
  std::sort(passages.begin(), passages.end(), [](const Passage& a, const Passage& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.page != b.page ? a.page < b.page : a.order < b.order;
  });
  std::vector<Passage> chosen;
  std::vector<std::size_t> per_page(pages.size(), 0);
  std::set<std::string> seen;
  for (const auto& passage : passages) {
    if (chosen.size() >= kPassages) break;
    if (per_page[passage.page] >= kPassagesPerPage || !seen.insert(passage.text).second) continue;
    ++per_page[passage.page];
    chosen.push_back(passage);
  }
  // With explicit URLs and no matching sentence, the pages' openings answer.
  if (chosen.empty() && !request.urls.empty()) {
    for (std::size_t p = 0; p < pages.size(); ++p) {
      const auto sentences = split_sentences(pages[p]->text);
      for (std::size_t s = 0; s < sentences.size() && s < 2; ++s)
        chosen.push_back({p, s, 0, sentences[s]});
    }
  }

  Evidence evidence;
  std::vector<bool> cited(pages.size(), false);
  for (const auto& passage : chosen) {
    if (!answer.result.empty()) answer.result += ' ';
    answer.result += passage.text;
    evidence.passages.push_back(passage.text);
    if (!cited[passage.page]) {
      cited[passage.page] = true;
      answer.sources.push_back(pages[passage.page]->url);
      evidence.pages.push_back(pages[passage.page]);
    }
  }
  if (answer.result.empty()) {
    answer.result = pages.empty()
                        ? "No page of the web this mock serves matches the prompt."
                        : "The pages read do not contain information matching the prompt.";
  }
  evidence.answer = answer.result;
  if (request.schema.is_object()) answer.object = fill_schema(request.schema, evidence);
  return answer;
}

}  // namespace webdata::mock::search
