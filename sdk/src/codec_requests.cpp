// Requests and the option objects inside them. One field list per type serves both directions.
#include "codec.hpp"

namespace webdata::detail {
namespace {

// The scrape options both versions have.
template <class IO, class S>
void shared_scrape_option_fields(IO& io, S& s) {
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

template <class IO, class S>
void scrape_option_fields(IO& io, S& s) {
  shared_scrape_option_fields(io, s);
  io("parsers", s.parsers);
  io("onlyCleanContent", s.only_clean_content);
  io("minAge", s.min_age);
  io("lockdown", s.lockdown);
  io("redactPII", s.redact_pii);
  io("profile", s.profile);
  io("threatProtection", s.threat_protection);
  io("auditMetadata", s.audit_metadata);
  io("safeMode", s.safe_mode);
}

template <class IO, class S>
void v1_scrape_option_fields(IO& io, S& s) {
  shared_scrape_option_fields(io, s);
  io("parsePDF", s.parse_pdf);
  io("jsonOptions", s.json_options);
  io("extract", s.extract);
  io("changeTrackingOptions", s.change_tracking_options);
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

template <class IO, class B>
void batch_fields(IO& io, B& b) {
  io("urls", b.urls);
  io("webhook", b.webhook);
  io("maxConcurrency", b.max_concurrency);
  io("ignoreInvalidURLs", b.ignore_invalid_urls);
  io("appendToId", b.append_to_id);
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

// `delay` is in seconds on the wire and a duration in the model.
struct DelaySeconds {
  static void read(const json& v, std::optional<std::chrono::milliseconds>& out, const Path& p) {
    double seconds = 0;
    decode(v, seconds, p);
    out = std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
  }
  static json write(const std::optional<std::chrono::milliseconds>& delay) {
    if (!delay) return nullptr;
    if (delay->count() % 1000 == 0) return static_cast<long long>(delay->count() / 1000);
    return static_cast<double>(delay->count()) / 1000.0;
  }
};

// `sources` and `categories` come as strings or `{type}` objects; the SDK sends strings.
struct TypedList {
  template <class E>
  static void read(const json& v, std::optional<std::vector<E>>& out, const Path& here) {
    if (!v.is_array()) fail(here, std::string("expected an array, got ") + type_name(v));
    std::vector<E> items;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const json& item = v[i];
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
  template <class E>
  static json write(const std::optional<std::vector<E>>& v) {
    return v ? encode(*v) : json();
  }
};

// `decline` is `{approvalId}` on the wire, the id alone in the model; any other shape is ignored.
struct DeclineObject {
  static void read(const json& v, std::optional<std::string>& out, const Path& p) {
    if (!v.is_object()) return;
    Reader d(v, p);
    d("approvalId", out);
  }
  static json write(const std::optional<std::string>& v) {
    return v ? json{{"approvalId", *v}} : json();
  }
};

// A model read from a bare string as `T(string)`, and sent as the bare string of member `key`
// when that member is all it would carry.
template <class T>
void read_or_bare(const json& j, T& out, const Path& p) {
  if (j.is_string()) {
    out = T(j.get<std::string>());
    return;
  }
  read_fields(j, out, p);
}
template <class T>
json write_or_bare(const T& v, const char* key) {
  json out = write_fields(v);
  if (out.size() == 1 && out.contains(key)) return std::move(out[key]);
  return out;
}

}  // namespace

#define WEBDATA_BARE_OR_FIELDS_CODEC(T, key)        \
  void decode(const json& j, T& out, const Path& p) { \
    read_or_bare(j, out, p);                          \
  }                                                   \
  json encode(const T& v) { return write_or_bare(v, key); }

template <class IO, class M, IfModel<M, Viewport> = 0>
void fields(IO& io, M& v) {
  io("width", v.width);
  io("height", v.height);
}
WEBDATA_FIELDS_CODEC(Viewport)

template <class IO, class M, IfModel<M, AttributeSelector> = 0>
void fields(IO& io, M& a) {
  io("selector", a.selector, kRequired);
  io("attribute", a.attribute, kRequired);
}
WEBDATA_FIELDS_CODEC(AttributeSelector)

template <class IO, class M, IfModel<M, BrowserProfile> = 0>
void fields(IO& io, M& b) {
  io("name", b.name, kRequired);
  io("saveChanges", b.save_changes);
}
WEBDATA_FIELDS_CODEC(BrowserProfile)

template <class IO, class M, IfModel<M, FormatEntry> = 0>
void fields(IO& io, M& f) {
  io("type", f.type, kRequired);
  io("schema", f.schema);
  io("prompt", f.prompt);
  io("fullPage", f.full_page);
  io("quality", f.quality);
  io("viewport", f.viewport);
  io("modes", f.modes);
  io("tag", f.tag);
  io("checkPromptInjection", f.check_prompt_injection);
  io("selectors", f.selectors);
  io("question", f.question);
  io("query", f.query);
  io("mode", f.mode);
}
WEBDATA_BARE_OR_FIELDS_CODEC(FormatEntry, "type")

template <class IO, class M, IfModel<M, Action> = 0>
void fields(IO& io, M& a) {
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
WEBDATA_FIELDS_CODEC(Action)

template <class IO, class M, IfModel<M, Location> = 0>
void fields(IO& io, M& l) {
  io("country", l.country);
  io("languages", l.languages);
}
WEBDATA_FIELDS_CODEC(Location)

template <class IO, class M, IfModel<M, WebhookSpec> = 0>
void fields(IO& io, M& w) {
  io("url", w.url);
  io("headers", w.headers);
  io("metadata", w.metadata);
  io("events", w.events);
}
WEBDATA_BARE_OR_FIELDS_CODEC(WebhookSpec, "url")

template <class IO, class M, IfModel<M, Parser> = 0>
void fields(IO& io, M& x) {
  io("type", x.type, kRequired);
  io("maxPages", x.max_pages);
  io("mode", x.mode);
  io("pages", x.pages);
  io("pageMarkdown", x.page_markdown);
  io("blocks", x.blocks);
  io("pageMarkers", x.page_markers);
}
WEBDATA_BARE_OR_FIELDS_CODEC(Parser, "type")

template <class IO, class M, IfModel<M, ScrapeOptions> = 0>
void fields(IO& io, M& s) {
  scrape_option_fields(io, s);
}
WEBDATA_FIELDS_CODEC(ScrapeOptions)

template <class IO, class M, IfModel<M, ScrapeRequest> = 0>
void fields(IO& io, M& s) {
  io("url", s.url);
  scrape_option_fields(io, s);
}
WEBDATA_FIELDS_CODEC(ScrapeRequest)

template <class IO, class M, IfModel<M, BatchScrapeRequest> = 0>
void fields(IO& io, M& b) {
  batch_fields(io, b);
  scrape_option_fields(io, b);
}
WEBDATA_FIELDS_CODEC(BatchScrapeRequest)

template <class IO, class M, IfModel<M, CrawlRequest> = 0>
void fields(IO& io, M& c) {
  crawl_common_fields(io, c);
  io("prompt", c.prompt);
  io("sitemap", c.sitemap);
  io("crawlEntireDomain", c.crawl_entire_domain);
  io.with("delay", c.delay, DelaySeconds{});
}
WEBDATA_FIELDS_CODEC(CrawlRequest)

template <class IO, class M, IfModel<M, SearchRequest> = 0>
void fields(IO& io, M& s) {
  search_fields(io, s);
  io("highlights", s.highlights);  // v2 only, as the rest of this list
  io("includeDomains", s.include_domains);
  io("excludeDomains", s.exclude_domains);
  io("enterprise", s.enterprise);
  io("asyncScraping", s.async_scraping);
  io("domainTools", s.domain_tools);
  io("toolDetail", s.tool_detail);
  io("threatProtection", s.threat_protection);
  io.with("sources", s.sources, TypedList{});
  io.with("categories", s.categories, TypedList{});
}
WEBDATA_FIELDS_CODEC(SearchRequest)

template <class IO, class M, IfModel<M, AgentApproval> = 0>
void fields(IO& io, M& a) {
  io("approvalId", a.approval_id);
  io("callIds", a.call_ids);
  io("always", a.always);
}
WEBDATA_FIELDS_CODEC(AgentApproval)

template <class IO, class M, IfModel<M, AgentExchange> = 0>
void fields(IO& io, M& x) {
  io("enabled", x.enabled);
  io("toolkits", x.toolkits);
  io("maxCalls", x.max_calls);
  io("requireApproval", x.require_approval);
  io("onTermsRequired", x.on_terms_required);
  io("approve", x.approve);
  io.with("decline", x.decline, DeclineObject{});
}
WEBDATA_FIELDS_CODEC(AgentExchange)

template <class IO, class M, IfModel<M, AgentExchangeSummary> = 0>
void fields(IO& io, M& x) {
  io("enabled", x.enabled);
  io("toolkits", x.toolkits, kOmitEmpty);
  io("requireApproval", x.require_approval);
  io("onTermsRequired", x.on_terms_required);
  io("paidCalls", x.paid_calls);
  io("creditsUsed", x.credits_used, kNullUnset);
}
WEBDATA_FIELDS_CODEC(AgentExchangeSummary)

template <class IO, class M, IfModel<M, AgentRequest> = 0>
void fields(IO& io, M& a) {
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
WEBDATA_FIELDS_CODEC(AgentRequest)

template <class IO, class M, IfModel<M, v1::JsonOptions> = 0>
void fields(IO& io, M& o) {
  io("schema", o.schema);
  io("systemPrompt", o.system_prompt);
  io("prompt", o.prompt);
}
WEBDATA_FIELDS_CODEC(v1::JsonOptions)

template <class IO, class M, IfModel<M, v1::ChangeTrackingOptions> = 0>
void fields(IO& io, M& o) {
  io("modes", o.modes);
  io("schema", o.schema);
  io("prompt", o.prompt);
  io("tag", o.tag);
}
WEBDATA_FIELDS_CODEC(v1::ChangeTrackingOptions)

template <class IO, class M, IfModel<M, v1::ScrapeOptions> = 0>
void fields(IO& io, M& s) {
  v1_scrape_option_fields(io, s);
}
WEBDATA_FIELDS_CODEC(v1::ScrapeOptions)

template <class IO, class M, IfModel<M, v1::ScrapeRequest> = 0>
void fields(IO& io, M& s) {
  io("url", s.url);
  v1_scrape_option_fields(io, s);
}
WEBDATA_FIELDS_CODEC(v1::ScrapeRequest)

template <class IO, class M, IfModel<M, v1::BatchScrapeRequest> = 0>
void fields(IO& io, M& b) {
  batch_fields(io, b);
  v1_scrape_option_fields(io, b);
}
WEBDATA_FIELDS_CODEC(v1::BatchScrapeRequest)

template <class IO, class M, IfModel<M, v1::CrawlRequest> = 0>
void fields(IO& io, M& c) {
  crawl_common_fields(io, c);
  io("maxDepth", c.max_depth);
  io("ignoreSitemap", c.ignore_sitemap);
  io("allowBackwardLinks", c.allow_backward_links);
  io.with("delay", c.delay, DelaySeconds{});
}
WEBDATA_FIELDS_CODEC(v1::CrawlRequest)

template <class IO, class M, IfModel<M, v1::SearchRequest> = 0>
void fields(IO& io, M& s) {
  search_fields(io, s);
}
WEBDATA_FIELDS_CODEC(v1::SearchRequest)

}  // namespace webdata::detail
