#pragma once

// The wire names of every typed request field, each written once (internal to the requests
// layer: decode.cpp and scrape_options.cpp). The drift test holds these lists to the schemas.

#include <tuple>

#include "requests/requests.hpp"
#include "requests/wire.hpp"

namespace webdata::mock::requests::wire {

template <>
struct Shape<Viewport> {
  static constexpr auto fields =
      std::make_tuple(field("width", &Viewport::width), field("height", &Viewport::height));
};

template <>
struct Shape<Format> {
  static constexpr auto fields = std::make_tuple(
      field("type", &Format::type), field("fullPage", &Format::full_page),
      field("quality", &Format::quality), field("viewport", &Format::viewport),
      field("schema", &Format::schema), field("prompt", &Format::prompt),
      field("checkPromptInjection", &Format::check_prompt_injection),
      field("modes", &Format::modes), field("tag", &Format::tag),
      field("selectors", &Format::selectors), field("question", &Format::question),
      field("query", &Format::query), field("mode", &Format::mode));
};

template <>
struct Shape<Parser> {
  static constexpr auto fields = std::make_tuple(
      field("type", &Parser::type), field("mode", &Parser::mode),
      field("maxPages", &Parser::max_pages), field("pages", &Parser::pages),
      field("pageMarkdown", &Parser::page_markdown), field("blocks", &Parser::blocks),
      field("pageMarkers", &Parser::page_markers));
};

template <>
struct Shape<Location> {
  static constexpr auto fields = std::make_tuple(field("country", &Location::country),
                                                 field("languages", &Location::languages));
};

template <>
struct Shape<ExtractOptions> {
  static constexpr auto fields = std::make_tuple(
      field("schema", &ExtractOptions::schema),
      field("systemPrompt", &ExtractOptions::system_prompt),
      field("prompt", &ExtractOptions::prompt));
};

template <>
struct Shape<ChangeTrackingOptions> {
  static constexpr auto fields = std::make_tuple(
      field("modes", &ChangeTrackingOptions::modes), field("schema", &ChangeTrackingOptions::schema),
      field("prompt", &ChangeTrackingOptions::prompt), field("tag", &ChangeTrackingOptions::tag));
};

template <>
struct Shape<ScrapeOptions> {
  using S = ScrapeOptions;
  static constexpr auto fields = std::make_tuple(
      field("formats", &S::formats), field("onlyMainContent", &S::only_main_content),
      field("includeTags", &S::include_tags), field("excludeTags", &S::exclude_tags),
      field("maxAge", &S::max_age), field("headers", &S::headers),
      field("waitFor", &S::wait_for), field("mobile", &S::mobile),
      field("skipTlsVerification", &S::skip_tls_verification), field("timeout", &S::timeout),
      field("parsePDF", &S::parse_pdf, kV1), field("jsonOptions", &S::json_options, kV1),
      field("extract", &S::extract, kV1),
      field("changeTrackingOptions", &S::change_tracking_options, kV1),
      field("parsers", &S::parsers, kV2), field("actions", &S::actions),
      field("location", &S::location), field("removeBase64Images", &S::remove_base64_images),
      field("blockAds", &S::block_ads), field("proxy", &S::proxy),
      field("storeInCache", &S::store_in_cache),
      field("zeroDataRetention", &S::zero_data_retention),
      field("onlyCleanContent", &S::only_clean_content, kV2), field("minAge", &S::min_age, kV2),
      field("lockdown", &S::lockdown, kV2), field("redactPII", &S::redact_pii, kV2),
      field("profile", &S::profile, kV2), field("threatProtection", &S::threat_protection, kV2),
      field("auditMetadata", &S::audit_metadata, kV2), field("safeMode", &S::safe_mode, kV2),
      field("origin", &S::origin), field("integration", &S::integration));
};

template <>
struct Shape<ScrapeRequest> {
  static constexpr auto fields =
      std::make_tuple(field("url", &ScrapeRequest::url), flat(&ScrapeRequest::options));
};

template <>
struct Shape<BatchScrapeRequest> {
  using B = BatchScrapeRequest;
  static constexpr auto fields = std::make_tuple(
      field("urls", &B::urls), field("webhook", &B::webhook),
      field("maxConcurrency", &B::max_concurrency), field("appendToId", &B::append_to_id),
      field("ignoreInvalidURLs", &B::ignore_invalid_urls), flat(&B::options));
};

template <>
struct Shape<CrawlRequest> {
  using C = CrawlRequest;
  static constexpr auto fields = std::make_tuple(
      field("url", &C::url), field("prompt", &C::prompt, kV2),
      field("includePaths", &C::include_paths), field("excludePaths", &C::exclude_paths),
      field("maxDiscoveryDepth", &C::max_discovery_depth),
      field("ignoreQueryParameters", &C::ignore_query_parameters), field("limit", &C::limit),
      field("allowExternalLinks", &C::allow_external_links),
      field("allowSubdomains", &C::allow_subdomains),
      field("ignoreRobotsTxt", &C::ignore_robots_txt),
      field("deduplicateSimilarURLs", &C::deduplicate_similar_urls),
      field("regexOnFullURL", &C::regex_on_full_url), field("delay", &C::delay),
      field("maxConcurrency", &C::max_concurrency), field("webhook", &C::webhook),
      field("scrapeOptions", &C::scrape_options),
      field("zeroDataRetention", &C::zero_data_retention),
      field("crawlEntireDomain", &C::crawl_entire_domain, kV2),
      field("sitemap", &C::sitemap, kV2), field("maxDepth", &C::max_depth, kV1),
      field("ignoreSitemap", &C::ignore_sitemap, kV1),
      field("allowBackwardLinks", &C::allow_backward_links, kV1), field("origin", &C::origin),
      field("integration", &C::integration));
};

template <>
struct Shape<MapRequest> {
  using M = MapRequest;
  static constexpr auto fields = std::make_tuple(
      field("url", &M::url), field("search", &M::search), field("sitemap", &M::sitemap, kV2),
      field("ignoreSitemap", &M::ignore_sitemap, kV1),
      field("sitemapOnly", &M::sitemap_only, kV1),
      field("includeSubdomains", &M::include_subdomains),
      field("ignoreQueryParameters", &M::ignore_query_parameters), field("limit", &M::limit),
      field("timeout", &M::timeout), field("useIndex", &M::use_index, kV1),
      field("location", &M::location), field("threatProtection", &M::threat_protection, kV2),
      field("auditMetadata", &M::audit_metadata), field("origin", &M::origin),
      field("integration", &M::integration));
};

template <>
struct Shape<SearchSource> {
  using S = SearchSource;
  static constexpr auto fields = std::make_tuple(
      field("type", &S::type), field("tbs", &S::tbs), field("filter", &S::filter),
      field("lang", &S::lang), field("country", &S::country), field("location", &S::location));
};

template <>
struct Shape<SearchCategory> {
  static constexpr auto fields = std::make_tuple(field("type", &SearchCategory::type));
};

template <>
struct Shape<SearchRequest> {
  using S = SearchRequest;
  static constexpr auto fields = std::make_tuple(
      field("query", &S::query), field("limit", &S::limit), field("sources", &S::sources, kV2),
      field("categories", &S::categories, kV2), field("tbs", &S::tbs),
      field("filter", &S::filter), field("lang", &S::lang), field("country", &S::country),
      field("location", &S::location), field("timeout", &S::timeout),
      field("ignoreInvalidURLs", &S::ignore_invalid_urls),
      field("scrapeOptions", &S::scrape_options), field("highlights", &S::highlights, kV2),
      field("includeDomains", &S::include_domains, kV2),
      field("excludeDomains", &S::exclude_domains, kV2),
      field("enterprise", &S::enterprise, kV2), field("asyncScraping", &S::async_scraping, kV2),
      field("threatProtection", &S::threat_protection, kV2),
      field("domainTools", &S::domain_tools, kV2), field("toolDetail", &S::tool_detail, kV2),
      field("origin", &S::origin), field("integration", &S::integration));
};

template <>
struct Shape<DeepResearchJsonOptions> {
  using J = DeepResearchJsonOptions;
  static constexpr auto fields = std::make_tuple(field("prompt", &J::prompt),
                                                 field("schema", &J::schema),
                                                 field("systemPrompt", &J::system_prompt));
};

template <>
struct Shape<DeepResearchRequest> {
  using D = DeepResearchRequest;
  static constexpr auto fields = std::make_tuple(
      field("query", &D::query), field("topic", &D::topic), field("maxDepth", &D::max_depth),
      field("timeLimit", &D::time_limit), field("maxUrls", &D::max_urls),
      field("analysisPrompt", &D::analysis_prompt), field("systemPrompt", &D::system_prompt),
      field("formats", &D::formats), field("jsonOptions", &D::json_options),
      field("__experimental_streamSteps", &D::experimental_stream_steps),
      field("origin", &D::origin), field("integration", &D::integration));
};

template <>
struct Shape<LlmsTxtRequest> {
  using L = LlmsTxtRequest;
  static constexpr auto fields = std::make_tuple(
      field("url", &L::url), field("maxUrls", &L::max_urls),
      field("showFullText", &L::show_full_text), field("cache", &L::cache),
      field("__experimental_stream", &L::experimental_stream), field("origin", &L::origin),
      field("integration", &L::integration));
};

template <>
struct Shape<ExtractRequest> {
  using E = ExtractRequest;
  static constexpr auto fields = std::make_tuple(
      field("urls", &E::urls), field("prompt", &E::prompt), field("schema", &E::schema),
      field("systemPrompt", &E::system_prompt),
      field("allowExternalLinks", &E::allow_external_links),
      field("enableWebSearch", &E::enable_web_search),
      field("includeSubdomains", &E::include_subdomains, kV1),
      field("showSources", &E::show_sources), field("ignoreInvalidURLs", &E::ignore_invalid_urls),
      field("scrapeOptions", &E::scrape_options), field("agent", &E::agent),
      field("webhook", &E::webhook), field("threatProtection", &E::threat_protection),
      field("origin", &E::origin), field("integration", &E::integration));
};

template <>
struct Shape<AgentExchange> {
  using X = AgentExchange;
  static constexpr auto fields = std::make_tuple(
      field("enabled", &X::enabled), field("toolkits", &X::toolkits),
      field("maxCalls", &X::max_calls), field("requireApproval", &X::require_approval),
      field("onTermsRequired", &X::on_terms_required), field("approve", &X::approve),
      field("decline", &X::decline));
};

template <>
struct Shape<AgentRequest> {
  using A = AgentRequest;
  static constexpr auto fields = std::make_tuple(
      field("prompt", &A::prompt), field("urls", &A::urls), field("schema", &A::schema),
      field("maxCredits", &A::max_credits), field("model", &A::model),
      field("effort", &A::effort), field("strictConstrainToURLs", &A::strict_constrain_to_urls),
      field("origin", &A::origin), field("integration", &A::integration),
      field("threatProtection", &A::threat_protection),
      field("auditMetadata", &A::audit_metadata),
      field("overrideWhitelist", &A::override_whitelist), field("webhook", &A::webhook),
      field("threadId", &A::thread_id), field("mode", &A::mode),
      field("exchange", &A::exchange));
};

template <>
struct Shape<CrawlPreviewRequest> {
  using P = CrawlPreviewRequest;
  static constexpr auto fields =
      std::make_tuple(field("url", &P::url), field("prompt", &P::prompt),
                      field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<MonitorSchedule> {
  static constexpr auto fields = std::make_tuple(field("cron", &MonitorSchedule::cron),
                                                 field("text", &MonitorSchedule::text),
                                                 field("timezone", &MonitorSchedule::timezone));
};

template <>
struct Shape<MonitorCrawlOptions> {
  using C = MonitorCrawlOptions;
  static constexpr auto fields = std::make_tuple(
      field("prompt", &C::prompt), field("includePaths", &C::include_paths),
      field("excludePaths", &C::exclude_paths), field("maxDiscoveryDepth", &C::max_discovery_depth),
      field("sitemap", &C::sitemap), field("ignoreQueryParameters", &C::ignore_query_parameters),
      field("deduplicateSimilarURLs", &C::deduplicate_similar_urls), field("limit", &C::limit),
      field("crawlEntireDomain", &C::crawl_entire_domain),
      field("allowExternalLinks", &C::allow_external_links),
      field("allowSubdomains", &C::allow_subdomains), field("ignoreRobotsTxt", &C::ignore_robots_txt),
      field("robotsUserAgent", &C::robots_user_agent), field("delay", &C::delay),
      field("maxConcurrency", &C::max_concurrency), field("regexOnFullURL", &C::regex_on_full_url),
      field("zeroDataRetention", &C::zero_data_retention), field("webhook", &C::webhook),
      field("scrapeOptions", &C::scrape_options), field("origin", &C::origin),
      field("integration", &C::integration));
};

template <>
struct Shape<MonitorTarget> {
  using M = MonitorTarget;
  static constexpr auto fields = std::make_tuple(
      field("id", &M::id), field("type", &M::type), field("urls", &M::urls),
      field("url", &M::url), field("crawlOptions", &M::crawl_options),
      field("scrapeOptions", &M::scrape_options), field("queries", &M::queries),
      field("searchWindow", &M::search_window), field("includeDomains", &M::include_domains),
      field("excludeDomains", &M::exclude_domains), field("maxResults", &M::max_results));
};

template <>
struct Shape<MonitorRequest> {
  using M = MonitorRequest;
  static constexpr auto fields = std::make_tuple(
      field("name", &M::name), field("schedule", &M::schedule), field("webhook", &M::webhook),
      field("notification", &M::notification), field("targets", &M::targets),
      field("retentionDays", &M::retention_days), field("goal", &M::goal),
      field("judgeEnabled", &M::judge_enabled), field("origin", &M::origin),
      field("integration", &M::integration));
};

template <>
struct Shape<MonitorUpdateRequest> {
  using M = MonitorUpdateRequest;
  static constexpr auto fields = std::make_tuple(
      field("name", &M::name), field("status", &M::status), field("schedule", &M::schedule),
      field("webhook", &M::webhook), field("notification", &M::notification),
      field("targets", &M::targets), field("retentionDays", &M::retention_days),
      field("goal", &M::goal), field("judgeEnabled", &M::judge_enabled),
      field("origin", &M::origin), field("integration", &M::integration));
};

template <>
struct Shape<ResearchPapersRequest> {
  using P = ResearchPapersRequest;
  static constexpr auto fields = std::make_tuple(
      field("query", &P::query), field("k", &P::k), field("authors", &P::authors),
      field("categories", &P::categories), field("from", &P::from), field("to", &P::to),
      field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<ResearchPaperRequest> {
  using P = ResearchPaperRequest;
  static constexpr auto fields = std::make_tuple(field("query", &P::query), field("k", &P::k),
                                                 field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<ResearchSimilarRequest> {
  using P = ResearchSimilarRequest;
  static constexpr auto fields = std::make_tuple(
      field("intent", &P::intent), field("mode", &P::mode), field("k", &P::k),
      field("rerank", &P::rerank), field("anchor", &P::anchor), field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<ResearchGithubRequest> {
  using P = ResearchGithubRequest;
  static constexpr auto fields = std::make_tuple(field("query", &P::query), field("k", &P::k),
                                                 field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<DeveloperSearchRequest> {
  using P = DeveloperSearchRequest;
  static constexpr auto fields = std::make_tuple(
      field("query", &P::query), field("k", &P::k), field("passages", &P::passages),
      field("types", &P::types), field("repos", &P::repos), field("sources", &P::sources),
      field("language", &P::language), field("topic", &P::topic), field("license", &P::license),
      field("min_stars", &P::min_stars), field("max_stars", &P::max_stars),
      field("archived", &P::archived), field("fork", &P::fork), field("skills", &P::skills),
      field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<SearchFeedbackRequest> {
  using P = SearchFeedbackRequest;
  static constexpr auto fields = std::make_tuple(
      field("rating", &P::rating), field("valuableSources", &P::valuable_sources),
      field("missingContent", &P::missing_content),
      field("querySuggestions", &P::query_suggestions), field("integration", &P::integration),
      field("origin", &P::origin));
};

template <>
struct Shape<FeedbackRequest> {
  using P = FeedbackRequest;
  static constexpr auto fields = std::make_tuple(
      field("rating", &P::rating), field("valuableSources", &P::valuable_sources),
      field("missingContent", &P::missing_content),
      field("querySuggestions", &P::query_suggestions), field("integration", &P::integration),
      field("origin", &P::origin), field("endpoint", &P::endpoint), field("jobId", &P::job_id),
      field("issues", &P::issues), field("tags", &P::tags), field("note", &P::note),
      field("url", &P::url), field("pageNumbers", &P::page_numbers),
      field("metadata", &P::metadata));
};

template <>
struct Shape<SupportAskRequest> {
  using P = SupportAskRequest;
  static constexpr auto fields =
      std::make_tuple(field("question", &P::question), field("jobId", &P::job_id),
                      field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<BrowserProfile> {
  static constexpr auto fields = std::make_tuple(field("name", &BrowserProfile::name),
                                                 field("saveChanges", &BrowserProfile::save_changes));
};

template <>
struct Shape<BrowserRequest> {
  using P = BrowserRequest;
  static constexpr auto fields = std::make_tuple(
      field("ttl", &P::ttl), field("activityTtl", &P::activity_ttl),
      field("streamWebView", &P::stream_web_view), field("profile", &P::profile),
      field("origin", &P::origin), field("integration", &P::integration));
};

template <>
struct Shape<BrowserExecuteRequest> {
  using P = BrowserExecuteRequest;
  static constexpr auto fields =
      std::make_tuple(field("code", &P::code), field("language", &P::language),
                      field("timeout", &P::timeout), field("origin", &P::origin),
                      field("integration", &P::integration));
};

template <>
struct Shape<InteractRequest> {
  using P = InteractRequest;
  static constexpr auto fields = std::make_tuple(
      field("code", &P::code), field("prompt", &P::prompt), field("language", &P::language),
      field("timeout", &P::timeout), field("origin", &P::origin),
      field("integration", &P::integration));
};

// Entries that take more than one form on the wire, and nested options that carry the version.
void read(const nlohmann::json& in, Format& out, const Context& ctx);
nlohmann::json write(const Format& value, const Emit& emit);
void read(const nlohmann::json& in, Parser& out, const Context& ctx);
nlohmann::json write(const Parser& value, const Emit& emit);
void read(const nlohmann::json& in, SearchSource& out, const Context& ctx);
nlohmann::json write(const SearchSource& value, const Emit& emit);
void read(const nlohmann::json& in, SearchCategory& out, const Context& ctx);
nlohmann::json write(const SearchCategory& value, const Emit& emit);
void read(const nlohmann::json& in, ScrapeOptions& out, const Context& ctx);

}  // namespace webdata::mock::requests::wire
