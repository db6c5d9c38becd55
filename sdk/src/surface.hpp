#pragma once

// The calls beyond the specification's core (sdk/src/client_surface.cpp), once for both API
// versions: the core's version chooses the path, the request's type what is sent.
#include <string>

#include "client_core.hpp"
#include "webdata/extract.hpp"
#include "webdata/map.hpp"
#include "webdata/usage.hpp"
#include "webdata/v1/map.hpp"

namespace webdata::detail {

/// POST /{version}/map; `Request` is `MapRequest` or `v1::MapRequest`.
template <class Request>
Result<MapResult> map(const ClientCore& core, const Request& request, const CallOptions& options);
Result<CreditUsage> credit_usage(const ClientCore& core, const CallOptions& options);
Result<TokenUsage> token_usage(const ClientCore& core, const CallOptions& options);
/// The historical usage of `noun`, "credit" or "token".
Result<UsageHistory> usage_history(const ClientCore& core, const char* noun, bool by_api_key,
                                   const CallOptions& options);
Result<QueueStatus> queue_status(const ClientCore& core, const CallOptions& options);
Result<Concurrency> concurrency(const ClientCore& core, const CallOptions& options);
/// POST /{version}/extract; `Request` is `ExtractRequest` or `v1::ExtractRequest`.
template <class Request>
Result<ExtractStarted> start_extract(const ClientCore& core, const Request& request,
                                     const CallOptions& options);
Result<ExtractResult> extract_status(const ClientCore& core, const std::string& id,
                                     const CallOptions& options);
/// Starts an extract job and polls it until it ends (`BasicClient::extract`).
template <class Request>
Result<ExtractResult> extract(const ClientCore& core, const Request& request,
                              const PollingPolicy& policy, const CallOptions& options);

}  // namespace webdata::detail
