#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "requests/requests.hpp"
#include "search/index.hpp"
#include "search/image_size.hpp"
#include "search/query.hpp"
#include "search/tbs.hpp"
#include "web/virtual_web.hpp"

namespace webdata::mock::search {

/// One query over one edition of the index: a source's search with its settings
/// (requests::SourceSettings).
struct SearchRequest {
  std::string query;
  std::vector<std::string> sources{"web"};  ///< web | images | news
  std::vector<std::string> categories;      ///< github | research | pdf | developer (web only)
  /// Newer `includeDomains` / `excludeDomains`: hostnames; a page on one of them or a subdomain
  /// is in (or out). Every source is filtered.
  std::vector<std::string> include_domains;
  std::vector<std::string> exclude_domains;
  std::string tbs;                          ///< qdr:h|d|w|m|y[N] or cdr:1,cd_min:..,cd_max:..
  std::string location;                     ///< "Germany", "Berlin,Berlin,Germany"
  std::string country;                      ///< ISO code ("DE"); v2 default US
  std::string language;                     ///< `lang`
};

/// One ranked page; `doc` indexes the answer's index.
struct Hit {
  std::size_t doc = 0;
  double score = 0;
  std::string category;  ///< The requested category that admitted it (empty without categories).
  std::string snippet;   ///< The sentence that best matches the query.
};

/// One ranked image of a page.
struct ImageHit {
  std::size_t doc = 0;
  std::size_t image = 0;  ///< Into PageRecord::images.
  double score = 0;
};

/// Every match, best first, before `limit` and validity filtering (the caller cuts, so that
/// dropping invalid URLs can still fill the limit).
struct SearchAnswer {
  std::shared_ptr<const Index> index;  ///< Of a single query (search(const SearchRequest&)).
  /// Per source, the edition its hits index into (search(const requests::SearchRequest&)).
  std::map<std::string, std::shared_ptr<const Index>> indexes;
  std::vector<Hit> web;
  std::vector<Hit> news;
  std::vector<ImageHit> images;
  std::vector<std::string> warnings;

  /// The index `source`'s hits point into.
  const Index& index_of(const std::string& source) const;
};

/// A request the service refuses (400): the field and what is wrong.
struct SearchError {
  std::string field;
  std::string message;
};

/// What the agent answers (wire-decisions section 6).
struct AgentAnswer {
  std::string result;
  std::vector<std::string> sources;
  std::optional<nlohmann::json> object;  ///< Set when a schema was given: valid against it.
  std::int64_t pages_read = 0;           ///< What it is billed: one credit per page read.
};

/// An agent request.
struct AgentRequest {
  std::string prompt;
  std::vector<std::string> urls;  ///< When set, only these pages are read.
  nlohmann::json schema;          ///< null or a JSON schema for the result object.
  std::optional<std::int64_t> max_credits;
};

/// Search and agent over every page the virtual web serves without the network
/// (VirtualWeb::known_urls(), plus PDF documents those pages link to on the same hosts). The
/// index is built on first use per language edition (the pages as fetched with that
/// Accept-Language) and rebuilt when the web root's mappings or known URLs change. Thread-safe:
/// searches share an immutable snapshot; one build runs at a time.
class SearchService {
 public:
  SearchService(const web::VirtualWeb& web, const Clock& clock);

  /// Runs a query: parse, filter, rank, per source. An error for an unusable `tbs`.
  std::optional<SearchError> search(const SearchRequest& request, SearchAnswer& answer);
  /// A search request: its query once per source it asks for, each with that source's settings
  /// (its own, else those it inherits from the request, as the service's sources do). A source
  /// with `filter` "1" leaves out a result repeating an earlier one's title and snippet (the
  /// search engine's duplicate filter).
  std::optional<SearchError> search(const requests::SearchRequest& request, SearchAnswer& answer);

  /// Reads the best pages for the prompt (or the given URLs) and answers from them:
  /// agent_answer(request, agent_pages(request)).
  /// `due`, when given, is the agent's own time: pages read outside the index are fetched one
  /// after another from *due (the epoch: now), and *due moves to when the last is due; the
  /// caller waits until then (nothing here sleeps).
  AgentAnswer agent(const AgentRequest& request,
                    std::chrono::steady_clock::time_point* due = nullptr);
  /// The pages the agent reads for a request, in order: the given `urls` that can be read, or
  /// the best matches of the prompt; at most `max_credits` (3 without it or without `urls`).
  std::vector<std::string> agent_pages(const AgentRequest& request,
                                       std::chrono::steady_clock::time_point* due = nullptr);
  /// The answer from `urls` (pages that cannot be read are left out). The job form reads the
  /// pages one at a time and answers from those it read.
  AgentAnswer agent_answer(const AgentRequest& request, const std::vector<std::string>& urls,
                           std::chrono::steady_clock::time_point* due = nullptr);

  /// The index for a language ("" for the default edition, fetched as en-US).
  std::shared_ptr<const Index> index(const std::string& language = "");

  /// Drops every built edition; the next search builds again.
  void invalidate();

  /// The web the index reads (the research corpus is read from it too).
  const web::VirtualWeb& web() const { return web_; }

  /// The language a country code, location text or `lang` asks for ("" when unknown or en-US).
  static std::string preferred_language(const SearchRequest& request);

  /// Reads one URL into a page record (the index's pages, and agent `urls` outside the index);
  /// nullopt when it cannot be fetched or is not a document. Nothing is slept: with `due`, the
  /// fetch starts at *due (the epoch: now) and *due moves to when its answer is due, for the
  /// caller to wait; without it (the index: a snapshot of what the search provider crawled
  /// before any query) a page's delay is not counted.
  std::optional<PageRecord> read_page(const std::string& url, const std::string& language,
                                      std::chrono::steady_clock::time_point* due = nullptr) const;

 private:
  std::size_t fingerprint() const;
  std::shared_ptr<const Index> build(const std::string& language) const;

  const web::VirtualWeb& web_;
  const Clock& clock_;
  std::mutex mutex_;        // guards editions_ and fingerprint_
  std::mutex build_mutex_;  // one build at a time
  std::size_t fingerprint_ = 0;
  std::map<std::string, std::shared_ptr<const Index>> editions_;
};

/// The category ("github", "research", "pdf", "developer") rules: by host, path and file type.
bool in_category(const PageRecord& page, const std::string& category);

}  // namespace webdata::mock::search
