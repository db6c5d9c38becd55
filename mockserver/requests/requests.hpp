#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "requests/scrape_options.hpp"
#include "requests/version.hpp"

// Every request body of the API as a typed value, decoded once, after validation, from the body
// with its schema's defaults filled in (requests/validate.hpp). Fields follow the wire of both
// versions (a field of one version only is marked); schema defaults are plain values, the rest
// optional. `webhook`, JSON Schemas and the fields the mock accepts without acting on them stay
// JSON values: the code that reads them (the webhooks layer, the extraction) takes JSON.

namespace webdata::mock::requests {

struct ScrapeRequest {
  Version version = Version::v2;
  std::string url;
  ScrapeOptions options;
};

struct BatchScrapeRequest {
  Version version = Version::v2;
  std::vector<std::string> urls;
  std::optional<nlohmann::json> webhook;
  std::optional<std::int64_t> max_concurrency;
  std::optional<std::string> append_to_id;
  bool ignore_invalid_urls{};
  ScrapeOptions options;
};

struct CrawlRequest {
  Version version = Version::v2;
  std::string url;
  std::optional<std::string> prompt;  ///< v2
  std::vector<std::string> include_paths;
  std::vector<std::string> exclude_paths;
  std::optional<std::int64_t> max_discovery_depth;
  bool ignore_query_parameters{};
  double limit{};  ///< A number: the service takes a fractional limit (2.5 admits 3 pages).
  bool allow_external_links{};
  bool allow_subdomains{};
  bool ignore_robots_txt{};
  bool deduplicate_similar_urls{};
  bool regex_on_full_url{};
  std::optional<double> delay;  ///< seconds
  std::optional<std::int64_t> max_concurrency;
  std::optional<nlohmann::json> webhook;
  ScrapeOptions scrape_options;
  bool zero_data_retention{};
  bool crawl_entire_domain{};    ///< v2
  std::string sitemap;           ///< v2: include | skip | only
  std::int64_t max_depth{};      ///< v1
  bool ignore_sitemap{};         ///< v1
  bool allow_backward_links{};   ///< v1
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// Whether pages outside the start URL's path are followed (v1 allowBackwardLinks).
  bool entire_domain() const;
  /// include | skip | only (v1 ignoreSitemap is skip).
  std::string sitemap_mode() const;
  /// The options as the active crawls list shows them: the crawler's options with their
  /// defaults, and scrapeOptions with theirs.
  nlohmann::json listed_options() const;
};

struct MapRequest {
  Version version = Version::v2;
  std::string url;
  std::optional<std::string> search;
  std::string sitemap;     ///< v2
  bool ignore_sitemap{};   ///< v1
  bool sitemap_only{};     ///< v1
  bool include_subdomains{};
  bool ignore_query_parameters{};
  std::int64_t limit{};
  std::optional<std::int64_t> timeout;  ///< ms
  std::optional<bool> use_index;        ///< v1, no effect
  std::optional<Location> location;
  std::optional<nlohmann::json> threat_protection;  ///< v2, no effect
  std::optional<nlohmann::json> audit_metadata;     ///< no effect
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// include | skip | only, whichever version said it.
  std::string sitemap_mode() const;
  /// `Accept-Language` from `location.languages` ("" without any).
  std::string accept_language() const;
};

/// v2 `sources` entry: "web" | "images" | "news", or an object with its own search settings.
struct SearchSource {
  std::string type;
  bool as_object = false;
  std::optional<std::string> tbs;
  std::optional<std::string> filter;
  std::optional<std::string> lang;
  std::optional<std::string> country;
  std::optional<std::string> location;
};

/// v2 `categories` entry: a name or `{type}`.
struct SearchCategory {
  std::string type;
  bool as_object = false;
};

/// The settings one source is searched with: its own, else the request's where the source
/// inherits them (web: tbs, filter, lang, country, location; news: all but filter; images none).
struct SourceSettings {
  std::string tbs;
  std::string filter;
  std::string lang;
  std::string country;
  std::string location;
};

struct SearchRequest {
  Version version = Version::v2;
  std::string query;
  std::int64_t limit{};
  std::vector<SearchSource> sources;       ///< v2
  std::vector<SearchCategory> categories;  ///< v2
  std::optional<std::string> tbs;
  std::optional<std::string> filter;
  std::optional<std::string> lang;  ///< v1 defaults it; v2 reads the country's without it
  std::string country;
  std::optional<std::string> location;
  std::int64_t timeout{};
  bool ignore_invalid_urls{};
  /// Empty `formats` (the default): results are not scraped.
  ScrapeOptions scrape_options;
  std::optional<bool> highlights;                            ///< v2, no effect
  std::optional<std::vector<std::string>> include_domains;   ///< v2
  std::optional<std::vector<std::string>> exclude_domains;   ///< v2
  std::optional<std::vector<std::string>> enterprise;        ///< v2
  std::optional<bool> async_scraping;                        ///< v2, no effect
  std::optional<nlohmann::json> threat_protection;           ///< v2, no effect
  std::optional<bool> domain_tools;                          ///< v2, Exchange
  std::optional<std::string> tool_detail;                    ///< v2, Exchange
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// Whether the search asks for Exchange tools (source `alexandria`, domainTools true).
  bool wants_exchange() const;
  /// The source names asked for, in order, without repeats (v1: web).
  std::vector<std::string> source_names() const;
  std::vector<std::string> category_names() const;
  /// What source `type` is searched with (see SourceSettings).
  SourceSettings settings_for(const std::string& type) const;
  /// Whether the results are scraped.
  bool scrapes() const { return !scrape_options.formats.empty(); }
  /// enterprise `zdr`: nothing of the search's scrapes is kept.
  bool zero_data_retention() const;
  /// includeDomains / excludeDomains as hostnames (a URL's host is taken when one is sent).
  std::vector<std::string> include_hosts() const;
  std::vector<std::string> exclude_hosts() const;
};

struct ExtractRequest {
  Version version = Version::v2;
  std::vector<std::string> urls;
  std::optional<std::string> prompt;
  std::optional<nlohmann::json> schema;
  std::optional<std::string> system_prompt;
  bool allow_external_links{};
  bool enable_web_search{};
  bool include_subdomains{};  ///< v1
  bool show_sources{};
  bool ignore_invalid_urls{};
  ScrapeOptions scrape_options;
  std::optional<nlohmann::json> agent;              ///< no effect
  std::optional<nlohmann::json> webhook;            ///< no effect (no extract events)
  std::optional<nlohmann::json> threat_protection;  ///< no effect
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// Whether a `/*` URL takes the site's subdomains too (v2 has no field: always).
  bool takes_subdomains() const { return version == Version::v2 || include_subdomains; }
};

/// The agent's `exchange` settings (paid toolkit calls); the mock calls no toolkit.
struct AgentExchange {
  std::optional<bool> enabled;
  std::optional<std::vector<std::string>> toolkits;
  std::optional<std::int64_t> max_calls;
  std::optional<bool> require_approval;
  std::optional<std::string> on_terms_required;
  std::optional<nlohmann::json> approve;  ///< answers a pending approval
  std::optional<nlohmann::json> decline;

  /// These settings with every one `later` gives in its place (a thread's follow-up turn
  /// inherits what it leaves out); approvals are not inherited.
  AgentExchange updated_by(const AgentExchange& later) const;
};

struct AgentRequest {
  Version version = Version::v2;
  std::string prompt;
  std::optional<std::vector<std::string>> urls;
  std::optional<nlohmann::json> schema;
  std::optional<std::int64_t> max_credits;
  std::string model;  ///< reported back; the mock answers the same way for each
  std::optional<std::string> effort;
  bool strict_constrain_to_urls{};  ///< how the mock always reads given urls (only those)
  std::string origin;
  std::optional<std::string> integration;
  std::optional<nlohmann::json> threat_protection;  ///< no effect
  std::optional<nlohmann::json> audit_metadata;     ///< no effect
  std::optional<std::string> override_whitelist;    ///< no effect
  std::optional<nlohmann::json> webhook;
  std::optional<std::string> thread_id;
  std::string mode;
  std::optional<AgentExchange> exchange;
};

/// v1 deep research's `jsonOptions`: the json format's prompt and schema.
struct DeepResearchJsonOptions {
  std::optional<std::string> prompt;
  std::optional<nlohmann::json> schema;
  std::optional<std::string> system_prompt;
};

/// POST /v1/deep-research (v1 only).
struct DeepResearchRequest {
  Version version = Version::v1;
  std::optional<std::string> query;
  std::optional<std::string> topic;  ///< The older name of `query`.
  std::int64_t max_depth{};
  std::int64_t time_limit{};
  std::int64_t max_urls{};
  std::optional<std::string> analysis_prompt;
  std::optional<std::string> system_prompt;
  std::vector<std::string> formats;
  std::optional<DeepResearchJsonOptions> json_options;
  std::optional<bool> experimental_stream_steps;
  std::optional<std::string> origin;
  std::optional<std::string> integration;

  /// `query`, else `topic`.
  std::string subject() const { return query ? *query : topic.value_or(""); }
};

/// POST /v1/llmstxt (v1 only).
struct LlmsTxtRequest {
  Version version = Version::v1;
  std::string url;
  std::int64_t max_urls{};
  bool show_full_text{};
  bool cache{};
  std::optional<bool> experimental_stream;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct CrawlPreviewRequest {
  Version version = Version::v2;
  std::string url;
  std::string prompt;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

// ---- monitors (POST /v2/monitor, PATCH /v2/monitor/{id})

/// A monitor's schedule: `cron` (5 fields) or `text` ("every 30 minutes"), checked after the
/// schema by jobs/monitor_schedule.hpp.
struct MonitorSchedule {
  std::optional<std::string> cron;
  std::optional<std::string> text;
  std::optional<std::string> timezone;
};

/// A crawl target's `crawlOptions` (POST /v2/crawl's options without `url`). A check reads the
/// scope, depth and limit options; the rest are kept and reported back.
struct MonitorCrawlOptions {
  std::optional<std::string> prompt;
  std::optional<std::vector<std::string>> include_paths;
  std::optional<std::vector<std::string>> exclude_paths;
  std::optional<std::int64_t> max_discovery_depth;
  std::optional<std::string> sitemap;
  std::optional<bool> ignore_query_parameters;
  std::optional<bool> deduplicate_similar_urls;
  std::optional<double> limit;
  std::optional<bool> crawl_entire_domain;
  std::optional<bool> allow_external_links;
  std::optional<bool> allow_subdomains;
  std::optional<bool> ignore_robots_txt;
  std::optional<std::string> robots_user_agent;
  std::optional<double> delay;
  std::optional<std::int64_t> max_concurrency;
  std::optional<bool> regex_on_full_url;
  std::optional<bool> zero_data_retention;
  std::optional<nlohmann::json> webhook;         ///< reported back
  std::optional<nlohmann::json> scrape_options;  ///< reported back; the target's own are used
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// One target of a monitor: `scrape` (urls), `crawl` (url and the pages it links to) or
/// `search` (queries).
struct MonitorTarget {
  std::optional<std::string> id;
  std::string type;
  std::optional<std::vector<std::string>> urls;  ///< scrape
  std::optional<std::string> url;                ///< crawl
  std::optional<MonitorCrawlOptions> crawl_options;  ///< crawl
  std::optional<ScrapeOptions> scrape_options;
  std::optional<std::vector<std::string>> queries;  ///< search
  std::optional<std::string> search_window;
  std::optional<std::vector<std::string>> include_domains;
  std::optional<std::vector<std::string>> exclude_domains;
  std::optional<std::int64_t> max_results;
};

struct MonitorRequest {
  Version version = Version::v2;
  std::string name;
  MonitorSchedule schedule;
  std::optional<nlohmann::json> webhook;       ///< {url, headers, metadata, events}
  std::optional<nlohmann::json> notification;  ///< reported back; the mock sends no email
  std::vector<MonitorTarget> targets;
  std::int64_t retention_days{};
  std::optional<std::string> goal;
  bool judge_enabled{};
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// PATCH: every field optional; `webhook`, `notification` and `goal` may be null (removed).
struct MonitorUpdateRequest {
  Version version = Version::v2;
  std::optional<std::string> name;
  std::optional<std::string> status;  ///< active | paused
  std::optional<MonitorSchedule> schedule;
  std::optional<nlohmann::json> webhook;
  std::optional<nlohmann::json> notification;
  std::optional<std::vector<MonitorTarget>> targets;
  std::optional<std::int64_t> retention_days;
  std::optional<nlohmann::json> goal;  ///< a string or null
  std::optional<bool> judge_enabled;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

// ---- research, developer search, feedback, support (the query parameters of the research
// routes are read as an object of their schema's members: requests::query_body).

struct ResearchPapersRequest {
  Version version = Version::v2;
  std::string query;
  std::int64_t k = 40;
  std::optional<std::vector<std::string>> authors;
  std::optional<std::vector<std::string>> categories;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct ResearchPaperRequest {
  Version version = Version::v2;
  std::optional<std::string> query;  ///< set: read mode (passages answering it)
  std::int64_t k = 4;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct ResearchSimilarRequest {
  Version version = Version::v2;
  std::string intent;
  std::string mode = "similar";  ///< similar | citers | references
  std::int64_t k = 40;
  bool rerank = false;
  std::optional<std::vector<std::string>> anchor;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct ResearchGithubRequest {
  Version version = Version::v2;
  std::string query;
  std::int64_t k = 20;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct DeveloperSearchRequest {
  Version version = Version::v2;
  std::string query;
  std::int64_t k = 10;
  std::int64_t passages = 1;
  std::optional<std::vector<std::string>> types;  ///< doc | issue | pull_request | readme
  std::optional<std::vector<std::string>> repos;
  std::optional<std::vector<std::string>> sources;
  std::optional<std::string> language;
  std::optional<std::vector<std::string>> topic;
  std::optional<std::string> license;
  std::optional<std::int64_t> min_stars;
  std::optional<std::int64_t> max_stars;
  std::optional<bool> archived;
  std::optional<bool> fork;
  std::optional<std::string> skills;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

struct SearchFeedbackRequest {
  Version version = Version::v2;
  std::string rating;  ///< good | partial | bad
  std::optional<nlohmann::json> valuable_sources;
  std::optional<nlohmann::json> missing_content;
  std::optional<std::string> query_suggestions;
  std::optional<nlohmann::json> integration;  ///< a string or null
  std::optional<std::string> origin;
};

struct FeedbackRequest {
  Version version = Version::v2;
  std::string rating;  ///< good | partial | bad
  std::optional<nlohmann::json> valuable_sources;
  std::optional<nlohmann::json> missing_content;
  std::optional<std::string> query_suggestions;
  std::optional<nlohmann::json> integration;  ///< a string or null
  std::optional<std::string> origin;
  std::string endpoint;  ///< search | scrape | parse | map
  std::string job_id;
  std::optional<std::vector<std::string>> issues;
  std::optional<std::vector<std::string>> tags;
  std::optional<std::string> note;
  std::optional<std::string> url;
  std::optional<std::vector<std::int64_t>> page_numbers;
  std::optional<nlohmann::json> metadata;
};

struct SupportAskRequest {
  Version version = Version::v2;
  std::string question;
  std::optional<std::string> job_id;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// Query parameters as the object their request schema describes: a member the schema types as
/// an array collects every value of its parameter, an integer or boolean one is read as such
/// when it parses (else kept as text, for the schema to refuse).
nlohmann::json query_body(const std::string& schema,
                          const std::vector<std::pair<std::string, std::string>>& params);

/// A browser session's named profile: the state it starts from and, with `save_changes`, keeps
/// when it ends.
struct BrowserProfile {
  std::string name;
  bool save_changes = true;
};

/// POST /v2/browser: a browser session (docs/reference/browser.md).
struct BrowserRequest {
  Version version = Version::v2;
  std::int64_t ttl = 600;           ///< seconds the session lives at most
  std::int64_t activity_ttl = 300;  ///< seconds it lives without an execute
  bool stream_web_view = false;
  std::optional<BrowserProfile> profile;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// POST /v2/browser/{id}/execute: code run on the session's page.
struct BrowserExecuteRequest {
  Version version = Version::v2;
  std::string code;
  std::string language;  ///< python | node | bash: one grammar for all in the mock
  std::optional<std::int64_t> timeout;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// POST /v2/scrape/{id}/interact: code or a prompt run on the page of an earlier scrape.
struct InteractRequest {
  Version version = Version::v2;
  std::optional<std::string> code;
  std::optional<std::string> prompt;
  std::string language;
  std::optional<std::int64_t> timeout;
  std::optional<std::string> origin;
  std::optional<std::string> integration;
};

/// The typed value of a body that its schema accepted, with the schema's defaults filled in
/// (validate() fills them). `unread`, when given, collects the body's keys that no field took:
/// empty unless the schema and the type drifted apart (the drift test's check).
template <class T>
T decode(const nlohmann::json& body, Version version, std::vector<std::string>* unread = nullptr);

/// The request as its version's wire writes it (every field that has a value).
template <class T>
nlohmann::json encode(const T& request);

/// The schema a request type is checked against at `version` ("v2/scrape.request").
template <class T>
std::string schema_name(Version version);

}  // namespace webdata::mock::requests
