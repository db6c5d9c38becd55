// The endpoints beyond the specification's core that deployments serve and official clients
// call: map, crawl params preview, team usage, queue status, concurrency and extract (v2, v1). Kept
// out of client.cpp so that the client core can change without touching them.
#include "job_follower.hpp"
#include "surface.hpp"
#include "webdata/client.hpp"
#include "webdata/v1/client.hpp"

namespace webdata {
namespace detail {
namespace {

// ---- codecs (answers are decoded leniently: unknown members go to `extras`)

/// `data` of a usage answer, or the answer itself (older deployments answer flat).
const json& usage_data(const json& j) {
  if (j.is_object() && j.contains("data") && j.at("data").is_object()) return j.at("data");
  return j;
}

template <class Usage>
Usage decode_usage(const json& j, const char* noun) {
  const std::string camel = noun;  // "Credits" | "Tokens"
  std::string lower = camel;
  lower[0] = static_cast<char>(lower[0] - 'A' + 'a');
  const std::string remaining = "remaining" + camel;
  const std::string remaining_v1 = "remaining_" + lower;
  const std::string plan = "plan" + camel;
  const std::string plan_v1 = "plan_" + lower;
  const json& d = usage_data(j);
  Usage out;
  const Path root = Path{}.collecting(out.diagnostics);
  const Path p = root.child("data");
  Reader r(d, p);
  long long* remaining_out;
  std::optional<long long>* plan_out;
  if constexpr (std::is_same_v<Usage, CreditUsage>) {
    remaining_out = &out.remaining_credits;
    plan_out = &out.plan_credits;
  } else {
    remaining_out = &out.remaining_tokens;
    plan_out = &out.plan_tokens;
  }
  // camelCase (v2) or snake_case (v1): whichever the answer has.
  r(d.contains(remaining) ? remaining.c_str() : remaining_v1.c_str(), *remaining_out);
  r(d.contains(plan) ? plan.c_str() : plan_v1.c_str(), *plan_out);
  r(d.contains("billingPeriodStart") ? "billingPeriodStart" : "billing_period_start",
    out.billing_period_start);
  r(d.contains("billingPeriodEnd") ? "billingPeriodEnd" : "billing_period_end",
    out.billing_period_end);
  r.skip("success");
  r.rest(out.extras);
  return out;
}

UsageHistory decode_history(const json& j, const char* used_key) {
  UsageHistory out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r.each("periods", out.periods, [used_key](const json& item, const Path& ip) {
    UsagePeriod period;
    Reader pr(item, ip);
    pr("startDate", period.start_date);
    pr("endDate", period.end_date);
    pr("apiKey", period.api_key);
    pr(used_key, period.used);
    pr.rest(period.extras);
    return period;
  });
  r.rest(out.extras);
  return out;
}

Concurrency decode_concurrency(const json& j) {
  const json& d = usage_data(j);
  Concurrency out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader r(d, root);
  r.skip("success");
  r("concurrency", out.concurrency);
  r(d.contains("maxConcurrency") ? "maxConcurrency" : "max_concurrency", out.max_concurrency);
  r.rest(out.extras);
  return out;
}

/// `sources` of an extract answer: the pages each field came from. Deployments name them as a
/// list of URLs; anything else is kept as text.
void read_extract_sources(Reader& io, ExtractResult& x) {
  io.custom("sources", x.sources, [&x](const json& sources, const Path& sp) {
    if (!sources.is_object()) {
      fail(sp, std::string("expected an object, got ") + type_name(sources));
    }
    for (const auto& [field, urls] : sources.items()) {
      std::vector<std::string>& list = x.sources[field];
      if (urls.is_array()) {
        for (const auto& url : urls)
          list.push_back(url.is_string() ? url.get<std::string>() : url.dump());
      } else if (urls.is_string()) {
        list.push_back(urls.get<std::string>());
      }
    }
  });
}

}  // namespace

void decode(const json& j, MapLink& out, const Path& p) {
  if (j.is_string()) {  // v1, and v2 deployments that answer plain strings
    out.url = j.get<std::string>();
    return;
  }
  read_fields(j, out, p);
}

// The usage calls are the same in both versions but for the path prefix.
template <class Request>
Result<MapResult> map(const ClientCore& core, const Request& request, const CallOptions& options) {
  const Call call = post_with_timeout(core.path("/map"), write_fields(request), request.timeout);
  return call_for<MapResult>(core, call, options, "map result");
}
template Result<MapResult> map(const ClientCore&, const MapRequest&, const CallOptions&);
template Result<MapResult> map(const ClientCore&, const v1::MapRequest&, const CallOptions&);

Result<CreditUsage> credit_usage(const ClientCore& core, const CallOptions& options) {
  return call_and_decode<CreditUsage>(
      core, get(core.path("/team/credit-usage")), options, "credit usage",
      [](const json& j) { return decode_usage<CreditUsage>(j, "Credits"); });
}

Result<TokenUsage> token_usage(const ClientCore& core, const CallOptions& options) {
  return call_and_decode<TokenUsage>(
      core, get(core.path("/team/token-usage")), options, "token usage",
      [](const json& j) { return decode_usage<TokenUsage>(j, "Tokens"); });
}

Result<UsageHistory> usage_history(const ClientCore& core, const char* noun, bool by_api_key,
                                   const CallOptions& options) {
  const std::string what = std::string(noun) == "credit" ? "credit" : "token";
  const char* used = what == "credit" ? "creditsUsed" : "tokensUsed";
  return call_and_decode<UsageHistory>(
      core,
      get(core.path("/team/" + what + "-usage/historical") + (by_api_key ? "?byApiKey=true" : "")),
      options, "usage history", [used](const json& j) { return decode_history(j, used); });
}

Result<QueueStatus> queue_status(const ClientCore& core, const CallOptions& options) {
  return call_for<QueueStatus>(core, get(core.path("/team/queue-status")), options, "queue status");
}

Result<Concurrency> concurrency(const ClientCore& core, const CallOptions& options) {
  return call_and_decode<Concurrency>(core, get(core.path("/concurrency-check")), options,
                                      "concurrency check", decode_concurrency);
}

// ---- extract

// The field lists of client_surface.fields.json, written as C++ by webdata_codegen.
#include "client_surface.fields.inc"

template <class Request>
Result<ExtractStarted> start_extract(const ClientCore& core, const Request& request,
                                     const CallOptions& options) {
  if (request.urls.empty()) {
    return error_of(ErrorKind::kInvalidArgument, "extract needs at least one URL");
  }
  return call_for<ExtractStarted>(core, post(core.path("/extract"), write_fields(request)), options,
                                  "extract start");
}

Result<ExtractResult> extract_status(const ClientCore& core, const std::string& id,
                                     const CallOptions& options) {
  const std::string target = core.path("/extract/" + escape_segment(id));
  auto status = call_for<ExtractResult>(core, get(target), options, "extract status");
  if (status.ok()) return status;
  // A failed job answers 200 with `success: false` and its `status`: that is the job's state, not
  // a refused request, so it is returned as an ExtractResult (as `extract` promises).
  const Error& e = status.error();
  if (e.kind != ErrorKind::kHttp || e.http_status != 200) return status;
  const json body = json::parse(e.raw_body, nullptr, false);
  if (!body.is_object() || !body.contains("status") || !body.at("status").is_string()) {
    return status;
  }
  try {
    return answer_model<ExtractResult>(body);
  } catch (const ParseError& parse_error) {
    return shape_error("extract status", parse_error.what(), e.raw_body);
  }
}

/// Polls until the job leaves "processing", within `policy.max_wait` and the call's deadline,
/// on the client's clock.
template <class Request>
Result<ExtractResult> extract(const ClientCore& core, const Request& request,
                              const PollingPolicy& policy, const CallOptions& options) {
  const Deadline deadline = wait_deadline(core, policy, options);
  auto job = start_extract(core, request, options);
  if (!job.ok()) return job.error();
  return poll_until<ExtractResult>(
      core, policy, deadline, "extract job " + job->id,
      [&] { return extract_status(core, job->id, options); },
      [](const ExtractResult& status) { return status.done(); });
}

template Result<ExtractStarted> start_extract(const ClientCore&, const ExtractRequest&,
                                              const CallOptions&);
template Result<ExtractStarted> start_extract(const ClientCore&, const v1::ExtractRequest&,
                                              const CallOptions&);
template Result<ExtractResult> extract(const ClientCore&, const ExtractRequest&,
                                       const PollingPolicy&, const CallOptions&);
template Result<ExtractResult> extract(const ClientCore&, const v1::ExtractRequest&,
                                       const PollingPolicy&, const CallOptions&);

}  // namespace detail

Result<CrawlParamsPreview> Client::crawl_params_preview(const CrawlParamsPreviewRequest& request,
                                                        const CallOptions& options) const {
  const detail::json body = {{"url", request.url}, {"prompt", request.prompt}};
  return detail::call_for<CrawlParamsPreview>(
      *core_, detail::post("/v2/crawl/params-preview", body), options, "crawl params preview");
}

}  // namespace webdata
