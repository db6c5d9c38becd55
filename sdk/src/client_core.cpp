#include "client_core.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <random>

namespace webdata::detail {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

bool retryable_status(int status) {
  return status == 408 || status == 429 || status == 502 || status == 503 || status == 504;
}

Error timeout_error(const Call& call, const char* why) {
  return error_of(ErrorKind::kTimeout,
                  std::string(why) + " (" + call.method + " " + call.target + ")");
}

Error cancelled_error(const Call& call) {
  return error_of(ErrorKind::kCancelled, "cancelled (" + call.method + " " + call.target + ")");
}

}  // namespace

ClientCore::ClientCore(ClientOptions options, ApiVersion version)
    : options_(std::move(options)), version_(version) {
  base_url_ = options_.api_url.empty() ? env_or("WEBDATA_API_URL", "http://127.0.0.1:3002")
                                       : options_.api_url;
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
  if (options_.api_key.empty()) options_.api_key = env_or("WEBDATA_API_KEY", "");
  bearer_ = "Bearer " + options_.api_key;
  if (!options_.transport) options_.transport = make_curl_transport();
  if (!options_.clock) options_.clock = steady_clock();
}

CurlTransportOptions ClientCore::connection_options() const {
  return options_.transport->connection_options().value_or(CurlTransportOptions{});
}

Deadline ClientCore::deadline_for(const CallOptions& options) const {
  Deadline deadline = options.deadline;
  if (options.total_timeout) {
    const auto end = options_.clock->now() + *options.total_timeout;
    deadline = deadline ? std::min(*deadline, end) : end;
  }
  return deadline;
}

std::chrono::milliseconds ClientCore::backoff(const RetryPolicy& policy, int attempt) const {
  double delay = static_cast<double>(policy.initial_backoff.count());
  for (int i = 0; i < attempt; ++i) delay *= policy.multiplier;
  delay = std::min(delay, static_cast<double>(policy.max_backoff.count()));
  const double jitter = std::clamp(policy.jitter, 0.0, 1.0);
  if (jitter > 0) {
    thread_local std::mt19937 gen{std::random_device{}()};
    std::uniform_real_distribution<double> spread(1.0 - jitter, 1.0 + jitter);
    delay *= spread(gen);
  }
  return std::chrono::milliseconds(static_cast<long long>(std::max(0.0, delay)));
}

Result<HttpResponse> ClientCore::execute(const Call& call, const CallOptions& options,
                                         Deadline deadline) const {
  const RetryPolicy& policy = options.retry ? *options.retry : options_.retry;
  // A job-creating POST that reached the service may have created the job even when the
  // answer was lost; only an idempotency key lets the service recognise the repeat.
  const bool may_retry = !call.creates_job || options.idempotency_key.has_value();
  const CancellationToken token = options.cancel ? *options.cancel : CancellationToken();

  HttpRequest request;
  request.method = call.method;
  request.url = call.target.rfind("http://", 0) == 0 || call.target.rfind("https://", 0) == 0
                    ? call.target
                    : base_url_ + call.target;
  request.headers.reserve(4 + options_.headers.size() + options.headers.size());
  request.headers.emplace_back("Accept", "application/json");
  if (!options_.api_key.empty()) request.headers.emplace_back("Authorization", bearer_);
  if (!call.body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  if (options.idempotency_key) {
    request.headers.emplace_back("x-idempotency-key", *options.idempotency_key);
  }
  for (const auto& h : options_.headers) request.headers.push_back(h);
  for (const auto& h : options.headers) request.headers.push_back(h);
  request.body = call.body;
  request.form = call.form;

  std::chrono::milliseconds per_request = options_.timeout;
  if (call.min_timeout) per_request = std::max(per_request, *call.min_timeout);
  if (options.timeout) per_request = *options.timeout;

  for (int attempt = 0;; ++attempt) {
    if (token.cancelled()) return cancelled_error(call);
    request.timeout = per_request;
    if (deadline) {
      const auto now = options_.clock->now();
      if (now >= *deadline) return timeout_error(call, "deadline exceeded");
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - now);
      request.timeout = std::min(request.timeout, std::max(left, std::chrono::milliseconds(1)));
    }

    auto sent = options_.transport->send(request);
    std::optional<Error> failed =
        sent.ok() ? answer_error(request, *sent) : std::optional<Error>(sent.error());
    if (!failed) return sent;
    Error err = std::move(*failed);

    if (!err.retryable || !may_retry || attempt >= policy.max_retries) return err;
    std::chrono::milliseconds delay = backoff(policy, attempt);
    // The service's wish replaces the computed delay but not the policy's cap: a caller that
    // allows at most `max_backoff` between attempts does not wait an hour because asked to.
    if (policy.honour_retry_after && err.retry_after) {
      delay = std::min(*err.retry_after, policy.max_backoff);
    }
    if (deadline && options_.clock->now() + delay >= *deadline) return err;
    options_.clock->sleep_for(delay, token);
    if (token.cancelled()) return cancelled_error(call);
  }
}

Result<json> ClientCore::execute_json(const Call& call, const CallOptions& options,
                                      Deadline deadline) const {
  auto response = execute(call, options, deadline);
  if (!response.ok()) return response.error();
  auto tree = parse_body(response->body);
  if (!tree.ok()) return unreadable_answer(tree.error(), call, *response);
  const json& body = *tree;
  if (body.is_object() && body.contains("success") && body["success"] == false) {
    return http_error(*response);
  }
  return tree;
}

Result<StatusChunk> ClientCore::execute_status(const Call& call, const CallOptions& options,
                                               Deadline deadline, const char* what) const {
  auto response = execute(call, options, deadline);
  if (!response.ok()) return response.error();
  auto chunk = StatusChunk::scan(std::move(response->body));
  if (!chunk.ok()) return unreadable_answer(chunk.error(), call, *response);
  if (chunk->reports_failure()) {
    response->body = std::move(*chunk).take_body();
    return http_error(*response);
  }
  if (auto err = chunk->decode_head(what)) return *err;
  return chunk;
}

Result<std::string> ClientCore::resolve_next(const std::string& next) const {
  std::size_t path_start = 0;
  const auto scheme = next.find("://");
  if (scheme != std::string::npos) {
    path_start = next.find('/', scheme + 3);
    if (path_start == std::string::npos) path_start = next.size();
  }
  for (const char* prefix : {"/v2/", "/v1/"}) {
    const auto pos = next.find(prefix, path_start);
    if (pos != std::string::npos) return base_url_ + next.substr(pos);
  }
  if (next.rfind(base_url_ + "/", 0) == 0) return next;
  return error_of(ErrorKind::kParse,
                  "refusing to follow a `next` address outside the API: " + next);
}

std::string request_id_of(const Headers& headers) {
  // x-request-id is the common one; request-id (Azure, Stripe), x-amzn-requestid (AWS API
  // Gateway) and cf-ray (Cloudflare, in front of many deployments) are what support asks for.
  for (const char* name : {"x-request-id", "request-id", "x-amzn-requestid", "cf-ray"}) {
    if (auto value = find_header(headers, name)) {
      if (!value->empty()) return *value;
    }
  }
  return {};
}

void attach_response(Error& error, const HttpResponse& response) {
  error.headers = response.headers;
  error.request_id = request_id_of(response.headers);
}

Error unreadable_answer(Error err, const Call& call, const HttpResponse& response) {
  err.http_status = response.status;
  err.message += " (" + call.method + " " + call.target + ")";
  attach_response(err, response);
  return err;
}

std::optional<Error> answer_error(const HttpRequest& request, const HttpResponse& response) {
  auto line = describe_non_json_answer(request.method, request.url, response);
  if (!line && response.status >= 200 && response.status < 300) return std::nullopt;
  Error err = http_error(response);
  if (line) {
    err.kind = ErrorKind::kNotJson;
    err.message = std::move(*line);
  }
  return err;
}

Error http_error(const HttpResponse& response) {
  Error err;
  err.kind = ErrorKind::kHttp;
  attach_response(err, response);
  err.http_status = response.status;
  err.raw_body = response.body.size() > 65536 ? response.body.substr(0, 65536) : response.body;
  err.retryable = retryable_status(response.status);
  if (auto retry_after = response.header("Retry-After")) {
    err.retry_after = parse_retry_after(*retry_after);
  }
  auto tree = json::parse(response.body, nullptr, false);
  if (!tree.is_discarded() && tree.is_object()) {
    if (tree.contains("error") && tree["error"].is_string()) {
      err.message = tree["error"].get<std::string>();
    }
    if (tree.contains("code") && tree["code"].is_string())
      err.code = tree["code"].get<std::string>();
    if (tree.contains("details") && !tree["details"].is_null()) err.details = dump(tree["details"]);
  }
  if (err.message.empty()) {
    err.message = response.body.empty() ? "no body" : response.body.substr(0, 200);
  }
  return err;
}

std::optional<std::chrono::milliseconds> parse_retry_after(const std::string& value) {
  std::string v = value;
  v.erase(0, v.find_first_not_of(" \t"));
  v.erase(v.find_last_not_of(" \t") + 1);
  if (v.empty()) return std::nullopt;
  if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (v.size() > 9) return std::chrono::hours(24);
    return std::chrono::seconds(std::stoll(v));
  }
  std::tm tm{};
  if (strptime(v.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm) == nullptr) return std::nullopt;
  const auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  const auto left = at - std::chrono::system_clock::now();
  if (left <= std::chrono::system_clock::duration::zero()) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(left);
}

std::string escape_segment(const std::string& segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : segment) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0x0f];
    }
  }
  return out;
}

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace webdata::detail
