#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "full_scrape_options.hpp"
#include "webdata/webdata.hpp"

using nlohmann::json;

namespace {

json tree(const webdata::Json& j) {
  return json::parse(j.text());
}

template <class T>
T read(const std::string& text) {
  auto parsed = webdata::from_json<T>(text);
  if (!parsed.ok()) FAIL(parsed.error().describe());
  return std::move(parsed).value();
}

// parse -> serialize must give back the same JSON (key order aside).
template <class T>
void check_round_trip(const std::string& text) {
  const T model = read<T>(text);
  CHECK(tree(webdata::to_json(model)) == json::parse(text));
}

const char* kScrapeDocument = R"({
  "markdown": "# Hello", "summary": "A greeting page.", "html": "<h1>Hello</h1>",
  "rawHtml": "<html><body><h1>Hello</h1></body></html>",
  "screenshot": "data:image/png;base64,iVBORw0KGgo=",
  "links": ["https://docs.example.test/a", "https://docs.example.test/b"],
  "images": ["https://docs.example.test/logo.png"],
  "json": {"price": 3, "currency": "EUR"},
  "actions": {"screenshots": ["https://cdn.example.test/1.png"],
              "scrapes": [{"url": "https://docs.example.test/", "html": "<p>x</p>"}],
              "javascriptReturns": [{"type": "number", "value": 42}, {"type": "object", "value": {"a": [1, 2]}}],
              "pdfs": ["https://cdn.example.test/1.pdf"]},
  "metadata": {"title": "Hello", "description": "A page", "language": "en",
               "sourceURL": "https://docs.example.test", "url": "https://docs.example.test/",
               "keywords": "a,b", "robots": "index, follow", "ogTitle": "Hello OG",
               "ogDescription": "OG description", "ogUrl": "https://docs.example.test/",
               "ogImage": "https://docs.example.test/og.png", "ogSiteName": "Docs",
               "ogLocaleAlternate": ["de_DE", "fr_FR"], "statusCode": 200, "scrapeId": "7b6f",
               "contentType": "text/html; charset=utf-8", "proxyUsed": "basic", "cacheState": "miss",
               "cachedAt": "2025-03-01T10:00:00.000Z", "creditsUsed": 1, "numPages": 2,
               "favicon": "https://docs.example.test/favicon.ico",
               "twitter:card": "summary", "article:tag": ["c++", "sdk"], "x-custom": {"n": 5}},
  "warning": "The page was slow to load.",
  "changeTracking": {"previousScrapeAt": "2025-02-28T10:00:00Z", "changeStatus": "changed",
                     "visibility": "visible", "diff": {"text": "@@ -1 +1 @@\n-a\n+b", "json": {"title": {"previous": "a", "current": "b"}}},
                     "json": {"title": "b"}},
  "branding": {"colorScheme": "light", "colors": {"primary": "#112233", "link": "#0000ff"},
               "fonts": [{"family": "Inter"}], "logo": "https://docs.example.test/logo.png"}
})";

}  // namespace

TEST_CASE("a full scrape document round-trips and every field is typed", "[models]") {
  check_round_trip<webdata::Document>(kScrapeDocument);
  const auto doc = read<webdata::Document>(kScrapeDocument);
  CHECK(doc.markdown == "# Hello");
  CHECK(doc.summary == "A greeting page.");
  CHECK(doc.links->size() == 2);
  CHECK(tree(*doc.json) == json{{"price", 3}, {"currency", "EUR"}});
  REQUIRE(doc.actions);
  CHECK(doc.actions->javascript_returns.at(0).value.text() == "42");
  CHECK(doc.actions->scrapes.at(0).html == "<p>x</p>");
  CHECK(doc.metadata.status_code == 200);
  CHECK(doc.metadata.source_url == "https://docs.example.test");
  CHECK(doc.metadata.og_locale_alternate->at(1) == "fr_FR");
  CHECK(doc.metadata.proxy_used == webdata::ProxyMode::basic());
  REQUIRE(doc.metadata.cached_at);
  CHECK(doc.metadata.cached_at->time().has_value());
  CHECK(doc.metadata.extra_string("twitter:card") == "summary");
  CHECK(doc.metadata.extra_string("article:tag") == "c++");
  CHECK(std::holds_alternative<webdata::Json>(doc.metadata.extras.at("x-custom")));
  REQUIRE(doc.change_tracking);
  CHECK(doc.change_tracking->change_status == webdata::ChangeStatus::changed());
  CHECK(doc.change_tracking->diff->text.find("+b") != std::string::npos);
  CHECK(doc.extras.empty());
}

TEST_CASE("unknown keys and enum values survive parsing and serializing", "[models]") {
  const std::string text = R"({
    "markdown": "x", "futureFormat": {"kind": "new"},
    "metadata": {"sourceURL": "https://a.test", "statusCode": 200, "proxyUsed": "stealth",
                 "title": ["one", "two"], "statusCodeText": "OK"},
    "changeTracking": {"changeStatus": "mutated", "visibility": "translucent", "diff": "plain diff",
                       "confidence": 0.5}
  })";
  const auto doc = read<webdata::Document>(text);
  CHECK(tree(doc.extras.at("futureFormat")) == json{{"kind", "new"}});
  CHECK(doc.metadata.proxy_used->value() == "stealth");
  // A known key with another type than expected is kept, not dropped or fatal.
  CHECK_FALSE(doc.metadata.title.has_value());
  CHECK(std::get<std::vector<std::string>>(doc.metadata.extras.at("title")).size() == 2);
  CHECK(doc.change_tracking->change_status.value() == "mutated");
  CHECK(doc.change_tracking->diff->text_only);
  check_round_trip<webdata::Document>(text);

  const auto status = read<webdata::JobStatus>(
      R"({"status": "paused", "total": 3, "completed": 1, "data": [], "queuePosition": 4})");
  CHECK(status.status.value() == "paused");
  CHECK_FALSE(status.status.is_terminal());
  CHECK(tree(status.extras.at("queuePosition")) == 4);
}

TEST_CASE("job start, status, errors and active crawl answers round-trip", "[models]") {
  check_round_trip<webdata::JobStarted>(
      R"({"success": true, "id": "0b4d3a58-8d3c-4d6f-9c4e-1f9a2b3c4d5e", "url": "http://127.0.0.1:3002/v2/batch/scrape/0b4d3a58-8d3c-4d6f-9c4e-1f9a2b3c4d5e", "invalidURLs": ["not a url"]})");
  const std::string status_text = R"({
    "success": true, "status": "scraping", "total": 36, "completed": 10, "creditsUsed": 10,
    "expiresAt": "2025-03-02T10:00:00.000Z",
    "next": "http://127.0.0.1:3002/v2/crawl/abc?skip=10",
    "data": [{"markdown": "a", "metadata": {"sourceURL": "https://a.test/", "statusCode": 404, "error": "Not Found"}}]
  })";
  check_round_trip<webdata::JobStatus>(status_text);
  const auto status = read<webdata::JobStatus>(status_text);
  CHECK(status.next == "http://127.0.0.1:3002/v2/crawl/abc?skip=10");
  CHECK(status.data.at(0).metadata.status_code == 404);
  CHECK(status.expires_at->time() == webdata::parse_iso8601("2025-03-02T11:00:00+01:00"));

  const std::string errors_text =
      R"({"errors": [{"id": "e1", "timestamp": "2025-03-01T10:00:00Z", "url": "https://a.test/x", "code": "SCRAPE_DNS_RESOLUTION_ERROR", "error": "DNS failed"}], "robotsBlocked": ["https://a.test/private"]})";
  check_round_trip<webdata::JobErrors>(errors_text);
  const auto wrapped =
      read<webdata::JobErrors>(std::string(R"({"success": true, "data": )") + errors_text + "}");
  CHECK(wrapped.errors.at(0).code == "SCRAPE_DNS_RESOLUTION_ERROR");
  CHECK(wrapped.robots_blocked.at(0) == "https://a.test/private");

  const std::string active_text =
      R"({"id": "c1", "teamId": "team-1", "url": "https://a.test", "created_at": "2025-03-01T10:00:00Z",
    "options": {"limit": 5, "scrapeOptions": {"formats": ["markdown", {"type": "json", "prompt": "p"}], "onlyMainContent": true, "maxAge": 0, "proxy": "auto", "parsers": ["pdf"]}}})";
  check_round_trip<webdata::ActiveCrawl>(active_text);
  const auto active = read<webdata::ActiveCrawl>(active_text);
  REQUIRE(active.scrape_options);
  CHECK(active.scrape_options->formats->at(1).prompt == "p");
  CHECK(active.scrape_options->max_age == std::chrono::milliseconds(0));
  CHECK(active.team_id == "team-1");
}

TEST_CASE("search answers keep web, image and news items", "[models]") {
  const std::string text = R"({
    "success": true, "id": "s-1", "creditsUsed": 3, "warning": null,
    "data": {
      "web": [{"title": "Docs", "description": "d", "url": "https://docs.example.test/", "position": 1, "category": "github",
               "markdown": "# Docs", "links": ["https://docs.example.test/a"],
               "metadata": {"title": "Docs", "sourceURL": "https://docs.example.test/", "statusCode": 200}}],
      "images": [{"title": "Logo", "imageUrl": "https://docs.example.test/l.png", "imageWidth": 64, "imageHeight": 32, "url": "https://docs.example.test/", "position": 1}],
      "news": [{"title": "Release", "snippet": "s", "url": "https://news.example.test/1", "date": "2 hours ago", "imageUrl": "https://news.example.test/1.png", "position": 1}],
      "videos": []
    }
  })";
  const auto results = read<webdata::SearchResults>(text);
  CHECK(results.web->at(0).category == "github");
  CHECK(results.web->at(0).metadata->status_code == 200);
  CHECK(results.images->at(0).image_width == 64);
  CHECK(results.news->at(0).date == "2 hours ago");
  CHECK(results.extras.count("data.videos") == 1);
  CHECK(results.credits_used == 3);
  // `warning: null` is read as absent; everything else survives.
  json expected = json::parse(text);
  expected.erase("warning");
  CHECK(tree(webdata::to_json(results)) == expected);

  check_round_trip<webdata::v1::SearchResults>(
      R"({"success": true, "data": [{"title": "t", "description": "d", "url": "https://a.test/"}], "warning": "w"})");
}

TEST_CASE("agent answers in the synchronous and the job form", "[models]") {
  const std::string sync =
      R"({"success": true, "data": {"result": "Three founders.", "sources": ["https://a.test/about"]}, "creditsUsed": 4})";
  check_round_trip<webdata::AgentResult>(sync);
  const auto result = read<webdata::AgentResult>(sync);
  CHECK(result.result.as_string() == "Three founders.");
  CHECK(result.sources.size() == 1);
  check_round_trip<webdata::AgentResult>(R"({"success": true, "id": "ag-1"})");
  const auto object = read<webdata::AgentResult>(
      R"({"success": true, "status": "completed", "data": {"founders": 3}, "expiresAt": "2025-03-02T00:00:00Z"})");
  CHECK(tree(object.result) == json{{"founders", 3}});
  CHECK(object.status.is_terminal());
}

TEST_CASE("requests send exactly the fields that were set", "[models][requests]") {
  webdata::ScrapeRequest minimal;
  minimal.url = "https://docs.example.test/";
  CHECK(tree(webdata::to_json(minimal)) == json{{"url", "https://docs.example.test/"}});

  webdata::ScrapeRequest full;
  full.url = "https://docs.example.test/";
  static_cast<webdata::ScrapeOptions&>(full) = webdata::testing::full_scrape_options();
  const json expected = json::parse(R"({
    "url": "https://docs.example.test/",
    "formats": ["markdown", "summary", "html", "rawHtml", "links", "images", "branding",
      {"type": "json", "schema": {"type": "object", "properties": {"price": {"type": "number"}}},
       "prompt": "The price"},
      {"type": "screenshot", "fullPage": true, "quality": 90, "viewport": {"width": 1280, "height": 720}},
      {"type": "changeTracking", "modes": ["git-diff", "json"], "schema": {"type": "object"},
       "prompt": "what changed", "tag": "daily"}],
    "onlyMainContent": true, "includeTags": ["main"], "excludeTags": ["nav", "footer"],
    "maxAge": 172800000, "headers": {"Cookie": "a=b"}, "waitFor": 100, "mobile": false,
    "skipTlsVerification": true, "timeout": 30000, "parsers": [{"type": "pdf", "maxPages": 10}],
    "actions": [{"type": "wait", "milliseconds": 100}, {"type": "wait", "selector": "#app"},
      {"type": "click", "selector": "a.more", "all": false}, {"type": "write", "text": "query"},
      {"type": "press", "key": "Enter"}, {"type": "scroll", "direction": "down", "selector": "#list"},
      {"type": "screenshot", "fullPage": true, "quality": 50, "viewport": {"width": 800, "height": 600}},
      {"type": "scrape"}, {"type": "executeJavascript", "script": "return 1"},
      {"type": "pdf", "format": "A4", "landscape": false, "scale": 1.0}],
    "location": {"country": "DE", "languages": ["de-DE"]}, "removeBase64Images": true,
    "blockAds": true, "proxy": "auto", "storeInCache": true, "zeroDataRetention": false,
    "origin": "webdata-cpp", "integration": "sdk-tests"
  })");
  CHECK(tree(webdata::to_json(full)) == expected);
  // And the request reads back into the same model.
  CHECK(tree(webdata::to_json(read<webdata::ScrapeRequest>(expected.dump()))) == expected);

  // The options a factory was not given are not sent either.
  webdata::ScrapeOptions partial;
  partial.formats = {webdata::FormatEntry::change_tracking(std::vector<std::string>{"git-diff"})};
  partial.actions = {webdata::Action::scroll("down"), webdata::Action::screenshot(true)};
  partial.proxy = webdata::ProxyMode::enhanced();
  CHECK(tree(webdata::to_json(partial)) == json::parse(R"({
    "formats": [{"type": "changeTracking", "modes": ["git-diff"]}],
    "actions": [{"type": "scroll", "direction": "down"}, {"type": "screenshot", "fullPage": true}],
    "proxy": "enhanced"
  })"));
}

TEST_CASE("crawl, batch, search and agent requests use the wire names", "[models][requests]") {
  webdata::CrawlRequest crawl;
  crawl.url = "https://docs.example.test/";
  crawl.limit = 50;
  crawl.delay = std::chrono::milliseconds(1500);
  crawl.sitemap = webdata::SitemapMode::skip();
  crawl.crawl_entire_domain = true;
  crawl.webhook = "https://hooks.example.test/in";
  crawl.scrape_options = webdata::ScrapeOptions{};
  crawl.scrape_options->formats = {"markdown"};
  CHECK(tree(webdata::to_json(crawl)) ==
        json::parse(
            R"({"url": "https://docs.example.test/", "limit": 50, "delay": 1.5, "sitemap": "skip",
                        "crawlEntireDomain": true, "webhook": "https://hooks.example.test/in",
                        "scrapeOptions": {"formats": ["markdown"]}})"));

  webdata::BatchScrapeRequest batch;
  batch.urls = {"https://a.test/", "https://b.test/"};
  batch.webhook = webdata::WebhookSpec("https://hooks.example.test/in");
  batch.webhook->events = {webdata::WebhookEventKind::page()};
  batch.webhook->metadata =
      webdata::Json::object(std::map<std::string, std::string>{{"run", "42"}});
  batch.ignore_invalid_urls = true;
  batch.max_concurrency = 2;
  CHECK(tree(webdata::to_json(batch)) ==
        json::parse(R"({"urls": ["https://a.test/", "https://b.test/"],
                        "webhook": {"url": "https://hooks.example.test/in", "metadata": {"run": "42"}, "events": ["page"]},
                        "ignoreInvalidURLs": true, "maxConcurrency": 2})"));

  webdata::SearchRequest search;
  search.query = "site:docs.example.test sdk";
  search.sources = {webdata::SearchSource::web(), webdata::SearchSource::news()};
  search.categories = {webdata::SearchCategory::github()};
  search.tbs = "qdr:w";
  search.timeout = std::chrono::seconds(20);
  CHECK(tree(webdata::to_json(search)) ==
        json::parse(R"({"query": "site:docs.example.test sdk", "sources": ["web", "news"],
                        "categories": ["github"], "tbs": "qdr:w", "timeout": 20000})"));
  // Both request forms of sources are read.
  const auto objects = read<webdata::SearchRequest>(
      R"({"query": "q", "sources": [{"type": "images"}], "categories": [{"type": "pdf"}]})");
  CHECK(objects.sources->at(0) == webdata::SearchSource::images());
  CHECK(objects.categories->at(0) == webdata::SearchCategory::pdf());

  webdata::AgentRequest agent;
  agent.prompt = "Who founded it?";
  agent.max_credits = 10;
  CHECK(tree(webdata::to_json(agent)) ==
        json::parse(R"({"prompt": "Who founded it?", "maxCredits": 10})"));
}

TEST_CASE("v1 requests carry the v1 fields", "[models][requests]") {
  webdata::v1::ScrapeRequest scrape;
  scrape.url = "https://a.test/";
  scrape.formats = {"markdown", "screenshot@fullPage", "json", "changeTracking"};
  scrape.parse_pdf = false;
  scrape.json_options =
      webdata::v1::JsonOptions{webdata::Json::parse(R"({"type":"object"})").value(),
                               std::string("Be brief"), std::string("Price")};
  scrape.change_tracking_options = webdata::v1::ChangeTrackingOptions{
      std::vector<std::string>{"git-diff"}, std::nullopt, std::nullopt, std::string("daily")};
  scrape.actions = {webdata::Action::wait_for("#app")};
  CHECK(
      tree(webdata::to_json(scrape)) ==
      json::parse(
          R"({"url": "https://a.test/", "formats": ["markdown", "screenshot@fullPage", "json", "changeTracking"],
                        "parsePDF": false, "jsonOptions": {"schema": {"type": "object"}, "systemPrompt": "Be brief", "prompt": "Price"},
                        "changeTrackingOptions": {"modes": ["git-diff"], "tag": "daily"},
                        "actions": [{"type": "wait", "selector": "#app"}]})"));

  webdata::v1::CrawlRequest crawl;
  crawl.url = "https://a.test/";
  crawl.max_depth = 2;
  crawl.ignore_sitemap = true;
  crawl.allow_backward_links = true;
  CHECK(
      tree(webdata::to_json(crawl)) ==
      json::parse(
          R"({"url": "https://a.test/", "maxDepth": 2, "ignoreSitemap": true, "allowBackwardLinks": true})"));

  webdata::v1::SearchRequest search;
  search.query = "q";
  search.lang = "de";
  search.country = "de";
  CHECK(tree(webdata::to_json(search)) ==
        json::parse(R"({"query": "q", "lang": "de", "country": "de"})"));
}

TEST_CASE("malformed and truncated JSON give a clear error, never a crash", "[models]") {
  auto truncated =
      webdata::from_json<webdata::Document>(std::string(kScrapeDocument).substr(0, 120));
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().kind == webdata::ErrorKind::kParse);

  // A document member of another type is kept in extras and named; the status reads.
  auto wrong = webdata::from_json<webdata::JobStatus>(
      R"({"status": "completed", "total": 1, "completed": 1, "data": [{"metadata": {"sourceURL": "x"}, "links": "not-an-array"}]})");
  REQUIRE(wrong.ok());
  REQUIRE(wrong->data.size() == 1);
  CHECK(wrong->data[0].diagnostics.at(0).find("at data[0].links: expected an array") == 0);

  auto not_object = webdata::from_json<webdata::Document>("[1,2,3]");
  REQUIRE_FALSE(not_object.ok());
  CHECK(not_object.error().message.find("expected an object") != std::string::npos);

  // A count that is no integer is set aside; a status that is no string fails the decode.
  auto huge = webdata::from_json<webdata::JobStatus>(R"({"total": 1e300})");
  REQUIRE(huge.ok());
  CHECK(huge->diagnostics.size() == 1);
  CHECK_FALSE(webdata::from_json<webdata::JobStatus>(R"({"status": {"state": "done"}})").ok());
  CHECK_THROWS_AS(webdata::from_json<webdata::Document>("{").value(), webdata::ApiError);
}

TEST_CASE("timestamps keep their text and give the instant", "[models][time]") {
  auto t = webdata::Timestamp::from_text("2025-01-31T12:00:00.123Z");
  REQUIRE(t.time());
  CHECK(webdata::format_iso8601(*t.time()) == "2025-01-31T12:00:00.123Z");
  CHECK(webdata::parse_iso8601("2025-01-31T13:00:00+01:00") ==
        webdata::parse_iso8601("2025-01-31T12:00:00Z"));
  CHECK_FALSE(webdata::parse_iso8601("yesterday"));
  CHECK_FALSE(webdata::Timestamp::from_text("3 hours ago").time());
  CHECK(webdata::Timestamp::from_text("3 hours ago").text() == "3 hours ago");
  const webdata::Timestamp epoch{webdata::Timestamp::TimePoint{}};
  CHECK(epoch.text() == "1970-01-01T00:00:00.000Z");
}

TEST_CASE("Json values are validated and compact", "[models][json]") {
  auto j = webdata::Json::parse(R"( { "a" : [1, 2] } )");
  REQUIRE(j.ok());
  CHECK(j->text() == R"({"a":[1,2]})");
  CHECK(j->is_object());
  CHECK_FALSE(webdata::Json::parse("{nope").ok());
  CHECK(webdata::Json::string("say \"hi\"").as_string() == "say \"hi\"");
  CHECK(webdata::Json().is_null());
}

// One field list serves both directions; what differs is said by a rule or a member codec.
// Each of them, both ways.
TEST_CASE("the member rules of the field lists hold when reading and when writing") {
  SECTION("a model that carries only its type or URL is written as that bare string") {
    CHECK(tree(webdata::to_json(webdata::FormatEntry("markdown"))) == json("markdown"));
    CHECK(tree(webdata::to_json(webdata::WebhookSpec("https://h.test/"))) ==
          json("https://h.test/"));
    const char* screenshot = R"({"type": "screenshot", "fullPage": true})";
    CHECK(tree(webdata::to_json(read<webdata::FormatEntry>(screenshot))) ==
          json::parse(screenshot));
    CHECK(read<webdata::FormatEntry>(R"("links")").type == "links");
    CHECK(!webdata::from_json<webdata::FormatEntry>(R"({"fullPage": true})").ok());  // kRequired
  }
  SECTION("an agent's decline is {approvalId} on the wire, the id in the model") {
    webdata::AgentRequest request;
    request.prompt = "p";
    request.exchange = webdata::AgentExchange{};
    request.exchange->decline = "ap-1";
    const json wire = tree(webdata::to_json(request));
    CHECK(wire.at("exchange") == json::parse(R"({"decline": {"approvalId": "ap-1"}})"));
    CHECK(read<webdata::AgentRequest>(wire.dump()).exchange->decline == "ap-1");
  }
  SECTION("an agent result leaves out an empty status, empty toolkits and an empty data") {
    webdata::AgentResult result;
    result.exchange = webdata::AgentExchangeSummary{};
    result.exchange->enabled = true;
    const json wire = tree(webdata::to_json(result));
    CHECK(wire ==
          json::parse(R"({"exchange": {"enabled": true, "paidCalls": 0, "creditsUsed": null}})"));
  }
  SECTION("the members of a nested data object it does not know stay inside it") {
    check_round_trip<webdata::SearchResults>(
        R"({"success": true, "data": {"web": [], "images": [], "news": [], "videos": [1]}})");
    const auto agent = read<webdata::AgentResult>(
        R"({"status": "completed", "data": {"result": {"a": 1}, "sources": [], "notes": "n"}})");
    CHECK(agent.extras.count("data.notes") == 1);
    CHECK(tree(webdata::to_json(agent)).at("data").at("notes") == "n");
  }
  SECTION("a job's error is typed when a string, and stays in the extras either way") {
    const auto failed = read<webdata::JobStatus>(R"({"status": "failed", "error": "boom"})");
    CHECK(failed.error == "boom");
    CHECK(failed.extras.count("error") == 1);
    CHECK(failed.diagnostics.empty());
    const auto odd = read<webdata::JobStatus>(R"({"status": "failed", "error": {}})");
    CHECK(!odd.error);
    CHECK(odd.extras.count("error") == 1);
    REQUIRE(odd.diagnostics.size() == 1);
    CHECK(odd.diagnostics[0] ==
          "at error: expected a string, got an object; kept as raw JSON in extras");
  }
  SECTION("a crawl's delay is whole seconds when it can be, a fraction otherwise") {
    webdata::v1::CrawlRequest crawl;
    crawl.url = "https://docs.example.test/";
    crawl.delay = std::chrono::seconds(2);
    CHECK(tree(webdata::to_json(crawl)).at("delay") == 2);
    CHECK(read<webdata::v1::CrawlRequest>(R"({"url": "u", "delay": 0.25})").delay ==
          std::chrono::milliseconds(250));
  }
}
