#pragma once

#include <string_view>

#include "webdata/json.hpp"
#include "webdata/result.hpp"

namespace webdata {

/// The wire JSON of a model: a request exactly as the client sends it (unset optionals left
/// out), a response resource as it was read (unknown keys included). Useful for logging,
/// storing results, or validating against the schemas.
///
///     std::cout << webdata::to_json(request).pretty();
///     auto doc = webdata::from_json<webdata::Document>(stored_text);
///
/// Available for every request, option and resource model of `webdata` and `webdata::v1`
/// (ScrapeRequest, ScrapeOptions, BatchScrapeRequest, CrawlRequest, SearchRequest,
/// AgentRequest, Document, Metadata, ChangeTracking, ActionsResult, FormatEntry, Action,
/// Location, WebhookSpec, SearchResults, WebResult, ImageResult, NewsResult, JobStarted,
/// JobStatus, JobErrors, ActiveCrawl, AgentResult, webhooks::Event, v1::ScrapeRequest,
/// v1::ScrapeOptions, v1::BatchScrapeRequest, v1::CrawlRequest, v1::SearchRequest,
/// v1::SearchResults).
template <class T>
Json to_json(const T& value);

/// Reads a model from JSON text; a kParse error naming the offending path otherwise.
template <class T>
Result<T> from_json(std::string_view json_text);

}  // namespace webdata
