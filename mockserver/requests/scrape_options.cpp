#include "requests/scrape_options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "requests/requests.hpp"

namespace webdata::mock::requests {

using nlohmann::json;

namespace {

std::string text_or_empty(const std::optional<std::string>& text) { return text.value_or(""); }

ExtractSpec spec_of(const std::optional<json>& schema, const std::optional<std::string>& prompt,
                    const std::optional<std::string>& system_prompt = std::nullopt) {
  return ExtractSpec{schema.value_or(json()), text_or_empty(prompt), text_or_empty(system_prompt)};
}

std::optional<std::string> tag_of(const std::optional<json>& tag) {
  if (tag && tag->is_string()) return tag->get<std::string>();
  return std::nullopt;
}

}  // namespace

bool ScrapeOptions::wants(std::string_view name) const {
  return std::any_of(formats.begin(), formats.end(), [name](const Format& f) {
    return f.type == name || (name == "screenshot" && f.type == "screenshot@fullPage");
  });
}

std::vector<std::string> ScrapeOptions::format_names() const {
  std::vector<std::string> names;
  for (const auto& f : formats) {
    if (std::find(names.begin(), names.end(), f.type) == names.end()) names.push_back(f.type);
  }
  return names;
}

const Format* ScrapeOptions::format(std::string_view type) const {
  const auto it = std::find_if(formats.begin(), formats.end(),
                               [type](const Format& f) { return f.type == type; });
  return it == formats.end() ? nullptr : &*it;
}

bool ScrapeOptions::parses_pdf() const {
  if (version == Version::v1) return parse_pdf;
  return std::any_of(parsers.begin(), parsers.end(),
                     [](const Parser& p) { return p.type == "pdf"; });
}

std::string ScrapeOptions::proxy_mode() const { return proxy == "stealth" ? "enhanced" : proxy; }

bool ScrapeOptions::sensitive() const {
  return (headers && !headers->empty()) || (actions && !actions->empty());
}

bool ScrapeOptions::keeps_nothing() const {
  return zero_data_retention || (version == Version::v2 && lockdown);
}

std::string ScrapeOptions::accept_language() const {
  if (!location.languages) return "";
  std::string out;
  double q = 1.0;
  for (const auto& language : *location.languages) {
    if (out.empty()) {
      out = language;
      continue;
    }
    q = std::max(0.1, q - 0.1);
    char weight[16];
    std::snprintf(weight, sizeof weight, ";q=%.1f", q);
    out += ", " + language + weight;
  }
  return out;
}

std::optional<ExtractSpec> ScrapeOptions::json_format() const {
  if (!wants("json")) return std::nullopt;
  if (version == Version::v1) {
    if (!json_options) return ExtractSpec{};
    return spec_of(json_options->schema, json_options->prompt, json_options->system_prompt);
  }
  const Format* entry = format("json");
  return spec_of(entry->schema, entry->prompt);
}

std::optional<ExtractSpec> ScrapeOptions::deterministic_json_format() const {
  const Format* entry = version == Version::v2 ? format("deterministicJson") : nullptr;
  if (entry == nullptr) return std::nullopt;
  return spec_of(entry->schema, entry->prompt);
}

std::optional<ExtractSpec> ScrapeOptions::extract_format() const {
  if (version != Version::v1 || !wants("extract")) return std::nullopt;
  if (!extract) return ExtractSpec{};
  return spec_of(extract->schema, extract->prompt, extract->system_prompt);
}

std::optional<ChangeTrackingSpec> ScrapeOptions::change_tracking() const {
  if (!wants("changeTracking")) return std::nullopt;
  ChangeTrackingSpec out;
  if (version == Version::v1) {
    if (!change_tracking_options) return out;
    const auto& o = *change_tracking_options;
    return ChangeTrackingSpec{o.modes.value_or(std::vector<std::string>{}), tag_of(o.tag),
                              o.schema.value_or(json()), text_or_empty(o.prompt)};
  }
  const Format* entry = format("changeTracking");
  return ChangeTrackingSpec{entry->modes.value_or(std::vector<std::string>{}),
                            tag_of(entry->tag), entry->schema.value_or(json()),
                            text_or_empty(entry->prompt)};
}

std::optional<ScreenshotSpec> ScrapeOptions::screenshot() const {
  if (!wants("screenshot")) return std::nullopt;
  ScreenshotSpec out;
  out.full_page = format("screenshot@fullPage") != nullptr;
  if (const Format* entry = format("screenshot"); entry != nullptr && version == Version::v2) {
    out.full_page = entry->full_page.value_or(false);
    out.viewport = entry->viewport;
  }
  return out;
}

ScrapeOptions ScrapeOptions::with_json_format(const ExtractSpec& spec) const {
  ScrapeOptions out = *this;
  const auto set = [](const auto& value, auto& field) {
    if (!value.empty()) field = value;
  };
  Format markdown;
  markdown.type = "markdown";
  Format json_entry;
  json_entry.type = "json";
  if (version == Version::v2) {
    json_entry.as_object = true;
    if (!spec.schema.is_null()) json_entry.schema = spec.schema;
    set(spec.prompt, json_entry.prompt);
  } else {
    ExtractOptions options;
    if (!spec.schema.is_null()) options.schema = spec.schema;
    set(spec.prompt, options.prompt);
    set(spec.system_prompt, options.system_prompt);
    out.json_options = std::move(options);
  }
  out.formats = {markdown, json_entry};
  return out;
}

// ---- crawl, map, search

bool CrawlRequest::entire_domain() const {
  return version == Version::v1 ? allow_backward_links : crawl_entire_domain;
}

std::string CrawlRequest::sitemap_mode() const {
  if (version == Version::v2) return sitemap;
  return ignore_sitemap ? "skip" : "include";
}

json CrawlRequest::listed_options() const {
  json options = encode(*this);
  for (const char* key : {"url", "webhook", "origin", "integration"}) options.erase(key);
  return options;
}

std::string MapRequest::sitemap_mode() const {
  if (version == Version::v2) return sitemap;
  return sitemap_only ? "only" : ignore_sitemap ? "skip" : "include";
}

std::string MapRequest::accept_language() const {
  std::string out;
  if (!location || !location->languages) return out;
  for (const auto& language : *location->languages) out += (out.empty() ? "" : ",") + language;
  return out;
}

std::vector<std::string> SearchRequest::source_names() const {
  if (version == Version::v1) return {"web"};
  std::vector<std::string> out;
  for (const auto& s : sources) {
    if (std::find(out.begin(), out.end(), s.type) == out.end()) out.push_back(s.type);
  }
  return out;
}

std::vector<std::string> SearchRequest::category_names() const {
  std::vector<std::string> out;
  for (const auto& c : categories) {
    if (std::find(out.begin(), out.end(), c.type) == out.end()) out.push_back(c.type);
  }
  return out;
}

bool SearchRequest::wants_exchange() const {
  if (domain_tools.value_or(false)) return true;
  return std::any_of(sources.begin(), sources.end(),
                     [](const SearchSource& s) { return s.type == "alexandria"; });
}

SourceSettings SearchRequest::settings_for(const std::string& type) const {
  const auto own = std::find_if(sources.begin(), sources.end(),
                                [&type](const SearchSource& s) { return s.type == type; });
  const SearchSource none;
  const SearchSource& source = own == sources.end() ? none : *own;
  const bool web = type == "web";
  const bool inherits = web || type == "news";
  const auto pick = [inherits](const std::optional<std::string>& mine,
                               const std::optional<std::string>& request) {
    return mine ? *mine : inherits ? request.value_or("") : std::string();
  };
  SourceSettings out;
  out.tbs = pick(source.tbs, tbs);
  out.filter = source.filter ? *source.filter : web ? filter.value_or("") : std::string();
  out.lang = pick(source.lang, lang);
  out.country = pick(source.country, country);
  out.location = pick(source.location, location);
  return out;
}

namespace {

std::vector<std::string> hosts_of(const std::optional<std::vector<std::string>>& entries) {
  std::vector<std::string> out;
  if (!entries) return out;
  for (std::string host : *entries) {
    const auto scheme = host.find("://");
    if (scheme != std::string::npos) host.erase(0, scheme + 3);
    host = host.substr(0, host.find_first_of("/:?#"));
    std::transform(host.begin(), host.end(), host.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    while (!host.empty() && host.back() == '.') host.pop_back();
    if (!host.empty()) out.push_back(host);
  }
  return out;
}

}  // namespace

AgentExchange AgentExchange::updated_by(const AgentExchange& later) const {
  AgentExchange out;
  const auto pick = [](const auto& mine, const auto& theirs) { return theirs ? theirs : mine; };
  out.enabled = pick(enabled, later.enabled);
  out.toolkits = pick(toolkits, later.toolkits);
  out.max_calls = pick(max_calls, later.max_calls);
  out.require_approval = pick(require_approval, later.require_approval);
  out.on_terms_required = pick(on_terms_required, later.on_terms_required);
  return out;
}

std::vector<std::string> SearchRequest::include_hosts() const { return hosts_of(include_domains); }
std::vector<std::string> SearchRequest::exclude_hosts() const { return hosts_of(exclude_domains); }

bool SearchRequest::zero_data_retention() const {
  return enterprise && std::find(enterprise->begin(), enterprise->end(), "zdr") != enterprise->end();
}

}  // namespace webdata::mock::requests
