#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <set>

#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/url.hpp"
#include "jobs/crawl_rules.hpp"
#include "jobs/monitors.hpp"
#include "scrape/scrape_store.hpp"

// What one check does with each kind of target: scrape its URLs, walk a site from a start page
// within the crawl options' scope, or run search queries and judge the results against the
// monitor's goal. Every page goes through change tracking (its history per monitor and target),
// which says whether it is new, the same or changed since the last check.

namespace webdata::mock::jobs {

namespace {

using nlohmann::json;

/// The options every page of a target is scraped with: the target's, markdown always among the
/// formats (change tracking compares markdown), fresh from the page.
requests::ScrapeOptions page_options(const requests::MonitorTarget& target) {
  requests::ScrapeOptions options =
      target.scrape_options.value_or(requests::ScrapeOptions::defaults(requests::Version::v2));
  options.version = requests::Version::v2;
  options.max_age = 0;  // a check reads the page as it is now, never the cache's copy
  if (options.format("markdown") == nullptr) {
    requests::Format markdown;
    markdown.type = "markdown";
    options.formats.push_back(markdown);
  }
  return options;
}

std::string markdown_in(const json& document) {
  const auto it = document.find("markdown");
  return it != document.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// Sets the page's status (new, same, changed) and diff from change tracking of `markdown`
/// against the page's history in this monitor and target.
void track(formats::ChangeTracker& tracker, const std::string& monitor_id, const std::string& team_id,
           MonitorPage& page, std::string markdown) {
  formats::ChangeTrackingInput input;
  input.team = team_id;
  input.url = page.url;
  input.tag = "monitor:" + monitor_id + ":" + page.target_id;
  input.markdown = std::move(markdown);
  input.modes = {"git-diff"};
  input.status_code = page.status_code.value_or(200);
  input.now = page.created_at;
  const json tracked = tracker.track(input);
  const auto status = tracked.find("changeStatus");
  page.status = status != tracked.end() && status->is_string() ? status->get<std::string>() : "new";
  if (const auto diff = tracked.find("diff"); diff != tracked.end()) page.diff = *diff;
}

/// A crawl target's page limit: `crawlOptions.limit` (a fraction admits one page more, as the
/// crawl does), else kMonitorCrawlPages.
std::size_t crawl_limit(const requests::MonitorTarget& target) {
  if (!target.crawl_options || !target.crawl_options->limit) return kMonitorCrawlPages;
  return static_cast<std::size_t>(std::ceil(*target.crawl_options->limit));
}

ScopeOptions scope_options(const requests::MonitorCrawlOptions& o) {
  ScopeOptions scope;
  scope.crawl_entire_domain = o.crawl_entire_domain.value_or(false);
  scope.allow_subdomains = o.allow_subdomains.value_or(false);
  scope.allow_external = o.allow_external_links.value_or(false);
  scope.regex_on_full_url = o.regex_on_full_url.value_or(false);
  scope.include_paths = o.include_paths.value_or(std::vector<std::string>{});
  scope.exclude_paths = o.exclude_paths.value_or(std::vector<std::string>{});
  return scope;
}

/// The pages of a crawl target still to read, breadth first, each once (by the crawl's URL
/// identity), within the scope, the discovery depth and the limit.
class CrawlWalk {
 public:
  CrawlWalk(const Url& start, const requests::MonitorTarget& target)
      : options_(target.crawl_options.value_or(requests::MonitorCrawlOptions{})),
        scope_(start, scope_options(options_)),
        limit_(crawl_limit(target)) {
    offer(start, 0);
  }

  /// The next page and its depth, or nullopt when the walk is done.
  std::optional<std::pair<std::string, std::int64_t>> next() {
    if (queue_.empty() || taken_ >= limit_) return std::nullopt;
    auto entry = queue_.front();
    queue_.pop_front();
    ++taken_;
    return entry;
  }

  /// Queues the links of a page read at `depth`.
  void follow(const std::vector<std::string>& links, std::int64_t depth) {
    if (options_.max_discovery_depth && depth >= *options_.max_discovery_depth) return;
    for (const auto& link : links) {
      if (const auto url = parse_http_url(link)) offer(*url, depth + 1);
    }
  }

 private:
  void offer(const Url& url, std::int64_t depth) {
    if (!scope_.contains(url)) return;
    const auto identity = url_identity(url, options_.ignore_query_parameters.value_or(false),
                                       options_.deduplicate_similar_urls.value_or(false));
    if (seen_.insert(identity).second) queue_.emplace_back(url.str(), depth);
  }

  requests::MonitorCrawlOptions options_;
  Scope scope_;
  std::size_t limit_;
  std::size_t taken_ = 0;
  std::set<std::string> seen_;
  std::deque<std::pair<std::string, std::int64_t>> queue_;
};

/// The time filter of a search window: the index dates pages to the hour, so windows under an
/// hour read the last hour.
std::string window_tbs(const std::optional<std::string>& window) {
  if (!window) return "";
  if (*window == "6h") return "qdr:h6";
  if (*window == "24h") return "qdr:d";
  if (*window == "7d") return "qdr:w";
  return "qdr:h";  // 5m, 15m, 1h
}

MonitorSearchQuery search_query(const requests::MonitorTarget& target, const std::string& query) {
  MonitorSearchQuery out;
  out.query = query;
  out.include_domains = target.include_domains.value_or(std::vector<std::string>{});
  out.exclude_domains = target.exclude_domains.value_or(std::vector<std::string>{});
  out.tbs = window_tbs(target.search_window);
  out.limit = target.max_results.value_or(kMonitorSearchResults);
  return out;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// The words of a goal that carry its meaning: four letters or more, each once.
std::vector<std::string> goal_terms(const std::string& goal) {
  static const std::set<std::string> kCommon = {"about", "when", "with", "that", "this",
                                                "from", "into", "have", "will", "what",
                                                "which", "their", "there", "them", "they"};
  std::vector<std::string> terms;
  std::string word;
  for (const char c : lower(goal) + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      word += c;
      continue;
    }
    if (word.size() >= 4 && kCommon.count(word) == 0 &&
        std::find(terms.begin(), terms.end(), word) == terms.end()) {
      terms.push_back(word);
    }
    word.clear();
  }
  return terms;
}

/// The judge: a result is a meaningful change when it is new or changed and names at least
/// half of the goal's terms; its confidence grows with the share it names.
json judge(const std::string& goal, const MonitorSearchHit& hit, const std::string& status) {
  const auto terms = goal_terms(goal);
  const std::string text = lower(hit.title + " " + hit.description + " " + hit.url);
  std::vector<std::string> named;
  for (const auto& term : terms) {
    if (text.find(term) != std::string::npos) named.push_back(term);
  }
  const double share = terms.empty() ? 0.0 : double(named.size()) / double(terms.size());
  const bool meaningful = share >= 0.5 && status != "same";
  std::string reason = "names " + std::to_string(named.size()) + " of the goal's " +
                       std::to_string(terms.size()) + " terms";
  if (status == "same") reason += "; unchanged since the last check";
  json changes = json::array();
  if (meaningful) {
    changes.push_back({{"type", status == "new" ? "added" : "changed"},
                       {"before", nullptr},
                       {"after", hit.title},
                       {"reason", reason}});
  }
  return {{"meaningful", meaningful},
          {"confidence", share >= 0.75 ? "high" : share >= 0.5 ? "medium" : "low"},
          {"reason", reason},
          {"meaningfulChanges", changes}};
}

}  // namespace

std::int64_t monitor_target_pages(const requests::MonitorTarget& target) {
  if (target.type == "scrape" && target.urls) return static_cast<std::int64_t>(target.urls->size());
  if (target.type == "crawl") return static_cast<std::int64_t>(crawl_limit(target));
  if (target.type == "search" && target.queries) {
    return static_cast<std::int64_t>(target.queries->size()) *
           target.max_results.value_or(kMonitorSearchResults);
  }
  return 0;
}

json MonitorEngine::run_target(const Monitor& monitor, const requests::MonitorTarget& target,
                               const Team& team, std::vector<MonitorPage>& pages,
                               std::int64_t& credits) {
  if (target.type == "search") return run_search_target(monitor, target, team, pages, credits);
  if (target.type == "crawl") return run_crawl_target(monitor, target, team, pages, credits);
  return run_scrape_target(monitor, target, team, pages, credits);
}

json MonitorEngine::run_scrape_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                      const Team& team, std::vector<MonitorPage>& pages,
                                      std::int64_t& credits) {
  const auto options = page_options(target);
  json jobs = json::array();
  for (const auto& url : target.urls.value_or(std::vector<std::string>{})) {
    auto outcome = scraper_.scrape_deferred(options, url, team);
    credits += outcome.failure ? 0 : outcome.credits;
    pages.push_back(check_page(monitor, *target.id, url, team, outcome));
    if (pages.back().current_scrape_id) jobs.push_back(*pages.back().current_scrape_id);
  }
  return {{"targetId", *target.id}, {"type", "scrape"}, {"expectedJobs", jobs}};
}

json MonitorEngine::run_crawl_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                     const Team& team, std::vector<MonitorPage>& pages,
                                     std::int64_t& credits) {
  const json result = {{"targetId", *target.id}, {"type", "crawl"}};
  const auto start = parse_http_url(target.url.value_or(""));
  if (!start) return result;  // the route refused such a URL
  const auto options = page_options(target);
  CrawlWalk walk(*start, target);
  while (const auto entry = walk.next()) {
    auto outcome = scraper_.scrape_deferred(options, entry->first, team);
    credits += outcome.failure ? 0 : outcome.credits;
    if (!outcome.failure) walk.follow(outcome.links, entry->second);
    pages.push_back(check_page(monitor, *target.id, entry->first, team, outcome));
  }
  return result;
}

json MonitorEngine::run_search_target(const Monitor& monitor, const requests::MonitorTarget& target,
                                      const Team& team, std::vector<MonitorPage>& pages,
                                      std::int64_t& credits) {
  const bool judging = monitor.judge_enabled && monitor.goal && !monitor.goal->empty();
  std::set<std::string> seen;
  std::int64_t results = 0, matches = 0;
  std::string error;
  for (const auto& query : target.queries.value_or(std::vector<std::string>{})) {
    std::vector<MonitorSearchHit> hits;
    if (searcher_) hits = searcher_(search_query(target, query), error);
    for (const auto& hit : hits) {
      if (!seen.insert(hit.url).second) continue;
      pages.push_back(search_page(monitor, *target.id, hit, team));
      ++results;
      const auto& page = pages.back();
      if (judging ? page.meaningful : page.status != "same") ++matches;
    }
  }
  credits += results;  // a credit per result, as a search bills
  const std::string what = judging ? " results match the goal" : " results are new or changed";
  return {{"targetId", *target.id},
          {"type", "search"},
          {"searchCompleted", error.empty()},
          {"resultCount", results},
          {"matches", matches},
          {"summary", std::to_string(matches) + " of " + std::to_string(results) + what},
          {"judgeDegraded", false},
          {"degradedReason", error.empty() ? json(nullptr) : json(error)},
          {"searchCredits", results},
          {"judgeCredits", 0},
          {"resultsJudged", judging ? results : 0}};
}

MonitorPage MonitorEngine::search_page(const Monitor& monitor, const std::string& target_id,
                                       const MonitorSearchHit& hit, const Team& team) {
  MonitorPage page;
  page.id = uuid4();
  page.target_id = target_id;
  page.url = hit.url;
  page.created_at = clock_.now();
  page.status_code = 200;
  track(scraper_.change_tracker(), monitor.id, team.id, page,
        "# " + hit.title + "\n\n" + hit.description + "\n");
  if (monitor.judge_enabled && monitor.goal) {
    page.judgment = judge(*monitor.goal, hit, page.status);
    page.meaningful = page.judgment["meaningful"].get<bool>();
  }
  return page;
}

MonitorPage MonitorEngine::check_page(const Monitor& monitor, const std::string& target_id,
                                      const std::string& url, const Team& team,
                                      scrape::Outcome& outcome) {
  MonitorPage page;
  page.id = uuid4();
  page.target_id = target_id;
  page.url = url;
  page.created_at = clock_.now();
  if (const auto it = monitor.last_scrape.find(monitor_page_key(target_id, url));
      it != monitor.last_scrape.end()) {
    page.previous_scrape_id = it->second;
  }
  if (outcome.failure) {
    page.status = "error";
    page.error = outcome.failure->message;
    return page;
  }
  page.status_code = outcome.status_code;
  page.current_scrape_id = scrape::scrape_id_of(outcome.document);
  scraper_.results().add(*page.current_scrape_id, team.id,
                         std::make_shared<const std::string>(json_text(outcome.document)), clock_.now());
  track(scraper_.change_tracker(), monitor.id, team.id, page, markdown_in(outcome.document));
  return page;
}

}  // namespace webdata::mock::jobs
