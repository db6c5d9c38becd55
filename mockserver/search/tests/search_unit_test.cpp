// Pieces of the search service that need no server: query parsing, tbs, image headers.
#include <catch2/catch.hpp>

#include "core/time.hpp"
#include "search/query.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

using namespace webdata::mock::search;

TEST_CASE("the query parser takes every operator apart", "[query]") {
  const Query q = parse_query(
      R"(river "record low" -barge -"dry summer" site:news.example.test -site:github.example.test )"
      R"(filetype:html -filetype:pdf inurl:2026 -inurl:issues intitle:level -intitle:"tide tables" )"
      R"(related:blog.example.test imagesize:800x600 larger:640x480 allintitle: River Levels)");
  CHECK(q.terms == std::vector<std::string>{"river"});
  REQUIRE(q.phrases.size() == 1);
  CHECK(q.phrases[0] == std::vector<std::string>{"record", "low"});
  CHECK(q.excluded_terms == std::vector<std::string>{"barge"});
  REQUIRE(q.excluded_phrases.size() == 1);
  CHECK(q.excluded_phrases[0] == std::vector<std::string>{"dry", "summer"});
  CHECK(q.sites == std::vector<std::string>{"news.example.test"});
  CHECK(q.excluded_sites == std::vector<std::string>{"github.example.test"});
  CHECK(q.filetypes == std::vector<std::string>{"html"});
  CHECK(q.excluded_filetypes == std::vector<std::string>{"pdf"});
  CHECK(q.in_url == std::vector<std::string>{"2026"});
  CHECK(q.excluded_in_url == std::vector<std::string>{"issues"});
  REQUIRE(q.excluded_in_title.size() == 1);
  CHECK(q.excluded_in_title[0] == std::vector<std::string>{"tide", "table"});
  // intitle:level, then allintitle: river, level
  REQUIRE(q.in_title.size() == 3);
  CHECK(q.in_title[0] == std::vector<std::string>{"level"});
  CHECK(q.in_title[1] == std::vector<std::string>{"river"});
  CHECK(q.in_title[2] == std::vector<std::string>{"level"});
  CHECK(q.related == "blog.example.test");
  REQUIRE(q.image_size);
  CHECK(q.image_size->width == 800);
  CHECK(q.image_size->height == 600);
  REQUIRE(q.larger);
  CHECK(q.larger->width == 640);
  CHECK(q.problems.empty());
}

TEST_CASE("unknown name:value words are text and bad operator values are reported", "[query]") {
  const Query q = parse_query("meeting at 10:30 imagesize:big site:");
  CHECK(q.terms == std::vector<std::string>{"meeting", "at", "10", "30"});
  CHECK(q.problems.size() == 2);
  CHECK_FALSE(q.image_size);
}

TEST_CASE("tokenize lower-cases, keeps non-ASCII words and folds plurals", "[text]") {
  CHECK(tokenize("River LEVELS, libraries & boxes") ==
        std::vector<std::string>{"river", "level", "library", "box"});
  CHECK(tokenize("Straßenbahn fährt") == std::vector<std::string>{"straßenbahn", "fährt"});
}

TEST_CASE("tbs: qdr ranges end now, cdr ranges cover whole days", "[tbs]") {
  const auto now = std::chrono::system_clock::time_point(std::chrono::hours(24 * 20000));
  std::string error;
  auto day = parse_tbs("qdr:d", now, error);
  REQUIRE(day);
  CHECK(*day->from == now - std::chrono::hours(24));
  auto weeks = parse_tbs("qdr:w2", now, error);
  REQUIRE(weeks);
  CHECK(*weeks->from == now - std::chrono::hours(24 * 14));
  auto custom = parse_tbs("cdr:1,cd_min:10/1/2026,cd_max:10/31/2026", now, error);
  REQUIRE(custom);
  CHECK(*custom->from == *webdata::mock::parse_iso8601("2026-10-01"));
  CHECK(*custom->to == *webdata::mock::parse_iso8601("2026-10-31T23:59:59Z"));
  for (const char* bad :
       {"qdr:x", "qdr:", "cdr:1,cd_min:13/01/2026", "cdr:1,since:01/01/2026", "recent"}) {
    INFO(bad);
    CHECK_FALSE(parse_tbs(bad, now, error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("image sizes come from PNG, GIF and JPEG headers", "[images]") {
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x04\xb0\0\0\x02\x76", 24);
  REQUIRE(image_size(png));
  CHECK(image_size(png)->width == 1200);
  CHECK(image_size(png)->height == 630);
  std::string gif("GIF89a\x20\x03\x58\x02", 10);
  REQUIRE(image_size(gif));
  CHECK(image_size(gif)->width == 800);
  CHECK(image_size(gif)->height == 600);
  std::string jpeg("\xff\xd8\xff\xe0\x00\x04\x00\x00\xff\xc0\x00\x11\x08\x01\xe0\x02\x80\x03", 18);
  jpeg += std::string(20, '\0');
  REQUIRE(image_size(jpeg));
  CHECK(image_size(jpeg)->width == 640);
  CHECK(image_size(jpeg)->height == 480);
  CHECK_FALSE(image_size("not an image"));
}

TEST_CASE("age text", "[text]") {
  const auto now = std::chrono::system_clock::time_point(std::chrono::hours(24 * 20000));
  CHECK(age_text(now - std::chrono::hours(5), now) == "5 hours ago");
  CHECK(age_text(now - std::chrono::hours(24), now) == "1 day ago");
  CHECK(age_text(now - std::chrono::hours(24 * 60), now) == "2 months ago");
  CHECK(age_text(now + std::chrono::hours(1), now) == "just now");
}
