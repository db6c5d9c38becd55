#include <algorithm>
#include <chrono>
#include <numeric>

#include "app/handlers/handlers.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "jobs/site_map.hpp"
#include "search/index.hpp"
#include "search/text.hpp"

// POST /v1|v2/map: the URLs of a site without scraping it. The site is read by
// jobs::map_site (robots.txt, sitemaps, links); `search` orders the links by BM25 relevance
// over an index of the links found (URL words, and title and description where pages were read).

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// Best first by relevance to `query`; links that do not match keep their order after those that
/// do (a stable sort, so the site's own order breaks ties).
void rank_by_relevance(std::vector<jobs::MapLink>& links, const std::string& query) {
  std::vector<std::string> terms;
  for (auto& term : search::tokenize(query)) {
    if (!search::is_stop_word(term)) terms.push_back(std::move(term));
  }
  if (terms.empty() || links.empty()) return;
  std::vector<search::PageRecord> records;
  records.reserve(links.size());
  for (const auto& link : links) {
    search::PageRecord record;
    record.url = link.url;
    if (const auto url = parse_http_url(link.url)) {
      record.host = url->host;
      record.path = url->target();
    }
    record.title = link.title;
    record.description = link.description;
    records.push_back(std::move(record));
  }
  const search::Index index(std::move(records));
  std::vector<double> score(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) score[i] = index.bm25(i, terms);
  std::vector<std::size_t> order(links.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&score](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  std::vector<jobs::MapLink> ranked;
  ranked.reserve(links.size());
  for (const auto i : order) ranked.push_back(std::move(links[i]));
  links = std::move(ranked);
}

/// The map's options; with `search`, the whole site is read before the limit is applied, so
/// that the best matches are kept rather than the first pages found.
jobs::MapOptions map_options(const requests::MapRequest& request,
                             std::chrono::steady_clock::time_point started) {
  jobs::MapOptions options;
  options.url = request.url;
  options.sitemap = request.sitemap_mode();
  options.include_subdomains = request.include_subdomains;
  options.ignore_query_parameters = request.ignore_query_parameters;
  options.limit = static_cast<std::size_t>(request.limit);
  options.accept_language = request.accept_language();
  if (request.timeout) options.deadline = started + std::chrono::milliseconds(*request.timeout);
  if (request.search && !request.search->empty()) options.limit = 100000;
  return options;
}

/// v1 lists the URLs, v2 objects with the title and description where a page was read.
json links_json(const std::vector<jobs::MapLink>& links, bool v2) {
  json out = json::array();
  for (const auto& link : links) {
    if (!v2) {
      out.push_back(link.url);
      continue;
    }
    json item = {{"url", link.url}};
    if (!link.title.empty()) item["title"] = link.title;
    if (!link.description.empty()) item["description"] = link.description;
    out.push_back(std::move(item));
  }
  return out;
}

http::Response map_urls(Services& s, ApiCall& call, const requests::MapRequest& request) {
  const jobs::MapOptions options = map_options(request, s.clock.steady_now());
  jobs::MapResult result = jobs::map_site(*s.web, options);
  // The site's delays are not slept: the answer is written on the I/O thread's timer when the
  // map is due (at the deadline when it timed out).
  if (result.timed_out) {
    http::Response timed_out = http::Response::error(408, "Map timed out", "MAP_TIMEOUT");
    timed_out.delay = s.clock.due_in(result.ready_at);
    return timed_out;
  }
  const std::string search = request.search.value_or("");
  if (!search.empty()) rank_by_relevance(result.links, search);
  const auto limit = static_cast<std::size_t>(request.limit);
  if (result.links.size() > limit) result.links.resize(limit);
  s.teams.charge(call.team.id, 1);
  http::Response response = http::Response::json(
      200, {{"success", true},
            {"links", links_json(result.links, request.version == requests::Version::v2)}});
  response.delay = s.clock.due_in(result.ready_at);
  return response;
}

}  // namespace

void add_map_routes(ApiRoutes& routes, Services& s) {
  for (const auto version : {requests::Version::v1, requests::Version::v2}) {
    routes.api<requests::MapRequest>(
        "POST", std::string("/") + requests::version_name(version) + "/map", version,
        Credits::checked, [&s](ApiCall& call, std::shared_ptr<const requests::MapRequest> request) {
          return map_urls(s, call, *request);
        });
  }
}

}  // namespace webdata::mock::handlers
