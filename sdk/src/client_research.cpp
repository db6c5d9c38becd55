// The research paper index, its GitHub slice, developer search, feedback and support ask (v2).
// Answers are read leniently: a member of the wrong type is left at its default.
#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {
namespace {

Call research_post(std::string target, const json& body) {
  Call call;
  call.method = "POST";
  call.target = std::move(target);
  call.body = dump(body);
  return call;
}

/// `target` with `name=value` appended as a query parameter.
void research_param(std::string& target, const std::string& name, const std::string& value) {
  target += (target.find('?') == std::string::npos ? "?" : "&") + name + "=" +
            escape_segment(value);
}

template <class T>
void research_read(const json& j, const char* key, T& out) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception&) {
  }
}

template <class T>
void research_read(const json& j, const char* key, std::optional<T>& out) {
  T value{};
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  research_read(j, key, value);
  out = value;
}

/// The items of array member `key`, each made by `item`.
template <class T, class Item>
std::vector<T> research_items(const json& j, const char* key, Item item) {
  std::vector<T> out;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& element : *it) {
    if (element.is_object()) out.push_back(item(element));
  }
  return out;
}

PaperResult research_paper_result(const json& j) {
  PaperResult out;
  research_read(j, "paperId", out.paper_id);
  research_read(j, "primaryId", out.primary_id);
  research_read(j, "ids", out.ids);
  research_read(j, "title", out.title);
  research_read(j, "abstract", out.abstract);
  research_read(j, "score", out.score);
  if (const auto it = j.find("signals"); it != j.end() && it->is_object()) {
    PaperSignals s;
    research_read(*it, "structural", s.structural);
    research_read(*it, "semantic", s.semantic);
    research_read(*it, "articleRank", s.article_rank);
    research_read(*it, "seedOverlap", s.seed_overlap);
    out.signals = s;
  }
  return out;
}

Paper research_paper(const json& j) {
  Paper out;
  const json paper = j.contains("paper") && j["paper"].is_object() ? j["paper"] : json::object();
  research_read(paper, "paperId", out.paper.paper_id);
  research_read(paper, "ids", out.paper.ids);
  research_read(paper, "title", out.paper.title);
  research_read(paper, "abstract", out.paper.abstract);
  research_read(paper, "authors", out.paper.authors);
  research_read(paper, "categories", out.paper.categories);
  research_read(paper, "createdDate", out.paper.created_date);
  research_read(paper, "updateDate", out.paper.update_date);
  research_read(j, "query", out.query);
  out.passages = research_items<PaperPassage>(j, "passages", [](const json& p) {
    PaperPassage passage;
    research_read(p, "text", passage.text);
    research_read(p, "score", passage.score);
    return passage;
  });
  return out;
}

PaperSearch research_search(const json& j) {
  return PaperSearch{research_items<PaperResult>(j, "results", research_paper_result)};
}

SimilarPapers research_similar(const json& j) {
  SimilarPapers out;
  out.results = research_items<PaperResult>(j, "results", research_paper_result);
  research_read(j, "poolSize", out.pool_size);
  research_read(j, "truncated", out.truncated);
  research_read(j, "note", out.note);
  return out;
}

GithubSearch research_github(const json& j) {
  GithubSearch out;
  out.results = research_items<GithubSearchItem>(j, "results", [](const json& i) {
    GithubSearchItem item;
    research_read(i, "resultType", item.result_type);
    research_read(i, "repo", item.repo);
    research_read(i, "url", item.url);
    research_read(i, "pageType", item.page_type);
    research_read(i, "number", item.number);
    research_read(i, "snippet", item.snippet);
    research_read(i, "contentMd", item.content_md);
    return item;
  });
  research_read(j, "warnings", out.warnings);
  research_read(j, "replacement", out.replacement);
  return out;
}

DeveloperResult research_developer_result(const json& i) {
  DeveloperResult out;
  research_read(i, "id", out.id);
  research_read(i, "url", out.url);
  research_read(i, "title", out.title);
  out.passages = research_items<DeveloperPassage>(i, "passages", [](const json& p) {
    DeveloperPassage passage;
    research_read(p, "text", passage.text);
    research_read(p, "citation_url", passage.citation_url);
    return passage;
  });
  if (const auto it = i.find("license"); it != i.end() && it->is_object()) {
    research_read(*it, "state", out.license_state);
    research_read(*it, "spdx_id", out.license_spdx);
  } else if (it != i.end() && it->is_string()) {
    out.license_spdx = it->get<std::string>();
  }
  return out;
}

FeedbackReceipt research_receipt(const json& j) {
  FeedbackReceipt out;
  research_read(j, "feedbackId", out.feedback_id);
  research_read(j, "creditsRefunded", out.credits_refunded);
  research_read(j, "alreadySubmitted", out.already_submitted);
  research_read(j, "warning", out.warning);
  return out;
}

SupportAnswer research_answer(const json& j) {
  SupportAnswer out;
  research_read(j, "answer", out.answer);
  research_read(j, "jobId", out.job_id);
  research_read(j, "jobType", out.job_type);
  research_read(j, "status", out.status);
  for (const auto& s : research_items<std::string>(j, "sources", [](const json& s) {
         std::string url;
         research_read(s, "url", url);
         return url;
       })) {
    out.sources.push_back(s);
  }
  return out;
}

json research_feedback_body(const FeedbackRequest& r, bool with_job) {
  json body = {{"rating", r.rating}};
  if (with_job) {
    body["endpoint"] = r.endpoint;
    body["jobId"] = r.job_id;
    if (!r.issues.empty()) body["issues"] = r.issues;
    if (!r.tags.empty()) body["tags"] = r.tags;
    if (r.note) body["note"] = *r.note;
    if (r.url) body["url"] = *r.url;
  }
  if (r.query_suggestions) body["querySuggestions"] = *r.query_suggestions;
  if (!r.valuable_sources.empty()) {
    body["valuableSources"] = json::array();
    for (const auto& url : r.valuable_sources) body["valuableSources"].push_back({{"url", url}});
  }
  return body;
}

json research_developer_body(const DeveloperSearchRequest& r) {
  json body = {{"query", r.query}};
  if (r.k) body["k"] = *r.k;
  if (r.passages) body["passages"] = *r.passages;
  const std::pair<const char*, const std::vector<std::string>*> lists[] = {
      {"types", &r.types}, {"repos", &r.repos}, {"sources", &r.sources}, {"topic", &r.topic}};
  for (const auto& [key, list] : lists) {
    if (!list->empty()) body[key] = *list;
  }
  if (r.language) body["language"] = *r.language;
  if (r.license) body["license"] = *r.license;
  if (r.min_stars) body["min_stars"] = *r.min_stars;
  if (r.max_stars) body["max_stars"] = *r.max_stars;
  if (r.archived) body["archived"] = *r.archived;
  if (r.fork) body["fork"] = *r.fork;
  return body;
}

}  // namespace
}  // namespace detail

Result<PaperSearch> Client::search_papers(const SearchPapersRequest& request,
                                          const CallOptions& options) const {
  std::string target = "/v2/search/research/papers";
  detail::research_param(target, "query", request.query);
  if (request.k) detail::research_param(target, "k", std::to_string(*request.k));
  for (const auto& a : request.authors) detail::research_param(target, "authors", a);
  for (const auto& c : request.categories) detail::research_param(target, "categories", c);
  if (request.from) detail::research_param(target, "from", *request.from);
  if (request.to) detail::research_param(target, "to", *request.to);
  return detail::call_and_decode<PaperSearch>(*core_, detail::get(target), options,
                                              "paper search", detail::research_search);
}

Result<Paper> Client::get_paper(const std::string& id, const CallOptions& options) const {
  return detail::call_and_decode<Paper>(
      *core_, detail::get("/v2/search/research/papers/" + detail::escape_segment(id)), options,
      "paper", detail::research_paper);
}

Result<Paper> Client::read_paper(const std::string& id, const std::string& question,
                                 std::optional<std::int64_t> k, const CallOptions& options) const {
  std::string target = "/v2/search/research/papers/" + detail::escape_segment(id);
  detail::research_param(target, "query", question);
  if (k) detail::research_param(target, "k", std::to_string(*k));
  return detail::call_and_decode<Paper>(*core_, detail::get(target), options, "paper read",
                                        detail::research_paper);
}

Result<SimilarPapers> Client::similar_papers(const std::string& id,
                                             const SimilarPapersRequest& request,
                                             const CallOptions& options) const {
  std::string target = "/v2/search/research/papers/" + detail::escape_segment(id) + "/similar";
  detail::research_param(target, "intent", request.intent);
  if (request.mode) detail::research_param(target, "mode", *request.mode);
  if (request.k) detail::research_param(target, "k", std::to_string(*request.k));
  if (request.rerank) detail::research_param(target, "rerank", *request.rerank ? "true" : "false");
  for (const auto& a : request.anchor) detail::research_param(target, "anchor", a);
  return detail::call_and_decode<SimilarPapers>(*core_, detail::get(target), options,
                                                "similar papers", detail::research_similar);
}

Result<GithubSearch> Client::search_github(const std::string& query, std::optional<std::int64_t> k,
                                           const CallOptions& options) const {
  std::string target = "/v2/search/research/github";
  detail::research_param(target, "query", query);
  if (k) detail::research_param(target, "k", std::to_string(*k));
  return detail::call_and_decode<GithubSearch>(*core_, detail::get(target), options,
                                               "github search", detail::research_github);
}

Result<DeveloperSearch> Client::developer_search(const DeveloperSearchRequest& request,
                                                 const CallOptions& options) const {
  return detail::call_and_decode<DeveloperSearch>(
      *core_,
      detail::research_post("/v2/search/developer", detail::research_developer_body(request)),
      options, "developer search", [](const detail::json& j) {
        return DeveloperSearch{detail::research_items<DeveloperResult>(
            j, "results", detail::research_developer_result)};
      });
}

Result<FeedbackReceipt> Client::feedback(const FeedbackRequest& request,
                                         const CallOptions& options) const {
  return detail::call_and_decode<FeedbackReceipt>(
      *core_, detail::research_post("/v2/feedback", detail::research_feedback_body(request, true)),
      options, "feedback", detail::research_receipt);
}

Result<FeedbackReceipt> Client::search_feedback(const std::string& search_id,
                                                const FeedbackRequest& request,
                                                const CallOptions& options) const {
  return detail::call_and_decode<FeedbackReceipt>(
      *core_,
      detail::research_post("/v2/search/" + detail::escape_segment(search_id) + "/feedback",
                            detail::research_feedback_body(request, false)),
      options, "search feedback", detail::research_receipt);
}

Result<SupportAnswer> Client::support_ask(const std::string& question, const std::string& job_id,
                                          const CallOptions& options) const {
  detail::json body = {{"question", question}};
  if (!job_id.empty()) body["jobId"] = job_id;
  return detail::call_and_decode<SupportAnswer>(
      *core_, detail::research_post("/v2/support/ask", body), options, "support ask",
      detail::research_answer);
}

}  // namespace webdata
