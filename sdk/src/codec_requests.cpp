// Requests and the option objects inside them. One field list per type serves both directions.
#include "codec.hpp"

namespace webdata::detail {
namespace {

template <class IO, class S>
void scrape_option_fields(IO& io, S& s) {
  io("formats", s.formats);
  io("onlyMainContent", s.only_main_content);
  io("includeTags", s.include_tags);
  io("excludeTags", s.exclude_tags);
  io("maxAge", s.max_age);
  io("headers", s.headers);
  io("waitFor", s.wait_for);
  io("mobile", s.mobile);
  io("skipTlsVerification", s.skip_tls_verification);
  io("timeout", s.timeout);
  io("parsers", s.parsers);
  io("actions", s.actions);
  io("location", s.location);
  io("removeBase64Images", s.remove_base64_images);
  io("blockAds", s.block_ads);
  io("proxy", s.proxy);
  io("storeInCache", s.store_in_cache);
  io("zeroDataRetention", s.zero_data_retention);
  io("onlyCleanContent", s.only_clean_content);
  io("minAge", s.min_age);
  io("lockdown", s.lockdown);
  io("redactPII", s.redact_pii);
  io("profile", s.profile);
  io("threatProtection", s.threat_protection);
  io("auditMetadata", s.audit_metadata);
  io("safeMode", s.safe_mode);
  io("origin", s.origin);
  io("integration", s.integration);
}

template <class IO, class S>
void v1_scrape_option_fields(IO& io, S& s) {
  io("formats", s.formats);
  io("onlyMainContent", s.only_main_content);
  io("includeTags", s.include_tags);
  io("excludeTags", s.exclude_tags);
  io("maxAge", s.max_age);
  io("headers", s.headers);
  io("waitFor", s.wait_for);
  io("mobile", s.mobile);
  io("skipTlsVerification", s.skip_tls_verification);
  io("timeout", s.timeout);
  io("parsePDF", s.parse_pdf);
  io("jsonOptions", s.json_options);
  io("extract", s.extract);
  io("changeTrackingOptions", s.change_tracking_options);
  io("actions", s.actions);
  io("location", s.location);
  io("removeBase64Images", s.remove_base64_images);
  io("blockAds", s.block_ads);
  io("proxy", s.proxy);
  io("storeInCache", s.store_in_cache);
  io("zeroDataRetention", s.zero_data_retention);
  io("origin", s.origin);
  io("integration", s.integration);
}

template <class IO, class C>
void crawl_common_fields(IO& io, C& c) {
  io("url", c.url);
  io("includePaths", c.include_paths);
  io("excludePaths", c.exclude_paths);
  io("maxDiscoveryDepth", c.max_discovery_depth);
  io("ignoreRobotsTxt", c.ignore_robots_txt);
  io("ignoreQueryParameters", c.ignore_query_parameters);
  io("deduplicateSimilarURLs", c.deduplicate_similar_urls);
  io("regexOnFullURL", c.regex_on_full_url);
  io("limit", c.limit);
  io("allowExternalLinks", c.allow_external_links);
  io("allowSubdomains", c.allow_subdomains);
  io("maxConcurrency", c.max_concurrency);
  io("webhook", c.webhook);
  io("scrapeOptions", c.scrape_options);
  io("zeroDataRetention", c.zero_data_retention);
  io("origin", c.origin);
  io("integration", c.integration);
}

// `delay` is in seconds on the wire and a duration in the model.
void read_delay(Reader& r, std::optional<std::chrono::milliseconds>& out, const Path& p) {
  if (const json* v = r.find("delay"); v != nullptr && !v->is_null()) {
    double seconds = 0;
    decode(*v, seconds, p.child("delay"));
    out = std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
  }
}
void write_delay(Writer& w, const std::optional<std::chrono::milliseconds>& delay) {
  if (!delay) return;
  if (delay->count() % 1000 == 0) {
    w.out["delay"] = static_cast<long long>(delay->count() / 1000);
  } else {
    w.out["delay"] = static_cast<double>(delay->count()) / 1000.0;
  }
}

}  // namespace

void decode(const json& j, Viewport& out, const Path& p) {
  Reader r(j, p);
  r.val("width", out.width);
  r.val("height", out.height);
}
json encode(const Viewport& v) {
  return json{{"width", v.width}, {"height", v.height}};
}

void decode(const json& j, AttributeSelector& out, const Path& p) {
  Reader r(j, p);
  r.req("selector", out.selector);
  r.req("attribute", out.attribute);
}
json encode(const AttributeSelector& v) {
  return json{{"selector", v.selector}, {"attribute", v.attribute}};
}

void decode(const json& j, BrowserProfile& out, const Path& p) {
  Reader r(j, p);
  r.req("name", out.name);
  r("saveChanges", out.save_changes);
}
json encode(const BrowserProfile& v) {
  Writer w;
  w.out["name"] = v.name;
  w("saveChanges", v.save_changes);
  return std::move(w.out);
}

void decode(const json& j, FormatEntry& out, const Path& p) {
  if (j.is_string()) {
    out = FormatEntry(j.get<std::string>());
    return;
  }
  Reader r(j, p);
  r.req("type", out.type);
  r("schema", out.schema);
  r("prompt", out.prompt);
  r("fullPage", out.full_page);
  r("quality", out.quality);
  r("viewport", out.viewport);
  r("modes", out.modes);
  r("tag", out.tag);
  r("checkPromptInjection", out.check_prompt_injection);
  r("selectors", out.selectors);
  r("question", out.question);
  r("query", out.query);
  r("mode", out.mode);
}
json encode(const FormatEntry& v) {
  if (!v.has_options()) return v.type.value();
  Writer w;
  w("type", v.type);
  w("schema", v.schema);
  w("prompt", v.prompt);
  w("fullPage", v.full_page);
  w("quality", v.quality);
  w("viewport", v.viewport);
  w("modes", v.modes);
  w("tag", v.tag);
  w("checkPromptInjection", v.check_prompt_injection);
  w("selectors", v.selectors);
  w("question", v.question);
  w("query", v.query);
  w("mode", v.mode);
  return std::move(w.out);
}

template <class IO, class A>
void action_fields(IO& io, A& a) {
  io("type", a.type);
  io("milliseconds", a.milliseconds);
  io("selector", a.selector);
  io("all", a.all);
  io("text", a.text);
  io("key", a.key);
  io("direction", a.direction);
  io("fullPage", a.full_page);
  io("quality", a.quality);
  io("viewport", a.viewport);
  io("script", a.script);
  io("format", a.format);
  io("landscape", a.landscape);
  io("scale", a.scale);
}
void decode(const json& j, Action& out, const Path& p) {
  Reader r(j, p);
  action_fields(r, out);
}
json encode(const Action& v) {
  Writer w;
  action_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, Location& out, const Path& p) {
  Reader r(j, p);
  r("country", out.country);
  r("languages", out.languages);
}
json encode(const Location& v) {
  Writer w;
  w("country", v.country);
  w("languages", v.languages);
  return std::move(w.out);
}

void decode(const json& j, WebhookSpec& out, const Path& p) {
  if (j.is_string()) {
    out = WebhookSpec(j.get<std::string>());
    return;
  }
  Reader r(j, p);
  r.val("url", out.url);
  r("headers", out.headers);
  r("metadata", out.metadata);
  r("events", out.events);
}
json encode(const WebhookSpec& v) {
  if (!v.headers && !v.metadata && !v.events) return v.url;
  Writer w;
  w("url", v.url);
  w("headers", v.headers);
  w("metadata", v.metadata);
  w("events", v.events);
  return std::move(w.out);
}

void decode(const json& j, Parser& out, const Path& p) {
  if (j.is_string()) {
    out = Parser(j.get<std::string>());
    return;
  }
  Reader r(j, p);
  r.req("type", out.type);
  r("maxPages", out.max_pages);
  r("mode", out.mode);
  r("pages", out.pages);
  r("pageMarkdown", out.page_markdown);
  r("blocks", out.blocks);
  r("pageMarkers", out.page_markers);
}
json encode(const Parser& v) {
  if (!v.max_pages && !v.mode && !v.pages && !v.page_markdown && !v.blocks && !v.page_markers) {
    return v.type;
  }
  Writer w;
  w.out["type"] = v.type;
  w("maxPages", v.max_pages);
  w("mode", v.mode);
  w("pages", v.pages);
  w("pageMarkdown", v.page_markdown);
  w("blocks", v.blocks);
  w("pageMarkers", v.page_markers);
  return std::move(w.out);
}

void decode(const json& j, ScrapeOptions& out, const Path& p) {
  Reader r(j, p);
  scrape_option_fields(r, out);
}
json encode(const ScrapeOptions& v) {
  Writer w;
  scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, ScrapeRequest& out, const Path& p) {
  Reader r(j, p);
  r("url", out.url);
  scrape_option_fields(r, out);
}
json encode(const ScrapeRequest& v) {
  Writer w;
  w("url", v.url);
  scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, BatchScrapeRequest& out, const Path& p) {
  Reader r(j, p);
  r("urls", out.urls);
  r("webhook", out.webhook);
  r("maxConcurrency", out.max_concurrency);
  r("ignoreInvalidURLs", out.ignore_invalid_urls);
  r("appendToId", out.append_to_id);
  scrape_option_fields(r, out);
}
json encode(const BatchScrapeRequest& v) {
  Writer w;
  w("urls", v.urls);
  w("webhook", v.webhook);
  w("maxConcurrency", v.max_concurrency);
  w("ignoreInvalidURLs", v.ignore_invalid_urls);
  w("appendToId", v.append_to_id);
  scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, CrawlRequest& out, const Path& p) {
  Reader r(j, p);
  crawl_common_fields(r, out);
  r("prompt", out.prompt);
  r("sitemap", out.sitemap);
  r("crawlEntireDomain", out.crawl_entire_domain);
  read_delay(r, out.delay, p);
}
json encode(const CrawlRequest& v) {
  Writer w;
  crawl_common_fields(w, v);
  w("prompt", v.prompt);
  w("sitemap", v.sitemap);
  w("crawlEntireDomain", v.crawl_entire_domain);
  write_delay(w, v.delay);
  return std::move(w.out);
}

template <class IO, class S>
void search_fields(IO& io, S& s) {
  io("query", s.query);
  io("limit", s.limit);
  io("tbs", s.tbs);
  io("filter", s.filter);
  io("lang", s.lang);
  io("location", s.location);
  io("country", s.country);
  io("timeout", s.timeout);
  io("ignoreInvalidURLs", s.ignore_invalid_urls);
  io("scrapeOptions", s.scrape_options);
  io("origin", s.origin);
  io("integration", s.integration);
}

namespace {
// `sources` and `categories` come as strings or `{type}` objects; the SDK sends strings.
template <class E>
void read_typed_list(Reader& r, const char* key, std::optional<std::vector<E>>& out,
                     const Path& p) {
  const json* v = r.find(key);
  if (v == nullptr || v->is_null()) return;
  const Path here = p.child(key);
  if (!v->is_array()) fail(here, std::string("expected an array, got ") + type_name(*v));
  std::vector<E> items;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& item = (*v)[i];
    E value;
    const Path at = here.at(i);  // the Reader keeps a reference to its path
    if (item.is_object()) {
      Reader ir(item, at);
      ir.req("type", value);
    } else {
      decode(item, value, at);
    }
    items.push_back(std::move(value));
  }
  out = std::move(items);
}
}  // namespace

void decode(const json& j, SearchRequest& out, const Path& p) {
  Reader r(j, p);
  search_fields(r, out);
  r("highlights", out.highlights);  // v2 only, as the rest of this block
  r("includeDomains", out.include_domains);
  r("excludeDomains", out.exclude_domains);
  r("enterprise", out.enterprise);
  r("asyncScraping", out.async_scraping);
  r("threatProtection", out.threat_protection);
  read_typed_list(r, "sources", out.sources, p);
  read_typed_list(r, "categories", out.categories, p);
}
json encode(const SearchRequest& v) {
  Writer w;
  search_fields(w, v);
  w("highlights", v.highlights);
  w("includeDomains", v.include_domains);
  w("excludeDomains", v.exclude_domains);
  w("enterprise", v.enterprise);
  w("asyncScraping", v.async_scraping);
  w("threatProtection", v.threat_protection);
  w("sources", v.sources);
  w("categories", v.categories);
  return std::move(w.out);
}

void decode(const json& j, AgentApproval& out, const Path& p) {
  Reader r(j, p);
  r.val("approvalId", out.approval_id);
  r("callIds", out.call_ids);
  r("always", out.always);
}
json encode(const AgentApproval& v) {
  Writer w;
  w.val("approvalId", v.approval_id);
  w("callIds", v.call_ids);
  w("always", v.always);
  return std::move(w.out);
}

void decode(const json& j, AgentExchange& out, const Path& p) {
  Reader r(j, p);
  r("enabled", out.enabled);
  r("toolkits", out.toolkits);
  r("maxCalls", out.max_calls);
  r("requireApproval", out.require_approval);
  r("onTermsRequired", out.on_terms_required);
  r("approve", out.approve);
  if (const json* decline = r.find("decline"); decline != nullptr && decline->is_object()) {
    const Path dp = p.child("decline");
    Reader d(*decline, dp);
    d("approvalId", out.decline);
  }
}
json encode(const AgentExchange& v) {
  Writer w;
  w("enabled", v.enabled);
  w("toolkits", v.toolkits);
  w("maxCalls", v.max_calls);
  w("requireApproval", v.require_approval);
  w("onTermsRequired", v.on_terms_required);
  w("approve", v.approve);
  if (v.decline) w.out["decline"] = {{"approvalId", *v.decline}};
  return std::move(w.out);
}

void decode(const json& j, AgentExchangeSummary& out, const Path& p) {
  Reader r(j, p);
  r("enabled", out.enabled);
  r("toolkits", out.toolkits);
  r("requireApproval", out.require_approval);
  r("onTermsRequired", out.on_terms_required);
  r("paidCalls", out.paid_calls);
  r("creditsUsed", out.credits_used);
}
json encode(const AgentExchangeSummary& v) {
  Writer w;
  w("enabled", v.enabled);
  if (!v.toolkits.empty()) w("toolkits", v.toolkits);
  w("requireApproval", v.require_approval);
  w("onTermsRequired", v.on_terms_required);
  w("paidCalls", v.paid_calls);
  w.out["creditsUsed"] = v.credits_used ? json(*v.credits_used) : json(nullptr);
  return std::move(w.out);
}

template <class IO, class A>
void agent_fields(IO& io, A& a) {
  io("prompt", a.prompt);
  io("urls", a.urls);
  io("schema", a.schema);
  io("maxCredits", a.max_credits);
  io("model", a.model);
  io("effort", a.effort);
  io("strictConstrainToURLs", a.strict_constrain_to_urls);
  io("origin", a.origin);
  io("integration", a.integration);
  io("threatProtection", a.threat_protection);
  io("auditMetadata", a.audit_metadata);
  io("overrideWhitelist", a.override_whitelist);
  io("threadId", a.thread_id);
  io("mode", a.mode);
  io("exchange", a.exchange);
  io("webhook", a.webhook);
}
void decode(const json& j, AgentRequest& out, const Path& p) {
  Reader r(j, p);
  agent_fields(r, out);
}
json encode(const AgentRequest& v) {
  Writer w;
  agent_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, v1::JsonOptions& out, const Path& p) {
  Reader r(j, p);
  r("schema", out.schema);
  r("systemPrompt", out.system_prompt);
  r("prompt", out.prompt);
}
json encode(const v1::JsonOptions& v) {
  Writer w;
  w("schema", v.schema);
  w("systemPrompt", v.system_prompt);
  w("prompt", v.prompt);
  return std::move(w.out);
}

void decode(const json& j, v1::ChangeTrackingOptions& out, const Path& p) {
  Reader r(j, p);
  r("modes", out.modes);
  r("schema", out.schema);
  r("prompt", out.prompt);
  r("tag", out.tag);
}
json encode(const v1::ChangeTrackingOptions& v) {
  Writer w;
  w("modes", v.modes);
  w("schema", v.schema);
  w("prompt", v.prompt);
  w("tag", v.tag);
  return std::move(w.out);
}

void decode(const json& j, v1::ScrapeOptions& out, const Path& p) {
  Reader r(j, p);
  v1_scrape_option_fields(r, out);
}
json encode(const v1::ScrapeOptions& v) {
  Writer w;
  v1_scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, v1::ScrapeRequest& out, const Path& p) {
  Reader r(j, p);
  r("url", out.url);
  v1_scrape_option_fields(r, out);
}
json encode(const v1::ScrapeRequest& v) {
  Writer w;
  w("url", v.url);
  v1_scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, v1::BatchScrapeRequest& out, const Path& p) {
  Reader r(j, p);
  r("urls", out.urls);
  r("webhook", out.webhook);
  r("maxConcurrency", out.max_concurrency);
  r("ignoreInvalidURLs", out.ignore_invalid_urls);
  r("appendToId", out.append_to_id);
  v1_scrape_option_fields(r, out);
}
json encode(const v1::BatchScrapeRequest& v) {
  Writer w;
  w("urls", v.urls);
  w("webhook", v.webhook);
  w("maxConcurrency", v.max_concurrency);
  w("ignoreInvalidURLs", v.ignore_invalid_urls);
  w("appendToId", v.append_to_id);
  v1_scrape_option_fields(w, v);
  return std::move(w.out);
}

void decode(const json& j, v1::CrawlRequest& out, const Path& p) {
  Reader r(j, p);
  crawl_common_fields(r, out);
  r("maxDepth", out.max_depth);
  r("ignoreSitemap", out.ignore_sitemap);
  r("allowBackwardLinks", out.allow_backward_links);
  read_delay(r, out.delay, p);
}
json encode(const v1::CrawlRequest& v) {
  Writer w;
  crawl_common_fields(w, v);
  w("maxDepth", v.max_depth);
  w("ignoreSitemap", v.ignore_sitemap);
  w("allowBackwardLinks", v.allow_backward_links);
  write_delay(w, v.delay);
  return std::move(w.out);
}

void decode(const json& j, v1::SearchRequest& out, const Path& p) {
  Reader r(j, p);
  search_fields(r, out);
}
json encode(const v1::SearchRequest& v) {
  Writer w;
  search_fields(w, v);
  return std::move(w.out);
}

}  // namespace webdata::detail
