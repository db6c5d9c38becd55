#pragma once

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "core/url.hpp"

// Pure rules of a crawl: robots.txt, scope, URL identity (sitemaps: jobs/sitemap.hpp). No I/O
// here, so each rule is tested on its own (mockserver/tests/crawl_rules_test.cpp).

namespace webdata::mock::jobs {

/// robots.txt as RFC 9309 reads it: the group for our user agent (else `*`), longest match wins,
/// Allow wins a tie, `*` and `$` in patterns.
class RobotsTxt {
 public:
  /// Everything allowed (no robots.txt, or one that failed to load).
  RobotsTxt() = default;
  static RobotsTxt parse(const std::string& text, const std::string& user_agent = "webdata");
  /// `path_and_query` as it appears on the request line ("/a/b?x=1").
  bool allowed(const std::string& path_and_query) const;
  /// `Sitemap:` lines, as written.
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }

 private:
  struct Rule {
    std::string pattern;
    bool allow = false;
  };
  static bool matches(const std::string& pattern, const std::string& path);
  std::vector<Rule> rules_;
  std::vector<std::string> sitemaps_;
};

/// Which URLs a crawl may visit (specification 4.7, wire-decisions section 7).
struct ScopeOptions {
  bool crawl_entire_domain = false;  ///< v2 crawlEntireDomain, v1 allowBackwardLinks.
  bool allow_subdomains = false;
  bool allow_external = false;
  bool regex_on_full_url = false;
  std::vector<std::string> include_paths;  ///< ECMAScript regexes.
  std::vector<std::string> exclude_paths;
  int max_path_depth = -1;  ///< v1 maxDepth: path segments below the start path; -1: no limit.
};

class Scope {
 public:
  /// Throws std::invalid_argument naming the pattern when a regex does not compile.
  Scope(const Url& start, ScopeOptions options);
  /// Whether `url` belongs to the crawl. The start URL itself is always in scope.
  bool contains(const Url& url) const;
  const Url& start() const { return start_; }

 private:
  bool host_allowed(const std::string& host) const;
  Url start_;
  ScopeOptions options_;
  std::string base_host_;  ///< Start host without a leading "www.".
  std::string base_path_;  ///< The start path: other pages must be below it.
  std::vector<std::regex> include_;
  std::vector<std::regex> exclude_;
};

/// Checks that each pattern compiles; the first bad one's message, or nullopt.
std::optional<std::string> check_patterns(const std::vector<std::string>& patterns);

/// The identity of a page for "seen already": fragment dropped; with `ignore_query` the query
/// too; with `similar`, also "www.", the scheme, a trailing slash and index.html are ignored.
std::string url_identity(const Url& url, bool ignore_query, bool similar);

}  // namespace webdata::mock::jobs
