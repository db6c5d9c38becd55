#include <webdata/contract/schemas.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>
#include <vector>

#include "app/mock_server.hpp"
#include "core/url.hpp"

namespace webdata::mock {
namespace {

/// Request limits beyond the schemas (which follow the public API and set none): a URL longer
/// than any browser sends, or a batch larger than a job should hold, is refused up front with a
/// `too_big` issue instead of being queued page by page.
constexpr std::size_t kMaxUrlBytes = 8192;
constexpr std::size_t kMaxUrlsPerRequest = 10000;
/// Deeper JSON is refused before anything walks it recursively (validator, extraction, copies):
/// parsing is iterative, but a 100,000-level body would overflow a thread's stack later.
constexpr std::size_t kMaxDepth = 256;

/// The memo of accepted bodies: bodies up to 8 KiB, 256 of them at most (emptied when full:
/// clients repeat a handful of bodies, and the worst case stays a few MB).
constexpr std::size_t kMaxRememberedBodyBytes = 8192;
constexpr std::size_t kMaxRememberedBodies = 256;

/// Nesting depth of a value (a scalar is 0), without recursion; stops counting past `limit`.
std::size_t depth_of(const nlohmann::json& root, std::size_t limit) {
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&root, 0}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const auto& child : *value) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

nlohmann::json too_big(nlohmann::json path, std::size_t maximum, const std::string& type,
                       const std::string& message) {
  return {{"code", "too_big"}, {"path", std::move(path)}, {"maximum", maximum},
          {"type", type},      {"inclusive", true},       {"message", message}};
}

/// Issues for the limits above; empty when the body is within them.
nlohmann::json limit_issues(const nlohmann::json& body) {
  nlohmann::json issues = nlohmann::json::array();
  if (depth_of(body, kMaxDepth) > kMaxDepth) {
    issues.push_back(too_big(nlohmann::json::array(), kMaxDepth, "depth",
                             "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
    return issues;
  }
  if (!body.is_object()) return issues;
  const auto url = body.find("url");
  if (url != body.end() && url->is_string() && url->get_ref<const std::string&>().size() > kMaxUrlBytes) {
    issues.push_back(too_big({"url"}, kMaxUrlBytes, "string",
                             "url: longer than " + std::to_string(kMaxUrlBytes) + " bytes"));
  }
  const auto urls = body.find("urls");
  if (urls != body.end() && urls->is_array()) {
    if (urls->size() > kMaxUrlsPerRequest) {
      issues.push_back(too_big({"urls"}, kMaxUrlsPerRequest, "array",
                               "urls: more than " + std::to_string(kMaxUrlsPerRequest) +
                                   " URLs in one request (got " + std::to_string(urls->size()) +
                                   ")"));
      return issues;
    }
    for (std::size_t i = 0; i < urls->size(); ++i) {
      const auto& item = (*urls)[i];
      if (item.is_string() && item.get_ref<const std::string&>().size() > kMaxUrlBytes) {
        issues.push_back(too_big({"urls", i}, kMaxUrlBytes, "string",
                                 "urls." + std::to_string(i) + ": longer than " +
                                     std::to_string(kMaxUrlBytes) + " bytes"));
      }
    }
  }
  return issues;
}

/// "http://" before a URL written without a scheme (`example.com/page`), as deployments do before
/// they validate it: a scheme is letters, digits and `+-.` up to "://" with no dot before a colon
/// (so `example.com:8080/x` has none). What is still not a URL afterwards stays invalid.
std::string with_scheme(const std::string& url) {
  const auto sep = url.find("://");
  if (sep != std::string::npos && sep > 0 && url.find_first_of(".:/", 0) == sep) return url;
  // A string that is no URL even with the scheme is left as sent, so that refusals and
  // `invalidURLs` quote what the client sent.
  const std::string prefixed = "http://" + url;
  return parse_http_url(prefixed) ? prefixed : url;
}

/// Request bodies whose `url` / `urls` are page URLs (search and agent take none).
bool takes_page_urls(const std::string& schema) {
  for (const char* name : {"/scrape.request", "/batch-scrape.request", "/crawl.request",
                           "/map.request", "/extract.request"}) {
    if (schema.size() >= std::strlen(name) &&
        schema.compare(schema.size() - std::strlen(name), std::string::npos, name) == 0) {
      return true;
    }
  }
  return false;
}

void add_schemes(nlohmann::json& body) {
  if (!body.is_object()) return;
  if (auto url = body.find("url"); url != body.end() && url->is_string()) {
    *url = with_scheme(url->get<std::string>());
  }
  if (auto urls = body.find("urls"); urls != body.end() && urls->is_array()) {
    for (auto& item : *urls) {
      if (item.is_string()) item = with_scheme(item.get<std::string>());
    }
  }
}

nlohmann::json custom_issue(nlohmann::json path, const std::string& message) {
  return {{"code", "custom"}, {"path", std::move(path)}, {"message", message}};
}

nlohmann::json child_path(const nlohmann::json& prefix, const nlohmann::json& key) {
  nlohmann::json path = prefix;
  path.push_back(key);
  return path;
}

/// The names of the formats an options object asks for (v1 strings, v2 strings or objects).
std::vector<std::string> format_names(const nlohmann::json& options) {
  std::vector<std::string> names;
  const auto formats = options.find("formats");
  if (formats == options.end() || !formats->is_array()) return names;
  for (const auto& entry : *formats) {
    if (entry.is_string()) names.push_back(entry.get<std::string>());
    if (entry.is_object() && entry.contains("type") && entry.at("type").is_string()) {
      names.push_back(entry.at("type").get<std::string>());
    }
  }
  return names;
}

/// A duration field as milliseconds, held to [0, 10^12] so that sums cannot overflow (the schema
/// sets no maximum on some of them); `fallback` when absent or not an integer.
std::int64_t millis(const nlohmann::json& object, const char* key, std::int64_t fallback) {
  constexpr std::int64_t kCap = 1000000000000;
  const auto it = object.find(key);
  if (it == object.end()) return fallback;
  if (it->is_number_unsigned()) return std::min<std::uint64_t>(it->get<std::uint64_t>(), kCap);
  if (it->is_number_integer()) return std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, kCap);
  return fallback;
}

/// The real service's rules between fields of one set of scrape options (the texts are the
/// service's). They run only on options the schema accepted, as the service's refinements do.
/// `default_timeout` is the timeout the version applies when none is sent (0: none).
void scrape_option_rules(const nlohmann::json& options, const nlohmann::json& prefix,
                         const std::string& version, std::int64_t default_timeout,
                         nlohmann::json& issues) {
  if (!options.is_object()) return;
  const std::vector<std::string> names = format_names(options);
  const auto count = [&](const std::string& name) {
    return std::count(names.begin(), names.end(), name);
  };
  const std::int64_t wait_for = millis(options, "waitFor", 0);
  const std::int64_t timeout = millis(options, "timeout", default_timeout);
  if (timeout > 0 && wait_for > timeout / 2) {
    issues.push_back(custom_issue(child_path(prefix, "waitFor"),
                                  "waitFor must not exceed half of timeout"));
  }
  std::int64_t total_wait = wait_for;
  if (const auto actions = options.find("actions");
      actions != options.end() && actions->is_array()) {
    for (std::size_t i = 0; i < actions->size(); ++i) {
      const auto& action = (*actions)[i];
      if (!action.is_object() || action.value("type", "") != "wait") continue;
      const bool ms = action.contains("milliseconds");
      const bool selector = action.contains("selector");
      if (ms && selector) {
        issues.push_back(
            custom_issue(child_path(child_path(prefix, "actions"), i),
                         "Either 'milliseconds' or 'selector' must be provided, but not both."));
      }
      // A selector wait counts as one second, as the service counts it.
      if (ms) {
        total_wait += millis(action, "milliseconds", 0);
      } else if (selector) {
        total_wait += 1000;
      }
    }
  }
  if (total_wait > 60000) {
    issues.push_back(custom_issue(
        child_path(prefix, options.contains("actions") ? "actions" : "waitFor"),
        "Total wait time (waitFor + wait actions) cannot exceed 60 seconds"));
  }
  const nlohmann::json formats_path = child_path(prefix, "formats");
  if (version == "v1") {
    if (count("screenshot") > 0 && count("screenshot@fullPage") > 0) {
      issues.push_back(custom_issue(formats_path,
                                    "You may only specify either screenshot or screenshot@fullPage"));
    }
    const bool extract_ok = (count("extract") > 0) == options.contains("extract");
    const bool json_ok = (count("json") > 0) == options.contains("jsonOptions");
    if (!extract_ok || !json_ok) {
      issues.push_back(custom_issue(formats_path,
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

/// Cross-field issues of a request body the schema accepted (before defaults are applied).
nlohmann::json cross_field_issues(const std::string& schema, const nlohmann::json& body) {
  nlohmann::json issues = nlohmann::json::array();
  if (!body.is_object()) return issues;
  const std::string version = schema.substr(0, 2);
  const std::string name = schema.substr(3);
  // The page URL must be an absolute http(s) URL (the schema's `uri` format is wider). Batch
  // `urls` are checked by the handler, which may drop bad ones (`ignoreInvalidURLs`).
  if (takes_page_urls(schema) && body.contains("url") && body.at("url").is_string() &&
      !parse_http_url(body.at("url").get<std::string>())) {
    const std::string url = body.at("url").get<std::string>();
    const auto sep = url.find("://");
    const bool other_scheme = sep != std::string::npos && url.compare(0, 4, "http") != 0;
    issues.push_back({{"code", "invalid_string"},
                      {"validation", other_scheme ? "regex" : "url"},
                      {"path", {"url"}},
                      {"message", other_scheme ? "URL uses unsupported protocol" : "Invalid URL"}});
    return issues;
  }
  if (name == "scrape.request") {
    // v1 scrape defaults `timeout` to 30 s; v2 and batch scrape set none.
    scrape_option_rules(body, nlohmann::json::array(), version, version == "v1" ? 30000 : 0,
                        issues);
  } else if (name == "batch-scrape.request") {
    scrape_option_rules(body, nlohmann::json::array(), version, 0, issues);
  } else if (name == "crawl.request" || name == "search.request") {
    if (body.contains("scrapeOptions")) {
      scrape_option_rules(body.at("scrapeOptions"), nlohmann::json::array({"scrapeOptions"}),
                          version, 0, issues);
    }
  }
  return issues;
}

}  // namespace

std::optional<http::Response> MockServer::check_content_type(const http::Request& request) {
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
  const std::string sent = request.header("Content-Type").value_or("");
  std::string media = sent.substr(0, sent.find(';'));
  media.erase(0, media.find_first_not_of(" \t"));
  media.erase(media.find_last_not_of(" \t") + 1);
  std::transform(media.begin(), media.end(), media.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (media == "application/json") return std::nullopt;
  const std::string message =
      "Content-Type must be application/json: the body was sent " +
      (sent.empty() ? std::string("without a Content-Type") : "as '" + sent + "'") +
      ", and the service reads a request body only when it is sent as JSON";
  return http::Response::error(400, "Bad Request: " + message, "BAD_REQUEST",
                               nlohmann::json::array({custom_issue(nlohmann::json::array(),
                                                                   message)}));
}

std::shared_ptr<const nlohmann::json> MockServer::accepted_body(const std::string& schema,
                                                                const std::string& text) const {
  if (text.size() > kMaxRememberedBodyBytes) return nullptr;
  const std::string key = schema + '\n' + text;
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  const auto it = accepted_.find(key);
  return it == accepted_.end() ? nullptr : it->second;
}

void MockServer::remember_accepted(const std::string& schema, const std::string& text,
                                   const nlohmann::json& body) const {
  if (text.size() > kMaxRememberedBodyBytes) return;
  auto entry = std::make_shared<const nlohmann::json>(body);
  std::map<std::string, std::shared_ptr<const nlohmann::json>> dropped;  // freed unlocked
  std::lock_guard<std::mutex> lock(accepted_mutex_);
  if (accepted_.size() >= kMaxRememberedBodies) dropped.swap(accepted_);
  accepted_.emplace(schema + '\n' + text, std::move(entry));
}

std::optional<http::Response> MockServer::validate_request(const std::string& schema,
                                                           nlohmann::json& body) const {
  // Limits first: they are cheap, and they keep a huge batch from reaching the validator.
  if (auto limits = limit_issues(body); !limits.empty()) {
    const std::string message = "Bad Request: " + limits.front()["message"].get<std::string>();
    return http::Response::error(400, message, "BAD_REQUEST", std::move(limits));
  }
  if (takes_page_urls(schema)) add_schemes(body);
  const auto& schemas = contract::SchemaSet::embedded();
  const auto issues = schemas.validate(schema, body);
  if (!issues.empty()) {
    nlohmann::json details = nlohmann::json::array();
    for (const auto& issue : issues) details.push_back(issue.to_json());
    std::string message = "Bad Request";
    // The first issue in the message too, so a client that shows only `error` says what is wrong.
    message += ": " + issues.front().message;
    return http::Response::error(400, message, "BAD_REQUEST", details);
  }
  if (auto rules = cross_field_issues(schema, body); !rules.empty()) {
    const std::string message = "Bad Request: " + rules.front()["message"].get<std::string>();
    return http::Response::error(400, message, "BAD_REQUEST", std::move(rules));
  }
  body = schemas.with_defaults(schema, std::move(body));
  return std::nullopt;
}

}  // namespace webdata::mock
