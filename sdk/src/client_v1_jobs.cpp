// The v1-only jobs of the official v1 client: deep research and llms.txt (start, status, wait).
// Answers are decoded leniently, as the other calls' are: unknown members go to `extras`.
#include "job_follower.hpp"
#include "surface.hpp"
#include "webdata/v1/client.hpp"

namespace webdata {
namespace detail {

// The field lists of client_v1_jobs.fields.json, written as C++ by webdata_codegen.
#include "client_v1_jobs.fields.inc"

/// The members of a v1 job's status answer around its own: `status` (required), `success`,
/// `expiresAt`, `error`; the job's own members are read by `own(io, out)`.
template <class T, class Own>
void v1_job_fields(Reader& io, T& out, Own own) {
  io("success", out.success);
  io("status", out.status, kRequired);
  own(io, out);
  io("expiresAt", out.expires_at);
  io("error", out.error);
  io.extras(out.extras);
}

void fields(Reader& io, v1::DeepResearchResult& out) {
  v1_job_fields(io, out, [](Reader& r, v1::DeepResearchResult& d) {
    // `data` repeats the activities and sources of the top level; its own members are the
    // analysis.
    r.custom("data", d.final_analysis, [&d](const json& data, const Path& dp) {
      Reader analysis(data, dp);
      analysis("finalAnalysis", d.final_analysis);
      analysis("json", d.json);
      analysis.skip("activities");
      analysis.skip("sources");
    });
    r("activities", d.activities);
    r("sources", d.sources);
    r("summaries", d.summaries);
    r("currentDepth", d.current_depth);
    r("maxDepth", d.max_depth);
  });
}

void fields(Reader& io, v1::LlmsTxtResult& out) {
  v1_job_fields(io, out, [](Reader& r, v1::LlmsTxtResult& l) {
    r.custom("data", l.llmstxt, [&l](const json& data, const Path& dp) {
      Reader text(data, dp);
      text("llmstxt", l.llmstxt);
      text("llmsfulltxt", l.llmsfulltxt);
    });
  });
}

WEBDATA_ANSWER_CODEC(v1::DeepResearchResult)
WEBDATA_ANSWER_CODEC(v1::LlmsTxtResult)

namespace {

/// A v1-only job: where it is started (POST `path`) and read (GET `path`/{id}), and its name in
/// the errors of its calls ("deep research start", "... status", "... job <id>").
struct V1Job {
  const char* path;
  const char* name;

  std::string what(const char* step) const { return std::string(name) + " " + step; }
};

constexpr V1Job kDeepResearch{"/v1/deep-research", "deep research"};
constexpr V1Job kLlmsTxt{"/v1/llmstxt", "llms.txt"};

/// Starts a v1 job: POST the request to the job's path, its answer the job's id.
template <class Request>
Result<v1::V1JobStarted> start_v1_job(const ClientCore& core, const V1Job& job,
                                      const Request& request, const CallOptions& options) {
  return call_for<v1::V1JobStarted>(core, post(job.path, write_fields(request)), options,
                                    job.what("start").c_str());
}

/// The status of v1 job `id`: GET `path`/{id}.
template <class T>
Result<T> v1_job_status(const ClientCore& core, const V1Job& job, const std::string& id,
                        const CallOptions& options) {
  return call_for<T>(core, get(std::string(job.path) + "/" + escape_segment(id)), options,
                     job.what("status").c_str());
}

/// Waits for a started v1 job: polls its status until it leaves "processing", within
/// `policy.max_wait` and the call's deadline, on the client's clock.
template <class T>
Result<T> wait_v1_job(const ClientCore& core, const V1Job& job,
                      const Result<v1::V1JobStarted>& started, const PollingPolicy& policy,
                      const CallOptions& options) {
  if (!started.ok()) return started.error();
  return poll_until<T>(
      core, policy, wait_deadline(core, policy, options), job.what("job") + " " + started->id,
      [&] { return v1_job_status<T>(core, job, started->id, options); },
      [](const T& current) { return current.done(); });
}

}  // namespace
}  // namespace detail

namespace v1 {

Result<V1JobStarted> Client::start_deep_research(const DeepResearchRequest& request,
                                                 const CallOptions& options) const {
  return detail::start_v1_job(*core_, detail::kDeepResearch, request, options);
}

Result<DeepResearchResult> Client::deep_research_status(const std::string& id,
                                                        const CallOptions& options) const {
  return detail::v1_job_status<DeepResearchResult>(*core_, detail::kDeepResearch, id, options);
}

Result<DeepResearchResult> Client::deep_research(const DeepResearchRequest& request,
                                                 const PollingPolicy& policy,
                                                 const CallOptions& options) const {
  return detail::wait_v1_job<DeepResearchResult>(
      *core_, detail::kDeepResearch, start_deep_research(request, options), policy, options);
}

Result<V1JobStarted> Client::start_llms_txt(const LlmsTxtRequest& request,
                                            const CallOptions& options) const {
  return detail::start_v1_job(*core_, detail::kLlmsTxt, request, options);
}

Result<LlmsTxtResult> Client::llms_txt_status(const std::string& id,
                                              const CallOptions& options) const {
  return detail::v1_job_status<LlmsTxtResult>(*core_, detail::kLlmsTxt, id, options);
}

Result<LlmsTxtResult> Client::llms_txt(const LlmsTxtRequest& request, const PollingPolicy& policy,
                                       const CallOptions& options) const {
  return detail::wait_v1_job<LlmsTxtResult>(*core_, detail::kLlmsTxt,
                                            start_llms_txt(request, options), policy, options);
}

}  // namespace v1
}  // namespace webdata
