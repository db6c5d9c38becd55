// POST /v1/scrape and /v2/scrape over real HTTP, against pages put into the virtual web through
// the admin API (so each test states the exact HTML it scrapes).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "core/base64.hpp"
#include "formats/pdf.hpp"
#include "formats/tree.hpp"
#include "mock_fixture.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

const char* kPage = R"(<!DOCTYPE html>
<html lang="en">
<head>
  <title>Walnut Desk | Timber &amp; Co</title>
  <meta name="description" content="A solid walnut desk with two drawers.">
  <meta name="keywords" content="desk, walnut, furniture">
  <meta property="og:title" content="Walnut Desk">
  <meta property="og:image" content="/img/desk-og.jpg">
  <meta name="product:price" content="649.00">
</head>
<body>
  <header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
  <main>
    <h1>Walnut Desk</h1>
    <p>A <strong>solid</strong> walnut desk. See the <a href="/care#oil">care guide</a>.</p>
    <img src="/img/desk.jpg" alt="The desk">
    <ul><li>Two drawers</li><li>Oiled finish</li></ul>
  </main>
  <footer><a href="https://elsewhere.test/about">About</a></footer>
</body>
</html>)";

json page_mapping(const std::string& host, const std::string& path, int status,
                  const std::string& body, int delay_ms = 0) {
  json response = {{"status", status},
                   {"headers", {{"Content-Type", "text/html; charset=utf-8"}}},
                   {"body", body}};
  if (delay_ms > 0) response["fixedDelayMilliseconds"] = delay_ms;
  return {{"request", {{"method", "GET"}, {"host", {{"equalTo", host}}}, {"urlPath", path}}},
          {"response", response}};
}

struct ScrapeFixture {
  RunningMock mock;
  ApiClient api{mock.url()};
  ScrapeFixture() {
    REQUIRE(api.post("/__admin/mappings", page_mapping("shop.test", "/desk", 200, kPage)).status ==
            201);
    REQUIRE(api.post("/__admin/mappings",
                     page_mapping("shop.test", "/gone", 404,
                                  "<html><head><title>Not here</title></head><body><h1>404</h1>"
                                  "</body></html>"))
                .status == 201);
    REQUIRE(api.post("/__admin/mappings",
                     page_mapping("shop.test", "/slow", 200, "<p>slow</p>", 3000))
                .status == 201);
  }
  std::int64_t balance() { return api.get("/__admin/settings").body["creditBalances"]["team-1"]; }
};

}  // namespace

TEST_CASE_METHOD(ScrapeFixture, "v2 scrape returns every requested format", "[scrape]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                         {"formats", {"markdown", "html", "rawHtml", "links",
                                                      {{"type", "images"}}}}});
  REQUIRE(r.status == 200);
  CHECK(r.body["success"] == true);
  const json& data = r.body["data"];
  const std::string markdown = data["markdown"];
  CHECK(markdown.find("# Walnut Desk") != std::string::npos);
  CHECK(markdown.find("**solid**") != std::string::npos);
  CHECK(markdown.find("[care guide](http://shop.test/care#oil)") != std::string::npos);
  CHECK(markdown.find("Home") == std::string::npos);  // onlyMainContent drops the nav
  CHECK(data["rawHtml"] == kPage);
  const std::string html = data["html"];
  CHECK(html.find("<h1>") != std::string::npos);
  CHECK(html.find("<nav") == std::string::npos);
  const auto links = data["links"].get<std::vector<std::string>>();
  CHECK(std::find(links.begin(), links.end(), "http://shop.test/care") != links.end());
  CHECK(std::find(links.begin(), links.end(), "https://elsewhere.test/about") != links.end());
  const auto images = data["images"].get<std::vector<std::string>>();
  CHECK(std::find(images.begin(), images.end(), "http://shop.test/img/desk.jpg") != images.end());

  const json& meta = data["metadata"];
  CHECK(meta["title"] == "Walnut Desk | Timber & Co");
  CHECK(meta["description"] == "A solid walnut desk with two drawers.");
  CHECK(meta["language"] == "en");
  CHECK(meta["keywords"] == "desk, walnut, furniture");
  CHECK(meta["ogTitle"] == "Walnut Desk");
  CHECK(meta["product:price"] == "649.00");
  CHECK(meta["sourceURL"] == "http://shop.test/desk");
  CHECK(meta["url"] == "http://shop.test/desk");
  CHECK(meta["statusCode"] == 200);
  CHECK(meta["scrapeId"].get<std::string>().size() == 36);
  CHECK(meta["contentType"] == "text/html; charset=utf-8");
  CHECK(meta["proxyUsed"] == "basic");
  CHECK(meta["cacheState"] == "miss");
  CHECK(meta["creditsUsed"] == 1);
}

TEST_CASE_METHOD(ScrapeFixture, "formats default to markdown only", "[scrape]") {
  for (const char* version : {"/v1/scrape", "/v2/scrape"}) {
    const auto r = api.post(version, {{"url", "http://shop.test/desk"}});
    REQUIRE(r.status == 200);
    CHECK(r.body["data"].contains("markdown"));
    CHECK_FALSE(r.body["data"].contains("html"));
    CHECK_FALSE(r.body["data"].contains("links"));
  }
}

TEST_CASE_METHOD(ScrapeFixture, "onlyMainContent false keeps navigation", "[scrape]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                         {"onlyMainContent", false}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["markdown"].get<std::string>().find("Home") != std::string::npos);
}

TEST_CASE_METHOD(ScrapeFixture, "includeTags and excludeTags select content", "[scrape]") {
  const auto only_list = api.post(
      "/v2/scrape", {{"url", "http://shop.test/desk"}, {"includeTags", {"ul"}},
                     {"formats", {"markdown"}}});
  REQUIRE(only_list.status == 200);
  const std::string md = only_list.body["data"]["markdown"];
  CHECK(md.find("Two drawers") != std::string::npos);
  CHECK(md.find("Walnut Desk") == std::string::npos);

  const auto bad = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                           {"excludeTags", {"div[unterminated"}}});
  CHECK(bad.status == 400);
  CHECK(bad.body["code"] == "BAD_REQUEST");
}

TEST_CASE_METHOD(ScrapeFixture, "a target 404 is a document, not an API error", "[scrape]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/gone"}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["metadata"]["statusCode"] == 404);
  CHECK(r.body["data"]["metadata"]["error"].is_string());
}

TEST_CASE_METHOD(ScrapeFixture, "an unknown host is a DNS error", "[scrape]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://no-such-host.invalid/"}});
  CHECK(r.status == 500);
  CHECK(r.body["success"] == false);
  CHECK(r.body["code"] == "SCRAPE_DNS_RESOLUTION_ERROR");
}

TEST_CASE_METHOD(ScrapeFixture, "a page slower than timeout answers 408", "[scrape]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/slow"}, {"timeout", 1000}});
  CHECK(r.status == 408);
  CHECK(r.body["code"] == "SCRAPE_TIMEOUT");
  // waitFor itself may take half of timeout at most (a 400, as the service); waits beyond what
  // is left of the timeout (waitFor plus wait actions) end the scrape with 408.
  const auto too_long = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                                {"timeout", 1000}, {"waitFor", 1000}});
  CHECK(too_long.status == 400);
  const auto wait = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"timeout", 1000},
                                            {"waitFor", 500},
                                            {"actions", {{{"type", "wait"}, {"milliseconds", 600}}}}});
  CHECK(wait.status == 408);
}

TEST_CASE_METHOD(ScrapeFixture, "the cache: v2 hits within maxAge, v1 does not cache by default",
                 "[scrape][cache]") {
  const json request = {{"url", "http://shop.test/desk"}};
  CHECK(api.post("/v2/scrape", request).body["data"]["metadata"]["cacheState"] == "miss");
  const auto hit = api.post("/v2/scrape", request);
  CHECK(hit.body["data"]["metadata"]["cacheState"] == "hit");
  CHECK(hit.body["data"]["metadata"]["cachedAt"].is_string());

  // v1's maxAge defaults to 0: always fetched again.
  CHECK(api.post("/v1/scrape", request).body["data"]["metadata"]["cacheState"] == "miss");

  SECTION("maxAge 0 skips the cache") {
    json fresh = request;
    fresh["maxAge"] = 0;
    CHECK(api.post("/v2/scrape", fresh).body["data"]["metadata"]["cacheState"] == "miss");
  }
  SECTION("an entry older than maxAge is fetched again") {
    REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 172800001LL}}).status == 200);
    CHECK(api.post("/v2/scrape", request).body["data"]["metadata"]["cacheState"] == "miss");
  }
  SECTION("headers force storeInCache off") {
    json with_headers = {{"url", "http://shop.test/desk"}, {"headers", {{"Cookie", "a=b"}}}};
    CHECK(api.post("/v2/scrape", with_headers).body["data"]["metadata"]["cacheState"] == "miss");
  }
  SECTION("a changed page is seen once the cache is bypassed") {
    REQUIRE(api.post("/__admin/mappings",
                     page_mapping("shop.test", "/desk", 200, "<h1>Sold out</h1>"))
                .status == 201);
    CHECK(api.post("/v2/scrape", request).body["data"]["markdown"].get<std::string>().find(
              "Sold out") == std::string::npos);
    json fresh = request;
    fresh["maxAge"] = 0;
    CHECK(api.post("/v2/scrape", fresh).body["data"]["markdown"].get<std::string>().find(
              "Sold out") != std::string::npos);
  }
}

TEST_CASE_METHOD(ScrapeFixture,
                 "a cache hit answers what a miss answers, per content options and formats",
                 "[scrape][cache]") {
  // The cached page keeps its parsed tree and renderings: a hit must still honour the options of
  // its own request, never hand back what an earlier request with other options rendered.
  const json formats = {"markdown", "html", "links"};
  auto scrape = [&](json extra) {
    json request = {{"url", "http://shop.test/desk"}, {"formats", formats}};
    request.update(extra);
    auto r = api.post("/v2/scrape", request);
    REQUIRE(r.status == 200);
    return r.body["data"];
  };
  const json miss = scrape(json::object());
  REQUIRE(miss["metadata"]["cacheState"] == "miss");
  const json hit = scrape(json::object());
  REQUIRE(hit["metadata"]["cacheState"] == "hit");
  CHECK(hit["markdown"] == miss["markdown"]);
  CHECK(hit["html"] == miss["html"]);
  CHECK(hit["links"] == miss["links"]);
  CHECK(hit["metadata"]["title"] == miss["metadata"]["title"]);
  CHECK(hit["metadata"]["scrapeId"] != miss["metadata"]["scrapeId"]);

  // Other content options on the same cached page: other renderings, each stable on repeat.
  for (int round = 0; round < 2; ++round) {
    const json full = scrape({{"onlyMainContent", false}});
    CHECK(full["metadata"]["cacheState"] == "hit");
    CHECK(full["markdown"].get<std::string>().find("Home") != std::string::npos);
    CHECK(full["html"].get<std::string>().find("<nav") != std::string::npos);
    const json list = scrape({{"includeTags", {"ul"}}});
    CHECK(list["markdown"].get<std::string>().find("Two drawers") != std::string::npos);
    CHECK(list["markdown"].get<std::string>().find("Walnut Desk") == std::string::npos);
    const json no_list = scrape({{"excludeTags", {"ul"}}});
    CHECK(no_list["markdown"].get<std::string>().find("Two drawers") == std::string::npos);
    CHECK(no_list["markdown"].get<std::string>().find("Walnut Desk") != std::string::npos);
  }
  // More option sets than the page keeps renderings for: still each request's own answer.
  for (const char* tag : {"h1", "p", "img", "li", "main"}) {
    const json one = scrape({{"includeTags", {tag}}, {"onlyMainContent", false}});
    CHECK(one["metadata"]["cacheState"] == "hit");
    CHECK_FALSE(one["markdown"].get<std::string>().empty());
  }
  CHECK(scrape(json::object())["markdown"] == miss["markdown"]);
}

TEST_CASE_METHOD(ScrapeFixture, "credits are billed per page", "[scrape][credits]") {
  const auto before = balance();
  REQUIRE(api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"maxAge", 0}}).status == 200);
  CHECK(balance() == before - 1);
  REQUIRE(api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"proxy", "enhanced"}})
              .status == 200);
  CHECK(balance() == before - 6);
  // Failed scrapes cost nothing.
  api.post("/v2/scrape", {{"url", "http://no-such-host.invalid/"}});
  CHECK(balance() == before - 6);
  // 4 credits left cannot pay an enhanced page (5).
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 4}}).status ==
          200);
  const auto refused =
      api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"proxy", "enhanced"},
                              {"maxAge", 0}});
  CHECK(refused.status == 402);
  CHECK(balance() == 4);
}

TEST_CASE_METHOD(ScrapeFixture, "zeroDataRetention is refused unless the team has it",
                 "[scrape]") {
  const auto zdr = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                           {"zeroDataRetention", true}});
  CHECK(zdr.status == 400);
  CHECK(zdr.body["error"].get<std::string>().find("zeroDataRetention") != std::string::npos);
}

namespace {

const char* kSearchPage = R"(<html><head><title>Find furniture</title></head><body><main>
<h1>Find furniture</h1>
<form action="/results" method="get"><input name="q" id="q"><button type="submit">Go</button></form>
<p id="intro">Pick a <a id="to-desk" href="/desk">desk</a> or a chair.</p>
</main></body></html>)";

/// Decodes the first 32 base64 characters (24 bytes: PNG signature and the IHDR width).
std::string base64_prefix(const std::string& text) {
  const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (std::size_t i = 0; i < text.size() && i < 32; ++i) {
    const auto value = alphabet.find(text[i]);
    if (value == std::string::npos) break;
    buffer = (buffer << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

const char* kResultsPage = R"(<html><head><title>Results</title></head><body><main>
<h1>Results</h1><p>Matching items for your query.</p></main></body></html>)";

}  // namespace

TEST_CASE_METHOD(ScrapeFixture, "actions run in order and the formats come from the final page",
                 "[scrape][actions]") {
  REQUIRE(api.post("/__admin/mappings", page_mapping("shop.test", "/find", 200, kSearchPage))
              .status == 201);
  const auto r = api.post(
      "/v2/scrape",
      {{"url", "http://shop.test/find"},
       {"formats", {"markdown"}},
       {"actions",
        {{{"type", "wait"}, {"milliseconds", 500}},
         {{"type", "scrape"}},
         {{"type", "executeJavascript"}, {"script", "return document.title"}},
         {{"type", "screenshot"}},
         {{"type", "click"}, {"selector", "#to-desk"}},
         {{"type", "scrape"}}}}});
  REQUIRE(r.status == 200);
  const json& data = r.body["data"];
  REQUIRE(data.contains("actions"));
  const json& result = data["actions"];
  REQUIRE(result["scrapes"].size() == 2);
  CHECK(result["scrapes"][0]["url"] == "http://shop.test/find");
  CHECK(result["scrapes"][0]["html"].get<std::string>().find("Find furniture") != std::string::npos);
  CHECK(result["scrapes"][1]["url"] == "http://shop.test/desk");
  REQUIRE(result["screenshots"].size() == 1);
  CHECK(result["screenshots"][0].get<std::string>().rfind("data:image/png;base64,", 0) == 0);
  REQUIRE(result["javascriptReturns"].size() == 1);
  CHECK(result["javascriptReturns"][0]["value"] == "Find furniture");
  // The click followed the link: markdown and metadata describe the desk page.
  CHECK(data["markdown"].get<std::string>().find("# Walnut Desk") != std::string::npos);
  CHECK(data["metadata"]["url"] == "http://shop.test/desk");
  CHECK(data["metadata"]["sourceURL"] == "http://shop.test/find");
  // Sensitive scraping is never stored: the next plain scrape is a miss, not this page.
  const auto again = api.post("/v2/scrape", {{"url", "http://shop.test/find"}});
  REQUIRE(again.status == 200);
  CHECK(again.body["data"]["metadata"]["cacheState"] == "miss");
}

TEST_CASE_METHOD(ScrapeFixture, "typing into a GET form and pressing Enter submits it",
                 "[scrape][actions]") {
  REQUIRE(api.post("/__admin/mappings", page_mapping("shop.test", "/find", 200, kSearchPage))
              .status == 201);
  REQUIRE(api.post("/__admin/mappings",
                   {{"request",
                     {{"method", "GET"},
                      {"host", {{"equalTo", "shop.test"}}},
                      {"urlPath", "/results"},
                      {"queryParameters", {{"q", {{"equalTo", "oak table"}}}}}}},
                    {"response",
                     {{"status", 200},
                      {"headers", {{"Content-Type", "text/html"}}},
                      {"body", kResultsPage}}}})
              .status == 201);
  const auto r = api.post("/v1/scrape",
                          {{"url", "http://shop.test/find"},
                           {"formats", {"markdown"}},
                           {"actions",
                            {{{"type", "click"}, {"selector", "#q"}},
                             {{"type", "write"}, {"text", "oak table"}},
                             {{"type", "press"}, {"key", "Enter"}}}}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["markdown"].get<std::string>().find("# Results") != std::string::npos);
  CHECK(r.body["data"]["metadata"]["url"].get<std::string>().find("/results?q=oak") !=
        std::string::npos);
}

TEST_CASE_METHOD(ScrapeFixture, "a failing action fails the scrape with SCRAPE_ACTION_ERROR",
                 "[scrape][actions]") {
  const auto before = balance();
  const auto missing = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                               {"actions",
                                                {{{"type", "wait"}, {"milliseconds", 10}},
                                                 {{"type", "click"}, {"selector", "#buy"}}}}});
  CHECK(missing.status == 500);
  CHECK(missing.body["success"] == false);
  CHECK(missing.body["code"] == "SCRAPE_ACTION_ERROR");
  const std::string message = missing.body["error"];
  CHECK(message.find("#buy") != std::string::npos);
  CHECK(message.find("action 1") != std::string::npos);
  CHECK(balance() == before);  // a failed scrape costs nothing

  // Waits are spent from the timeout, never slept.
  const auto waited = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                              {"timeout", 5000},
                                              {"actions", {{{"type", "wait"}, {"milliseconds", 6000}}}}});
  CHECK(waited.status == 408);
  CHECK(waited.body["code"] == "SCRAPE_TIMEOUT");

  json many = json::array();
  for (int i = 0; i < 51; ++i) many.push_back({{"type", "wait"}, {"milliseconds", 1}});
  const auto too_many =
      api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"actions", many}});
  CHECK(too_many.status == 400);
  CHECK(too_many.body["details"][0]["message"] == "Number of actions cannot exceed 50");
  CHECK(too_many.body["details"][0]["path"] == json({"actions"}));
}

TEST_CASE_METHOD(ScrapeFixture, "a mobile scrape takes action screenshots at 390 px",
                 "[scrape][actions]") {
  const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                         {"mobile", true},
                                         {"actions", {{{"type", "screenshot"}}}}});
  REQUIRE(r.status == 200);
  const std::string uri = r.body["data"]["actions"]["screenshots"][0];
  const std::string png = base64_prefix(uri.substr(std::string("data:image/png;base64,").size()));
  REQUIRE(png.size() >= 20);
  // IHDR width, big-endian at offset 16.
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(png[i]); };
  const unsigned width = (byte(16) << 24) | (byte(17) << 16) | (byte(18) << 8) | byte(19);
  CHECK(width == 390);
}

TEST_CASE("a scrape reaches the bundled virtual web", "[scrape][fixtures]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto pages = mock.server().web().known_urls();
  REQUIRE_FALSE(pages.empty());
  for (std::size_t i = 0; i < pages.size() && i < 5; ++i) {
    const auto r = api.post("/v2/scrape", {{"url", pages[i]}, {"formats", {"markdown", "links"}}});
    INFO(pages[i]);
    CHECK(r.status == 200);
    CHECK(r.body["data"]["metadata"]["statusCode"].is_number_integer());
  }
}

TEST_CASE("bundled fixtures: proxy auto retries a protected page through enhanced",
          "[scrape][fixtures][proxy]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto basic = api.post("/v2/scrape", {{"url", "https://shop.example.test/deals"},
                                             {"proxy", "basic"}});
  REQUIRE(basic.status == 200);
  CHECK(basic.body["data"]["metadata"]["statusCode"] == 403);
  CHECK(basic.body["data"]["metadata"]["proxyUsed"] == "basic");
  CHECK(basic.body["data"]["metadata"]["creditsUsed"] == 1);

  const auto automatic = api.post("/v2/scrape", {{"url", "https://shop.example.test/deals"}});
  REQUIRE(automatic.status == 200);
  CHECK(automatic.body["data"]["metadata"]["statusCode"] == 200);
  CHECK(automatic.body["data"]["metadata"]["proxyUsed"] == "enhanced");
  CHECK(automatic.body["data"]["metadata"]["creditsUsed"] == 5);

  // A page that needs no retry costs the basic price under auto.
  const auto plain = api.post("/v2/scrape", {{"url", "https://shop.example.test/"}});
  CHECK(plain.body["data"]["metadata"]["proxyUsed"] == "basic");
  CHECK(plain.body["data"]["metadata"]["creditsUsed"] == 1);
}

TEST_CASE("bundled fixtures: mobile and location pick the page's variants",
          "[scrape][fixtures]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const std::string kettle = "https://shop.example.test/products/trail-kettle";
  const auto desktop = api.post("/v2/scrape", {{"url", kettle}, {"formats", {"rawHtml"}}});
  const auto mobile = api.post("/v2/scrape", {{"url", kettle}, {"formats", {"rawHtml"}},
                                              {"mobile", true}});
  REQUIRE(desktop.status == 200);
  REQUIRE(mobile.status == 200);
  CHECK(desktop.body["data"]["rawHtml"] != mobile.body["data"]["rawHtml"]);

  const std::string trail = "https://travel.example.org/trails/rota-vicentina";
  const auto english = api.post("/v2/scrape", {{"url", trail}});
  const auto german = api.post("/v2/scrape", {{"url", trail},
                                              {"location", {{"country", "DE"},
                                                            {"languages", {"de-DE"}}}}});
  REQUIRE(german.status == 200);
  CHECK(english.body["data"]["metadata"]["language"] != german.body["data"]["metadata"]["language"]);
  CHECK(german.body["data"]["metadata"]["language"].get<std::string>().rfind("de", 0) == 0);
}

TEST_CASE("bundled fixtures: redirects, loops and faults", "[scrape][fixtures]") {
  RunningMock mock;
  const ApiClient api(mock.url());
  const auto redirected = api.post("/v2/scrape", {{"url", "https://edge.example.test/redirect/1"}});
  REQUIRE(redirected.status == 200);
  CHECK(redirected.body["data"]["metadata"]["sourceURL"] == "https://edge.example.test/redirect/1");
  CHECK(redirected.body["data"]["metadata"]["url"] != "https://edge.example.test/redirect/1");
  CHECK(api.post("/v2/scrape", {{"url", "https://edge.example.test/loop/a"}}).body["code"] ==
        "SCRAPE_SITE_ERROR");
  CHECK(api.post("/v2/scrape", {{"url", "https://edge.example.test/reset"}}).body["code"] ==
        "SCRAPE_SITE_ERROR");
  const auto gone = api.post("/v2/scrape", {{"url", "https://edge.example.test/gone"}});
  CHECK(gone.body["data"]["metadata"]["statusCode"] == 410);
  const auto slow = api.post("/v2/scrape", {{"url", "https://edge.example.test/slow"},
                                            {"timeout", 1000}});
  CHECK(slow.status == 408);
}

TEST_CASE("live fetching reaches a local server only when private targets are allowed",
          "[scrape][live]") {
  RunningMock site;  // any HTTP server on loopback will do: another mock's /health
  const std::string target = site.url("/health");

  auto config = RunningMock::quiet_config();
  config.live_fetch = true;
  config.allow_private_targets = true;
  RunningMock open(config);
  const auto fetched = ApiClient(open.url()).post("/v2/scrape", {{"url", target},
                                                                 {"formats", {"rawHtml"}}});
  REQUIRE(fetched.status == 200);
  CHECK(json::parse(fetched.body["data"]["rawHtml"].get<std::string>())["status"] == "ok");
  CHECK(fetched.body["data"]["metadata"]["contentType"] == "application/json");

  config.allow_private_targets = false;
  RunningMock guarded(config);
  const auto refused = ApiClient(guarded.url()).post("/v2/scrape", {{"url", target}});
  CHECK(refused.status == 500);
  CHECK(refused.body["success"] == false);

  config.live_fetch = false;
  RunningMock offline(config);
  CHECK(ApiClient(offline.url()).post("/v2/scrape", {{"url", target}}).body["code"] ==
        "SCRAPE_DNS_RESOLUTION_ERROR");
}

TEST_CASE_METHOD(ScrapeFixture, "model-made formats over HTTP", "[scrape][model-formats]") {
  SECTION("summary, branding, json with +4 credits") {
    const json schema = {{"type", "object"},
                         {"properties", {{"name", {{"type", "string"}}},
                                         {"price", {{"type", "number"}}},
                                         {"features", {{"type", "array"},
                                                       {"items", {{"type", "string"}}}}}}},
                         {"required", {"name", "price"}}};
    const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/desk"}, {"maxAge", 0},
                                           {"formats", {"summary", "branding",
                                                        {{"type", "json"}, {"schema", schema}}}}});
    REQUIRE(r.status == 200);
    const json& data = r.body["data"];
    CHECK(data["summary"].get<std::string>().find("walnut") != std::string::npos);
    CHECK(data["branding"].is_object());
    REQUIRE(data["json"].is_object());
    CHECK(data["json"]["name"].is_string());
    CHECK(data["json"]["price"].is_number());
    CHECK(data["metadata"]["creditsUsed"] == 5);
  }
  SECTION("v1 jsonOptions fill json") {
    const auto r = api.post("/v1/scrape", {{"url", "http://shop.test/desk"},
                                           {"formats", {"json"}},
                                           {"jsonOptions", {{"prompt", "the product name"}}}});
    REQUIRE(r.status == 200);
    CHECK(r.body["data"]["json"].is_object());
  }
  SECTION("screenshot is a PNG data URI of the viewport") {
    const auto r = api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                           {"formats", {{{"type", "screenshot"},
                                                         {"viewport", {{"width", 640},
                                                                       {"height", 480}}}}}}});
    REQUIRE(r.status == 200);
    const std::string uri = r.body["data"]["screenshot"];
    REQUIRE(uri.rfind("data:image/png;base64,", 0) == 0);
    // The IHDR of a 640x480 PNG: width 0x00000280, height 0x000001E0 (base64 of the first bytes).
    CHECK(uri.substr(22, 12) == "iVBORw0KGgoA");  // \x89PNG\r\n\x1a\n
    CHECK(uri.size() > 200);
  }
  SECTION("changeTracking: new, same, changed") {
    const json request = {{"url", "http://shop.test/desk"}, {"maxAge", 0},
                          {"formats", {"markdown", {{"type", "changeTracking"},
                                                    {"modes", {"git-diff"}}}}}};
    const auto first = api.post("/v2/scrape", request);
    REQUIRE(first.status == 200);
    CHECK(first.body["data"]["changeTracking"]["changeStatus"] == "new");
    CHECK(api.post("/v2/scrape", request).body["data"]["changeTracking"]["changeStatus"] == "same");
    REQUIRE(api.post("/__admin/mappings",
                     page_mapping("shop.test", "/desk", 200, "<main><h1>Walnut Desk</h1>"
                                                             "<p>Sold out.</p></main>"))
                .status == 201);
    const auto changed = api.post("/v2/scrape", request);
    CHECK(changed.body["data"]["changeTracking"]["changeStatus"] == "changed");
    CHECK(changed.body["data"]["changeTracking"]["diff"]["text"].get<std::string>().find(
              "+Sold out.") != std::string::npos);
    CHECK(api.post("/v2/scrape", {{"url", "http://shop.test/desk"},
                                  {"formats", {{{"type", "changeTracking"}}}}})
              .status == 400);  // markdown is required alongside
  }
}

TEST_CASE_METHOD(ScrapeFixture, "PDF targets: parsed per page, or base64 for one credit",
                 "[scrape][pdf]") {
  std::string long_text;
  for (int i = 0; i < 200; ++i) long_text += "Line " + std::to_string(i) + " of the quarterly report.\n";
  const std::string pdf = webdata::mock::formats::write_pdf(long_text, "Quarterly report");
  REQUIRE(api.post("/__admin/mappings",
                   {{"request", {{"method", "GET"}, {"host", {{"equalTo", "shop.test"}}},
                                 {"urlPath", "/report.pdf"}}},
                    {"response", {{"status", 200},
                                  {"headers", {{"Content-Type", "application/pdf"}}},
                                  {"base64Body", webdata::mock::base64_encode(pdf)}}}})
              .status == 201);
  const auto parsed = api.post("/v2/scrape", {{"url", "http://shop.test/report.pdf"}});
  REQUIRE(parsed.status == 200);
  const auto pages = parsed.body["data"]["metadata"]["numPages"].get<int>();
  CHECK(pages > 1);
  CHECK(parsed.body["data"]["metadata"]["creditsUsed"] == pages);
  CHECK(parsed.body["data"]["markdown"].get<std::string>().find("Line 199 of the quarterly") !=
        std::string::npos);

  const auto raw = api.post("/v2/scrape", {{"url", "http://shop.test/report.pdf"},
                                           {"parsers", json::array()}, {"maxAge", 0}});
  REQUIRE(raw.status == 200);
  CHECK(raw.body["data"]["metadata"]["creditsUsed"] == 1);
  CHECK(raw.body["data"]["markdown"] == webdata::mock::base64_encode(pdf));
  CHECK(api.post("/v1/scrape", {{"url", "http://shop.test/report.pdf"}, {"parsePDF", false}})
            .body["data"]["metadata"]["creditsUsed"] == 1);
}
