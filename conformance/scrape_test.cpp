// Scrape against the pages of the runner's test site (docs/reference/scrape.md).

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "checks.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string str(const json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_string()) return {};
  return object.at(key).get<std::string>();
}

// POST a scrape and check the envelope; returns `data` (null when the scrape failed).
json scrape(const std::string& version, const json& body) {
  const auto res = post("/" + version + "/scrape", body);
  INFO(version << " scrape " << body.dump() << " -> " << res.describe());
  RULE(rules::kScrapeShape);
  CHECK_JSON_ANSWER(res);
  CHECK(res.status == 200);
  CHECK_ANSWER_SCHEMA(res, version + "/scrape.response");
  if (res.status != 200 || !res.body_json.is_object()) return nullptr;
  CHECK(res.body_json.value("success", false) == true);
  return res.body_json.value("data", json());
}

// metadata.sourceURL, url, statusCode and scrapeId, judged under `rule` (SCRAPE-STATUS-CODE, or
// the rule the status is about: SCRAPE-TARGET-404, SCRAPE-REDIRECT).
void check_page_metadata(const json& data, const std::string& requested, int status,
                         const Rule& rule = rules::kScrapeStatusCode) {
  RULE(rule);
  const json meta = data.value("metadata", json::object());
  INFO("metadata: " << meta.dump());
  CHECK(str(meta, "sourceURL") == requested);
  CHECK_FALSE(str(meta, "url").empty());
  REQUIRE(meta.contains("statusCode"));
  CHECK(meta.at("statusCode") == status);
  CHECK_FALSE(str(meta, "scrapeId").empty());
}

// Links as scrape.md#links-and-images has them: absolute, duplicates removed, fragment-only links
// (#top) dropped. A link with a fragment (/docs/a.html#part) stays, with or without it.
void check_links(const json& data) {
  RULE(rules::kScrapeLinks);
  REQUIRE(data.contains("links"));
  const auto links = data.at("links").get<std::vector<std::string>>();
  INFO("links: " << data.at("links").dump());
  const std::set<std::string> unique(links.begin(), links.end());
  CHECK(unique.size() == links.size());
  for (const auto& l : links) {
    CHECK(
        (l.rfind("http://", 0) == 0 || l.rfind("https://", 0) == 0 || l.rfind("mailto:", 0) == 0));
    const bool fragment_only = site_path(l) == "/" && contains(l, "#");
    CHECK_FALSE(fragment_only);
  }
  for (const char* p : {"/docs/", "/blog/post-1.html", "/missing.html"}) {
    CHECK(unique.count(site_url(p)) == 1);
  }
  const auto part =
      unique.count(site_url("/docs/a.html")) + unique.count(site_url("/docs/a.html#part"));
  CHECK(part == 1);
  CHECK(unique.count("https://outside.invalid/page") == 1);
}

}  // namespace

TEST_CASE("v2 scrape: the formats and metadata of a known page",
          "[scrape]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-HTML][SCRAPE-LINKS][SCRAPE-MARKDOWN]"
          "[SCRAPE-METADATA][SCRAPE-SHAPE][SCRAPE-STATUS-CODE]") {
  const std::string url = site_url("/");
  const json data =
      scrape("v2", {{"url", url}, {"formats", {"markdown", "html", "rawHtml", "links"}}});
  REQUIRE(data.is_object());
  check_page_metadata(data, url, 200);
  {
    RULE(rules::kScrapeMarkdown);
    const std::string md = str(data, "markdown");
    INFO("markdown: " << md);
    // Markdown has several spellings of one structure: ATX and setext headings, * - + bullets.
    CHECK(has_heading(md, 1, "Conformance Home"));
    CHECK(has_strong(md, "conformance"));
    CHECK(has_bullet_item(md, "alpha item"));
    CHECK(contains(md, "[Documentation](" + site_url("/docs/") + ")"));
  }
  {
    RULE(rules::kScrapeHtml);
    const std::string html = str(data, "html");
    const std::string raw = str(data, "rawHtml");
    CHECK(contains(html, "Conformance Home"));
    CHECK_FALSE(contains(html, "SCRIPT-MARKER"));
    CHECK(contains(raw, "SCRIPT-MARKER"));
    CHECK(contains(raw, "og:title"));
    CHECK(contains(raw, "FOOTER-MARKER"));
  }
  check_links(data);
  {
    RULE(rules::kScrapeMetadata);
    const json meta = data.value("metadata", json::object());
    INFO("metadata: " << meta.dump());
    CHECK(str(meta, "title") == "Conformance Home");
    CHECK(str(meta, "description") == "The home page of the conformance site.");
    CHECK(str(meta, "language") == "en");
    CHECK(str(meta, "keywords") == "conformance, testing");
    CHECK(str(meta, "robots") == "index, follow");
    CHECK(str(meta, "ogTitle") == "Conformance OG Title");
    CHECK(str(meta, "ogDescription") == "Conformance OG description");
    CHECK(str(meta, "ogUrl") == "https://conformance.example/");
    CHECK(str(meta, "ogImage") == "https://conformance.example/og.png");
    CHECK(str(meta, "ogSiteName") == "Conformance Site");
    CHECK(meta.value("ogLocaleAlternate", json()) == json::array({"de_DE", "fr_FR"}));
  }
}

TEST_CASE("v2 scrape: images are absolute image URLs",
          "[scrape]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-IMAGES][SCRAPE-SHAPE]") {
  RULE(rules::kScrapeImages);
  REQUIRE_CAPABILITY("format:images");
  const json data = scrape("v2", {{"url", site_url("/")}, {"formats", {"images"}}});
  REQUIRE(data.is_object());
  REQUIRE(data.contains("images"));
  const auto images = data.at("images").get<std::vector<std::string>>();
  INFO("images: " << data.at("images").dump());
  CHECK(std::count(images.begin(), images.end(), site_url("/img/logo.png")) == 1);
}

TEST_CASE("v1 scrape: formats and metadata of a known page without v2-only fields",
          "[scrape][v1]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-HTML][SCRAPE-LINKS][SCRAPE-MARKDOWN]"
          "[SCRAPE-METADATA][SCRAPE-SHAPE][SCRAPE-STATUS-CODE][SCRAPE-V1-FIELDS]") {
  const std::string url = site_url("/");
  const json data =
      scrape("v1", {{"url", url}, {"formats", {"markdown", "html", "rawHtml", "links"}}});
  REQUIRE(data.is_object());
  check_page_metadata(data, url, 200);
  {
    RULE(rules::kScrapeMarkdown);
    INFO("markdown: " << str(data, "markdown"));
    CHECK(has_heading(str(data, "markdown"), 1, "Conformance Home"));
  }
  {
    RULE(rules::kScrapeHtml);
    CHECK(contains(str(data, "rawHtml"), "SCRIPT-MARKER"));
  }
  {
    RULE(rules::kScrapeLinks);
    CHECK(data.contains("links"));
  }
  {
    RULE(rules::kScrapeMetadata);
    CHECK(data.at("metadata").value("title", "") == "Conformance Home");
  }
  RULE(rules::kScrapeV1Fields);
  CHECK_FALSE(data.contains("summary"));
  CHECK_FALSE(data.contains("branding"));
}

TEST_CASE("without formats a scrape returns only the markdown of the main content",
          "[scrape][defaults]"
          "[DEF-FORMAT][DEF-MAIN-CONTENT][ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-SHAPE]") {
  for (const std::string version : {"v2", "v1"}) {
    INFO(version);
    const json data = scrape(version, {{"url", site_url("/")}});
    REQUIRE(data.is_object());
    {
      RULE(rules::kDefaultFormat);
      CHECK(data.contains("markdown"));
      CHECK_FALSE(data.contains("html"));
      CHECK_FALSE(data.contains("rawHtml"));
      CHECK_FALSE(data.contains("links"));
    }
    RULE(rules::kDefaultMainContent);
    const std::string md = str(data, "markdown");
    INFO("markdown: " << md);
    CHECK(contains(md, "Conformance Home"));
    CHECK_FALSE(contains(md, "FOOTER-MARKER"));
    CHECK_FALSE(contains(md, "NAVIGATION-MARKER"));
    const json full = scrape(version, {{"url", site_url("/")}, {"onlyMainContent", false}});
    CHECK(contains(str(full, "markdown"), "FOOTER-MARKER"));
  }
}

TEST_CASE("v2 serves a second scrape from the cache and v1 fetches again",
          "[scrape][defaults]"
          "[DEF-MAXAGE-V1][DEF-MAXAGE-V2][ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-SHAPE]") {
  const std::string token = unique_token();
  {
    RULE(rules::kDefaultMaxAgeV1);
    const std::string path = "/docs/b.html?v1=" + token;
    scrape("v1", {{"url", site_url(path)}});
    scrape("v1", {{"url", site_url(path)}});
    CHECK(site().hits(path) == 2);
  }
  // maxAge is an upper bound: a deployment without a result cache fetches every time, which
  // every maxAge allows; the v2 default can only be seen where there is a cache.
  CHECKS_RULES(&rules::kDefaultMaxAgeV2);
  if (!part_needs("result-cache", {&rules::kDefaultMaxAgeV2})) return;
  RULE(rules::kDefaultMaxAgeV2);
  const std::string path = "/docs/b.html?v2=" + token;
  scrape("v2", {{"url", site_url(path)}});
  const json second = scrape("v2", {{"url", site_url(path)}});
  CHECK(site().hits(path) == 1);
  const json meta = second.value("metadata", json::object());
  if (meta.contains("cacheState")) CHECK(meta.at("cacheState") == "hit");
  const json fresh = scrape("v2", {{"url", site_url(path)}, {"maxAge", 0}});
  CHECK(site().hits(path) == 2);
}

TEST_CASE("a target 404 is a document with statusCode 404",
          "[scrape]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-SHAPE][SCRAPE-TARGET-404]") {
  RULE(rules::kScrapeTarget404);
  for (const std::string version : {"v2", "v1"}) {
    INFO(version);
    const std::string url = site_url("/missing.html");
    const json data = scrape(version, {{"url", url}});
    REQUIRE(data.is_object());
    check_page_metadata(data, url, 404, rules::kScrapeTarget404);
  }
}

TEST_CASE("a redirect: sourceURL as requested and url after redirects",
          "[scrape]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-REDIRECT][SCRAPE-SHAPE]") {
  RULE(rules::kScrapeRedirect);
  const std::string url = site_url("/redirect");
  const json data = scrape("v2", {{"url", url}, {"maxAge", 0}});
  REQUIRE(data.is_object());
  check_page_metadata(data, url, 200, rules::kScrapeRedirect);
  CHECK(site_path(str(data.at("metadata"), "url")) == "/docs/b.html");
  CHECK(contains(str(data, "markdown"), "Page B"));
}

TEST_CASE("a scrape slower than its timeout answers 408 SCRAPE_TIMEOUT",
          "[scrape][slow]"
          "[ENV-SCHEMA][SCRAPE-TIMEOUT]") {
  RULE(rules::kScrapeTimeout);
  const auto started = std::chrono::steady_clock::now();
  const auto res =
      post("/v2/scrape", {{"url", site_url("/slow.html?t=" + unique_token())}, {"timeout", 1000}});
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(res.describe());
  CHECK(res.status == 408);
  CHECK(res.body_json.value("code", "") == "SCRAPE_TIMEOUT");
  CHECK_ANSWER_SCHEMA(res, "v2/scrape.response");
  CHECK(took < target().scaled(4500ms));
}

TEST_CASE("a target host that does not resolve is an API error",
          "[scrape]"
          "[ENV-SCHEMA][SCRAPE-DNS]") {
  RULE(rules::kScrapeDns);
  const auto res = post("/v2/scrape", {{"url", "http://conformance-nonexistent.invalid/"}});
  INFO(res.describe());
  // Deployments answer 500 with a SCRAPE_* code, or without a code for errors they do not map.
  CHECK(res.status >= 400);
  CHECK(res.body_json.value("success", true) == false);
  const std::string code = res.body_json.value("code", "");
  CHECK((code.empty() || code.rfind("SCRAPE_", 0) == 0 || code == "UNKNOWN_ERROR"));
  CHECK_ANSWER_SCHEMA(res, "v2/scrape.response");
}

TEST_CASE("excludeTags and includeTags select elements",
          "[scrape]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-SHAPE][SCRAPE-TAGS]") {
  RULE(rules::kScrapeTags);
  const json plain = scrape("v2", {{"url", site_url("/")}});
  CHECK(contains(str(plain, "markdown"), "EXCLUDED-BLOCK-MARKER"));
  const json excluded = scrape("v2", {{"url", site_url("/")}, {"excludeTags", {"#skipme"}}});
  CHECK_FALSE(contains(str(excluded, "markdown"), "EXCLUDED-BLOCK-MARKER"));
  CHECK(contains(str(excluded, "markdown"), "Welcome to the"));
  const json included = scrape("v2", {{"url", site_url("/")}, {"includeTags", {"#skipme"}}});
  CHECK(contains(str(included, "markdown"), "EXCLUDED-BLOCK-MARKER"));
  CHECK_FALSE(contains(str(included, "markdown"), "Welcome to the"));
}

TEST_CASE("a PDF is converted to markdown",
          "[scrape][pdf]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-PDF][SCRAPE-SHAPE][SCRAPE-STATUS-CODE]") {
  RULE(rules::kScrapePdf);
  REQUIRE_CAPABILITY("pdf");
  const std::string url = site_url("/files/doc.pdf");
  const json data = scrape("v2", {{"url", url}});
  REQUIRE(data.is_object());
  check_page_metadata(data, url, 200);
  CHECK(contains(str(data, "markdown"), "Conformance PDF document"));
}

TEST_CASE("model-made format: summary",
          "[scrape][formats]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-MODEL-FORMATS][SCRAPE-SHAPE]") {
  RULE(rules::kModelFormats);
  REQUIRE_CAPABILITY("format:summary");
  const json data = scrape("v2", {{"url", site_url("/docs/a.html")}, {"formats", {"summary"}}});
  REQUIRE(data.is_object());
  CHECK_FALSE(str(data, "summary").empty());
}

TEST_CASE("model-made format: json",
          "[scrape][formats]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-MODEL-FORMATS][SCRAPE-SHAPE]") {
  RULE(rules::kModelFormats);
  REQUIRE_CAPABILITY("format:json");
  const json format = {
      {"type", "json"},
      {"prompt", "The page heading"},
      {"schema", {{"type", "object"}, {"properties", {{"heading", {{"type", "string"}}}}}}}};
  const json data = scrape("v2", {{"url", site_url("/docs/a.html")}, {"formats", {format}}});
  REQUIRE(data.is_object());
  REQUIRE(data.contains("json"));
  CHECK(data.at("json").is_object());
}

TEST_CASE("model-made format: changeTracking",
          "[scrape][formats]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-MODEL-FORMATS][SCRAPE-SHAPE]") {
  RULE(rules::kModelFormats);
  REQUIRE_CAPABILITY("format:changeTracking");
  const json data = scrape("v2", {{"url", site_url("/docs/a.html?ct=" + unique_token())},
                                  {"formats", {"markdown", "changeTracking"}}});
  REQUIRE(data.is_object());
  REQUIRE(data.contains("changeTracking"));
  const json ct = data.at("changeTracking");
  INFO(ct.dump());
  CHECK(ct.value("changeStatus", "") == "new");
  CHECK(ct.value("visibility", "") == "visible");
}

TEST_CASE("model-made format: branding",
          "[scrape][formats]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-MODEL-FORMATS][SCRAPE-SHAPE]") {
  RULE(rules::kModelFormats);
  REQUIRE_CAPABILITY("format:branding");
  const json data = scrape("v2", {{"url", site_url("/")}, {"formats", {"branding"}}});
  REQUIRE(data.is_object());
  REQUIRE(data.contains("branding"));
  CHECK(data.at("branding").is_object());
}

TEST_CASE("model-made format: screenshot",
          "[scrape][formats]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-MODEL-FORMATS][SCRAPE-SHAPE]") {
  RULE(rules::kModelFormats);
  REQUIRE_CAPABILITY("format:screenshot");
  const json data = scrape("v2", {{"url", site_url("/")}, {"formats", {"screenshot"}}});
  REQUIRE(data.is_object());
  const std::string shot = str(data, "screenshot");
  INFO(shot.substr(0, 80));
  CHECK((shot.rfind("data:image/png;base64,", 0) == 0 || shot.rfind("https://", 0) == 0 ||
         shot.rfind("http://", 0) == 0));
}

TEST_CASE("actions: scrape results in action order",
          "[scrape][actions]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-ACTIONS][SCRAPE-SHAPE]") {
  RULE(rules::kActions);
  REQUIRE_CAPABILITY("actions");
  const json data =
      scrape("v2", {{"url", site_url("/docs/a.html")},
                    {"actions", {{{"type", "wait"}, {"milliseconds", 10}}, {{"type", "scrape"}}}}});
  REQUIRE(data.is_object());
  REQUIRE(data.contains("actions"));
  const json scrapes = data.at("actions").value("scrapes", json::array());
  REQUIRE(scrapes.size() == 1);
  CHECK(contains(scrapes[0].value("html", ""), "Page A"));
}

TEST_CASE("SDK: scrape reads formats and metadata",
          "[scrape][sdk]"
          "[SCRAPE-SHAPE][SCRAPE-STATUS-CODE][SCRAPE-TARGET-404]") {
  webdata::ScrapeRequest req;
  req.url = site_url("/");
  req.formats = std::vector<webdata::FormatEntry>{"markdown", "links"};
  const auto doc = sdk().scrape(req);
  INFO((doc.ok() ? std::string() : doc.error().describe()));
  {
    RULE(rules::kScrapeShape);
    REQUIRE(doc.ok());
  }
  RULE(rules::kScrapeStatusCode);
  CHECK(doc->metadata.status_code == 200);
  CHECK(doc->metadata.source_url == req.url);
  CHECK(doc->metadata.title == "Conformance Home");
  CHECK(doc->metadata.og_locale_alternate ==
        std::optional<std::vector<std::string>>({"de_DE", "fr_FR"}));
  REQUIRE(doc->markdown);
  CHECK(contains(*doc->markdown, "Conformance Home"));
  REQUIRE(doc->links);
  CHECK(std::count(doc->links->begin(), doc->links->end(), site_url("/docs/")) == 1);

  webdata::v1::ScrapeRequest v1req;
  v1req.url = site_url("/missing.html");
  const auto v1doc = sdk_v1().scrape(v1req);
  INFO((v1doc.ok() ? std::string() : v1doc.error().describe()));
  RULE(rules::kScrapeTarget404);
  REQUIRE(v1doc.ok());
  CHECK(v1doc->metadata.status_code == 404);
}

// GET /scrape/{id}: cloud deployments keep every scrape for a day and serve it by its scrapeId;
// self-hosted ones answer 404 for every id (the precheck's "scrape-by-id" capability).
TEST_CASE("a past scrape reads back by its scrapeId in v1 and v2",
          "[scrape][by-id]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][SCRAPE-GET-BY-ID][SCRAPE-SHAPE]") {
  CHECKS_RULES(&rules::kScrapeById);
  REQUIRE_CAPABILITY("scrape-by-id");
  RULE(rules::kScrapeById);
  for (const std::string version : {"v1", "v2"}) {
    INFO(version);
    const json made = scrape(version, {{"url", site_url("/")}, {"formats", {"markdown", "links"}}});
    const std::string id =
        str(made.is_object() ? made.value("metadata", json()) : json(), "scrapeId");
    REQUIRE_FALSE(id.empty());
    ApiResponse read;
    // A deployment may store the scrape a moment after answering it.
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (attempt > 0) std::this_thread::sleep_for(std::chrono::seconds(1));
      read = get("/" + version + "/scrape/" + id);
      if (read.status != 404) break;
    }
    INFO(read.describe());
    CHECK_JSON_ANSWER(read);
    REQUIRE(read.status == 200);
    CHECK_SCHEMA(version + "/scrape-status.response", read.body_json);
    CHECK(read.body_json.value("success", false) == true);
    const json data = read.body_json.value("data", json::object());
    CHECK(str(data.value("metadata", json::object()), "scrapeId") == id);
    CHECK(str(data, "markdown") == str(made, "markdown"));
    CHECK(data.value("links", json()) == made.value("links", json()));

    if (capability("other-team").available()) {
      const auto other = get("/" + version + "/scrape/" + id, Auth::kOtherTeam);
      INFO("another team: " << other.describe());
      CHECK((other.status == 403 || other.status == 404));
    }
    const auto unknown = get("/" + version + "/scrape/00000000-0000-4000-8000-000000000000");
    INFO(unknown.describe());
    CHECK_JSON_ANSWER(unknown);
    CHECK(unknown.status == 404);
  }
}
