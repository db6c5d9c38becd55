// The typed requests held to the schemas (no drift either way): the fullest and the least value
// of every request schema decode with no key left unread and encode back to the same JSON, so
// every schema property has a field and every field is a schema property with the schema's
// default. Also: defaults come from the schema alone.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

#include "requests/requests.hpp"
#include "requests/validate.hpp"
#include "schema_instances.hpp"

using nlohmann::json;
namespace requests = webdata::mock::requests;
using requests::Version;

namespace {

const webdata::contract::SchemaSet& schemas() {
  return webdata::contract::SchemaSet::embedded();
}

/// Decodes `body` as the request type of a schema and encodes it back; `unread` gets the keys
/// no field took.
using RoundTrip = std::function<json(const json& body, Version, std::vector<std::string>& unread)>;

template <class T>
RoundTrip round_trip() {
  return [](const json& body, Version version, std::vector<std::string>& unread) {
    return requests::encode(requests::decode<T>(body, version, &unread));
  };
}

struct Binding {
  RoundTrip trip;
  std::function<std::string(Version)> schema;
};

template <class T>
Binding bind() {
  return Binding{round_trip<T>(), [](Version v) { return requests::schema_name<T>(v); }};
}

const std::map<std::string, Binding>& bindings() {
  static const std::map<std::string, Binding> map = {
      {"scrape", bind<requests::ScrapeRequest>()},
      {"batch-scrape", bind<requests::BatchScrapeRequest>()},
      {"crawl", bind<requests::CrawlRequest>()},
      {"map", bind<requests::MapRequest>()},
      {"search", bind<requests::SearchRequest>()},
      {"extract", bind<requests::ExtractRequest>()},
      {"agent", bind<requests::AgentRequest>()},
      {"crawl-params-preview", bind<requests::CrawlPreviewRequest>()},
      {"monitor", bind<requests::MonitorRequest>()},
      {"monitor-update", bind<requests::MonitorUpdateRequest>()},
      {"research-papers", bind<requests::ResearchPapersRequest>()},
      {"research-paper", bind<requests::ResearchPaperRequest>()},
      {"research-similar", bind<requests::ResearchSimilarRequest>()},
      {"research-github", bind<requests::ResearchGithubRequest>()},
      {"developer-search", bind<requests::DeveloperSearchRequest>()},
      {"search-feedback", bind<requests::SearchFeedbackRequest>()},
      {"feedback", bind<requests::FeedbackRequest>()},
      {"support-ask", bind<requests::SupportAskRequest>()},
      {"browser", bind<requests::BrowserRequest>()},
      {"browser-execute", bind<requests::BrowserExecuteRequest>()},
      {"interact", bind<requests::InteractRequest>()},
      {"deep-research", bind<requests::DeepResearchRequest>()},
      {"llmstxt", bind<requests::LlmsTxtRequest>()},
  };
  return map;
}

std::string joined(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& key : keys) out += key + " ";
  return out;
}

/// `instance` as the mock receives it: valid, defaults filled; then decoded and encoded.
void check_round_trip(const Binding& binding, Version version, const std::string& schema,
                      const json& instance) {
  INFO(schema << ": " << instance.dump());
  std::string issues;
  for (const auto& issue : schemas().validate(schema, instance)) issues += issue.message + "; ";
  INFO("schema issues: " << issues);
  CHECK(issues.empty());
  if (!issues.empty()) return;
  const json filled = schemas().with_defaults(schema, instance);
  std::vector<std::string> unread;
  const json written = binding.trip(filled, version, unread);
  INFO("unread keys: " << joined(unread));
  CHECK(unread.empty());
  CHECK(written == filled);
}

}  // namespace

TEST_CASE("every request schema has a typed request", "[requests][drift]") {
  std::vector<std::string> untyped;
  for (const auto& name : schemas().names()) {
    const auto dot = name.find(".request");
    if (dot == std::string::npos || name == "v2/parse.request") continue;  // parse: next case
    const std::string endpoint = name.substr(3, dot - 3);
    const auto it = bindings().find(endpoint);
    const Version version = name.rfind("v1/", 0) == 0 ? Version::v1 : Version::v2;
    if (it == bindings().end() || it->second.schema(version) != name) untyped.push_back(name);
  }
  INFO(joined(untyped));
  CHECK(untyped.empty());
}

TEST_CASE("no drift: the fullest and the least request decode and encode unchanged",
          "[requests][drift]") {
  webdata::testing::SchemaInstances instances;
  for (const auto& [endpoint, binding] : bindings()) {
    for (const Version version : {Version::v1, Version::v2}) {
      const std::string schema = binding.schema(version);
      if (!schemas().has(schema)) continue;
      check_round_trip(binding, version, schema, instances.maximal(schema));
      check_round_trip(binding, version, schema, instances.minimal(schema));
    }
  }
}

TEST_CASE("no drift: parse options are scrape options", "[requests][drift]") {
  webdata::testing::SchemaInstances instances;
  for (const json& instance :
       {instances.maximal("v2/parse.request"), instances.minimal("v2/parse.request")}) {
    const json filled = schemas().with_defaults("v2/parse.request", instance);
    std::vector<std::string> unread;
    const json written = requests::encode(requests::decode_parse_options(filled, &unread));
    INFO(filled.dump());
    CHECK(unread.empty());
    // Only the parse fields are on the wire; the rest are the scrape defaults.
    for (const auto& [key, value] : filled.items()) {
      INFO(key);
      CHECK(written.value(key, json()) == value);
    }
  }
}

TEST_CASE("scrape defaults are the schema's, per version", "[requests]") {
  for (const Version version : {Version::v1, Version::v2}) {
    const std::string name = std::string(requests::version_name(version)) + "/scrape-options";
    CHECK(requests::encode(requests::ScrapeOptions::defaults(version)) ==
          schemas().with_defaults(name, json::object()));
  }
  const auto& v1 = requests::ScrapeOptions::defaults(Version::v1);
  const auto& v2 = requests::ScrapeOptions::defaults(Version::v2);
  // The differences the reference names (docs/reference/versions.md).
  CHECK(v1.max_age == 0);
  CHECK(v2.max_age == 172800000);
  CHECK_FALSE(v1.skip_tls_verification);
  CHECK(v2.skip_tls_verification);
  CHECK(v1.proxy == "basic");
  CHECK(v2.proxy == "auto");
  CHECK(v1.parses_pdf());
  CHECK(v2.parses_pdf());
}

TEST_CASE("a body the schema accepted decodes into what the pipeline reads", "[requests]") {
  json body = {{"url", "docs.example.test/page"},
               {"formats", {"markdown", {{"type", "json"}, {"prompt", "the price"}}}},
               {"proxy", "stealth"},
               {"headers", {{"X-A", "1"}}}};
  REQUIRE_FALSE(requests::validate("v2/scrape.request", body));
  const auto request = requests::decode<requests::ScrapeRequest>(body, Version::v2);
  CHECK(request.url == "http://docs.example.test/page");
  CHECK(request.options.wants("json"));
  REQUIRE(request.options.json_format());
  CHECK(request.options.json_format()->prompt == "the price");
  CHECK(request.options.proxy_mode() == "enhanced");
  CHECK(request.options.sensitive());
  CHECK(request.options.timeout == 30000);

  json v1 = {{"url", "https://docs.example.test/"},
             {"formats", {"screenshot@fullPage", "json"}},
             {"jsonOptions", {{"prompt", "names"}}},
             {"parsePDF", false}};
  REQUIRE_FALSE(requests::validate("v1/scrape.request", v1));
  const auto old = requests::decode<requests::ScrapeRequest>(v1, Version::v1);
  REQUIRE(old.options.screenshot());
  CHECK(old.options.screenshot()->full_page);
  CHECK(old.options.json_format()->prompt == "names");
  CHECK_FALSE(old.options.parses_pdf());
  CHECK(old.options.max_age == 0);
}

TEST_CASE("search sources inherit the request's settings as the service's do", "[requests]") {
  json body = {{"query", "kettle"},
               {"tbs", "qdr:w"},
               {"lang", "de"},
               {"location", "Germany"},
               {"sources", {{{"type", "web"}, {"tbs", "qdr:d"}}, {{"type", "news"}},
                            {{"type", "images"}}}}};
  REQUIRE_FALSE(requests::validate("v2/search.request", body));
  const auto request = requests::decode<requests::SearchRequest>(body, Version::v2);
  CHECK(request.source_names() == std::vector<std::string>{"web", "news", "images"});
  CHECK(request.settings_for("web").tbs == "qdr:d");
  CHECK(request.settings_for("web").lang == "de");
  CHECK(request.settings_for("news").tbs == "qdr:w");
  CHECK(request.settings_for("news").location == "Germany");
  CHECK(request.settings_for("images").tbs.empty());
  CHECK(request.settings_for("images").lang.empty());
  CHECK_FALSE(request.scrapes());
}

TEST_CASE("the Aug-2025 rules know the build's eight format types, and no newer one",
          "[requests][validate]") {
  requests::Rules aug;
  aug.aug_2025 = true;
  json images = {{"url", "https://a.example/x"}, {"formats", {"images"}}};
  json plain = images;
  CHECK_FALSE(requests::validate("v2/scrape.request", plain));
  const auto refused = requests::validate("v2/scrape.request", images, aug);
  REQUIRE(refused);
  REQUIRE(refused->details.size() == 1);
  CHECK(refused->details[0]["code"] == "invalid_union");
  CHECK(refused->details[0]["unionErrors"].size() == 8);
  json screenshot = {{"url", "https://a.example/x"}, {"formats", {"markdown", "screenshot"}}};
  CHECK_FALSE(requests::validate("v2/scrape.request", screenshot, aug));
}

TEST_CASE("the Aug-2025 rules have no maximum for a scrape's timeout", "[requests][validate]") {
  requests::Rules aug;
  aug.aug_2025 = true;
  json scrape = {{"url", "https://a.example/x"}, {"timeout", 400000}};
  json plain = scrape;
  const auto refused = requests::validate("v2/scrape.request", plain);
  REQUIRE(refused);
  CHECK(refused->details[0]["code"] == "too_big");
  CHECK_FALSE(requests::validate("v2/scrape.request", scrape, aug));
  json crawl = {{"url", "https://a.example/"}, {"scrapeOptions", {{"timeout", 400000}}}};
  CHECK_FALSE(requests::validate("v2/crawl.request", crawl, aug));
  json negative = {{"url", "https://a.example/x"}, {"timeout", -1}};
  CHECK(requests::validate("v2/scrape.request", negative, aug));
}
