// POST /v1|v2/search over real HTTP against the bundled virtual web (mockserver/fixtures/web):
// every operator, source, category, tbs, location, limits, scrapeOptions, credits and shapes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

#include "search_support.hpp"

using namespace search_test;

namespace {

/// The fixture pages carrying `term` somewhere, by asking without the operator under test.
std::vector<std::string> web_urls(const json& body) {
  return urls(body["data"]["web"]);
}

json page_mapping(const std::string& host, const std::string& path, const std::string& body,
                  int delay_ms = 0) {
  json response = {
      {"status", 200}, {"headers", {{"Content-Type", "text/html; charset=utf-8"}}}, {"body", body}};
  if (delay_ms > 0) response["fixedDelayMilliseconds"] = delay_ms;
  return {{"request", {{"method", "GET"}, {"host", {{"equalTo", host}}}, {"urlPath", path}}},
          {"response", response}};
}

std::string iso(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

TEST_CASE("v2 search answers ranked web results with the v2 envelope", "[search][shape]") {
  const auto api = shared_api();
  const json body = search(api, {{"query", "harbour bridge cables"}});
  CHECK(body["data"].size() == 1);  // only the web source by default
  const json& web = body["data"]["web"];
  REQUIRE(!web.empty());
  CHECK(web[0]["url"] == kBridge);
  CHECK(web[0]["title"].get<std::string>().find("Harbour bridge reopens") != std::string::npos);
  CHECK(web[0]["description"].get<std::string>().find("cable") != std::string::npos);
  for (std::size_t i = 0; i < web.size(); ++i) CHECK(web[i]["position"] == i + 1);
  CHECK(body["creditsUsed"] == web.size());
  CHECK_FALSE(body["id"].get<std::string>().empty());
  CHECK(body["warning"].is_null());
  CHECK_FALSE(web[0].contains("markdown"));
}

TEST_CASE("v1 search answers a plain array of web results", "[search][shape]") {
  const auto api = shared_api();
  const json body = search(api, {{"query", "harbour bridge cables"}, {"lang", "en"}}, "v1");
  REQUIRE(body["data"].is_array());
  REQUIRE(!body["data"].empty());
  CHECK(body["data"][0]["url"] == kBridge);
  CHECK(body["creditsUsed"] == body["data"].size());
  // v2-only fields are refused by the v1 contract.
  CHECK(api.post("/v1/search", {{"query", "bridge"}, {"sources", {"web"}}}).status == 400);
}

TEST_CASE("every word must match, an exact phrase must appear as written", "[search][operators]") {
  const auto api = shared_api();
  const auto river = web_urls(search(api, {{"query", "river gauge"}, {"limit", 100}}));
  CHECK(has(river, kIssue));
  CHECK(has(river, kPaper));
  CHECK_FALSE(has(river, kBridge));  // no "gauge" there

  const auto phrase = web_urls(search(api, {{"query", "\"record low\""}, {"limit", 100}}));
  CHECK(has(phrase, kRiver));
  CHECK(has(phrase, kIssue));  // "Since the record low the parser..."
  const auto reversed = web_urls(search(api, {{"query", "\"low record\""}, {"limit", 100}}));
  CHECK_FALSE(has(reversed, kRiver));
  CHECK_FALSE(has(reversed, kIssue));
}

TEST_CASE("negated terms and quoted phrases exclude pages", "[search][operators]") {
  const auto api = shared_api();
  const auto all = web_urls(search(api, {{"query", "river"}, {"limit", 100}}));
  REQUIRE(has(all, kPaper));
  REQUIRE(has(all, kRiver));
  const auto without = web_urls(search(api, {{"query", "river -drought"}, {"limit", 100}}));
  CHECK_FALSE(has(without, kPaper));  // "drought years"
  CHECK(has(without, kIssue));
  const auto phrase = web_urls(search(api, {{"query", "river -\"dry summer\""}, {"limit", 100}}));
  CHECK_FALSE(has(phrase, kRiver));
  CHECK(has(phrase, kPaper));
}

TEST_CASE("site: keeps a host and its subdomains, -site: drops them", "[search][operators]") {
  const auto api = shared_api();
  const auto only =
      web_urls(search(api, {{"query", "river site:github.example.test"}, {"limit", 100}}));
  REQUIRE(only.size() == 2);
  for (const auto& url : only) CHECK(host_of(url) == "github.example.test");

  const auto parent = web_urls(search(api, {{"query", "river site:example.test"}, {"limit", 100}}));
  CHECK(has(parent, kIssue));
  CHECK(has(parent, kPaper));

  const auto path =
      web_urls(search(api, {{"query", "site:news.example.test/2026"}, {"limit", 100}}));
  CHECK(path.size() == 4);
  for (const auto& url : path) CHECK(url.rfind("https://news.example.test/2026/", 0) == 0);

  const auto excluded =
      web_urls(search(api, {{"query", "river -site:github.example.test"}, {"limit", 100}}));
  CHECK(has(excluded, kRiver));
  for (const auto& url : excluded) CHECK(host_of(url) != "github.example.test");
}

TEST_CASE("filetype: selects PDF documents, -filetype: removes them", "[search][operators]") {
  const auto api = shared_api();
  const auto energy = web_urls(search(api, {{"query", "solar"}, {"limit", 100}}));
  REQUIRE(has(energy, kReport));
  REQUIRE(has(energy, kSolar));
  const auto pdf = web_urls(search(api, {{"query", "solar filetype:pdf"}, {"limit", 100}}));
  CHECK(pdf == std::vector<std::string>{kReport});
  const auto no_pdf = web_urls(search(api, {{"query", "solar -filetype:pdf"}, {"limit", 100}}));
  CHECK_FALSE(has(no_pdf, kReport));
  CHECK(has(no_pdf, kSolar));
  const json report = search(api, {{"query", "gigawatt filetype:pdf"}})["data"]["web"];
  REQUIRE(report.size() == 1);
  CHECK(report[0]["title"] == "Annual energy report 2026");
}

TEST_CASE("inurl: and allinurl: look at the URL", "[search][operators]") {
  const auto api = shared_api();
  const auto issues = web_urls(search(api, {{"query", "river inurl:issues"}, {"limit", 100}}));
  CHECK(issues == std::vector<std::string>{kIssue});
  const auto not_issues = web_urls(search(api, {{"query", "river -inurl:issues"}, {"limit", 100}}));
  CHECK_FALSE(has(not_issues, kIssue));
  CHECK(has(not_issues, kRepo));
  const auto all = web_urls(search(api, {{"query", "allinurl: 2026 solar"}, {"limit", 100}}));
  CHECK(all == std::vector<std::string>{kSolar});
}

TEST_CASE("intitle: and allintitle: look at the title", "[search][operators]") {
  const auto api = shared_api();
  const json one = search(api, {{"query", "intitle:river"}, {"limit", 100}})["data"]["web"];
  REQUIRE(one.size() >= 3);
  for (const auto& item : one)
    CHECK(lower(item["title"].get<std::string>()).find("river") != std::string::npos);
  const auto phrase = web_urls(search(api, {{"query", "intitle:\"record low\""}, {"limit", 100}}));
  CHECK(phrase == std::vector<std::string>{kRiver});
  const auto all = web_urls(search(api, {{"query", "allintitle: river levels"}, {"limit", 100}}));
  CHECK(has(all, kRiver));
  CHECK(has(all, kPaper));
  CHECK(has(all, kIssue));  // "River level gauge ..."
  const auto river = web_urls(search(api, {{"query", "river"}, {"limit", 100}}));
  CHECK(has(river, kBridge) == false);
  CHECK(all.size() < river.size());  // river pages without "level" in the title are gone
}

TEST_CASE("related: finds other sites about the same things", "[search][operators]") {
  const auto api = shared_api();
  const json web =
      search(api, {{"query", "related:github.example.test"}, {"limit", 10}})["data"]["web"];
  REQUIRE(!web.empty());
  for (const auto& item : web) CHECK(host_of(item["url"]) != "github.example.test");
  // The tide-table repository is about river levels and gauges.
  const auto found = urls(web);
  CHECK((has(found, kRiver) || has(found, kPaper)));
}

TEST_CASE("images: sizes from markup and files, imagesize: and larger:", "[search][sources]") {
  const auto api = shared_api();
  const json images =
      search(api, {{"query", "solar"}, {"sources", {"images"}}, {"limit", 100}})["data"];
  REQUIRE(images.size() == 1);
  REQUIRE(!images["images"].empty());
  const json& first = images["images"][0];
  CHECK(first["imageUrl"] == "https://news.example.test/images/solar-farm.png");
  CHECK(first["imageWidth"] == 1920);
  CHECK(first["imageHeight"] == 1080);
  CHECK(first["url"] == kSolar);
  CHECK(first["title"] == "Rows of solar panels on the old airfield");
  CHECK(first["position"] == 1);

  // The footer logo has no width/height attributes: its size comes from the PNG header.
  const json logo =
      search(api, {{"query", "council logo"}, {"sources", {"images"}}})["data"]["images"];
  REQUIRE(!logo.empty());
  CHECK(logo[0]["imageUrl"] == "https://news.example.test/images/council-logo.png");
  CHECK(logo[0]["imageWidth"] == 120);
  CHECK(logo[0]["imageHeight"] == 120);

  const json exact = search(
      api,
      {{"query", "imagesize:800x600"}, {"sources", {"images"}}, {"limit", 100}})["data"]["images"];
  REQUIRE(!exact.empty());
  for (const auto& item : exact) {
    CHECK(item["imageWidth"] == 800);
    CHECK(item["imageHeight"] == 600);
  }
  CHECK(has(std::vector<std::string>{exact[0]["imageUrl"]},
            "https://news.example.test/images/river-level-chart.png"));

  const json larger = search(
      api,
      {{"query", "larger:1000x700"}, {"sources", {"images"}}, {"limit", 100}})["data"]["images"];
  std::vector<std::string> found;
  for (const auto& item : larger) {
    CHECK(item["imageWidth"].get<int>() >= 1000);
    CHECK(item["imageHeight"].get<int>() >= 700);
    found.push_back(item["imageUrl"]);
  }
  CHECK(has(found, "https://news.example.test/images/solar-farm.png"));
  CHECK(has(found, "https://news.example.test/images/tram-line.png"));
  CHECK_FALSE(has(found, "https://news.example.test/images/harbour-bridge.png"));  // 1200x630

  // For web results the operators keep pages that show such an image.
  const auto pages = web_urls(search(api, {{"query", "imagesize:1920x1080"}, {"limit", 100}}));
  CHECK(has(pages, kSolar));
  CHECK_FALSE(has(pages, kBridge));
}

TEST_CASE("news: dated articles with age, snippet and image", "[search][sources]") {
  const auto api = shared_api();
  const json body = search(
      api,
      {{"query", "river"}, {"sources", {{{"type", "news"}}, {{"type", "web"}}}}, {"limit", 100}});
  REQUIRE(body["data"].contains("web"));
  REQUIRE(body["data"].contains("news"));
  CHECK_FALSE(body["data"].contains("images"));
  const json& news = body["data"]["news"];
  const auto found = urls(news);
  CHECK(has(found, kRiver));
  CHECK_FALSE(has(found, kIssue));  // not an article
  CHECK_FALSE(has(found, kPaper));
  for (const auto& item : news) {
    const std::string date = item["date"];
    CHECK(date.find("ago") != std::string::npos);
    CHECK(item.contains("snippet"));
  }
  const auto river =
      std::find_if(news.begin(), news.end(), [](const json& i) { return i["url"] == kRiver; });
  CHECK((*river)["imageUrl"] == "https://news.example.test/images/river-level-chart.png");
  INFO((*river).dump());
  CHECK((*river)["snippet"].get<std::string>().find("river") != std::string::npos);
  CHECK(body["creditsUsed"] == body["data"]["web"].size() + news.size());
}

TEST_CASE("every source answers on the bundled fixtures", "[search][sources]") {
  const auto api = shared_api();
  const json body = search(api, {{"query", "bridge"}, {"sources", {"web", "images", "news"}}});
  for (const char* source : {"web", "images", "news"}) {
    INFO(source);
    CHECK(!body["data"][source].empty());
  }
}

TEST_CASE("categories keep github, research and pdf results and name them",
          "[search][categories]") {
  const auto api = shared_api();
  const json github =
      search(api, {{"query", "river"}, {"categories", {"github"}}, {"limit", 100}})["data"]["web"];
  CHECK(urls(github) == std::vector<std::string>{kIssue, kRepo});
  for (const auto& item : github) CHECK(item["category"] == "github");

  const json research =
      search(api, {{"query", "river"}, {"categories", {{{"type", "research"}}}}})["data"]["web"];
  REQUIRE(research.size() == 1);
  CHECK(research[0]["url"] == kPaper);
  CHECK(research[0]["category"] == "research");

  const json pdf = search(api, {{"query", "solar"}, {"categories", {"pdf"}}})["data"]["web"];
  REQUIRE(pdf.size() == 1);
  CHECK(pdf[0]["url"] == kReport);
  CHECK(pdf[0]["category"] == "pdf");

  const json both = search(
      api,
      {{"query", "river"}, {"categories", {"github", "research"}}, {"limit", 100}})["data"]["web"];
  CHECK(both.size() == 3);
  for (const auto& item : both) {
    CHECK(item["category"] ==
          (host_of(item["url"]) == "github.example.test" ? "github" : "research"));
  }
  const json plain = search(api, {{"query", "river"}})["data"]["web"];
  for (const auto& item : plain) CHECK_FALSE(item.contains("category"));
}

TEST_CASE("includeDomains keeps hosts, excludeDomains drops them, not both",
          "[search][domains]") {
  const auto api = shared_api();
  const auto all = web_urls(search(api, {{"query", "river"}, {"limit", 100}}));
  REQUIRE(has(all, kRepo));
  REQUIRE(has(all, kRiver));

  // A hostname keeps its subdomains; a URL's host (any case) counts as the hostname.
  for (const json& hosts : {json{"github.example.test"}, json{"https://GitHub.example.test/x"}}) {
    const auto only = web_urls(
        search(api, {{"query", "river"}, {"includeDomains", hosts}, {"limit", 100}}));
    CHECK(only == std::vector<std::string>{kIssue, kRepo});
  }
  const auto parent = web_urls(
      search(api, {{"query", "river"}, {"includeDomains", {"example.test"}}, {"limit", 100}}));
  CHECK(has(parent, kRepo));
  CHECK(has(parent, kPaper));
  for (const auto& url : parent) {
    const std::string host = host_of(url);
    CHECK(host.size() > 13);
    CHECK(host.compare(host.size() - 13, 13, ".example.test") == 0);
  }
  const auto excluded = web_urls(search(
      api, {{"query", "river"}, {"excludeDomains", {"github.example.test"}}, {"limit", 100}}));
  CHECK(excluded.size() == all.size() - 2);
  CHECK(has(excluded, kRiver));
  for (const auto& url : excluded) CHECK(host_of(url) != "github.example.test");
  // Every source is filtered: news from an excluded host are gone too.
  const json all_news =
      search(api, {{"query", "river"}, {"sources", {"news"}}, {"limit", 100}})["data"]["news"];
  CHECK(has(urls(all_news), kRiver));
  const json news = search(api, {{"query", "river"},
                                 {"sources", {"news"}},
                                 {"limit", 100},
                                 {"excludeDomains", {"news.example.test"}}})["data"];
  for (const auto& item : news.value("news", json::array())) {
    CHECK(host_of(item["url"]) != "news.example.test");
  }

  const ApiReply both = api.post("/v2/search", {{"query", "river"},
                                                {"includeDomains", {"github.example.test"}},
                                                {"excludeDomains", {"news.example.test"}}});
  REQUIRE(both.status == 400);
  CHECK(both.body["details"][0]["code"] == "custom");
  CHECK(both.body["details"][0]["path"] == json({"includeDomains"}));
  CHECK(api.post("/v2/search", {{"query", "river"}, {"includeDomains", "github.example.test"}})
            .status == 400);
}

TEST_CASE("the developer category keeps code hosts and documentation", "[search][categories]") {
  const auto api = shared_api();
  const json developer = search(api, {{"query", "river"},
                                      {"categories", {{{"type", "developer"}}}},
                                      {"limit", 100}})["data"]["web"];
  CHECK(has(urls(developer), kIssue));
  CHECK(has(urls(developer), kRepo));
  // Documentation hosts count too; news, blogs and papers do not.
  const json pipelines = search(
      api, {{"query", "pipelines"}, {"categories", {"developer"}}, {"limit", 100}})["data"]["web"];
  bool docs = false;
  for (const json& list : {developer, pipelines}) {
    for (const auto& item : list) {
      const std::string host = host_of(item["url"]);
      INFO(item["url"]);
      CHECK(item["category"] == "developer");
      CHECK((host == "github.example.test" || host == "docs.example.test"));
      docs = docs || host == "docs.example.test";
    }
  }
  CHECK(docs);
}

TEST_CASE("enterprise, asyncScraping and threatProtection are accepted", "[search][newer]") {
  const auto api = shared_api();
  const auto plain = web_urls(search(api, {{"query", "river"}, {"limit", 100}}));
  const auto newer = web_urls(search(api, {{"query", "river"},
                                           {"limit", 100},
                                           {"enterprise", {"default", "anon"}},
                                           {"asyncScraping", true},
                                           {"threatProtection", {{"mode", "off"}}}}));
  CHECK(newer == plain);
  // zdr needs a team with zero data retention (the default test team has none).
  const ApiReply zdr = api.post("/v2/search", {{"query", "river"}, {"enterprise", {"zdr"}}});
  REQUIRE(zdr.status == 400);
  CHECK(zdr.body["details"][0]["path"] == json({"enterprise"}));
  CHECK(api.post("/v2/search", {{"query", "river"}, {"enterprise", {"secret"}}}).status == 400);
  CHECK(api.post("/v2/search", {{"query", "river"}, {"asyncScraping", "yes"}}).status == 400);
  // v1 search never knew them.
  CHECK(api.post("/v1/search", {{"query", "river"}, {"includeDomains", {"x.test"}}}).status == 400);
}

TEST_CASE("tbs cdr: a custom date range over page dates", "[search][tbs]") {
  const auto api = shared_api();
  const json body = search(api, {{"query", "site:news.example.test"},
                                 {"tbs", "cdr:1,cd_min:10/01/2026,cd_max:10/31/2026"},
                                 {"sources", {"web", "news"}},
                                 {"limit", 100}});
  CHECK(urls(body["data"]["web"]) == std::vector<std::string>{kRiver});
  CHECK(urls(body["data"]["news"]) == std::vector<std::string>{kRiver});
  const auto open_end = web_urls(search(
      api,
      {{"query", "site:news.example.test"}, {"tbs", "cdr:1,cd_min:09/01/2026"}, {"limit", 100}}));
  CHECK(has(open_end, kBridge));
  CHECK(has(open_end, kRiver));
  CHECK(has(open_end, kTram));
  CHECK_FALSE(has(open_end, kSolar));
  CHECK_FALSE(has(open_end, kLibrary));
  const auto until = web_urls(search(
      api,
      {{"query", "site:news.example.test"}, {"tbs", "cdr:1,cd_max:12/31/2025"}, {"limit", 100}}));
  CHECK(until == std::vector<std::string>{kLibrary});
}

TEST_CASE("tbs qdr: relative to the mock clock, the index follows new mappings", "[search][tbs]") {
  RunningMock mock;
  ApiClient api(mock.url());
  // Index once, then add a page: the next search must see it.
  CHECK(search(api, {{"query", "otter"}})["data"]["web"].empty());
  const std::string when = iso(std::chrono::system_clock::now() - std::chrono::minutes(30));
  const std::string page =
      "<html lang=\"en\"><head><title>Otter seen in the harbour</title>"
      "<meta property=\"article:published_time\" content=\"" +
      when +
      "\"></head>"
      "<body><main><h1>Otter seen in the harbour</h1><p>An otter was seen near the ferry pier this "
      "morning, the first sighting in years.</p></main></body></html>";
  REQUIRE(api.post("/__admin/mappings", page_mapping("local.news.test", "/otter", page)).status ==
          201);

  const json hour =
      search(api, {{"query", "otter"}, {"tbs", "qdr:h"}, {"sources", {"web", "news"}}});
  CHECK(urls(hour["data"]["web"]) == std::vector<std::string>{"https://local.news.test/otter"});
  REQUIRE(hour["data"]["news"].size() == 1);
  CHECK(hour["data"]["news"][0]["date"] == "30 minutes ago");
  // No fixture page is from the last hour.
  CHECK(
      search(api, {{"query", "site:news.example.test"}, {"tbs", "qdr:h"}})["data"]["web"].empty());

  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 2 * 3600 * 1000}}).status == 200);
  CHECK(search(api, {{"query", "otter"}, {"tbs", "qdr:h"}})["data"]["web"].empty());
  CHECK(search(api, {{"query", "otter"}, {"tbs", "qdr:d"}})["data"]["web"].size() == 1);
  const json news = search(api, {{"query", "otter"}, {"sources", {"news"}}})["data"]["news"];
  REQUIRE(news.size() == 1);
  CHECK(news[0]["date"] == "2 hours ago");
}

TEST_CASE("an unreadable tbs is refused", "[search][tbs][validation]") {
  const auto api = shared_api();
  for (const char* tbs : {"qdr:x", "cdr:1,cd_min:2026-01-01", "yesterday"}) {
    INFO(tbs);
    const ApiReply reply = api.post("/v2/search", {{"query", "river"}, {"tbs", tbs}});
    CHECK(reply.status == 400);
    CHECK(reply.body["success"] == false);
    CHECK(reply.body["details"][0]["path"][0] == "tbs");
  }
}

TEST_CASE("country and location choose the language edition", "[search][location]") {
  const auto api = shared_api();
  const std::string trail = "https://travel.example.org/trails/rota-vicentina";
  auto first = [&](json request) {
    const json web = search(api, std::move(request))["data"]["web"];
    REQUIRE(!web.empty());
    REQUIRE(web[0]["url"] == trail);
    return web[0];
  };
  CHECK(first({{"query", "rota vicentina"}})["title"].get<std::string>().find("Hiking") !=
        std::string::npos);
  CHECK(first({{"query", "rota vicentina"}, {"country", "DE"}})["title"].get<std::string>().find(
            "Wandern") != std::string::npos);
  CHECK(first({{"query", "rota vicentina"}, {"location", "Lyon,France"}})["title"]
            .get<std::string>()
            .find("Randonn") != std::string::npos);
  // v1 lang
  const json v1 = search(api, {{"query", "rota vicentina"}, {"lang", "de"}}, "v1")["data"];
  REQUIRE(!v1.empty());
  CHECK(v1[0]["title"].get<std::string>().find("Wandern") != std::string::npos);
  // A page in the country's language ranks above one in another language.
  const json german = search(
      api, {{"query", "site:news.example.test inurl:2026"}, {"country", "DE"}})["data"]["web"];
  REQUIRE(!german.empty());
  CHECK(german[0]["url"] == kTram);
}

TEST_CASE("limit applies per source and is bounded 1..100", "[search][limit][validation]") {
  const auto api = shared_api();
  const json body = search(
      api,
      {{"query", "site:news.example.test"}, {"limit", 2}, {"sources", {"web", "news", "images"}}});
  CHECK(body["data"]["web"].size() == 2);
  CHECK(body["data"]["news"].size() == 2);
  CHECK(body["data"]["images"].size() == 2);
  CHECK(body["creditsUsed"] == 6);
  CHECK(search(api, {{"query", "site:library.synthetic.test"}, {"limit", 100}})["data"]["web"]
            .size() == 60);
  CHECK(search(api, {{"query", "site:news.example.test"}})["data"]["web"].size() == 5);  // default
  for (int limit : {0, 101, -1}) {
    INFO(limit);
    const ApiReply reply = api.post("/v2/search", {{"query", "river"}, {"limit", limit}});
    CHECK(reply.status == 400);
    CHECK(reply.body["details"][0]["path"][0] == "limit");
    CHECK(api.post("/v1/search", {{"query", "river"}, {"limit", limit}}).status == 400);
  }
  CHECK(api.post("/v2/search", json::object()).status == 400);  // query is required
  CHECK(api.post("/v2/search", {{"query", "river"}, {"sources", {"maps"}}}).status == 400);
}

TEST_CASE("scrapeOptions scrapes each result and bills its scrape", "[search][scrape][credits]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto before = balance(api);
  const json body = search(api, {{"query", "river site:news.example.test"},
                                 {"sources", {"web", "news"}},
                                 {"scrapeOptions", {{"formats", {"markdown", "links"}}}}});
  const json& web = body["data"]["web"];
  REQUIRE(!web.empty());
  std::int64_t expected = 0;
  for (const auto& item : web) {
    CHECK(item["markdown"].get<std::string>().find("# ") != std::string::npos);
    CHECK(item["links"].is_array());
    CHECK(item["metadata"]["sourceURL"] == item["url"]);
    CHECK(item["metadata"]["statusCode"] == 200);
    expected += item["metadata"]["creditsUsed"].get<std::int64_t>();
  }
  // News results are the same pages: scraped once, billed once.
  for (const auto& item : body["data"]["news"]) CHECK(item.contains("markdown"));
  CHECK(body["creditsUsed"] == expected);
  CHECK(balance(api) == before - expected);
}

TEST_CASE("credits: one per result, 402 when the team cannot pay", "[search][credits]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto before = balance(api);
  const json body = search(api, {{"query", "river"}, {"sources", {"web", "images"}}, {"limit", 3}});
  const auto results =
      static_cast<std::int64_t>(body["data"]["web"].size() + body["data"]["images"].size());
  CHECK(results == 6);
  CHECK(body["creditsUsed"] == results);
  CHECK(balance(api) == before - results);

  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 2}}).status ==
          200);
  const ApiReply refused = api.post("/v2/search", {{"query", "river"}, {"limit", 5}});
  CHECK(refused.status == 402);
  CHECK(balance(api) == 2);
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status ==
          200);
  CHECK(api.post("/v2/search", {{"query", "zzzz-no-such-word"}}).status == 402);
}

TEST_CASE("ignoreInvalidURLs drops results the scrape endpoint refuses", "[search][invalid]") {
  const auto api = shared_api();
  const auto all = web_urls(search(api, {{"query", "solar"}, {"limit", 100}}));
  const auto kept =
      web_urls(search(api, {{"query", "solar"}, {"limit", 100}, {"ignoreInvalidURLs", true}}));
  REQUIRE(has(all, kReport));
  for (const auto& url : all) {
    const ApiReply scrape = api.post("/v2/scrape", {{"url", url}, {"formats", {"markdown"}}});
    const bool refused =
        scrape.status == 500 && scrape.body.value("code", "") == "SCRAPE_UNSUPPORTED_FILE_ERROR";
    INFO(url);
    CHECK(has(kept, url) == !refused);
  }
  CHECK(kept.size() <= all.size());
}

TEST_CASE("timeout: results not scraped in time come back with a warning", "[search][timeout]") {
  RunningMock mock;
  ApiClient api(mock.url());
  REQUIRE(api.post("/__admin/mappings",
                   page_mapping(
                       "slow.news.test", "/walrus",
                       "<html><head><title>Walrus on the beach</title></head><body><p>A walrus "
                       "rested on the beach all day.</p></body></html>",
                       1500))
              .status == 201);
  search(api, {{"query", "walrus"}});  // builds the index (which reads pages without delays)
  const json body = search(
      api, {{"query", "walrus"}, {"timeout", 500}, {"scrapeOptions", {{"formats", {"markdown"}}}}});
  const json& web = body["data"]["web"];
  REQUIRE(web.size() == 1);
  CHECK_FALSE(web[0].contains("markdown"));
  CHECK(web[0]["metadata"]["error"].is_string());
  REQUIRE(body["warning"].is_string());
  CHECK(body["creditsUsed"] == 1);
}

TEST_CASE("concurrent searches share one index, also across a rebuild", "[search][threads]") {
  RunningMock mock;
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      ApiClient api(mock.url());
      for (int i = 0; i < 4; ++i) {
        const ApiReply reply = api.post("/v2/search", {{"query", t % 2 ? "river" : "solar"},
                                                       {"sources", {"web", "news", "images"}}});
        if (reply.status == 200 && !reply.body["data"]["web"].empty()) ++ok;
        if (t == 0 && i == 1) {
          api.post("/__admin/mappings",
                   page_mapping("threads.news.test", "/heron", "<p>A heron by the river.</p>"));
        }
        const ApiReply agent = api.post("/v2/agent", {{"prompt", "river levels"}});
        if (agent.status == 200) ++ok;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(ok == 6 * 4 * 2);
  ApiClient api(mock.url());
  CHECK(web_urls(search(api, {{"query", "heron"}})) ==
        std::vector<std::string>{"https://threads.news.test/heron"});
}

TEST_CASE("source objects search with their own settings and inherit the request's",
          "[search][sources]") {
  const auto api = shared_api();
  // The web source narrows to October 2026; news inherits the request's wider range.
  const json dated = search(
      api, {{"query", "site:news.example.test"},
            {"tbs", "cdr:1,cd_min:09/01/2026"},
            {"sources", {{{"type", "web"}, {"tbs", "cdr:1,cd_min:10/01/2026,cd_max:10/31/2026"}},
                         {{"type", "news"}}}},
            {"limit", 100}});
  CHECK(web_urls(dated) == std::vector<std::string>{kRiver});
  const auto news = urls(dated["data"]["news"]);
  CHECK(has(news, kRiver));
  CHECK(has(news, kBridge));

  // A source's lang picks its edition; the request's lang does for sources without one.
  const std::string trail = "https://travel.example.org/trails/rota-vicentina";
  auto first_title = [&](json request) {
    const json web = search(api, std::move(request))["data"]["web"];
    REQUIRE(!web.empty());
    REQUIRE(web[0]["url"] == trail);
    return web[0]["title"].get<std::string>();
  };
  CHECK(first_title({{"query", "rota vicentina"}, {"sources", {{{"type", "web"}, {"lang", "de"}}}}})
            .find("Wandern") != std::string::npos);
  CHECK(first_title({{"query", "rota vicentina"}, {"lang", "de"}}).find("Wandern") !=
        std::string::npos);
  CHECK(first_title({{"query", "rota vicentina"}, {"lang", "fr"}, {"sources", {{{"type", "web"}, {"lang", "de"}}}}})
            .find("Wandern") != std::string::npos);

  // Images inherit nothing: a date range that leaves no web result leaves the images.
  const json old = search(api, {{"query", "solar"},
                                {"tbs", "cdr:1,cd_max:01/01/2000"},
                                {"sources", {"web", "images"}}});
  CHECK(old["data"]["web"].empty());
  CHECK_FALSE(old["data"]["images"].empty());

  // Strings and objects are not mixed; object sources are strict.
  CHECK(api.post("/v2/search", {{"query", "river"}, {"sources", {"web", {{"type", "news"}}}}})
            .status == 400);
  CHECK(api.post("/v2/search", {{"query", "river"}, {"sources", {{{"type", "images"}, {"tbs", "qdr:d"}}}}})
            .status == 400);
}

TEST_CASE("filter \"1\" leaves out a result repeating another one", "[search][filter]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const std::string page =
      "<html lang=\"en\"><head><title>Quokka facts</title></head><body><main><h1>Quokka facts"
      "</h1><p>The quokka is a small marsupial that lives on Rottnest Island near Perth.</p>"
      "</main></body></html>";
  for (const char* host : {"mirror-a.example.test", "mirror-b.example.test"}) {
    REQUIRE(api.post("/__admin/mappings", page_mapping(host, "/quokka", page)).status == 201);
  }
  CHECK(web_urls(search(api, {{"query", "quokka marsupial"}})).size() == 2);
  CHECK(web_urls(search(api, {{"query", "quokka marsupial"}, {"filter", "0"}})).size() == 2);
  CHECK(web_urls(search(api, {{"query", "quokka marsupial"}, {"filter", "1"}})).size() == 1);
  CHECK(web_urls(search(
                     api, {{"query", "quokka marsupial"},
                           {"sources", {{{"type", "web"}, {"filter", "1"}}}}}))
            .size() == 1);
  CHECK(search(api, {{"query", "quokka marsupial"}, {"filter", "1"}}, "v1")["data"].size() == 1);
}
