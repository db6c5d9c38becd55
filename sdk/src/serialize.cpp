#include "webdata/serialize.hpp"

#include "codec.hpp"
#include "status_chunk.hpp"

namespace webdata {
namespace {

Error not_json_text() {
  return detail::error_of(ErrorKind::kParse, "not valid JSON text");
}

}  // namespace

template <class T>
Json to_json(const T& value) {
  return detail::from_tree(detail::encode(value));
}

template <class T>
Result<T> from_json(std::string_view json_text) {
  auto tree = detail::json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (tree.is_discarded()) return not_json_text();
  return detail::decode_tree<T>(tree, "JSON");
}

// A status chunk can be 10 MB: decoded without a tree of the whole text (status_chunk.hpp).
template <>
Result<JobStatus> from_json<JobStatus>(std::string_view json_text) {
  auto status = detail::decode_status_text(json_text, "JSON");
  if (!status) return not_json_text();
  return std::move(*status);
}
template Json to_json<JobStatus>(const JobStatus& value);

#define WEBDATA_SERIALIZE(T)                \
  template Json to_json<T>(const T& value); \
  template Result<T> from_json<T>(std::string_view json_text);
WEBDATA_SERIALIZE(FormatEntry)
WEBDATA_SERIALIZE(Action)
WEBDATA_SERIALIZE(Location)
WEBDATA_SERIALIZE(WebhookSpec)
WEBDATA_SERIALIZE(ScrapeOptions)
WEBDATA_SERIALIZE(ScrapeRequest)
WEBDATA_SERIALIZE(BatchScrapeRequest)
WEBDATA_SERIALIZE(CrawlRequest)
WEBDATA_SERIALIZE(SearchRequest)
WEBDATA_SERIALIZE(AgentRequest)
WEBDATA_SERIALIZE(Metadata)
WEBDATA_SERIALIZE(ChangeTracking)
WEBDATA_SERIALIZE(ActionsResult)
WEBDATA_SERIALIZE(Document)
WEBDATA_SERIALIZE(WebResult)
WEBDATA_SERIALIZE(ImageResult)
WEBDATA_SERIALIZE(NewsResult)
WEBDATA_SERIALIZE(SearchResults)
WEBDATA_SERIALIZE(JobStarted)
WEBDATA_SERIALIZE(JobError)
WEBDATA_SERIALIZE(JobErrors)
WEBDATA_SERIALIZE(ActiveCrawl)
WEBDATA_SERIALIZE(AgentResult)
WEBDATA_SERIALIZE(webhooks::Event)
WEBDATA_SERIALIZE(v1::JsonOptions)
WEBDATA_SERIALIZE(v1::ChangeTrackingOptions)
WEBDATA_SERIALIZE(v1::ScrapeOptions)
WEBDATA_SERIALIZE(v1::ScrapeRequest)
WEBDATA_SERIALIZE(v1::BatchScrapeRequest)
WEBDATA_SERIALIZE(v1::CrawlRequest)
WEBDATA_SERIALIZE(v1::SearchRequest)
WEBDATA_SERIALIZE(v1::SearchResults)
#undef WEBDATA_SERIALIZE

}  // namespace webdata
