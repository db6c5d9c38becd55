#include "jobs/site_map.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "content/document.hpp"
#include "jobs/crawl_rules.hpp"
#include "jobs/sitemap.hpp"

namespace webdata::mock::jobs {

namespace {

using SteadyClock = std::chrono::steady_clock;

/// Time left from `at` to the deadline, capped so one slow fetch cannot take the whole map.
std::chrono::milliseconds fetch_timeout(SteadyClock::time_point at,
                                        SteadyClock::time_point deadline) {
  constexpr std::chrono::milliseconds kMax{10000};
  if (deadline == SteadyClock::time_point::max()) return kMax;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - at);
  return std::clamp(left, std::chrono::milliseconds(1), kMax);
}

class Mapper {
 public:
  Mapper(const web::VirtualWeb& web, const MapOptions& options, const Url& start)
      : web_(web), options_(options), start_(start), scope_(start, scope_options(options)) {}

  MapResult run() {
    const std::string origin = start_.origin();
    const auto robots_text = fetch_text(origin + "/robots.txt");
    if (robots_text) robots_ = RobotsTxt::parse(*robots_text);
    if (options_.sitemap != "only") offer(start_.without_fragment());
    if (options_.sitemap != "skip") read_sitemaps(origin);
    if (options_.sitemap != "only") read_pages();
    result_.timed_out = timed_out_;
    result_.ready_at = now();
    return std::move(result_);
  }

 private:
  static ScopeOptions scope_options(const MapOptions& options) {
    ScopeOptions scope;
    scope.allow_subdomains = options.include_subdomains;
    return scope;
  }

  /// The map's own time: each fetch starts when the one before it was due, so the pages'
  /// delays add up as if each had been waited for, but nothing waits (the route answers when
  /// the map is due).
  SteadyClock::time_point now() const { return std::max(web_.clock().steady_now(), due_); }

  bool past_deadline() {
    if (!timed_out_ && now() >= options_.deadline) timed_out_ = true;
    return timed_out_;
  }
  bool full() const { return result_.links.size() >= options_.limit; }

  web::FetchResult fetch(const std::string& url) {
    web::FetchRequest request;
    request.url = url;
    request.start = now();
    request.timeout = fetch_timeout(request.start, options_.deadline);
    request.accept_language = options_.accept_language;
    web::FetchResult fetched = web_.fetch_deferred(request);
    due_ = std::max(due_, fetched.ready_at);
    return fetched;
  }

  std::optional<std::string> fetch_text(const std::string& url) {
    if (past_deadline()) return std::nullopt;
    const auto fetched = fetch(url);
    if (!fetched.ok || fetched.status != 200) return std::nullopt;
    return fetched.body;
  }

  /// Adds a URL when it is new, in scope and allowed by robots.txt.
  void offer(const std::string& text) {
    if (full()) return;
    const auto url = parse_http_url(text);
    if (!url || !scope_.contains(*url)) return;
    const std::string identity = url_identity(*url, options_.ignore_query_parameters, false);
    if (seen_.count(identity) != 0) return;
    seen_.insert(identity);
    if (!robots_.allowed(url->target())) {
      ++result_.robots_blocked;
      return;
    }
    result_.links.push_back({url->without_fragment(), "", ""});
  }

  void read_sitemaps(const std::string& origin) {
    std::vector<std::string> start = robots_.sitemaps();
    start.push_back(origin + "/sitemap.xml");
    follow_sitemaps(
        std::move(start), [this](const std::string& url) { return fetch_text(url); },
        [this](const std::string& loc) { offer(loc); }, [this] { return full(); });
  }

  /// Breadth first over the URLs found so far (start page first), reading links and titles.
  void read_pages() {
    std::size_t fetched = 0;
    for (std::size_t i = 0; i < result_.links.size() && fetched <= options_.page_budget; ++i) {
      if (past_deadline()) return;
      const std::string url = result_.links[i].url;
      ++fetched;
      const auto page = fetch(url);
      if (!page.ok || page.status != 200) continue;
      const auto document =
          content::Document::parse({page.url, page.content_type, page.status, page.body});
      if (document.kind() != content::Document::Kind::kHtml) continue;
      result_.links[i].title = document.title();
      const auto metadata = document.metadata();
      if (metadata.contains("description") && metadata.at("description").is_string()) {
        result_.links[i].description = metadata.at("description").get<std::string>();
      }
      for (const auto& link : document.links()) offer(link);
    }
  }

  const web::VirtualWeb& web_;
  const MapOptions& options_;
  Url start_;
  Scope scope_;
  RobotsTxt robots_;
  std::set<std::string> seen_;
  MapResult result_;
  bool timed_out_ = false;
  SteadyClock::time_point due_{};
};

}  // namespace

MapResult map_site(const web::VirtualWeb& web, const MapOptions& options) {
  const auto start = parse_http_url(options.url);
  if (!start || options.limit == 0) return {};
  return Mapper(web, options, *start).run();
}

}  // namespace webdata::mock::jobs
