#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

// POST /v1|v2/search (specification 4.3, wire-decisions 5). The index lives in the server's
// search::SearchService, which the agent routes (app/handlers/agent.cpp) share.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

using Steady = std::chrono::steady_clock;

constexpr const char* kNoResults = "No search results found";

/// The scrapes of a search's results: one per URL (a page can be a web and a news result, and is
/// billed once), one after another: each starts when the one before is due (`due()`), so slow
/// pages add up against the search's timeout as if each had been waited for, and the answer
/// waits for the last of them on the I/O thread's timer.
class ResultScrapes {
 public:
  ResultScrapes(scrape::Scraper& scraper, const Team& team, const requests::SearchRequest& request,
                Steady::time_point deadline)
      : scraper_(scraper), team_(team), request_(request), deadline_(deadline) {}

  /// The scrape of `url`, or null when the search's time ran out before it could start.
  const scrape::Outcome* of(const std::string& url) {
    auto it = scraped_.find(url);
    if (it != scraped_.end()) return &it->second;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline_ - std::max(scraper_.clock().steady_now(), due_));
    if (left.count() <= 0) return nullptr;
    requests::ScrapeOptions options = request_.scrape_options;
    if (request_.zero_data_retention()) options.zero_data_retention = true;
    options.timeout = std::min<std::int64_t>(options.timeout, left.count());
    options.wait_for = 0;
    return &scraped_.emplace(url, next(options, url)).first->second;
  }

  /// ignoreInvalidURLs: whether the scrape endpoint would take `url` (an http(s) URL of a file
  /// type it can return); the check is a scrape of the page without formats.
  bool valid(const std::string& url) {
    if (!request_.ignore_invalid_urls) return true;
    auto it = validity_.find(url);
    if (it != validity_.end()) return it->second;
    bool ok = parse_http_url(url).has_value();
    if (ok) {
      requests::ScrapeOptions probe = requests::ScrapeOptions::defaults(request_.version);
      probe.formats.clear();
      probe.timeout = 10000;
      const auto outcome = next(probe, url);
      ok = !(outcome.failure && (outcome.failure->code == "SCRAPE_UNSUPPORTED_FILE_ERROR" ||
                                 outcome.failure->code == "BAD_REQUEST"));
    }
    return validity_[url] = ok;
  }

  Steady::time_point due() const { return due_; }

 private:
  scrape::Outcome next(const requests::ScrapeOptions& options, const std::string& url) {
    const auto begin = std::max(scraper_.clock().steady_now(), due_);
    scrape::Outcome outcome = scraper_.scrape_deferred(options, url, team_, begin);
    due_ = std::max(begin, outcome.ready_at);
    return outcome;
  }

  scrape::Scraper& scraper_;
  const Team& team_;
  const requests::SearchRequest& request_;
  Steady::time_point deadline_;
  Steady::time_point due_{};
  std::map<std::string, scrape::Outcome> scraped_;
  std::map<std::string, bool> validity_;
};

/// A web or news result as the answer lists it, before any scrape.
json page_item(const search::PageRecord& page, const search::Hit& hit, bool news,
               std::chrono::system_clock::time_point now) {
  if (!news) {
    json item = {{"title", page.title}, {"description", hit.snippet}, {"url", page.url}};
    if (!hit.category.empty()) item["category"] = hit.category;
    return item;
  }
  json item = {{"title", page.title},
               {"snippet", hit.snippet},
               {"url", page.url},
               {"date", search::age_text(*page.date, now)}};
  const std::string image = !page.og_image.empty() ? page.og_image
                            : page.images.empty()  ? std::string()
                                                   : page.images.front().url;
  if (!image.empty()) item["imageUrl"] = image;
  return item;
}

json image_items(const search::SearchAnswer& answer, std::size_t limit, std::int64_t& credits) {
  const search::Index& index = answer.index_of("images");
  json items = json::array();
  for (const auto& hit : answer.images) {
    if (items.size() >= limit) break;
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

/// What a search's answer is being built from: its results, their scrapes and what they cost.
struct SearchRun {
  const requests::SearchRequest& request;
  ApiCall& call;
  ResultScrapes scrapes;
  std::int64_t credits = 0;
  std::size_t timed_out = 0;
  std::size_t failed = 0;
  std::set<std::string> billed;
};

void bill_search_scrape(Services& s, SearchRun& run, const scrape::Outcome& outcome) {
  run.credits += outcome.credits;
  // A search's scrape is a scrape of its own: readable by its scrapeId.
  if (run.request.scrape_options.keeps_nothing() || run.request.zero_data_retention()) return;
  s.scraper->results().add(scrape::scrape_id_of(outcome.document), run.call.team.id,
                           std::make_shared<const std::string>(json_text(outcome.document)),
                           s.clock.now());
}

json search_pages(Services& s, SearchRun& run, const search::SearchAnswer& answer,
                  const std::string& source) {
  const std::vector<search::Hit>& hits = source == "news" ? answer.news : answer.web;
  const search::Index& index = answer.index_of(source);
  const auto limit = static_cast<std::size_t>(run.request.limit);
  json items = json::array();
  for (const auto& hit : hits) {
    if (items.size() >= limit) break;
    const search::PageRecord& page = index.page(hit.doc);
    if (!run.scrapes.valid(page.url)) continue;
    json item = page_item(page, hit, source == "news", s.clock.now());
    item["position"] = items.size() + 1;
    if (!run.request.scrapes()) {
      run.credits += 1;
    } else if (const scrape::Outcome* outcome = run.scrapes.of(page.url); outcome == nullptr) {
      ++run.timed_out;
      run.credits += 1;
    } else if (outcome->failure) {
      ++run.failed;
      run.credits += 1;
      item["metadata"] = {{"sourceURL", page.url}, {"error", outcome->failure->message}};
    } else {
      for (const auto& [key, value] : outcome->document.items()) item[key] = value;
      if (run.billed.insert(page.url).second) bill_search_scrape(s, run, *outcome);
    }
    items.push_back(std::move(item));
  }
  return items;
}

/// The 200 answer (or 402 when the team cannot pay what the results cost).
http::Response search_answer(Services& s, ApiCall& call, const requests::SearchRequest& request,
                             std::int64_t credits, json data, std::vector<std::string> warnings) {
  if (credits > 0 && !s.teams.try_charge(call.team.id, credits)) {
    return *s.require_credits(call.team, credits);
  }
  const bool v2 = request.version == requests::Version::v2;
  // v1 answers the web results as `data`, and like the service says only that there are none
  // when there are none (other notes about the query are moot then).
  const auto web = data.find("web");
  json results = v2 ? std::move(data) : web != data.end() ? std::move(*web) : json::array();
  if (!v2 && results.empty()) warnings = {kNoResults};
  json warning = nullptr;
  if (!warnings.empty()) {
    std::string text;
    for (const auto& w : warnings) text += (text.empty() ? "" : "; ") + w;
    warning = text;
  }
  // --inject-fault baseline-fields: without the fields the Aug-2025 build did not send.
  const bool baseline = s.config.has_fault("baseline-fields");
  json body = {{"success", true}, {"data", std::move(results)}};
  if (!baseline) {
    body["id"] = uuid4();
    s.feedback.issue(call.team.id, "search", body["id"].get<std::string>(), s.clock.now());
  }
  if (v2 || !baseline) body["creditsUsed"] = credits;
  if (v2 ? !baseline : !warning.is_null()) body["warning"] = warning;
  return http::Response::json(200, body);
}

/// 400 when the team may not search without retention, or may not scrape as asked.
std::optional<http::Response> check_search(Services& s, ApiCall& call,
                                           const requests::SearchRequest& request) {
  // enterprise ["zdr"]: zero data retention for the search, which the team must have.
  if (request.zero_data_retention() && !call.team.zero_data_retention) {
    return field_refusal("enterprise",
                         "Zero data retention search (enterprise: zdr) is not enabled for "
                         "this team (set zeroDataRetention on the team in the mock's "
                         "configuration)");
  }
  if (!request.scrapes()) return std::nullopt;
  requests::ScrapeOptions options = request.scrape_options;
  if (request.zero_data_retention()) options.zero_data_retention = true;
  return s.check_scrape_options(options, call.team);
}

/// What the answer says of results that could not be scraped.
void add_scrape_warnings(const SearchRun& run, std::vector<std::string>& warnings) {
  if (run.timed_out > 0) {
    warnings.push_back("The search timeout was reached before " + std::to_string(run.timed_out) +
                       " result(s) could be scraped; they carry no scraped content");
  }
  if (run.failed > 0) {
    warnings.push_back(std::to_string(run.failed) +
                       " result(s) could not be scraped; see their metadata.error");
  }
}

http::Response answer_search(Services& s, ApiCall& call, const requests::SearchRequest& request) {
  const auto deadline = s.clock.steady_now() + std::chrono::milliseconds(request.timeout);
  if (request.wants_exchange()) return exchange_not_enabled();
  if (auto refused = check_search(s, call, request)) return *refused;
  search::SearchAnswer answer;
  if (auto error = s.search->search(request, answer)) {
    return field_refusal(error->field, error->message);
  }
  std::vector<std::string> warnings = answer.warnings;
  // --inject-fault no-search-results: a deployment without a search provider finds nothing,
  // and its v2 answer lists no source at all.
  const bool no_provider = s.config.has_fault("no-search-results");
  if (no_provider) warnings = {kNoResults};
  SearchRun run{request, call, ResultScrapes(*s.scraper, call.team, request, deadline), 0, 0,
                0,       {}};
  json data = json::object();
  const std::vector<std::string> sources =
      no_provider ? std::vector<std::string>{} : request.source_names();
  for (const std::string source : {"web", "news", "images"}) {
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) continue;
    data[source] = source == "images"
                       ? image_items(answer, static_cast<std::size_t>(request.limit), run.credits)
                       : search_pages(s, run, answer, source);
  }
  add_scrape_warnings(run, warnings);
  http::Response response =
      search_answer(s, call, request, run.credits, std::move(data), std::move(warnings));
  response.delay = s.clock.due_in(run.scrapes.due());
  return response;
}

}  // namespace

void add_search_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    const std::string v = requests::version_name(version);
    routes.api<requests::SearchRequest>(
        "POST", "/" + v + "/search", version, Credits::checked,
        [&s](ApiCall& call, std::shared_ptr<const requests::SearchRequest> request) {
          return answer_search(s, call, *request);
        });
  }
}

}  // namespace webdata::mock::handlers
