#include <catch2/catch.hpp>

#include <thread>

#include "local_http_server.hpp"
#include "test_support.hpp"
#include "web/live_fetch.hpp"
#include "web/virtual_web.hpp"

using namespace std::chrono_literals;
using webdata::mock::web::FetchRequest;
using webdata::mock::web::is_private_literal;
using webdata::mock::web::VirtualWeb;
using webdata::mock::web::testing::http_response;
using webdata::mock::web::testing::LocalHttpServer;
using webdata::mock::web::testing::TempDir;

namespace {

std::string site(const std::string& path) {
  if (path == "/hello") {
    return http_response(
        200,
        "<html><head><title>Local</title></head><body><h1>Hello from 127.0.0.1</h1></body></html>",
        "X-Local: yes\r\n");
  }
  if (path == "/moved") return http_response(302, "", "Location: /hello\r\n");
  if (path == "/to-fixture") return http_response(301, "", "Location: https://a.test/page\r\n");
  if (path == "/slow") {
    std::this_thread::sleep_for(1500ms);
    return http_response(200, "late");
  }
  if (path == "/big") return http_response(200, std::string(200000, 'x'), "", "text/plain");
  return http_response(404, "<h1>missing</h1>");
}

VirtualWeb live_web(const std::filesystem::path& root, bool allow_private,
                    std::size_t max_body = 1 << 20) {
  VirtualWeb::Options options;
  options.roots = {root};
  options.live_fetch = true;
  options.allow_private_targets = allow_private;
  options.max_body_bytes = max_body;
  return VirtualWeb(options);
}

FetchRequest request_for(const std::string& url, std::chrono::milliseconds timeout = 10000ms) {
  FetchRequest request;
  request.url = url;
  request.timeout = timeout;
  return request;
}

}  // namespace

TEST_CASE("live fetch reaches a local server when private targets are allowed") {
  LocalHttpServer server(site);
  TempDir root;
  root.write(
      "mappings/a.json",
      R"({"request": {"host": {"equalTo": "a.test"}, "urlPath": "/page"}, "response": {"body": "fixture page"}})");
  const auto web = live_web(root.path(), true);

  const auto hello = web.fetch_deferred(request_for(server.url("/hello")));
  REQUIRE(hello.ok);
  CHECK(hello.status == 200);
  CHECK(hello.source == "live");
  CHECK_THAT(hello.body, Catch::Contains("Hello from 127.0.0.1"));
  CHECK(hello.content_type == "text/html; charset=utf-8");
  CHECK(webdata::mock::find_header(hello.headers, "x-local") ==
        std::optional<std::string>("yes"));

  const auto by_name = web.fetch_deferred(request_for(server.url("/hello", "localhost")));
  CHECK(by_name.ok);

  const auto moved = web.fetch_deferred(request_for(server.url("/moved")));
  REQUIRE(moved.ok);
  CHECK(moved.url == server.url("/hello"));
  CHECK(moved.redirects == std::vector<std::string>{server.url("/moved")});

  const auto into_fixture = web.fetch_deferred(request_for(server.url("/to-fixture")));
  REQUIRE(into_fixture.ok);
  CHECK(into_fixture.source == "fixture");
  CHECK(into_fixture.body == "fixture page");

  const auto missing = web.fetch_deferred(request_for(server.url("/nope")));
  REQUIRE(missing.ok);
  CHECK(missing.status == 404);
}

TEST_CASE("live fetch refuses private and loopback targets by default, by address") {
  LocalHttpServer server(site);
  TempDir root;
  const auto web = live_web(root.path(), false);
  const auto literal = web.fetch_deferred(request_for(server.url("/hello")));
  CHECK_FALSE(literal.ok);
  CHECK(literal.error_code == "SCRAPE_SITE_ERROR");
  CHECK_THAT(literal.error_message, Catch::Contains("private"));
  // A name is checked by the address it resolves to, not by how it looks.
  const auto named = web.fetch_deferred(request_for(server.url("/hello", "localhost")));
  CHECK_FALSE(named.ok);
  CHECK_THAT(named.error_message, Catch::Contains("private"));
  CHECK(server.requests() == 0);

  CHECK(is_private_literal("127.0.0.1"));
  CHECK(is_private_literal("10.1.2.3"));
  CHECK(is_private_literal("172.20.0.1"));
  CHECK(is_private_literal("192.168.1.1"));
  CHECK(is_private_literal("169.254.169.254"));
  CHECK(is_private_literal("100.64.0.1"));
  CHECK(is_private_literal("0.0.0.0"));
  CHECK(is_private_literal("224.0.0.1"));
  CHECK(is_private_literal("::1"));
  CHECK(is_private_literal("fe80::1"));
  CHECK(is_private_literal("fd00::1"));
  CHECK(is_private_literal("ff02::1"));
  CHECK(is_private_literal("::ffff:127.0.0.1"));
  CHECK(is_private_literal("64:ff9b::a00:1"));
  CHECK_FALSE(is_private_literal("93.184.216.34"));
  CHECK_FALSE(is_private_literal("172.32.0.1"));
  CHECK_FALSE(is_private_literal("2606:2800:220:1:248:1893:25c8:1946"));
  CHECK_FALSE(is_private_literal("example.com"));
}

TEST_CASE("live fetch maps network failures to SCRAPE_* codes") {
  LocalHttpServer server(site);
  TempDir root;
  const auto web = live_web(root.path(), true, 100000);

  const auto slow = web.fetch_deferred(request_for(server.url("/slow"), 300ms));
  CHECK_FALSE(slow.ok);
  CHECK(slow.error_code == "SCRAPE_TIMEOUT");
  CHECK(slow.elapsed < 1400ms);

  const auto refused = web.fetch_deferred(
      request_for("http://127.0.0.1:" + std::to_string(LocalHttpServer::closed_port()) + "/"));
  CHECK_FALSE(refused.ok);
  CHECK(refused.error_code == "SCRAPE_SITE_ERROR");
  CHECK_THAT(refused.error_message, Catch::Contains("refused"));

  const auto big = web.fetch_deferred(request_for(server.url("/big")));
  CHECK_FALSE(big.ok);
  CHECK_THAT(big.error_message, Catch::Contains("exceeds 100000 bytes"));

  const auto dns = web.fetch_deferred(request_for("http://no-such-host.invalid/"));
  CHECK_FALSE(dns.ok);
  CHECK(dns.error_code == "SCRAPE_DNS_RESOLUTION_ERROR");
}

TEST_CASE("with live fetching off, hosts outside the virtual web do not resolve") {
  LocalHttpServer server(site);
  TempDir root;
  VirtualWeb::Options options;
  options.roots = {root.path()};
  options.allow_private_targets = true;
  const VirtualWeb web(options);
  const auto result = web.fetch_deferred(request_for(server.url("/hello")));
  CHECK(result.error_code == "SCRAPE_DNS_RESOLUTION_ERROR");
  CHECK_THAT(result.error_message, Catch::Contains("live fetching is off"));
  CHECK(server.requests() == 0);
}
