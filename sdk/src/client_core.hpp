#pragma once

// What every client and job handle shares: configuration, transport, clock, and the one
// function that performs an HTTP call with auth, timeouts, deadline and retries.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "codec.hpp"
#include "errors.hpp"
#include "status_chunk.hpp"
#include "webdata/api_version.hpp"
#include "webdata/options.hpp"
#include "webdata/transport.hpp"

namespace webdata::detail {

struct Call {
  std::string method = "GET";
  std::string target;  ///< A path ("/v2/scrape") or an absolute URL already resolved.
  std::string body;    ///< JSON; empty for none.
  std::vector<FormPart> form;  ///< A multipart/form-data body instead (POST /v2/parse).
  bool creates_job = false;
  /// Per-request timeout floor (a scrape asking the service for a long `timeout`).
  std::optional<std::chrono::milliseconds> min_timeout;
};

using Deadline = std::optional<Clock::TimePoint>;

class ClientCore {
 public:
  ClientCore(ClientOptions options, ApiVersion version);

  const std::string& api_url() const { return base_url_; }
  ApiVersion version() const { return version_; }
  /// `rest` under the version's prefix: path("/crawl") is "/v2/crawl" on a v2 client.
  std::string path(const std::string& rest) const {
    return std::string("/") + to_string(version_) + rest;
  }
  /// How the transport connects (TLS, proxy, user agent), for the watcher's own connection.
  CurlTransportOptions connection_options() const;
  /// The key sent as `Authorization: Bearer` (empty: none); for connections that bypass the
  /// transport (the crawl watcher's WebSocket).
  const std::string& api_key() const { return options_.api_key; }
  /// Headers of every request, from the client options.
  const Headers& default_headers() const { return options_.headers; }
  const Clock& clock() const { return *options_.clock; }

  /// The end of a call started now: the earlier of `deadline` and now + `total_timeout`.
  Deadline deadline_for(const CallOptions& options) const;

  /// One call: its HTTP requests (the first and any retries). A 2xx answer is returned, every
  /// other outcome is an `Error`.
  Result<HttpResponse> execute(const Call& call, const CallOptions& options,
                               Deadline deadline) const;

  /// `execute`, then the body as a JSON tree; a 2xx `success: false` body is an error too.
  Result<json> execute_json(const Call& call, const CallOptions& options, Deadline deadline) const;

  /// `execute` for a job status answer, without a tree of the whole body: the answer kept as
  /// a `StatusChunk` with its head decoded. The same errors as `execute_json` followed by
  /// `decode_response<JobStatus>`.
  Result<StatusChunk> execute_status(const Call& call, const CallOptions& options,
                                     Deadline deadline, const char* what) const;

  /// A `next` address made safe to follow: its path from the version prefix on, appended to the
  /// configured base URL, so credentials never go to another origin.
  Result<std::string> resolve_next(const std::string& next) const;

 private:
  std::chrono::milliseconds backoff(const RetryPolicy& policy, int attempt) const;

  ClientOptions options_;
  ApiVersion version_;
  std::string base_url_;
  std::string bearer_;  ///< The Authorization header's value.
};

/// What is wrong with an answer, if anything: a kNotJson error when its body is not JSON (any
/// status), the `http_error` of a non-2xx JSON answer, nullopt for a 2xx JSON answer.
std::optional<Error> answer_error(const HttpRequest& request, const HttpResponse& response);

/// Builds the `Error` of a non-2xx answer from its body (`error`, `code`, `details`), with
/// the answer's headers and request id.
Error http_error(const HttpResponse& response);

/// Copies what an `Error` keeps of the answer it is about: headers and request id.
void attach_response(Error& error, const HttpResponse& response);

/// `err`, the parse error of a 2xx answer's body, told about the call and the answer.
Error unreadable_answer(Error err, const Call& call, const HttpResponse& response);

/// Runs a call answered `{success, data: <document>, warning?}` (a scrape, a parse): the
/// document is decoded from its own text, without a tree of the answer, and takes the answer's
/// `warning` when it has none. `what` names the answer in errors ("scrape").
Result<Document> document_call(const ClientCore& core, const Call& call, const CallOptions& options,
                               const char* what);

/// The request id of an answer: the first of the headers services use for it.
std::string request_id_of(const Headers& headers);

/// `Retry-After` as a delay: delta-seconds or an HTTP-date.
std::optional<std::chrono::milliseconds> parse_retry_after(const std::string& value);

/// Percent-encodes a path segment (job ids come from callers).
std::string escape_segment(const std::string& segment);

/// JSON text of a request body.
std::string dump(const json& j);

template <class T>
Result<T> decode_response(const Result<json>& tree, const char* what) {
  if (!tree.ok()) return tree.error();
  return decode_tree<T>(*tree, what);
}

/// A GET of `target`.
inline Call get(std::string target) {
  Call call;
  call.target = std::move(target);
  return call;
}

/// A call of `method` on `target` with the JSON text of `body` (nullptr: no body).
inline Call json_call(const char* method, std::string target, const json* body = nullptr) {
  Call call;
  call.method = method;
  call.target = std::move(target);
  if (body != nullptr) call.body = dump(*body);
  return call;
}

/// A POST of `body` to `target`.
inline Call post(std::string target, const json& body) {
  return json_call("POST", std::move(target), &body);
}

/// A POST that creates a job: retried only with an idempotency key (`ClientCore::execute`).
inline Call job_post(std::string target, const json& body) {
  Call call = post(std::move(target), body);
  call.creates_job = true;
  return call;
}

/// The time the HTTP request of a call that asks the service to work up to `service_timeout`
/// (the `timeout` of a scrape, search, map or parse) may take: that plus a margin.
inline std::optional<std::chrono::milliseconds> request_time_for(
    std::optional<std::chrono::milliseconds> service_timeout) {
  if (!service_timeout) return std::nullopt;
  return *service_timeout + std::chrono::seconds(10);
}

/// A POST of a request that asks the service to work up to `service_timeout`
/// (`request_time_for`).
inline Call post_with_timeout(std::string target, const json& body,
                              std::optional<std::chrono::milliseconds> service_timeout) {
  Call call = post(std::move(target), body);
  call.min_timeout = request_time_for(service_timeout);
  return call;
}

/// A target with query parameters appended, each value percent-encoded: an unset optional adds
/// nothing, a list repeats its name (`?categories=a&categories=b`).
///
///     Query q("/v2/monitor");
///     q.add("limit", paging.limit).add("offset", paging.offset);
///     get(q.target());
class Query {
 public:
  explicit Query(std::string target) : target_(std::move(target)) {}

  Query& add(const char* name, const std::string& value) {
    target_ += (target_.find('?') == std::string::npos ? "?" : "&");
    target_ += name;
    target_ += "=" + escape_segment(value);
    return *this;
  }
  template <class N, std::enable_if_t<std::is_integral_v<N> && !std::is_same_v<N, bool>, int> = 0>
  Query& add(const char* name, N value) {
    return add(name, std::to_string(value));
  }
  template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
  Query& add(const char* name, B value) {
    return add(name, std::string(value ? "true" : "false"));
  }
  template <class T>
  Query& add(const char* name, const std::optional<T>& value) {
    return value ? add(name, *value) : *this;
  }
  Query& add(const char* name, const std::vector<std::string>& values) {
    for (const auto& value : values) add(name, value);
    return *this;
  }

  const std::string& target() const { return target_; }

 private:
  std::string target_;
};

/// The end of a wait: the call's deadline, or `policy.max_wait` from now when that is sooner.
inline Deadline wait_deadline(const ClientCore& core, const PollingPolicy& policy,
                              const CallOptions& options) {
  Deadline deadline = core.deadline_for(options);
  if (policy.max_wait) {
    const auto end = core.clock().now() + *policy.max_wait;
    deadline = deadline ? std::min(*deadline, end) : end;
  }
  return deadline;
}

/// Runs a call and decodes its answer with `decoder`, turning shape errors into kParse errors.
template <class T, class Decoder>
Result<T> call_and_decode(const ClientCore& core, const Call& call, const CallOptions& options,
                          const char* what, Decoder decoder) {
  auto tree = core.execute_json(call, options, core.deadline_for(options));
  if (!tree.ok()) return tree.error();
  try {
    return decoder(*tree);
  } catch (const ParseError& e) {
    return shape_error(what, e.what(), tree_text(*tree));
  }
}

/// `decode` of an answer model from its field list `fields(Reader&, T&)`: unknown members go to
/// its `extras`, and a model with `diagnostics` collects the answer's oddities there.
#define WEBDATA_ANSWER_CODEC(T) \
  void decode(const json& j, T& out, const Path& p) { read_fields(j, out, p); }

/// An answer that is the model `T` itself; `success` is not kept among its extras.
template <class T>
T answer_model(const json& j) {
  T out{};
  decode(j, out, Path{});
  if constexpr (HasExtras<T>::value) out.extras.erase("success");
  return out;
}

/// Member `key` of an answer as `T`: a model (its diagnostics collect the answer's) or a list of
/// models (each with its own). Absent or null: empty, unless `rules` has kRequired.
template <class T>
T answer_member(const json& j, const char* key, Rules rules = 0) {
  T out{};
  Path root;
  if constexpr (HasDiagnostics<T>::value) root = root.collecting(out.diagnostics);
  Reader top(j, root);
  top(key, out, rules);
  return out;
}

/// Runs a call whose answer is the model `T` (`answer_model`).
template <class T>
Result<T> call_for(const ClientCore& core, const Call& call, const CallOptions& options,
                   const char* what) {
  return call_and_decode<T>(core, call, options, what, answer_model<T>);
}

/// Runs a call whose answer holds `T` in member `key` (`answer_member`): "data" of the
/// `{success, data}` answers.
template <class T>
Result<T> call_for_member(const ClientCore& core, const Call& call, const CallOptions& options,
                          const char* what, const char* key, Rules rules = 0) {
  return call_and_decode<T>(core, call, options, what,
                            [key, rules](const json& j) { return answer_member<T>(j, key, rules); });
}

}  // namespace webdata::detail
