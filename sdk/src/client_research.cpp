// The research paper index, its GitHub slice, developer search, feedback and support ask (v2).
// Answers are read tolerantly (codec.hpp's Reader): unknown members go to `extras`, a member of
// the wrong type to `extras` and a line of `diagnostics`.
#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {
namespace detail {

namespace {

/// `license` is `{state, spdx_id}`, or the SPDX id alone; the object's other members are kept
/// as "license.<key>".
void read_license(Reader& io, DeveloperResult& r) {
  io.custom("license", r.license_spdx, [&r](const json& v, const Path& p) {
    if (v.is_string()) {
      r.license_spdx = v.get<std::string>();
      return;
    }
    Reader license(v, p);
    license("state", r.license_state);
    license("spdx_id", r.license_spdx);
    license.rest_under("license", r.extras);
  });
}

/// `sources` of a support answer: the URL of each, the rest of a source's object passed over.
void read_support_sources(Reader& io, SupportAnswer& a) {
  io.each("sources", a.sources, [](const json& source, const Path& p) {
    std::string url;
    Reader r(source, p);
    r("url", url);
    return url;
  });
}

}  // namespace

// The field lists of client_research.fields.json, written as C++ by webdata_codegen.
#include "client_research.fields.inc"

namespace {

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

/// "/v2/search/research/papers/{id}" and what follows it.
std::string paper_path(const std::string& id, const char* tail = "") {
  return "/v2/search/research/papers/" + escape_segment(id) + tail;
}

}  // namespace
}  // namespace detail

Result<PaperSearch> Client::search_papers(const SearchPapersRequest& request,
                                          const CallOptions& options) const {
  detail::Query q("/v2/search/research/papers");
  q.add("query", request.query).add("k", request.k).add("authors", request.authors);
  q.add("categories", request.categories).add("from", request.from).add("to", request.to);
  return detail::call_for<PaperSearch>(*core_, detail::get(q.target()), options, "paper search");
}

Result<Paper> Client::get_paper(const std::string& id, const CallOptions& options) const {
  return detail::call_for<Paper>(*core_, detail::get(detail::paper_path(id)), options, "paper");
}

Result<Paper> Client::read_paper(const std::string& id, const std::string& question,
                                 std::optional<std::int64_t> k, const CallOptions& options) const {
  detail::Query q(detail::paper_path(id));
  q.add("query", question).add("k", k);
  return detail::call_for<Paper>(*core_, detail::get(q.target()), options, "paper read");
}

Result<SimilarPapers> Client::similar_papers(const std::string& id,
                                             const SimilarPapersRequest& request,
                                             const CallOptions& options) const {
  detail::Query q(detail::paper_path(id, "/similar"));
  q.add("intent", request.intent).add("mode", request.mode).add("k", request.k);
  q.add("rerank", request.rerank).add("anchor", request.anchor);
  return detail::call_for<SimilarPapers>(*core_, detail::get(q.target()), options,
                                         "similar papers");
}

Result<GithubSearch> Client::search_github(const std::string& query, std::optional<std::int64_t> k,
                                           const CallOptions& options) const {
  detail::Query q("/v2/search/research/github");
  q.add("query", query).add("k", k);
  return detail::call_for<GithubSearch>(*core_, detail::get(q.target()), options,
                                        "github search");
}

Result<DeveloperSearch> Client::developer_search(const DeveloperSearchRequest& request,
                                                 const CallOptions& options) const {
  const auto call = detail::post("/v2/search/developer", detail::research_developer_body(request));
  return detail::call_for<DeveloperSearch>(*core_, call, options, "developer search");
}

Result<FeedbackReceipt> Client::feedback(const FeedbackRequest& request,
                                         const CallOptions& options) const {
  const auto call = detail::post("/v2/feedback", detail::research_feedback_body(request, true));
  return detail::call_for<FeedbackReceipt>(*core_, call, options, "feedback");
}

Result<FeedbackReceipt> Client::search_feedback(const std::string& search_id,
                                                const FeedbackRequest& request,
                                                const CallOptions& options) const {
  const auto call = detail::post("/v2/search/" + detail::escape_segment(search_id) + "/feedback",
                                 detail::research_feedback_body(request, false));
  return detail::call_for<FeedbackReceipt>(*core_, call, options, "search feedback");
}

Result<SupportAnswer> Client::support_ask(const std::string& question, const std::string& job_id,
                                          const CallOptions& options) const {
  detail::json body = {{"question", question}};
  if (!job_id.empty()) body["jobId"] = job_id;
  return detail::call_for<SupportAnswer>(*core_, detail::post("/v2/support/ask", body), options,
                                         "support ask");
}

}  // namespace webdata
