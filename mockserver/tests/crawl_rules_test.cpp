// The crawler's pure rules: robots.txt, scope, URL identity, chunking (sitemaps: sitemap_test).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "jobs/crawl_rules.hpp"
#include "jobs/job.hpp"

using namespace webdata::mock::jobs;
using webdata::mock::parse_http_url;

TEST_CASE("robots.txt: our group, else *, longest match, Allow wins ties", "[crawl-rules]") {
  const auto robots = RobotsTxt::parse(R"(# comment
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$
Sitemap: https://docs.test/sitemap-extra.xml

User-agent: OtherBot
Disallow: /
)");
  CHECK(robots.allowed("/"));
  CHECK(robots.allowed("/docs/intro"));
  CHECK_FALSE(robots.allowed("/private/"));
  CHECK_FALSE(robots.allowed("/private/secret.html"));
  CHECK(robots.allowed("/private/open/page"));
  CHECK_FALSE(robots.allowed("/files/report.pdf"));
  CHECK(robots.allowed("/files/report.pdf?download=1"));
  REQUIRE(robots.sitemaps().size() == 1);
  CHECK(robots.sitemaps()[0] == "https://docs.test/sitemap-extra.xml");

  const auto ours = RobotsTxt::parse("User-agent: *\nDisallow: /\n\nUser-agent: webdata\nAllow: /\n"
                                     "Disallow: /admin\n");
  CHECK(ours.allowed("/anything"));
  CHECK_FALSE(ours.allowed("/admin/users"));

  CHECK(RobotsTxt().allowed("/x"));
  CHECK(RobotsTxt::parse("User-agent: *\nDisallow:\n").allowed("/x"));
  CHECK(RobotsTxt::parse("garbage\n\0\xff binary").allowed("/x"));
}

TEST_CASE("scope: children of the start path, domain, subdomains, external", "[crawl-rules]") {
  const auto start = *parse_http_url("https://docs.test/guide/");
  auto in = [](const Scope& scope, const char* url) { return scope.contains(*parse_http_url(url)); };

  const Scope children(start, {});
  CHECK(in(children, "https://docs.test/guide/"));
  CHECK(in(children, "https://docs.test/guide/install"));
  CHECK(in(children, "https://www.docs.test/guide/a"));
  CHECK_FALSE(in(children, "https://docs.test/blog/post"));
  CHECK_FALSE(in(children, "https://api.docs.test/guide/a"));
  CHECK_FALSE(in(children, "https://elsewhere.test/guide/a"));

  ScopeOptions entire;
  entire.crawl_entire_domain = true;
  CHECK(in(Scope(start, entire), "https://docs.test/blog/post"));

  ScopeOptions subdomains;
  subdomains.crawl_entire_domain = true;
  subdomains.allow_subdomains = true;
  CHECK(in(Scope(start, subdomains), "https://api.docs.test/x"));
  CHECK_FALSE(in(Scope(start, subdomains), "https://notdocs.test/x"));

  ScopeOptions external;
  external.allow_external = true;
  CHECK(in(Scope(start, external), "https://elsewhere.test/anything"));
}

TEST_CASE("scope: include and exclude regexes, path depth", "[crawl-rules]") {
  const auto start = *parse_http_url("https://docs.test/");
  auto in = [](const Scope& scope, const char* url) { return scope.contains(*parse_http_url(url)); };
  ScopeOptions options;
  options.include_paths = {"^/guide/.*"};
  options.exclude_paths = {"draft"};
  const Scope scope(start, options);
  CHECK(in(scope, "https://docs.test/"));  // the start page always
  CHECK(in(scope, "https://docs.test/guide/a"));
  CHECK_FALSE(in(scope, "https://docs.test/blog/a"));
  CHECK_FALSE(in(scope, "https://docs.test/guide/draft-1"));

  ScopeOptions full;
  full.regex_on_full_url = true;
  full.include_paths = {"^https://docs\\.test/guide"};
  CHECK(in(Scope(start, full), "https://docs.test/guide/x"));

  ScopeOptions depth;
  depth.max_path_depth = 1;
  CHECK(in(Scope(start, depth), "https://docs.test/a"));
  CHECK_FALSE(in(Scope(start, depth), "https://docs.test/a/b"));

  ScopeOptions bad;
  bad.include_paths = {"(unclosed"};
  CHECK_THROWS_AS(Scope(start, bad), std::invalid_argument);
  CHECK(check_patterns({"ok.*", "[z-a]"}).has_value());
  CHECK_FALSE(check_patterns({"ok.*"}).has_value());
}

TEST_CASE("URL identity for dedupe", "[crawl-rules]") {
  auto id = [](const char* url, bool q, bool similar) {
    return url_identity(*parse_http_url(url), q, similar);
  };
  CHECK(id("https://a.test/x?b=1#frag", false, false) == "https://a.test/x?b=1");
  CHECK(id("https://a.test/x?b=1", true, false) == "https://a.test/x");
  CHECK(id("https://www.a.test/x/", false, true) == id("http://a.test/x", false, true));
  CHECK(id("https://a.test/docs/index.html", false, true) == id("https://a.test/docs/", false, true));
  CHECK(id("https://a.test/x/", false, false) != id("https://a.test/x", false, false));
}

TEST_CASE("chunks: byte budget, oversized documents alone, limit", "[crawl-rules][chunks]") {
  JobProgress job;
  for (int i = 0; i < 10; ++i) {
    job.add_document(std::make_shared<const std::string>(100, 'a'));  // 100 bytes each
  }
  auto chunk = job.chunk(0, 0, 350);
  CHECK(chunk.begin == 0);
  CHECK(chunk.end == 3);
  CHECK(chunk.more);
  chunk = job.chunk(3, 0, 350);
  CHECK(chunk.end == 6);
  chunk = job.chunk(9, 0, 350);
  CHECK(chunk.end == 10);
  CHECK_FALSE(chunk.more);
  chunk = job.chunk(0, 2, 10000);
  CHECK(chunk.end == 2);
  chunk = job.chunk(0, 0, 50);  // one document is larger than the budget: alone
  CHECK(chunk.end == 1);
  chunk = job.chunk(25, 0, 50);  // past the end: empty
  CHECK(chunk.begin == 10);
  CHECK(chunk.end == 10);
  // Walking every chunk yields each document exactly once.
  std::size_t seen = 0;
  for (std::size_t skip = 0; skip < 10;) {
    const auto c = job.chunk(skip, 0, 250);
    seen += c.end - c.begin;
    skip = c.end;
  }
  CHECK(seen == 10);
  const auto all = job.all();
  CHECK(all.begin == 0);
  CHECK(all.end == 10);
}

TEST_CASE("job states and events have their wire names and read back", "[jobs]") {
  for (const JobState state :
       {JobState::scraping, JobState::completed, JobState::failed, JobState::cancelled}) {
    CHECK(parse_state(state_name(state)) == state);
  }
  CHECK(std::string(state_name(JobState::scraping)) == "scraping");
  CHECK_FALSE(parse_state("done"));
  CHECK(std::string(event_name(JobEvent::page)) == "page");
  CHECK(std::string(event_name(JobEvent::failed)) == "failed");
}
