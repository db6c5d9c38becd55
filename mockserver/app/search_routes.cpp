#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "app/mock_server.hpp"
#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/time.hpp"
#include "search/service.hpp"
#include "search/text.hpp"
#include "core/url.hpp"

// POST /v1|v2/search (specification 4.3, wire-decisions 5). The index lives in the server's
// search::SearchService, which the agent routes (app/agent_routes.cpp) share.

namespace webdata::mock {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr const char* kNoResults = "No search results found";

/// `sources` / `categories`: plain strings or {type} objects (the schema already checked them).
std::vector<std::string> type_names(const json& body, const char* key,
                                    std::vector<std::string> fallback) {
  if (!body.contains(key) || !body.at(key).is_array()) return fallback;
  std::vector<std::string> out;
  for (const auto& entry : body.at(key)) {
    const std::string name = entry.is_string() ? entry.get<std::string>() : entry.value("type", "");
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

/// The document's fields merged into a search item; `metadata` keeps what the item had.
void merge_document(json& item, const json& document) {
  for (const auto& [key, value] : document.items()) {
    if (key == "metadata" && item.contains("metadata")) {
      for (const auto& [name, field] : value.items()) item["metadata"][name] = field;
    } else {
      item[key] = value;
    }
  }
}

/// `includeDomains` / `excludeDomains`: hostnames (a URL's host is taken when one is sent).
std::vector<std::string> domain_hosts(const json& body, const char* key) {
  std::vector<std::string> out;
  for (const auto& entry : body.value(key, json::array())) {
    std::string host = entry.get<std::string>();
    const auto scheme = host.find("://");
    if (scheme != std::string::npos) host.erase(0, scheme + 3);
    host = host.substr(0, host.find_first_of("/:?#"));
    for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (!host.empty() && host.back() == '.') host.pop_back();
    if (!host.empty()) out.push_back(host);
  }
  return out;
}

http::Response custom_refusal(const std::string& field, const std::string& message) {
  return http::Response::error(400, "Bad Request: " + message, "BAD_REQUEST",
                               json::array({{{"code", "custom"},
                                             {"path", json::array({field})},
                                             {"message", message}}}));
}

/// The search a request asks for, and whether it asks for zero data retention; a refusal when
/// its fields cannot go together.
std::optional<http::Response> read_search(const ApiCall& call, search::SearchRequest& request,
                                          bool& zdr) {
  const bool v2 = call.version == "v2";
  const json& body = call.body;
  request.query = body.value("query", "");
  request.sources = v2 ? type_names(body, "sources", {"web"}) : std::vector<std::string>{"web"};
  request.categories = v2 ? type_names(body, "categories", {}) : std::vector<std::string>{};
  if (v2) {
    request.include_domains = domain_hosts(body, "includeDomains");
    request.exclude_domains = domain_hosts(body, "excludeDomains");
    if (!request.include_domains.empty() && !request.exclude_domains.empty()) {
      return custom_refusal("includeDomains",
                            "includeDomains and excludeDomains cannot both be set");
    }
  }
  // enterprise ["zdr"]: zero data retention for the search, which the team must have.
  const json enterprise = body.value("enterprise", json::array());
  zdr = std::find(enterprise.begin(), enterprise.end(), json("zdr")) != enterprise.end();
  if (zdr && !call.team.zero_data_retention) {
    return custom_refusal("enterprise",
                          "Zero data retention search (enterprise: zdr) is not enabled for this "
                          "team (set zeroDataRetention on the team in the mock's configuration)");
  }
  request.tbs = body.value("tbs", "");
  request.location = body.value("location", "");
  request.country = body.value("country", "");
  if (!v2) request.language = body.value("lang", "");
  return std::nullopt;
}

/// A search's result items: scraped when the request asks for formats, one page after another
/// (each starts when the one before is due, so slow pages add up against the search's
/// timeout as if each had been waited for), billed once per page.
class Results {
 public:
  Results(scrape::Scraper& scraper, const ApiCall& call, const Clock& clock, json scrape_options,
          bool scrape, SteadyClock::time_point deadline)
      : scraper_(scraper), call_(call), clock_(clock),
        scrape_options_(std::move(scrape_options)), scrape_(scrape),
        limit_(static_cast<std::size_t>(call.body.value("limit", 5))),
        ignore_invalid_(call.body.value("ignoreInvalidURLs", false)), deadline_(deadline) {}

  json pages(const search::Index& index, const std::vector<search::Hit>& hits, bool news);
  json images(const search::Index& index, const std::vector<search::ImageHit>& hits);
  /// What went wrong with the scrapes, for the answer's warning.
  std::vector<std::string> warnings() const;

  std::int64_t credits = 0;
  SteadyClock::time_point due{};  ///< When the last scrape is due: the answer waits for it.

 private:
  scrape::Outcome scrape_next(const json& options);
  const scrape::Outcome* scrape_url(const std::string& url);
  /// ignoreInvalidURLs: results the scrape endpoint would refuse (not an http(s) URL, a file
  /// type it cannot return) are left out; the check is a scrape of the page without formats.
  bool valid(const std::string& url);
  json page_item(const search::PageRecord& page, const search::Hit& hit, bool news,
                 std::size_t position) const;
  void add_scrape(json& item, const std::string& url);

  scrape::Scraper& scraper_;
  const ApiCall& call_;
  const Clock& clock_;
  json scrape_options_;
  bool scrape_;
  std::size_t limit_;
  bool ignore_invalid_;
  SteadyClock::time_point deadline_;
  /// Scrapes are shared between sources (a page can be a web and a news result).
  std::map<std::string, scrape::Outcome> scraped_;
  std::map<std::string, bool> validity_;
  std::set<std::string> billed_;
  std::size_t timed_out_ = 0;
  std::size_t failed_ = 0;
};

scrape::Outcome Results::scrape_next(const json& options) {
  const auto begin = std::max(SteadyClock::now(), due);
  scrape::Outcome outcome = scraper_.scrape_deferred(options, call_.version, call_.team, begin);
  due = std::max(begin, outcome.ready_at);
  return outcome;
}

const scrape::Outcome* Results::scrape_url(const std::string& url) {
  auto it = scraped_.find(url);
  if (it != scraped_.end()) return &it->second;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline_ - std::max(SteadyClock::now(), due));
  if (left.count() <= 0) return nullptr;
  json options = scrape_options_;
  options["url"] = url;
  options["timeout"] = std::min<long long>(options.value("timeout", 30000LL), left.count());
  options.erase("waitFor");
  it = scraped_.emplace(url, scrape_next(options)).first;
  return &it->second;
}

bool Results::valid(const std::string& url) {
  if (!ignore_invalid_) return true;
  auto it = validity_.find(url);
  if (it != validity_.end()) return it->second;
  bool ok = parse_http_url(url).has_value();
  if (ok) {
    const auto outcome =
        scrape_next({{"url", url}, {"formats", json::array()}, {"timeout", 10000}});
    ok = !(outcome.failure && (outcome.failure->code == "SCRAPE_UNSUPPORTED_FILE_ERROR" ||
                               outcome.failure->code == "BAD_REQUEST"));
  }
  return validity_[url] = ok;
}

json Results::page_item(const search::PageRecord& page, const search::Hit& hit, bool news,
                        std::size_t position) const {
  json item;
  if (news) {
    item = {{"title", page.title},
            {"snippet", hit.snippet},
            {"url", page.url},
            {"date", search::age_text(*page.date, clock_.now())}};
    const std::string image = !page.og_image.empty() ? page.og_image
                              : page.images.empty()  ? std::string()
                                                     : page.images.front().url;
    if (!image.empty()) item["imageUrl"] = image;
  } else {
    item = {{"title", page.title}, {"description", hit.snippet}, {"url", page.url}};
    if (!hit.category.empty()) item["category"] = hit.category;
  }
  item["position"] = position;
  return item;
}

void Results::add_scrape(json& item, const std::string& url) {
  const scrape::Outcome* outcome = scrape_url(url);
  if (outcome == nullptr) {
    ++timed_out_;
    credits += 1;
  } else if (outcome->failure) {
    ++failed_;
    credits += 1;
    item["metadata"] = {{"sourceURL", url}, {"error", outcome->failure->message}};
  } else {
    merge_document(item, outcome->document);
    if (!billed_.insert(url).second) return;
    credits += outcome->credits;
    // A search's scrape is a scrape of its own: readable by its scrapeId.
    if (!scrape::keeps_nothing(scrape_options_, call_.version)) {
      scraper_.results().add(scrape::scrape_id_of(outcome->document), call_.team.id,
                             std::make_shared<const std::string>(json_text(outcome->document)),
                             clock_.now());
    }
  }
}

json Results::pages(const search::Index& index, const std::vector<search::Hit>& hits, bool news) {
  json items = json::array();
  for (const auto& hit : hits) {
    if (items.size() >= limit_) break;
    const search::PageRecord& page = index.page(hit.doc);
    if (!valid(page.url)) continue;
    json item = page_item(page, hit, news, items.size() + 1);
    if (scrape_) {
      add_scrape(item, page.url);
    } else {
      credits += 1;
    }
    items.push_back(std::move(item));
  }
  return items;
}

json Results::images(const search::Index& index, const std::vector<search::ImageHit>& hits) {
  json items = json::array();
  for (const auto& hit : hits) {
    if (items.size() >= limit_) break;
    const search::PageRecord& page = index.page(hit.doc);
    const search::ImageRecord& image = page.images[hit.image];
    json item = {{"title", image.alt.empty() ? page.title : image.alt},
                 {"imageUrl", image.url},
                 {"url", page.url}};
    if (image.size) {
      item["imageWidth"] = image.size->width;
      item["imageHeight"] = image.size->height;
    }
    item["position"] = items.size() + 1;
    credits += 1;
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<std::string> Results::warnings() const {
  std::vector<std::string> out;
  if (timed_out_ > 0) {
    out.push_back("The search timeout was reached before " + std::to_string(timed_out_) +
                  " result(s) could be scraped; they carry no scraped content");
  }
  if (failed_ > 0) {
    out.push_back(std::to_string(failed_) +
                  " result(s) could not be scraped; see their metadata.error");
  }
  return out;
}

/// The answer's body. v1 answers the web results as `data` and, like the service, says only
/// that there are none when there are none; `baseline` leaves out the fields the Aug-2025 build
/// did not send (--inject-fault baseline-fields).
json answer_body(bool v2, json data, std::int64_t credits, std::vector<std::string> warnings,
                 bool baseline) {
  json results = v2 ? std::move(data) : data.value("web", json::array());
  // What the service says of an empty result (other notes about the query are moot then).
  if (!v2 && results.empty()) warnings = {kNoResults};
  json warning = nullptr;
  if (!warnings.empty()) {
    std::string text;
    for (const auto& w : warnings) text += (text.empty() ? "" : "; ") + w;
    warning = text;
  }
  json body = {{"success", true}, {"data", std::move(results)}, {"creditsUsed", credits}};
  if (!baseline) body["id"] = uuid4();
  if (v2 ? !baseline : !warning.is_null()) body["warning"] = warning;
  if (baseline && !v2) body.erase("creditsUsed");
  return body;
}

}  // namespace

void MockServer::add_search_routes() {
  for (const std::string version : {"v1", "v2"}) {
    api("POST", "/" + version + "/search", version + "/search.request",
        [this](ApiCall& call) { return run_search(call); });
  }
}

http::Response MockServer::run_search(ApiCall& call) {
  // The search's time runs from its start, the index's making included.
  const auto deadline =
      SteadyClock::now() + std::chrono::milliseconds(call.body.value("timeout", 60000));
  if (auto refused = require_credits(call.team, 1)) return *refused;
  search::SearchRequest request;
  bool zdr = false;
  if (auto refused = read_search(call, request, zdr)) return *refused;
  json scrape_options = call.body.value("scrapeOptions", json());
  const bool scrape = scrape_options.is_object() && scrape_options.contains("formats") &&
                      !scrape_options.at("formats").empty();
  if (scrape && zdr) scrape_options["zeroDataRetention"] = true;
  if (scrape) {
    if (auto refused = check_scrape_options(scrape_options, call.version, call.team)) {
      return *refused;
    }
  }
  search::SearchAnswer answer;
  if (auto error = search_->search(request, answer)) {
    return custom_refusal(error->field, error->message);
  }
  std::vector<std::string> warnings = answer.warnings;
  // --inject-fault no-search-results: a deployment without a search provider finds nothing,
  // and its v2 answer lists no source at all.
  const bool no_provider = config_.has_fault("no-search-results");
  if (no_provider) warnings = {kNoResults};
  Results results(*scraper_, call, clock_, std::move(scrape_options), scrape, deadline);
  json data = json::object();
  const auto wants = [&](const char* source) {
    return !no_provider &&
           std::find(request.sources.begin(), request.sources.end(), source) !=
               request.sources.end();
  };
  if (wants("web")) data["web"] = results.pages(*answer.index, answer.web, false);
  if (wants("news")) data["news"] = results.pages(*answer.index, answer.news, true);
  if (wants("images")) data["images"] = results.images(*answer.index, answer.images);
  for (auto& warning : results.warnings()) warnings.push_back(std::move(warning));
  http::Response response = [&] {
    if (results.credits > 0 && !teams_.try_charge(call.team.id, results.credits)) {
      return *require_credits(call.team, results.credits);
    }
    return http::Response::json(
        200, answer_body(call.version == "v2", std::move(data), results.credits,
                         std::move(warnings), config_.has_fault("baseline-fields")));
  }();
  response.delay = due_in(results.due);
  return response;
}

}  // namespace webdata::mock
