// The endpoints beyond the specification's core that deployments serve and official clients
// call: map, crawl params preview, team usage, queue status, concurrency and extract (v2, v1). Kept
// out of client.cpp so that the client core can change without touching them.
#include "job_follower.hpp"
#include "surface.hpp"
#include "webdata/client.hpp"
#include "webdata/v1/client.hpp"

#include <algorithm>
#include <chrono>

namespace webdata {
namespace detail {
namespace {

// ---- codecs (answers are decoded leniently: unknown members go to `extras`)

void decode_link(const json& j, MapLink& out, const Path& p) {
  if (j.is_string()) {  // v1, and v2 deployments that answer plain strings
    out.url = j.get<std::string>();
    return;
  }
  Reader r(j, p);
  r.req("url", out.url);
  r("title", out.title);
  r("description", out.description);
  r.rest(out.extras);
}

MapResult decode_map(const json& j) {
  MapResult out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r.each("links", out.links, [](const json& item, const Path& lp) {
    MapLink link;
    decode_link(item, link, lp);
    return link;
  });
  r("warning", out.warning);
  r.rest(out.extras);
  return out;
}

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

QueueStatus decode_queue(const json& j) {
  QueueStatus out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader r(j, root);
  r.skip("success");
  r("jobsInQueue", out.jobs_in_queue);
  r("activeJobsInQueue", out.active_jobs_in_queue);
  r("waitingJobsInQueue", out.waiting_jobs_in_queue);
  r("maxConcurrency", out.max_concurrency);
  r("mostRecentSuccess", out.most_recent_success);
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

CrawlParamsPreview decode_preview(const json& j) {
  CrawlParamsPreview out;
  const Path root = Path{}.collecting(out.diagnostics);
  Reader r(j, root);
  r.skip("success");
  if (const json* data = r.find("data"); data != nullptr && !data->is_null()) {
    decode(*data, out.request, root.child("data"));
  }
  r("warning", out.warning);
  r.rest(out.extras);
  return out;
}

}  // namespace

// What a map request sends; the two versions differ in how they name the sitemap's use.
template <class IO, class R>
void map_tail_fields(IO& io, R& r) {
  io("includeSubdomains", r.include_subdomains);
  io("ignoreQueryParameters", r.ignore_query_parameters);
  io("limit", r.limit);
  io("timeout", r.timeout);
  io("location", r.location);
  io("origin", r.origin);
  io("integration", r.integration);
}
template <class IO, class M, IfModel<M, MapRequest> = 0>
void fields(IO& io, M& r) {
  io("url", r.url);
  io("search", r.search);
  io("sitemap", r.sitemap);
  map_tail_fields(io, r);
}
template <class IO, class M, IfModel<M, v1::MapRequest> = 0>
void fields(IO& io, M& r) {
  io("url", r.url);
  io("search", r.search);
  io("ignoreSitemap", r.ignore_sitemap);
  io("sitemapOnly", r.sitemap_only);
  map_tail_fields(io, r);
}

// The usage calls are the same in both versions but for the path prefix.
template <class Request>
Result<MapResult> map(const ClientCore& core, const Request& request, const CallOptions& options) {
  const Call call = post_with_timeout(core.path("/map"), write_fields(request), request.timeout);
  return call_and_decode<MapResult>(core, call, options, "map result", decode_map);
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
  return call_and_decode<QueueStatus>(core, get(core.path("/team/queue-status")), options,
                                      "queue status", decode_queue);
}

Result<Concurrency> concurrency(const ClientCore& core, const CallOptions& options) {
  return call_and_decode<Concurrency>(core, get(core.path("/concurrency-check")), options,
                                      "concurrency check", decode_concurrency);
}

namespace {

// ---- extract

template <class Request>
json encode_extract(const Request& v) {
  Writer w;
  w.val("urls", v.urls);
  w("prompt", v.prompt);
  w("schema", v.schema);
  w("systemPrompt", v.system_prompt);
  w("allowExternalLinks", v.allow_external_links);
  w("enableWebSearch", v.enable_web_search);
  if constexpr (std::is_same_v<Request, v1::ExtractRequest>) {
    w("includeSubdomains", v.include_subdomains);
  }
  w("showSources", v.show_sources);
  w("ignoreInvalidURLs", v.ignore_invalid_urls);
  w("scrapeOptions", v.scrape_options);
  w("origin", v.origin);
  w("integration", v.integration);
  return std::move(w.out);
}

ExtractStarted decode_extract_started(const json& j) {
  ExtractStarted out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r.skip("success");
  r.req("id", out.id);
  r("invalidURLs", out.invalid_urls);
  r("warning", out.warning);
  r.rest(out.extras);
  return out;
}

ExtractResult decode_extract(const json& j) {
  ExtractResult out;
  const Path p = Path{}.collecting(out.diagnostics);
  Reader r(j, p);
  r("success", out.success);
  r.req("status", out.status);
  r("data", out.data);
  r.custom("sources", out.sources, [&out](const json& sources, const Path& sp) {
    if (!sources.is_object()) {
      fail(sp, std::string("expected an object, got ") + type_name(sources));
    }
    for (const auto& [field, urls] : sources.items()) {
      // Deployments name pages as a list of URLs; anything else is kept as text.
      std::vector<std::string>& list = out.sources[field];
      if (urls.is_array()) {
        for (const auto& url : urls)
          list.push_back(url.is_string() ? url.get<std::string>() : url.dump());
      } else if (urls.is_string()) {
        list.push_back(urls.get<std::string>());
      }
    }
  });
  r("expiresAt", out.expires_at);
  r("creditsUsed", out.credits_used);
  r("tokensUsed", out.tokens_used);
  r("warning", out.warning);
  r("error", out.error);
  r.rest(out.extras);
  return out;
}

}  // namespace

template <class Request>
Result<ExtractStarted> start_extract(const ClientCore& core, const Request& request,
                                     const CallOptions& options) {
  if (request.urls.empty()) {
    Error err;
    err.kind = ErrorKind::kInvalidArgument;
    err.message = "extract needs at least one URL";
    return err;
  }
  return call_and_decode<ExtractStarted>(core, post(core.path("/extract"), encode_extract(request)),
                                         options, "extract start", decode_extract_started);
}

Result<ExtractResult> extract_status(const ClientCore& core, const std::string& id,
                                     const CallOptions& options) {
  const std::string target = core.path("/extract/" + escape_segment(id));
  auto status =
      call_and_decode<ExtractResult>(core, get(target), options, "extract status", decode_extract);
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
    return decode_extract(body);
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
  return detail::call_and_decode<CrawlParamsPreview>(
      *core_, detail::post("/v2/crawl/params-preview", body), options, "crawl params preview",
      detail::decode_preview);
}

}  // namespace webdata
