#include "webdata/client.hpp"

#include "client_core.hpp"
#include "job_follower.hpp"
#include "json_scan.hpp"
#include "surface.hpp"
#include "webdata/v1/client.hpp"

namespace webdata {
namespace detail {

Result<Document> document_call(const ClientCore& core, const Call& call, const CallOptions& options,
                               const char* what) {
  auto response = core.execute(call, options, core.deadline_for(options));
  if (!response.ok()) return response.error();
  // The answer is indexed, not parsed into a tree: the document is decoded from its own text
  // (per-call cost against a fast service, bench/analysis.md).
  const std::string& answer = response->body;
  const auto scanned = scan_json(answer);
  if (!scanned) return unreadable_answer(not_json_error(answer), call, *response);
  const auto text_of = [&](const ScannedMember& member) {
    return std::string_view(answer.data() + member.value.begin,
                            member.value.end - member.value.begin);
  };
  const ScannedMember* success = nullptr;
  const ScannedMember* data = nullptr;
  const ScannedMember* warning = nullptr;
  for (const auto& member : scanned->members) {  // the last of repeated keys, as a tree keeps
    if (member.key == "success") success = &member;
    if (member.key == "data") data = &member;
    if (member.key == "warning") warning = &member;
  }
  if (success != nullptr && text_of(*success) == "false") return http_error(*response);
  if (data == nullptr) {
    Error err = error_of(ErrorKind::kParse, std::string(what) + " response has no `data`");
    err.raw_body = dump(json::parse(answer)).substr(0, 4096);
    return err;
  }
  const std::string_view text = text_of(*data);
  Result<Document> doc = [&]() -> Result<Document> {
    try {
      Document out;
      decode_document_text(text, out, Path{});
      return out;
    } catch (const ParseError& e) {
      return shape_error((std::string(what) + " document").c_str(), e.what(), text);
    }
  }();
  if (doc.ok() && !doc->warning && warning != nullptr && text_of(*warning).front() == '"') {
    doc->warning = unescape_json_string(text_of(*warning));
  }
  return doc;
}

}  // namespace detail

namespace {

using detail::Call;
using detail::ClientCore;

ClientOptions with_url_and_key(std::string api_url, std::string api_key) {
  ClientOptions options;
  options.api_url = std::move(api_url);
  options.api_key = std::move(api_key);
  return options;
}

// The calls of a client, once for both API versions: the core knows its version and so every
// path; the facades below only encode their version's request types.

template <class Request>
Result<JobStarted> start_job(const ClientCore& core, const std::string& resource,
                             const Request& request, const CallOptions& options) {
  auto started = detail::call_for<JobStarted>(
      core, detail::job_post(core.path(resource), detail::encode(request)), options,
      "job start answer");
  if (started.ok() && started->id.empty()) {
    return detail::error_of(ErrorKind::kParse, "job start answer has no `id`");
  }
  return started;
}

template <class JobT>
Result<JobStatus> run_to_end(const Result<JobT>& job, const PollingPolicy& policy,
                             const CallOptions& options) {
  if (!job.ok()) return job.error();
  // The start call's key must not travel to the status calls (they are GETs anyway).
  CallOptions follow = options;
  follow.idempotency_key.reset();
  return job->wait(policy, follow);
}

template <class JobT>
JobT job_handle(const std::shared_ptr<const ClientCore>& core, std::string id) {
  JobStarted started;
  started.id = std::move(id);
  return JobT(core, core->version(), std::move(started));
}

template <class JobT, class Request>
Result<JobT> start(const std::shared_ptr<const ClientCore>& core, const char* resource,
                   const Request& request, const CallOptions& options) {
  auto started = start_job(*core, resource, request, options);
  if (!started.ok()) return started.error();
  return JobT(core, core->version(), std::move(*started));
}

Result<std::vector<ActiveCrawl>> active_crawls(const ClientCore& core,
                                               const CallOptions& options) {
  auto tree = core.execute_json(detail::get(core.path("/crawl/active")), options,
                                core.deadline_for(options));
  if (!tree.ok()) return tree.error();
  if (!tree->is_object() || !tree->contains("crawls")) {
    return detail::error_of(ErrorKind::kParse, "active crawls answer has no `crawls`");
  }
  return detail::decode_tree<std::vector<ActiveCrawl>>((*tree)["crawls"], "active crawls");
}

template <class Results, class Request>
Result<Results> search(const ClientCore& core, const Request& request,
                       const CallOptions& options) {
  const Call call =
      detail::post_with_timeout(core.path("/search"), detail::encode(request), request.timeout);
  return detail::call_for<Results>(core, call, options, "search results");
}

template <class Request, class Formats>
Request scrape_request(std::string url, Formats formats) {
  Request request;
  request.url = std::move(url);
  if (!formats.empty()) request.formats = std::move(formats);
  return request;
}

template <class Request>
Request with_url(std::string url) {
  Request request;
  request.url = std::move(url);
  return request;
}

template <class Request>
Request with_urls(std::vector<std::string> urls) {
  Request request;
  request.urls = std::move(urls);
  return request;
}

template <class Request>
Request with_query(std::string query) {
  Request request;
  request.query = std::move(query);
  return request;
}

}  // namespace

template <class Api>
BasicClient<Api>::BasicClient(ClientOptions options)
    : core_(std::make_shared<const ClientCore>(std::move(options), Api::kVersion)) {}
template <class Api>
BasicClient<Api>::BasicClient(std::string api_url, std::string api_key)
    : BasicClient(with_url_and_key(std::move(api_url), std::move(api_key))) {}

template <class Api>
const std::string& BasicClient<Api>::api_url() const {
  return core_->api_url();
}

template <class Api>
Result<Document> BasicClient<Api>::scrape(const ScrapeRequest& request,
                                          const CallOptions& options) const {
  const Call call =
      detail::post_with_timeout(core_->path("/scrape"), detail::encode(request), request.timeout);
  return detail::document_call(*core_, call, options, "scrape");
}

template <class Api>
Result<Document> BasicClient<Api>::scrape(std::string url,
                                          std::vector<typename Api::Format> formats,
                                          const CallOptions& options) const {
  return scrape(scrape_request<ScrapeRequest>(std::move(url), std::move(formats)), options);
}

template <class Api>
Result<Document> BasicClient<Api>::get_scrape(const std::string& id,
                                              const CallOptions& options) const {
  const Call call = detail::get(core_->path("/scrape/" + detail::escape_segment(id)));
  return detail::document_call(*core_, call, options, "scrape");
}

template <class Api>
Result<BatchScrapeJob> BasicClient<Api>::start_batch_scrape(const BatchScrapeRequest& request,
                                                            const CallOptions& options) const {
  return start<BatchScrapeJob>(core_, "/batch/scrape", request, options);
}

template <class Api>
Result<BatchScrapeJob> BasicClient<Api>::start_batch_scrape(std::vector<std::string> urls,
                                                            const CallOptions& options) const {
  return start_batch_scrape(with_urls<BatchScrapeRequest>(std::move(urls)), options);
}

template <class Api>
Result<JobStatus> BasicClient<Api>::batch_scrape(const BatchScrapeRequest& request,
                                                 const PollingPolicy& policy,
                                                 const CallOptions& options) const {
  return run_to_end(start_batch_scrape(request, options), policy, options);
}

template <class Api>
Result<JobStatus> BasicClient<Api>::batch_scrape(std::vector<std::string> urls,
                                                 const PollingPolicy& policy,
                                                 const CallOptions& options) const {
  return batch_scrape(with_urls<BatchScrapeRequest>(std::move(urls)), policy, options);
}

template <class Api>
BatchScrapeJob BasicClient<Api>::batch_scrape_job(std::string id) const {
  return job_handle<BatchScrapeJob>(core_, std::move(id));
}

template <class Api>
Result<JobStatus> BasicClient<Api>::batch_scrape_status(const std::string& id,
                                                        const CallOptions& options) const {
  return batch_scrape_job(id).status(options);
}

template <class Api>
Result<JobState> BasicClient<Api>::cancel_batch_scrape(const std::string& id,
                                                       const CallOptions& options) const {
  return batch_scrape_job(id).cancel(options);
}

template <class Api>
Result<JobErrors> BasicClient<Api>::batch_scrape_errors(const std::string& id,
                                                        const CallOptions& options) const {
  return batch_scrape_job(id).errors(options);
}

template <class Api>
Result<CrawlJob> BasicClient<Api>::start_crawl(const CrawlRequest& request,
                                               const CallOptions& options) const {
  return start<CrawlJob>(core_, "/crawl", request, options);
}

template <class Api>
Result<CrawlJob> BasicClient<Api>::start_crawl(std::string url,
                                               const CallOptions& options) const {
  return start_crawl(with_url<CrawlRequest>(std::move(url)), options);
}

template <class Api>
Result<JobStatus> BasicClient<Api>::crawl(const CrawlRequest& request, const PollingPolicy& policy,
                                          const CallOptions& options) const {
  return run_to_end(start_crawl(request, options), policy, options);
}

template <class Api>
Result<JobStatus> BasicClient<Api>::crawl(std::string url, const PollingPolicy& policy,
                                          const CallOptions& options) const {
  return crawl(with_url<CrawlRequest>(std::move(url)), policy, options);
}

template <class Api>
CrawlJob BasicClient<Api>::crawl_job(std::string id) const {
  return job_handle<CrawlJob>(core_, std::move(id));
}

template <class Api>
Result<JobStatus> BasicClient<Api>::crawl_status(const std::string& id,
                                                 const CallOptions& options) const {
  return crawl_job(id).status(options);
}

template <class Api>
Result<JobState> BasicClient<Api>::cancel_crawl(const std::string& id,
                                                const CallOptions& options) const {
  return crawl_job(id).cancel(options);
}

template <class Api>
Result<JobErrors> BasicClient<Api>::crawl_errors(const std::string& id,
                                                 const CallOptions& options) const {
  return crawl_job(id).errors(options);
}

template <class Api>
Result<std::vector<ActiveCrawl>> BasicClient<Api>::active_crawls(
    const CallOptions& options) const {
  return webdata::active_crawls(*core_, options);
}

template <class Api>
Result<typename Api::SearchResults> BasicClient<Api>::search(const SearchRequest& request,
                                                             const CallOptions& options) const {
  return webdata::search<SearchResults>(*core_, request, options);
}

template <class Api>
Result<typename Api::SearchResults> BasicClient<Api>::search(std::string query,
                                                             const CallOptions& options) const {
  return search(with_query<SearchRequest>(std::move(query)), options);
}

// ---- Beyond the specification's core (sdk/src/client_surface.cpp).

template <class Api>
Result<MapResult> BasicClient<Api>::map(const MapRequest& request,
                                        const CallOptions& options) const {
  return detail::map(*core_, request, options);
}

template <class Api>
Result<CreditUsage> BasicClient<Api>::credit_usage(const CallOptions& options) const {
  return detail::credit_usage(*core_, options);
}

template <class Api>
Result<UsageHistory> BasicClient<Api>::credit_usage_history(bool by_api_key,
                                                            const CallOptions& options) const {
  return detail::usage_history(*core_, "credit", by_api_key, options);
}

template <class Api>
Result<TokenUsage> BasicClient<Api>::token_usage(const CallOptions& options) const {
  return detail::token_usage(*core_, options);
}

template <class Api>
Result<UsageHistory> BasicClient<Api>::token_usage_history(bool by_api_key,
                                                           const CallOptions& options) const {
  return detail::usage_history(*core_, "token", by_api_key, options);
}

template <class Api>
Result<QueueStatus> BasicClient<Api>::queue_status(const CallOptions& options) const {
  return detail::queue_status(*core_, options);
}

template <class Api>
Result<Concurrency> BasicClient<Api>::concurrency(const CallOptions& options) const {
  return detail::concurrency(*core_, options);
}

template <class Api>
Result<ExtractStarted> BasicClient<Api>::start_extract(const ExtractRequest& request,
                                                       const CallOptions& options) const {
  return detail::start_extract(*core_, request, options);
}

template <class Api>
Result<ExtractResult> BasicClient<Api>::extract_status(const std::string& id,
                                                       const CallOptions& options) const {
  return detail::extract_status(*core_, id, options);
}

template <class Api>
Result<ExtractResult> BasicClient<Api>::extract(const ExtractRequest& request,
                                                const PollingPolicy& policy,
                                                const CallOptions& options) const {
  return detail::extract(*core_, request, policy, options);
}

template class BasicClient<detail::ApiV2>;
template class BasicClient<detail::ApiV1>;

Client::Client(ClientOptions options) : BasicClient(std::move(options)) {}
Client::Client(std::string api_url, std::string api_key)
    : BasicClient(std::move(api_url), std::move(api_key)) {}

namespace v1 {

Client::Client(ClientOptions options) : BasicClient(std::move(options)) {}
Client::Client(std::string api_url, std::string api_key)
    : BasicClient(std::move(api_url), std::move(api_key)) {}

}  // namespace v1

Result<AgentResult> Client::start_agent(const AgentRequest& request,
                                        const CallOptions& options) const {
  auto first = detail::call_for<AgentResult>(
      *core_, detail::job_post(core_->path("/agent"), detail::encode(request)), options,
      "agent answer");
  if (!first.ok()) return first;
  // The synchronous form carries the answer; the job form only an id.
  const bool synchronous =
      !first->id || !first->result.is_null() || !first->sources.empty() || first->message;
  if (first->status.empty()) {
    first->status = synchronous ? JobState::completed() : JobState::processing();
  }
  return first;
}

Result<AgentResult> Client::agent(const AgentRequest& request, const PollingPolicy& policy,
                                  const CallOptions& options) const {
  const detail::Deadline deadline = core_->deadline_for(options);
  CallOptions first_options = options;
  if (!first_options.deadline) first_options.deadline = deadline;
  auto first = start_agent(request, first_options);
  if (!first.ok() || first->status.is_terminal()) return first;
  // The job form: an interval after the start, poll until the agent ends.
  CallOptions follow = options;
  follow.idempotency_key.reset();
  if (!follow.deadline) follow.deadline = deadline;
  const detail::Deadline stop = detail::wait_deadline(*core_, policy, follow);
  const std::string id = *first->id;
  const std::string what = "agent " + id;
  if (auto err = detail::pause_between_polls(*core_, policy, policy.cancel, stop, what)) {
    return *err;
  }
  return detail::poll_until<AgentResult>(
      *core_, policy, stop, what,
      [&]() {
        auto next = agent_status(id, follow);
        if (next.ok() && !next->id) next->id = id;
        return next;
      },
      [](const AgentResult& current) { return current.status.is_terminal(); });
}

Result<AgentResult> Client::agent_status(const std::string& id, const CallOptions& options) const {
  return detail::call_for<AgentResult>(
      *core_, detail::get(core_->path("/agent/" + detail::escape_segment(id))), options,
      "agent status");
}

Result<bool> Client::cancel_agent(const std::string& id, const CallOptions& options) const {
  const Call call =
      detail::json_call("DELETE", core_->path("/agent/" + detail::escape_segment(id)));
  auto tree = core_->execute_json(call, options, core_->deadline_for(options));
  // `{success: false}` with a 2xx status arrives as an error: the job had already ended, which is
  // an answer here, not a failure (the official SDK reads it so too).
  if (!tree.ok()) {
    const Error& e = tree.error();
    if (e.kind == ErrorKind::kHttp && e.http_status >= 200 && e.http_status < 300) return false;
    return e;
  }
  return tree->is_object() && tree->contains("success") && (*tree)["success"].is_boolean() &&
         (*tree)["success"].get<bool>();
}

}  // namespace webdata
