#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/base64.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "core/url.hpp"

using namespace webdata::mock;

TEST_CASE("parse_url reads any scheme as a browser does", "[core][url]") {
  const auto u = parse_url("  HTTP://User@Example.COM:80/a/./b/../c?x=1#top\n");
  REQUIRE(u);
  CHECK(u->scheme == "http");
  CHECK(u->userinfo == "User");
  CHECK(u->host == "example.com");
  CHECK_FALSE(u->port);  // the default port is dropped
  CHECK(u->path == "/a/c");
  CHECK(u->query == std::optional<std::string>("x=1"));
  CHECK(u->fragment == std::optional<std::string>("top"));
  CHECK(u->str() == "http://User@example.com/a/c?x=1#top");
  CHECK(u->without_fragment() == "http://User@example.com/a/c?x=1");

  const auto mail = parse_url("mailto:someone@example.com");
  REQUIRE(mail);
  CHECK_FALSE(mail->has_authority);
  CHECK(mail->str() == "mailto:someone@example.com");

  CHECK_FALSE(parse_url("/relative/only"));
  CHECK_FALSE(parse_url("http://host:port/"));  // a port that is not a number
  CHECK(parse_url("http:example.com")->host == "example.com");
  CHECK(parse_url("https://h/a b")->path == "/a%20b");
}

TEST_CASE("parse_http_url accepts only fetchable http(s) URLs", "[core][url]") {
  const auto u = parse_http_url("https://[::1]:8443/x?q");
  REQUIRE(u);
  CHECK(u->host == "::1");
  CHECK(u->port == std::optional<int>(8443));
  CHECK(u->effective_port() == 8443);
  CHECK(u->host_header() == "[::1]:8443");
  CHECK(u->origin() == "https://[::1]:8443");
  CHECK(u->target() == "/x?q");
  CHECK(parse_http_url("http://example.test")->target() == "/");
  CHECK(parse_http_url("http://example.test")->effective_port() == 80);

  for (const char* bad : {"ftp://example.test/", "example.test/page", "http:///path", "http://",
                          "http://a b/", "http://example.test:0/", "http://example.test:65536/",
                          "http://[::1/", "http://example.test/\x01", "mailto:x@y"}) {
    INFO(bad);
    CHECK_FALSE(parse_http_url(bad));
  }
}

TEST_CASE("resolve_url follows RFC 3986 reference resolution", "[core][url]") {
  const auto base = parse_url("http://a.example/b/c/d;p?q");
  auto r = [&](const char* ref) { return resolve_url_string(base, ref); };
  CHECK(r("g") == "http://a.example/b/c/g");
  CHECK(r("../g") == "http://a.example/b/g");
  CHECK(r("/g") == "http://a.example/g");
  CHECK(r("//other.example/x") == "http://other.example/x");
  CHECK(r("?y") == "http://a.example/b/c/d;p?y");
  CHECK(r("#s") == "http://a.example/b/c/d;p?q#s");
  CHECK(r("https://x.example") == "https://x.example/");
  CHECK(resolve_url_string(std::nullopt, " rel/path ") == "rel/path");
  CHECK_FALSE(resolve_url(std::nullopt, "rel/path"));
}

TEST_CASE("percent_decode and parse_query", "[core][url]") {
  CHECK(percent_decode("a%20b+c%2", false) == "a b+c%2");
  CHECK(percent_decode("a%20b+c", true) == "a b c");
  CHECK(percent_decode("%zz%4", true) == "%zz%4");
  const auto q = parse_query("a=1&b&c=x%26y&&d=+");
  REQUIRE(q.size() == 4);
  CHECK(q[0] == std::make_pair(std::string("a"), std::string("1")));
  CHECK(q[1] == std::make_pair(std::string("b"), std::string("")));
  CHECK(q[2] == std::make_pair(std::string("c"), std::string("x&y")));
  CHECK(q[3] == std::make_pair(std::string("d"), std::string(" ")));
  CHECK(split_target("/p?q=1") == std::make_pair(std::string("/p"), std::string("q=1")));
}

TEST_CASE("base64 round-trips and refuses what is not base64", "[core][base64]") {
  CHECK(base64_encode("") == "");
  CHECK(base64_encode("f") == "Zg==");
  CHECK(base64_encode("fo") == "Zm8=");
  CHECK(base64_encode("foo") == "Zm9v");
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  CHECK(base64_decode(base64_encode(bytes)) == bytes);
  CHECK(base64_decode("Zm9v\nYmFy") == std::optional<std::string>("foobar"));
  CHECK(base64_decode("Zg") == std::optional<std::string>("f"));  // padding left out
  CHECK(base64_decode("Zm8=") == std::optional<std::string>("fo"));
  CHECK_FALSE(base64_decode("Zm9v!"));
  CHECK_FALSE(base64_decode("Z"));
  CHECK_FALSE(base64_decode("Zg==Zg"));
}

TEST_CASE("ISO 8601 writing and reading", "[core][time]") {
  using namespace std::chrono;
  const system_clock::time_point t = system_clock::time_point(seconds(1795512000)) + milliseconds(123);
  CHECK(iso8601(t) == "2026-11-24T09:20:00.123Z");
  CHECK(iso8601_seconds(t) == "2026-11-24T09:20:00.000Z");
  CHECK(iso8601_compact(t) == "2026-11-24T09:20:00Z");
  CHECK(iso_date(t) == "2026-11-24");
  CHECK(date_from_days(0) == "1970-01-01");
  CHECK(date_from_days(days_from_civil(2024, 2, 29)) == "2024-02-29");

  CHECK(parse_iso8601("2026-11-24T09:20:00Z") == system_clock::time_point(seconds(1795512000)));
  CHECK(parse_iso8601(" 2026-11-24T11:20:00.5+02:00 ") ==
        system_clock::time_point(seconds(1795512000)));
  CHECK(parse_iso8601("2026-11-24") == system_clock::time_point(seconds(1795478400)));
  CHECK_FALSE(parse_iso8601("2026-02-30"));
  CHECK_FALSE(parse_iso8601("2025-02-29"));
  CHECK_FALSE(parse_iso8601("2026-11-24T25:00"));
  CHECK_FALSE(parse_iso8601("yesterday"));
  const auto read = read_iso8601("2026-11-24 10:00 and more");
  REQUIRE(read);
  CHECK(read->has_time);
  CHECK(read->length == 16);
  CHECK_FALSE(read_iso8601("2026-11-241"));
}

TEST_CASE("text helpers", "[core][text]") {
  CHECK(iequals("Content-Type", "content-TYPE"));
  CHECK_FALSE(iequals("a", "ab"));
  CHECK(to_lower("MiXeD 1") == "mixed 1");
  CHECK(trim(" \t x y \r\n") == "x y");
  const HeaderList headers = {{"Set-Cookie", "a"}, {"X", "1"}, {"set-cookie", "b"}};
  CHECK(find_header(headers, "x") == std::optional<std::string>("1"));
  CHECK(find_headers(headers, "SET-COOKIE") == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(find_header(headers, "missing"));
  CHECK(std::string(reason_phrase(404)) == "Not Found");
  CHECK(std::string(reason_phrase(299)).empty());
  CHECK(is_uuid(uuid4()));
  CHECK_FALSE(is_uuid("not-a-uuid"));
}

TEST_CASE("uuid4: version 4, RFC 4122 variant, lower-case hex, distinct", "[core]") {
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    const std::string id = uuid4();
    REQUIRE(is_uuid(id));
    CHECK(id[14] == '4');
    CHECK(std::string("89ab").find(id[19]) != std::string::npos);
    CHECK(id.find_first_of("ABCDEF") == std::string::npos);
    seen.insert(id);
  }
  CHECK(seen.size() == 2000);
}
