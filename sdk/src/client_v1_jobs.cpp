// The v1-only jobs of the official v1 client: deep research and llms.txt (start, status, wait).
// Answers are decoded leniently, as the other calls' are: unknown members go to `extras`.
#include "job_follower.hpp"
#include "surface.hpp"
#include "webdata/v1/client.hpp"

#include <algorithm>

namespace webdata {
namespace detail {
namespace {

Call v1job_post(std::string target, const json& body) {
  Call call;
  call.method = "POST";
  call.target = std::move(target);
  call.body = dump(body);
  return call;
}

json encode_deep_research(const v1::DeepResearchRequest& v) {
  Writer w;
  w.val("query", v.query);
  w("maxDepth", v.max_depth);
  w("timeLimit", v.time_limit);
  w("maxUrls", v.max_urls);
  w("analysisPrompt", v.analysis_prompt);
  w("systemPrompt", v.system_prompt);
  w("formats", v.formats, kOmitEmpty);
  if (v.json_options) {
    Writer o;
    o("prompt", v.json_options->prompt);
    o("schema", v.json_options->schema);
    o("systemPrompt", v.json_options->system_prompt);
    w.out["jsonOptions"] = std::move(o.out);
  }
  w("origin", v.origin);
  w("integration", v.integration);
  return std::move(w.out);
}

json encode_llms_txt(const v1::LlmsTxtRequest& v) {
  Writer w;
  w.val("url", v.url);
  w("maxUrls", v.max_urls);
  w("showFullText", v.show_full_text);
  w("cache", v.cache);
  w("origin", v.origin);
  w("integration", v.integration);
  return std::move(w.out);
}

v1::V1JobStarted decode_v1_job_started(const json& j) {
  v1::V1JobStarted out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r.req("id", out.id);
  r("warnings", out.warnings);
  r.rest(out.extras);
  return out;
}

v1::ResearchActivity decode_research_activity(const json& j, const Path& p) {
  v1::ResearchActivity out;
  Reader r(j, p);
  r("type", out.type);
  r("status", out.status);
  r("message", out.message);
  r("timestamp", out.timestamp);
  r("depth", out.depth);
  r.rest(out.extras);
  return out;
}

v1::ResearchSource decode_research_source(const json& j, const Path& p) {
  v1::ResearchSource out;
  Reader r(j, p);
  r.req("url", out.url);
  r("title", out.title);
  r("description", out.description);
  r.rest(out.extras);
  return out;
}

v1::DeepResearchResult decode_deep_research(const json& j) {
  v1::DeepResearchResult out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r("success", out.success);
  r.req("status", out.status);
  // `data` repeats the activities and sources of the top level; its own members are the analysis.
  r.custom("data", out.final_analysis, [&out](const json& data, const Path& dp) {
    Reader d(data, dp);
    d("finalAnalysis", out.final_analysis);
    d("json", out.json);
    d.skip("activities");
    d.skip("sources");
  });
  r.each("activities", out.activities, decode_research_activity);
  r.each("sources", out.sources, decode_research_source);
  r("summaries", out.summaries);
  r("currentDepth", out.current_depth);
  r("maxDepth", out.max_depth);
  r("expiresAt", out.expires_at);
  r("error", out.error);
  r.rest(out.extras);
  return out;
}

v1::LlmsTxtResult decode_llms_txt(const json& j) {
  v1::LlmsTxtResult out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r("success", out.success);
  r.req("status", out.status);
  r.custom("data", out.llmstxt, [&out](const json& data, const Path& dp) {
    Reader d(data, dp);
    d("llmstxt", out.llmstxt);
    d("llmsfulltxt", out.llmsfulltxt);
  });
  r("expiresAt", out.expires_at);
  r("error", out.error);
  r.rest(out.extras);
  return out;
}

/// Polls `status(id)` until it leaves "processing", within `policy.max_wait` and the call's
/// deadline, on the client's clock.
template <class T, class Status>
Result<T> v1job_wait(const ClientCore& core, const std::string& id, const std::string& what,
                     const PollingPolicy& policy, const CallOptions& options, Status status) {
  Deadline deadline = core.deadline_for(options);
  if (policy.max_wait) {
    const auto end = core.clock().now() + *policy.max_wait;
    deadline = deadline ? std::min(*deadline, end) : end;
  }
  for (;;) {
    Result<T> current = status(id);
    if (!current.ok() || current->done()) return current;
    if (auto stop = pause_between_polls(core, policy, policy.cancel, deadline, what + " " + id)) {
      return *stop;
    }
  }
}

}  // namespace
}  // namespace detail

namespace v1 {

Result<V1JobStarted> Client::start_deep_research(const DeepResearchRequest& request,
                                                 const CallOptions& options) const {
  return detail::call_and_decode<V1JobStarted>(
      *core_, detail::v1job_post("/v1/deep-research", detail::encode_deep_research(request)),
      options, "deep research start", detail::decode_v1_job_started);
}

Result<DeepResearchResult> Client::deep_research_status(const std::string& id,
                                                        const CallOptions& options) const {
  return detail::call_and_decode<DeepResearchResult>(
      *core_, detail::get("/v1/deep-research/" + detail::escape_segment(id)), options,
      "deep research status", detail::decode_deep_research);
}

Result<DeepResearchResult> Client::deep_research(const DeepResearchRequest& request,
                                                 const PollingPolicy& policy,
                                                 const CallOptions& options) const {
  auto job = start_deep_research(request, options);
  if (!job.ok()) return job.error();
  return detail::v1job_wait<DeepResearchResult>(
      *core_, job->id, "deep research job", policy, options,
      [&](const std::string& id) { return deep_research_status(id, options); });
}

Result<V1JobStarted> Client::start_llms_txt(const LlmsTxtRequest& request,
                                            const CallOptions& options) const {
  return detail::call_and_decode<V1JobStarted>(
      *core_, detail::v1job_post("/v1/llmstxt", detail::encode_llms_txt(request)), options,
      "llms.txt start", detail::decode_v1_job_started);
}

Result<LlmsTxtResult> Client::llms_txt_status(const std::string& id,
                                              const CallOptions& options) const {
  return detail::call_and_decode<LlmsTxtResult>(
      *core_, detail::get("/v1/llmstxt/" + detail::escape_segment(id)), options,
      "llms.txt status", detail::decode_llms_txt);
}

Result<LlmsTxtResult> Client::llms_txt(const LlmsTxtRequest& request, const PollingPolicy& policy,
                                       const CallOptions& options) const {
  auto job = start_llms_txt(request, options);
  if (!job.ok()) return job.error();
  return detail::v1job_wait<LlmsTxtResult>(
      *core_, job->id, "llms.txt job", policy, options,
      [&](const std::string& id) { return llms_txt_status(id, options); });
}

}  // namespace v1
}  // namespace webdata
