#include "classify.hpp"

#include <algorithm>
#include <cctype>

#include "checks.hpp"

namespace webdata::conformance {

using json = nlohmann::json;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string text_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_string()) return {};
  return object.at(key).get<std::string>();
}

std::string code_of(const Answer& a) {
  return text_field(a.json, "code");
}

bool is_html(const Answer& a) {
  if (contains(lower(a.content_type), "text/html")) return true;
  const auto start = a.body.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return false;
  const std::string head = lower(a.body.substr(start, 14));
  return head.rfind("<!doctype html", 0) == 0 || head.rfind("<html", 0) == 0;
}

// "HTML page", "text/plain", "an empty body": what a body that is not JSON is.
std::string body_kind(const Answer& a) {
  if (is_html(a)) return "HTML page";
  if (a.body.empty()) return "an empty body";
  if (!a.content_type.empty()) return a.content_type.substr(0, a.content_type.find(';'));
  return "not JSON";
}

// The document a successful scrape answer holds, or null.
json scraped_document(const Answer& a) {
  if (a.status != 200 || !a.json.is_object() || !a.json.value("success", false)) return nullptr;
  const json data = a.json.value("data", json());
  return data.is_object() ? data : json();
}

// A scrape's `warning`, in `data` or at the top level.
std::string warning_of(const Answer& a) {
  const std::string inner =
      text_field(a.json.is_object() ? a.json.value("data", json()) : json(), "warning");
  return inner.empty() ? text_field(a.json, "warning") : inner;
}

bool is_fetch_error(const Answer& a) {
  const std::string code = code_of(a);
  for (const char* fetch : {"SCRAPE_DNS_RESOLUTION_ERROR", "SCRAPE_SITE_ERROR", "SCRAPE_SSL_ERROR",
                            "SCRAPE_ALL_ENGINES_FAILED"}) {
    if (code == fetch) return true;
  }
  const std::string message = lower(error_text(a));
  for (const char* words :
       {"econnrefused", "could not resolve", "enotfound", "connection refused", "unreachable"}) {
    if (contains(message, words)) return true;
  }
  return false;
}

bool mentions_top_level_domain(const Answer& a) {
  return contains(lower(a.body), "top-level domain");
}

// The precheck's advice about where the test site is: for failures in fetching it.
std::string site_advice(const SiteAddress& site) {
  std::string out = "The target must reach the test site at http://" + site.site_host +
                    "/ (--site-host; the site listens on " + site.site_listen +
                    ", see --site-bind and --site-port).";
  if (last_label_too_short(site.site_host)) {
    out +=
        "\n  Note: deployments refuse URLs whose host ends in a label shorter than two "
        "characters, like " +
        host_of(site.site_host) +
        " (\"URL must have a valid top-level domain\"). On loopback use an address such as "
        "127.0.0.10 (--site-bind 127.0.0.10 --site-host 127.0.0.10), or a host name.";
  }
  return out;
}

}  // namespace

const char* presence_name(Presence presence) {
  switch (presence) {
    case Presence::kAvailable:
      return "available";
    case Presence::kAbsent:
      return "absent";
    case Presence::kBroken:
      return "broken";
  }
  return "available";
}

std::string error_text(const Answer& a) {
  std::string out = text_field(a.json, "error");
  if (out.empty()) out = text_field(a.json, "message");
  if (out.empty() && !a.body.empty() && a.json.is_discarded()) {
    // An HTML error page says what it is in <pre> (Express: "Cannot GET /path"), else its text.
    const auto pre = a.body.find("<pre>");
    const auto end = a.body.find("</pre>");
    if (pre != std::string::npos && end != std::string::npos && end > pre) {
      out = a.body.substr(pre + 5, end - pre - 5);
    } else {
      out = a.body.substr(0, a.body.find('\n'));
    }
  }
  if (out.size() > 300) out = out.substr(0, 300) + "...";
  return out;
}

std::string short_answer(const Answer& a) {
  if (a.status == 0) return "no HTTP answer (" + a.transport_error + ")";
  std::string out = "HTTP " + std::to_string(a.status);
  if (!a.json.is_discarded()) {
    const std::string code = code_of(a);
    const std::string error = error_text(a);
    if (!code.empty()) out += " " + code;
    if (!error.empty()) out += ": " + error;
    return out;
  }
  if (is_html(a) || a.body.empty()) return out + ", " + body_kind(a);
  return out + ": " + error_text(a);
}

bool says_missing(const std::string& message) {
  const std::string m = lower(message);
  for (const char* words :
       {"is missing", "not configured", "none is configured", "not enabled", "not supported",
        "needs a language model", "failed to process natural language prompt"}) {
    if (contains(m, words)) return true;
  }
  return false;
}

std::string no_route_message(const std::string& route, const Answer& a) {
  return "this deployment has no " + route + " (HTTP " + std::to_string(a.status) + ", " +
         body_kind(a) + ")";
}

Finding classify_route(const std::string& route, const Answer& a) {
  const std::string seen = route + " answers " + short_answer(a);
  if (a.status == 404 || a.status == 405) {
    return {Presence::kAbsent, a.json.is_discarded() ? no_route_message(route, a) : seen};
  }
  if (a.status != 0 && says_missing(error_text(a))) return {Presence::kAbsent, seen};
  if (a.status == 0 || a.status >= 500) return {Presence::kBroken, seen};
  return {Presence::kAvailable, seen};
}

Finding classify_scrape_feature(const std::string& field, const Answer& a) {
  const json document = scraped_document(a);
  if (document.is_object()) {
    if (document.contains(field)) return {Presence::kAvailable, "the scrape answer has " + field};
    const std::string warning = warning_of(a);
    if (!warning.empty()) {
      return {Presence::kAbsent,
              "the scrape answers without " + field + ", with the warning \"" + warning + "\""};
    }
    return {Presence::kBroken, "the scrape answers HTTP 200 without " + field +
                                   " and without a warning: the request was silently not done"};
  }
  const std::string seen = short_answer(a);
  if (a.status >= 400 && a.status < 500) {
    return {Presence::kAbsent, "a scrape asking for it is refused: " + seen};
  }
  if (code_of(a) == "SCRAPE_ALL_ENGINES_FAILED" || says_missing(error_text(a))) {
    return {Presence::kAbsent, "no engine of this deployment can do it: " + seen};
  }
  return {Presence::kBroken, "a scrape asking for it fails: " + seen};
}

Finding classify_pdf(const Answer& a) {
  const std::string seen = short_answer(a);
  if (a.status == 400 || code_of(a) == "SCRAPE_UNSUPPORTED_FILE_ERROR") {
    return {Presence::kAbsent, "PDF documents are refused: " + seen};
  }
  if (scraped_document(a).is_object()) {
    return {Presence::kAvailable, "a scrape of /files/doc.pdf answers " + seen};
  }
  return {Presence::kBroken, "a scrape of /files/doc.pdf fails: " + seen};
}

Finding classify_search(const std::string& query, const Answer& a) {
  if (a.status == 200 && a.json.is_object() && a.json.value("success", false)) {
    const json data = a.json.value("data", json::object());
    const json web = data.is_object() ? data.value("web", json::array()) : json::array();
    if (web.is_array() && !web.empty()) {
      return {Presence::kAvailable, std::to_string(web.size()) + " results for \"" + query + "\""};
    }
    const std::string warning = text_field(a.json, "warning");
    return {Presence::kAbsent, "no results for \"" + query + "\"" +
                                   (warning.empty() ? "" : " (warning \"" + warning + "\")") +
                                   ": no search provider configured"};
  }
  return classify_route("POST /v2/search", a);
}

Finding classify_model(const Answer& preview, const Answer& json_scrape) {
  if (preview.status != 0 && preview.status != 200 && says_missing(error_text(preview))) {
    return {Presence::kAbsent,
            "POST /v2/crawl/params-preview with a prompt answers " + short_answer(preview)};
  }
  if (json_scrape.status != 200 && says_missing(error_text(json_scrape))) {
    return {Presence::kAbsent,
            "a scrape asking for the json format answers " + short_answer(json_scrape)};
  }
  return {Presence::kAvailable, "no answer says a language model is missing"};
}

FetchFailure explain_fetch_failure(const Answer& a, const SiteAddress& site) {
  const std::string asked = "POST /v2/scrape of " + site.page;
  const std::string seen = asked + " answered " + short_answer(a);
  const std::string message = lower(error_text(a));
  if (a.status == 0) {
    return {"the target did not answer a scrape of this runner's test site.", seen,
            site_advice(site) + "\n  A slow deployment needs a larger --timeout-scale."};
  }
  if (a.status == 408 && contains(message, "concurrency limit queue")) {
    return {"the target could not start a scrape in time.", seen,
            "The scrape waited in the deployment's own queue and never ran: its scrape workers "
            "are busy or not running. This is not about reaching the test site: check the "
            "deployment's workers and queue, or give it more time with --timeout-scale."};
  }
  if (contains(message, "live fetching is off")) {
    return {"the target cannot fetch this runner's test site.", seen,
            "This is webdata-mock without live fetching: it serves only its virtual web. Start "
            "it with --live-fetch --allow-private-targets, or let the suite start one with "
            "--spawn-mock PATH/TO/webdata-mock."};
  }
  if (a.status == 400 && mentions_top_level_domain(a)) {
    return {"the target refuses the address of this runner's test site.", seen, site_advice(site)};
  }
  if (a.status == 408 || is_fetch_error(a)) {
    return {"the target cannot fetch this runner's test site.", seen, site_advice(site)};
  }
  if (a.status == 200 && !site.reached) {
    return {"the target cannot fetch this runner's test site.",
            seen + ", but the page never reached the runner: the target fetched something else",
            site_advice(site)};
  }
  if (a.status == 402) {
    return {"the target refuses the precheck's scrape.", seen,
            "The account has no credits left for a scrape."};
  }
  if (a.status == 429) {
    return {"the target refuses the precheck's scrape.", seen,
            "The deployment limits the rate of requests: wait, then run again."};
  }
  if (a.status >= 400 && a.status < 500) {
    return {"the target refuses the precheck's scrape.", seen, ""};
  }
  if (a.status >= 500) {
    return {"the target fails a scrape of this runner's test site.", seen,
            "The deployment's own error: its logs say more."};
  }
  return {"the target does not scrape this runner's test site as asked.",
          seen + ", without the page's text", site_advice(site)};
}

}  // namespace webdata::conformance
