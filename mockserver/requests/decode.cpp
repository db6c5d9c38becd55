#include <webdata/contract/schemas.hpp>

#include <array>

#include "requests/requests.hpp"
#include "requests/shapes.hpp"

namespace webdata::mock::requests {

using nlohmann::json;

namespace wire {

namespace {

/// A name or a `{type, ...}` object (formats, parsers, sources, categories).
template <class T>
void read_named(const json& in, T& out, const Context& ctx) {
  if (in.is_string()) {
    out.type = in.get<std::string>();
    return;
  }
  out.as_object = true;
  read_object(in, out, ctx);
}

template <class T>
json write_named(const T& value, const Emit& emit) {
  if (!value.as_object) return value.type;
  json out = json::object();
  write_fields(value, out, emit);
  return out;
}

}  // namespace

void read(const json& in, Format& out, const Context& ctx) { read_named(in, out, ctx); }
json write(const Format& value, const Emit& emit) { return write_named(value, emit); }
void read(const json& in, Parser& out, const Context& ctx) { read_named(in, out, ctx); }
json write(const Parser& value, const Emit& emit) { return write_named(value, emit); }
void read(const json& in, SearchSource& out, const Context& ctx) { read_named(in, out, ctx); }
json write(const SearchSource& value, const Emit& emit) { return write_named(value, emit); }
void read(const json& in, SearchCategory& out, const Context& ctx) { read_named(in, out, ctx); }
json write(const SearchCategory& value, const Emit& emit) { return write_named(value, emit); }

void read(const json& in, ScrapeOptions& out, const Context& ctx) {
  out.version = ctx.version;
  read_object(in, out, ctx);
}

}  // namespace wire

namespace {

/// Nested scrape options carry the request's version whether or not the body had them.
void set_version(ScrapeRequest& r, Version v) { r.options.version = v; }
void set_version(BatchScrapeRequest& r, Version v) { r.options.version = v; }
void set_version(CrawlRequest& r, Version v) { r.scrape_options.version = v; }
void set_version(SearchRequest& r, Version v) { r.scrape_options.version = v; }
void set_version(ExtractRequest& r, Version v) { r.scrape_options.version = v; }
template <class T>
void set_version(T&, Version) {}

/// The schema of each request type, without its version ("scrape.request").
template <class T>
constexpr const char* kSchema = nullptr;
template <>
constexpr const char* kSchema<ScrapeRequest> = "scrape.request";
template <>
constexpr const char* kSchema<BatchScrapeRequest> = "batch-scrape.request";
template <>
constexpr const char* kSchema<CrawlRequest> = "crawl.request";
template <>
constexpr const char* kSchema<MapRequest> = "map.request";
template <>
constexpr const char* kSchema<SearchRequest> = "search.request";
template <>
constexpr const char* kSchema<ExtractRequest> = "extract.request";
template <>
constexpr const char* kSchema<AgentRequest> = "agent.request";
template <>
constexpr const char* kSchema<CrawlPreviewRequest> = "crawl-params-preview.request";
template <>
constexpr const char* kSchema<DeepResearchRequest> = "deep-research.request";
template <>
constexpr const char* kSchema<LlmsTxtRequest> = "llmstxt.request";
template <>
constexpr const char* kSchema<MonitorRequest> = "monitor.request";
template <>
constexpr const char* kSchema<MonitorUpdateRequest> = "monitor-update.request";
template <>
constexpr const char* kSchema<ResearchPapersRequest> = "research-papers.request";
template <>
constexpr const char* kSchema<ResearchPaperRequest> = "research-paper.request";
template <>
constexpr const char* kSchema<ResearchSimilarRequest> = "research-similar.request";
template <>
constexpr const char* kSchema<ResearchGithubRequest> = "research-github.request";
template <>
constexpr const char* kSchema<DeveloperSearchRequest> = "developer-search.request";
template <>
constexpr const char* kSchema<SearchFeedbackRequest> = "search-feedback.request";
template <>
constexpr const char* kSchema<FeedbackRequest> = "feedback.request";
template <>
constexpr const char* kSchema<SupportAskRequest> = "support-ask.request";
template <>
constexpr const char* kSchema<BrowserRequest> = "browser.request";
template <>
constexpr const char* kSchema<BrowserExecuteRequest> = "browser-execute.request";
template <>
constexpr const char* kSchema<InteractRequest> = "interact.request";

}  // namespace

template <class T>
T decode(const json& body, Version version, std::vector<std::string>* unread) {
  T out;
  out.version = version;
  set_version(out, version);
  wire::read_object(body, out, wire::Context{version, unread, std::string()});
  return out;
}

template <class T>
json encode(const T& request) {
  json out = json::object();
  wire::write_fields(request, out, wire::Emit{request.version});
  return out;
}

template <class T>
std::string schema_name(Version version) {
  return std::string(version_name(version)) + "/" + kSchema<T>;
}

#define WEBDATA_REQUEST_TYPE(T)                                                        \
  template T decode<T>(const json&, Version, std::vector<std::string>*);               \
  template json encode<T>(const T&);                                                   \
  template std::string schema_name<T>(Version);

WEBDATA_REQUEST_TYPE(ScrapeRequest)
WEBDATA_REQUEST_TYPE(BatchScrapeRequest)
WEBDATA_REQUEST_TYPE(CrawlRequest)
WEBDATA_REQUEST_TYPE(MapRequest)
WEBDATA_REQUEST_TYPE(SearchRequest)
WEBDATA_REQUEST_TYPE(ExtractRequest)
WEBDATA_REQUEST_TYPE(AgentRequest)
WEBDATA_REQUEST_TYPE(CrawlPreviewRequest)
WEBDATA_REQUEST_TYPE(DeepResearchRequest)
WEBDATA_REQUEST_TYPE(LlmsTxtRequest)
WEBDATA_REQUEST_TYPE(MonitorRequest)
WEBDATA_REQUEST_TYPE(MonitorUpdateRequest)
WEBDATA_REQUEST_TYPE(ResearchPapersRequest)
WEBDATA_REQUEST_TYPE(ResearchPaperRequest)
WEBDATA_REQUEST_TYPE(ResearchSimilarRequest)
WEBDATA_REQUEST_TYPE(ResearchGithubRequest)
WEBDATA_REQUEST_TYPE(DeveloperSearchRequest)
WEBDATA_REQUEST_TYPE(SearchFeedbackRequest)
WEBDATA_REQUEST_TYPE(FeedbackRequest)
WEBDATA_REQUEST_TYPE(SupportAskRequest)
WEBDATA_REQUEST_TYPE(BrowserRequest)
WEBDATA_REQUEST_TYPE(BrowserExecuteRequest)
WEBDATA_REQUEST_TYPE(InteractRequest)
#undef WEBDATA_REQUEST_TYPE

template json encode<ScrapeOptions>(const ScrapeOptions&);

const ScrapeOptions& ScrapeOptions::defaults(Version version) {
  static const std::array<ScrapeOptions, 2> kDefaults = [] {
    const auto& schemas = contract::SchemaSet::embedded();
    std::array<ScrapeOptions, 2> out;
    for (const Version v : {Version::v1, Version::v2}) {
      const json filled = schemas.with_defaults(
          std::string(version_name(v)) + "/scrape-options", json::object());
      wire::read(filled, out[v == Version::v1 ? 0 : 1], wire::Context{v, nullptr, std::string()});
    }
    return out;
  }();
  return kDefaults[version == Version::v1 ? 0 : 1];
}

ScrapeOptions decode_parse_options(const json& body, std::vector<std::string>* unread) {
  ScrapeOptions out = ScrapeOptions::defaults(Version::v2);
  wire::read(body, out, wire::Context{Version::v2, unread, std::string()});
  return out;
}

}  // namespace webdata::mock::requests
