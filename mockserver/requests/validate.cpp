#include "requests/validate.hpp"

#include <webdata/contract/schemas.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "core/url.hpp"
#include "requests/version.hpp"

namespace webdata::mock::requests {

using nlohmann::json;

namespace {

/// Request limits beyond the schemas (which follow the public API and set none): a URL longer
/// than any browser sends, or a batch larger than a job should hold, is refused up front with a
/// `too_big` issue instead of being queued page by page.
constexpr std::size_t kMaxUrlBytes = 8192;
constexpr std::size_t kMaxUrlsPerRequest = 10000;
/// Deeper JSON is refused before anything walks it recursively (validator, extraction, copies):
/// parsing is iterative, but a 100,000-level body would overflow a thread's stack later.
constexpr std::size_t kMaxDepth = 256;
/// The service's limit on a request's actions.
constexpr std::size_t kMaxActions = 50;

// ---- issues

json child(json path, const json& key) {
  path.push_back(key);
  return path;
}

json custom_issue(json path, const std::string& message) {
  return {{"code", "custom"}, {"message", message}, {"path", std::move(path)}};
}

std::string path_text(const json& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += '.';
    out += part.is_string() ? part.get<std::string>() : part.dump();
  }
  return out;
}

/// Whether `path` is `prefix` or below it.
bool under(const json& path, const json& prefix) {
  if (!path.is_array() || path.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), path.begin());
}

/// The member `key` of an object, or null.
const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// ---- the mock's limits

/// Nesting depth of a value (a scalar is 0), without recursion; stops counting past `limit`.
std::size_t depth_of(const json& root, std::size_t limit) {
  std::vector<std::pair<const json*, std::size_t>> stack{{&root, 0}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const auto& item : *value) stack.emplace_back(&item, depth + 1);
  }
  return deepest;
}

json too_big(json path, std::size_t maximum, const std::string& type, const std::string& message) {
  return {{"code", "too_big"}, {"path", std::move(path)}, {"maximum", maximum}, {"type", type},
          {"inclusive", true},  {"exact", false},         {"message", message}};
}

json long_url(json path) {
  return too_big(std::move(path), kMaxUrlBytes, "string",
                 "URL longer than " + std::to_string(kMaxUrlBytes) + " bytes");
}

bool too_long(const json* url) {
  return url != nullptr && url->is_string() && url->get_ref<const std::string&>().size() > kMaxUrlBytes;
}

/// Issues for the limits above; empty when the body is within them.
json limit_issues(const json& body) {
  json issues = json::array();
  if (depth_of(body, kMaxDepth) > kMaxDepth) {
    issues.push_back(too_big(json::array(), kMaxDepth, "depth",
                             "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
    return issues;
  }
  if (too_long(member(body, "url"))) issues.push_back(long_url({"url"}));
  const json* urls = member(body, "urls");
  if (urls == nullptr || !urls->is_array()) return issues;
  if (urls->size() > kMaxUrlsPerRequest) {
    issues.push_back(too_big({"urls"}, kMaxUrlsPerRequest, "array",
                             "More than " + std::to_string(kMaxUrlsPerRequest) +
                                 " URLs in one request (got " + std::to_string(urls->size()) + ")"));
    return issues;
  }
  for (std::size_t i = 0; i < urls->size(); ++i) {
    if (too_long(&(*urls)[i])) issues.push_back(long_url({"urls", i}));
  }
  return issues;
}

// ---- URL rules

/// The service's `protocolIncluded`: a scheme-like run (no dot, no colon) before "://".
bool names_scheme(const std::string& text) {
  const auto sep = text.find("://");
  return sep != std::string::npos && sep > 0 && text.find_first_of(".:") >= sep;
}

std::string with_scheme(const std::string& text) {
  return names_scheme(text) ? text : "http://" + text;
}

/// What a WHATWG URL parser (the service's `new URL`) refuses that matters here: no scheme, a
/// special scheme without a host, a host with forbidden characters, a bad port.
bool parses_as_url(const std::string& text) {
  const auto url = parse_url(text);
  if (!url) return false;
  if (!url->has_authority) return !url->is_http();
  if (url->host.empty() && url->scheme != "file") return false;
  const bool forbidden = std::any_of(url->host.begin(), url->host.end(), [](unsigned char c) {
    return c <= 0x20 || c == 0x7f || std::strchr("<>^|\"`{}%\\", c) != nullptr;
  });
  return !forbidden && (!url->port || (*url->port > 0 && *url->port <= 65535));
}

bool starts_http(const std::string& text) {
  std::string head = text.substr(0, 8);
  std::transform(head.begin(), head.end(), head.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return head.rfind("http://", 0) == 0 || head.rfind("https://", 0) == 0;
}

bool tld_char(unsigned char c) { return std::isalnum(c) || c == '-' || c >= 0x80; }

/// The service's check on the whole URL text: somewhere a dot, two or more letters, digits,
/// dashes (or non-ASCII letters), an optional port, then `/`, `?`, `#` or the end ("a valid
/// top-level domain or a valid path": `http://host/file.html` passes too).
bool has_top_level_domain(const std::string& text) {
  const std::size_t n = text.size();
  for (std::size_t dot = text.find('.'); dot != std::string::npos; dot = text.find('.', dot + 1)) {
    std::size_t i = dot + 1;
    while (i < n && tld_char(static_cast<unsigned char>(text[i]))) ++i;
    if (i - dot - 1 < 2) continue;
    if (i < n && text[i] == ':') {
      std::size_t j = i + 1;
      while (j < n && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      if (j == i + 1) continue;  // a colon without a port
      i = j;
    }
    if (i == n || text[i] == '/' || text[i] == '?' || text[i] == '#') return true;
  }
  return false;
}

/// One part of an IPv4 address as a URL parser reads it: decimal, 0x hex or 0-led octal.
bool ipv4_number(const std::string& part) {
  if (part.empty()) return false;
  const bool hex = part.size() > 1 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X');
  const std::string digits = hex ? part.substr(2) : part;
  const bool octal = !hex && part.size() > 1 && part[0] == '0';
  return std::all_of(digits.begin(), digits.end(), [&](unsigned char c) {
    return hex ? std::isxdigit(c) != 0 : octal ? (c >= '0' && c <= '7') : std::isdigit(c) != 0;
  });
}

/// An IPv4 address in any form a URL parser takes (`127.0.0.1`, `127.1`, `2130706433`,
/// `0x7f000001`, `0177.0.0.1`): one to four numbers.
bool ipv4_host(std::string host) {
  if (!host.empty() && host.back() == '.') host.pop_back();
  std::size_t parts = 0;
  for (std::size_t start = 0; start <= host.size(); ++parts) {
    const auto end = std::min(host.find('.', start), host.size());
    if (!ipv4_number(host.substr(start, end - start))) return false;
    start = end + 1;
  }
  return parts >= 1 && parts <= 4;
}

/// Hosts the mock takes beside those with a top-level domain: IP addresses (as the newer service
/// does, in every form a URL parser reads as one) and localhost.
bool local_or_ip_host(const std::string& text) {
  const auto url = parse_http_url(text);
  if (!url) return false;
  const std::string& host = url->host;
  if (host == "localhost" || host.find(':') != std::string::npos) return true;  // IPv6 literal
  return ipv4_host(host);
}

// ---- the service's words

const char* strict_message(Version version) {
  return version == Version::v1
             ? "Unrecognized key in body -- please review the v1 API documentation for request "
               "body changes"
             : "Unrecognized key in body -- please review the v2 API documentation for request "
               "body changes";
}

/// The v2 format union in the service's order (its Aug 2025 members first, then the newer ones
/// the mock takes): a format of none of these types is refused as `invalid_union`.
constexpr const char* kV2FormatUnion[] = {
    "markdown", "html",   "rawHtml", "links",    "summary",           "json",
    "changeTracking", "screenshot", "rawBase64", "images", "deterministicJson", "attributes",
    "branding", "product", "menu",   "question", "highlights",        "query",
    "audio",    "video"};

/// The members of the union a request is checked against: all of them, or the Aug-2025 build's
/// (markdown to screenshot: its answer to an unknown format listed these eight).
std::size_t union_members(const Rules& rules) {
  constexpr std::size_t kAug2025Members = 8;
  return rules.aug_2025 ? kAug2025Members : std::size(kV2FormatUnion);
}

bool known_v2_format(const json& entry, std::size_t members) {
  const json* type = entry.is_string() ? &entry : member(entry, "type");
  if (type == nullptr || !type->is_string()) return false;
  return std::any_of(std::begin(kV2FormatUnion), std::begin(kV2FormatUnion) + members,
                     [&](const char* name) { return *type == name; });
}

std::string json_type_name(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  return value.is_array() ? "array" : "object";
}

/// Zod's answer for a v2 format entry of no known type: every member of the union and why it
/// did not take the entry (a string is read as `{type: <string>}`, as the service reads it).
json format_union(const json& entry, const json& path, std::size_t members) {
  json errors = json::array();
  for (std::size_t m = 0; m < members; ++m) {
    const char* type = kV2FormatUnion[m];
    json issue;
    if (entry.is_string() || entry.is_object()) {
      issue = {{"code", "invalid_literal"},
               {"expected", type},
               {"path", child(path, "type")},
               {"message", std::string("Invalid literal value, expected \"") + type + "\""}};
      const json* received = entry.is_string() ? &entry : member(entry, "type");
      if (received != nullptr) issue["received"] = *received;
    } else {
      issue = {{"code", "invalid_type"},
               {"expected", "object"},
               {"received", json_type_name(entry)},
               {"path", path},
               {"message", "Expected object, received " + json_type_name(entry)}};
    }
    errors.push_back({{"issues", json::array({issue})}, {"name", "ZodError"}});
  }
  return {{"code", "invalid_union"}, {"unionErrors", errors}, {"path", path},
          {"message", "Invalid input"}};
}

/// Where a request's scrape options sit in its body.
json options_path(const std::string& name) {
  if (name == "scrape.request" || name == "batch-scrape.request" || name == "parse.request") {
    return json::array();
  }
  if (name == "crawl.request" || name == "search.request" || name == "extract.request") {
    return json::array({"scrapeOptions"});
  }
  return nullptr;
}

/// The value at `path` in `body`, or null.
const json* at_path(const json& body, const json& path) {
  const json* node = &body;
  for (const auto& part : path) {
    if (part.is_string() && node->is_object() && node->contains(part.get<std::string>())) {
      node = &(*node)[part.get<std::string>()];
    } else if (part.is_number_unsigned() && node->is_array() && part.get<std::size_t>() < node->size()) {
      node = &(*node)[part.get<std::size_t>()];
    } else {
      return nullptr;
    }
  }
  return node;
}

/// One issue of the contract's validator in Zod's words: the message without the path, the
/// service's text for an unknown key of a request body (its webhook and scrapeOptions too). The
/// validator's own text, which names the keys and the path, is kept for the hint (kHintKey).
constexpr const char* kHintKey = "\x1fhint";

json zod_issue(const contract::Issue& issue, Version version) {
  json out = issue.to_json();
  out[kHintKey] = issue.message;
  out["message"] = issue.text;
  const bool strict_object = issue.path.empty() || issue.path == json::array({"webhook"}) ||
                             issue.path == json::array({"scrapeOptions"});
  if (issue.code == "unrecognized_keys" && strict_object) out["message"] = strict_message(version);
  return out;
}

/// Replaces every issue at or below `path` with `replacement`.
void replace_below(json& issues, const json& path, json replacement) {
  json kept = json::array();
  bool placed = false;
  for (auto& issue : issues) {
    if (!under(issue["path"], path)) {
      kept.push_back(std::move(issue));
    } else if (!placed) {
      kept.push_back(replacement);
      placed = true;
    }
  }
  if (!placed) kept.push_back(std::move(replacement));
  issues = std::move(kept);
}

/// The Aug-2025 build's scrape options had no maximum for `timeout`: its too_big issue goes.
void without_timeout_maximum(const json& prefix, json& issues) {
  const json path = child(prefix, "timeout");
  json kept = json::array();
  for (auto& issue : issues) {
    if (issue.value("code", "") != "too_big" || issue["path"] != path) kept.push_back(std::move(issue));
  }
  issues = std::move(kept);
}

/// Field rules the service states in its own words, which the schema words differently or not
/// at all: v2 formats of unknown type, the actions' count and wait actions.
void service_field_rules(const std::string& name, Version version, const json& body,
                         const Rules& rules, json& issues) {
  const json prefix = options_path(name);
  if (prefix.is_null()) return;
  const json* options = at_path(body, prefix);
  if (options == nullptr) return;
  if (rules.aug_2025) without_timeout_maximum(prefix, issues);
  const json* formats = member(*options, "formats");
  if (version == Version::v2 && formats != nullptr && formats->is_array()) {
    for (std::size_t i = 0; i < formats->size(); ++i) {
      if (known_v2_format((*formats)[i], union_members(rules))) continue;
      const json path = child(child(prefix, "formats"), i);
      replace_below(issues, path, format_union((*formats)[i], path, union_members(rules)));
    }
  }
  const json* actions = member(*options, "actions");
  if (actions == nullptr || !actions->is_array()) return;
  const json actions_path = child(prefix, "actions");
  if (actions->size() > kMaxActions) {
    issues.push_back(custom_issue(actions_path, "Number of actions cannot exceed " +
                                                    std::to_string(kMaxActions)));
  }
  for (std::size_t i = 0; i < actions->size(); ++i) {
    const json& action = (*actions)[i];
    if (!action.is_object() || action.value("type", "") != "wait") continue;
    if (action.contains("milliseconds") != action.contains("selector")) continue;
    replace_below(issues, child(actions_path, i),
                  custom_issue(child(actions_path, i),
                               "Either 'milliseconds' or 'selector' must be provided, but not "
                               "both."));
  }
}

/// The agent's `schema` must be a JSON Schema the validator reads (the service compiles it).
void agent_rules(const std::string& name, const json& body, json& issues) {
  const json* schema = member(body, "schema");
  if (name != "agent.request" || schema == nullptr || !schema->is_object()) return;
  if (auto problem = contract::schema_problem(*schema)) {
    issues.push_back(custom_issue({"schema"}, "Invalid JSON schema: " + *problem));
  }
}

// ---- cross-field rules (only on options the schema accepted, as the service's refinements)

/// A duration field as milliseconds, held to [0, 10^12] so that sums cannot overflow (the schema
/// sets no maximum on some of them); `fallback` when absent or not an integer.
std::int64_t millis(const json& object, const char* key, std::int64_t fallback) {
  constexpr std::int64_t kCap = 1000000000000;
  const json* it = member(object, key);
  if (it == nullptr) return fallback;
  if (it->is_number_unsigned()) return std::min<std::uint64_t>(it->get<std::uint64_t>(), kCap);
  if (it->is_number_integer()) return std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, kCap);
  return fallback;
}

std::vector<std::string> format_names(const json& options) {
  std::vector<std::string> names;
  const json* formats = member(options, "formats");
  if (formats == nullptr || !formats->is_array()) return names;
  for (const auto& entry : *formats) {
    const json* type = entry.is_string() ? &entry : member(entry, "type");
    if (type != nullptr && type->is_string()) names.push_back(type->get<std::string>());
  }
  return names;
}

void wait_rules(const json& options, const json& prefix, std::int64_t default_timeout,
                json& issues) {
  const std::int64_t wait_for = millis(options, "waitFor", 0);
  const std::int64_t timeout = millis(options, "timeout", default_timeout);
  if (timeout > 0 && wait_for > timeout / 2) {
    issues.push_back(custom_issue(child(prefix, "waitFor"), "waitFor must not exceed half of timeout"));
  }
  std::int64_t total_wait = wait_for;
  const json* actions = member(options, "actions");
  if (actions != nullptr && actions->is_array()) {
    for (const auto& action : *actions) {
      if (!action.is_object() || action.value("type", "") != "wait") continue;
      // A selector wait counts as one second, as the service counts it.
      total_wait += action.contains("milliseconds") ? millis(action, "milliseconds", 0) : 1000;
    }
  }
  if (total_wait > 60000) {
    issues.push_back(custom_issue(child(prefix, actions != nullptr ? "actions" : "waitFor"),
                                  "Total wait time (waitFor + wait actions) cannot exceed 60 seconds"));
  }
}

void format_rules(const json& options, const json& prefix, Version version, json& issues) {
  const std::vector<std::string> names = format_names(options);
  const auto count = [&](const char* name) { return std::count(names.begin(), names.end(), name); };
  const json formats_path = child(prefix, "formats");
  if (version == Version::v1) {
    if (count("screenshot") > 0 && count("screenshot@fullPage") > 0) {
      issues.push_back(custom_issue(formats_path,
                                    "You may only specify either screenshot or screenshot@fullPage"));
    }
    const bool extract_ok = (count("extract") > 0) == (member(options, "extract") != nullptr);
    const bool json_ok = (count("json") > 0) == (member(options, "jsonOptions") != nullptr);
    if (!extract_ok || !json_ok) {
      // The service reports this one at the options object.
      issues.push_back(custom_issue(prefix,
                                    "When 'extract' or 'json' format is specified, corresponding "
                                    "options must be provided, and vice versa"));
    }
  } else {
    if (count("screenshot") > 1) {
      issues.push_back(custom_issue(formats_path, "You may only specify one screenshot format"));
    }
    if (count("rawBase64") > 0 && names.size() > 1) {
      issues.push_back(custom_issue(formats_path, "The rawBase64 format must be the only format"));
    }
  }
  if (count("changeTracking") > 0 && count("markdown") == 0) {
    issues.push_back(custom_issue(
        formats_path, "The changeTracking format requires the markdown format to be specified as well"));
  }
}

/// The rules between fields of a body the schema accepted (before defaults are applied).
json cross_field_issues(const std::string& name, Version version, const json& body) {
  json issues = json::array();
  const json* include = member(body, "includeDomains");
  const json* exclude = member(body, "excludeDomains");
  if (include != nullptr && exclude != nullptr && !include->empty() && !exclude->empty()) {
    issues.push_back(custom_issue({"includeDomains"},
                                  "includeDomains and excludeDomains cannot both be set"));
  }
  const json prefix = options_path(name);
  const json* options = prefix.is_null() ? nullptr : at_path(body, prefix);
  if (options == nullptr || !options->is_object()) return issues;
  // v1 scrape defaults `timeout` to 30 s before the rule; v2 and batch scrape set none.
  const bool v1_scrape = version == Version::v1 && name == "scrape.request";
  wait_rules(*options, prefix, v1_scrape ? 30000 : 0, issues);
  format_rules(*options, prefix, version, issues);
  return issues;
}

// ---- page URLs

/// Request bodies whose `url` / `urls` are page URLs, and which of them are checked.
struct UrlFields {
  bool url = false;
  bool urls = false;
};

/// ignoreInvalidURLs as the request means it: as sent, else its schema's default (v2 batch
/// scrape: true, as the specification says; the Aug-2025 service checked every URL unless the
/// body itself said true).
bool ignores_invalid_urls(const std::string& schema, const json& body) {
  if (const json* sent = member(body, "ignoreInvalidURLs"); sent != nullptr && sent->is_boolean()) {
    return sent->get<bool>();
  }
  const json* properties = member(contract::SchemaSet::embedded().document(schema), "properties");
  const json* field = properties != nullptr ? member(*properties, "ignoreInvalidURLs") : nullptr;
  const json* fallback = field != nullptr ? member(*field, "default") : nullptr;
  return fallback != nullptr && *fallback == true;
}

UrlFields url_fields(const std::string& schema, const std::string& name, const json& body) {
  // A batch or an extract that ignores invalid URLs lists them instead of being refused.
  const bool checked = !ignores_invalid_urls(schema, body);
  if (name == "scrape.request" || name == "crawl.request" || name == "map.request" ||
      name == "crawl-params-preview.request" || name == "llmstxt.request") {
    return {true, false};
  }
  if (name == "batch-scrape.request" || name == "extract.request") return {false, checked};
  if (name == "agent.request") return {false, true};
  return {};
}

void read_urls_as_service(const UrlFields& fields, json& body) {
  if (!body.is_object()) return;
  if (auto it = body.find("url"); fields.url && it != body.end() && it->is_string()) {
    *it = url_as_read(it->get<std::string>());
  }
  if (auto it = body.find("urls"); it != body.end() && it->is_array()) {
    for (auto& item : *it) {
      if (item.is_string()) item = url_as_read(item.get<std::string>());
    }
  }
}

void url_rules(const UrlFields& fields, const json& body, json& issues) {
  if (const json* url = member(body, "url"); fields.url && url != nullptr && url->is_string()) {
    for (auto& issue : url_issues(url->get<std::string>(), {"url"})) issues.push_back(issue);
  }
  const json* urls = member(body, "urls");
  if (!fields.urls || urls == nullptr || !urls->is_array()) return;
  for (std::size_t i = 0; i < urls->size(); ++i) {
    if (!(*urls)[i].is_string()) continue;
    for (auto& issue : url_issues((*urls)[i].get<std::string>(), {"urls", i})) {
      issues.push_back(issue);
    }
  }
}

/// Before the body's own unrecognized_keys issue, which Zod reports after the fields.
void add_field_issues(json& issues, const json& more) {
  auto root_keys = std::find_if(issues.begin(), issues.end(), [](const json& issue) {
    return issue["code"] == "unrecognized_keys" && issue["path"].empty();
  });
  for (const auto& issue : more) root_keys = std::next(issues.insert(root_keys, issue));
}

Refusal refusal(const std::string& name, Version version, json issues) {
  Refusal out;
  const json& first = issues.front();
  const std::string where = path_text(first["path"]);
  out.hint = first.contains(kHintKey)
                 ? first[kHintKey].get<std::string>()
                 : (where.empty() ? "" : where + ": ") + first["message"].get<std::string>();
  for (auto& issue : issues) issue.erase(kHintKey);
  if (version == Version::v2 && name == "search.request") {
    out.error = "Invalid request body";
  } else if (name == "crawl-params-preview.request") {
    std::string messages;
    for (const auto& issue : issues) {
      messages += (messages.empty() ? "" : ", ") + issue["message"].get<std::string>();
    }
    out.error = "Invalid request parameters: " + messages;
  } else {
    out.error = "Bad Request";
  }
  out.details = std::move(issues);
  return out;
}

}  // namespace

json url_issues(const std::string& text, const json& path) {
  json issues = json::array();
  const std::string url = with_scheme(text);
  if (!parses_as_url(url)) {
    issues.push_back({{"validation", "url"}, {"code", "invalid_string"}, {"message", "Invalid url"},
                      {"path", path}});
  }
  if (!starts_http(url)) {
    issues.push_back({{"validation", "regex"}, {"code", "invalid_string"},
                      {"message", "URL uses unsupported protocol"}, {"path", path}});
  }
  if (!has_top_level_domain(url) && !local_or_ip_host(url)) {
    issues.push_back(
        custom_issue(path, "URL must have a valid top-level domain or be a valid path"));
  }
  if (!parse_http_url(url)) issues.push_back(custom_issue(path, "Invalid URL"));
  return issues;
}

std::string url_as_read(const std::string& text) {
  const std::string url = with_scheme(text);
  return url != text && url_issues(url, json::array()).empty() ? url : text;
}

std::optional<Refusal> validate(const std::string& schema, json& body, const Rules& rules) {
  const Version version = schema.rfind("v1/", 0) == 0 ? Version::v1 : Version::v2;
  const std::string name = schema.substr(schema.find('/') + 1);
  // Limits first: they are cheap, and they keep a huge batch from reaching the validator.
  if (json limits = limit_issues(body); !limits.empty()) {
    return refusal(name, version, std::move(limits));
  }
  const UrlFields fields = url_fields(schema, name, body);
  read_urls_as_service(fields, body);
  const auto& schemas = contract::SchemaSet::embedded();
  json issues = json::array();
  for (const auto& issue : schemas.validate(schema, body)) issues.push_back(zod_issue(issue, version));
  json more = json::array();
  url_rules(fields, body, more);
  service_field_rules(name, version, body, rules, issues);
  agent_rules(name, body, more);
  add_field_issues(issues, more);
  if (issues.empty()) issues = cross_field_issues(name, version, body);
  if (!issues.empty()) return refusal(name, version, std::move(issues));
  body = schemas.with_defaults(schema, std::move(body));
  return std::nullopt;
}

}  // namespace webdata::mock::requests
