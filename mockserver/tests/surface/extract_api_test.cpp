// POST /v1|v2/extract and GET /v1|v2/extract/{id} over real HTTP: globs expanded over the site,
// the json format's extraction merged across pages and valid against the schema, asynchronous
// progress, sources, credits and tokens, unknown ids and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"
#include "stub_mapping.hpp"
#include "webdata/contract/schemas.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

using webdata::testing::ApiClient;
using webdata::testing::page_stub;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

// Named apart from map_api_test's page(): the unity build puts the surface tests in one file.
std::string shop_page(const std::string& title, const std::string& body,
                      const std::vector<std::string>& links = {}) {
  std::string html =
      "<html><head><title>" + title + "</title></head><body><main><h1>" + title + "</h1>" + body;
  for (const auto& l : links) html += "<p><a href=\"" + l + "\">" + l + "</a></p>";
  return html + "</main></body></html>";
}

struct Shop {
  RunningMock mock;
  ApiClient api{mock.url()};

  Shop() {
    const std::string h = "shop.test";
    add(page_stub(h, "/", shop_page("Shop", "<p>Welcome.</p>", {"/products/", "/about"})));
    add(page_stub(h, "/about", shop_page("About us", "<p>Email: hello@shop.test</p>")));
    add(page_stub(
        h, "/products/",
        shop_page("Products", "<p>Our range.</p>", {"/products/anvil", "/products/hammer"})));
    add(page_stub(h, "/products/anvil",
                  shop_page("Anvil", "<p>Colour: black</p><p>Weight: 50 kg</p>",
                            {"https://maker.test/anvils"})));
    add(page_stub(h, "/products/hammer", shop_page("Hammer", "<p>Material: steel</p>")));
    add(page_stub("maker.test", "/anvils", shop_page("Anvil maker", "<p>Founded: 1890</p>")));
  }
  void add(const json& mapping) { REQUIRE(api.post("/__admin/mappings", mapping).status == 201); }

  /// Polls until the job leaves `processing`; every answer on the way must fit the schema.
  json wait(const std::string& version, const std::string& id) {
    json body;
    const bool ended = webdata::testing::eventually([&] {
      const auto r = api.get("/" + version + "/extract/" + id);
      REQUIRE(r.status == 200);
      check_schema(version + "/extract-status.response", r.body);
      body = r.body;
      return body["status"] != "processing";
    });
    if (!ended) FAIL("the extract job did not finish");
    return body;
  }

  static void check_schema(const std::string& schema, const json& body) {
    const auto issues = webdata::contract::SchemaSet::embedded().validate(schema, body);
    INFO(schema << ": " << body.dump());
    for (const auto& issue : issues) INFO(issue.to_json().dump());
    CHECK(issues.empty());
  }
};

const json kProductSchema = {{"type", "object"},
                             {"properties",
                              {{"colour", {{"type", "string"}}},
                               {"material", {{"type", "string"}}},
                               {"weight", {{"type", "string"}}}}},
                             {"required", {"colour", "material"}}};

/// The ways `value` breaks `schema` (a caller's JSON Schema), as valijson reports them; empty
/// when it fits. An independent validator, not the mock's own check.
std::vector<std::string> schema_issues(const json& schema, const json& value) {
  valijson::Schema compiled;
  valijson::SchemaParser parser;
  const valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
  parser.populateSchema(schema_adapter, compiled);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  const valijson::adapters::NlohmannJsonAdapter target(value);
  std::vector<std::string> out;
  if (validator.validate(compiled, target, &results)) return out;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string where;
    for (const auto& part : error.context) where += part;
    out.push_back(where + ": " + error.description);
  }
  return out;
}

}  // namespace

TEST_CASE("v2 extract expands a glob over the site and merges the pages' answers", "[extract]") {
  Shop shop;
  auto r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/products/*"}},
                                         {"schema", kProductSchema},
                                         {"showSources", true},
                                         {"origin", "js-sdk@4.42.0"}});
  REQUIRE(r.status == 200);
  Shop::check_schema("v2/extract.response", r.body);
  const json done = shop.wait("v2", r.body["id"]);
  REQUIRE(done["status"] == "completed");
  CHECK(done["success"] == true);
  const json& data = done["data"];
  INFO(data.dump());
  CHECK(schema_issues(kProductSchema, data) == std::vector<std::string>{});
  // Each field comes from the page that has it: the merge spans pages.
  CHECK(data["colour"] == "black");
  CHECK(data["material"] == "steel");
  CHECK(data["weight"] == "50 kg");
  CHECK(done["sources"]["colour"] == json::array({"http://shop.test/products/anvil"}));
  CHECK(done["sources"]["material"] == json::array({"http://shop.test/products/hammer"}));
  // Three pages (the section's index and two products), each billed as a json scrape.
  CHECK(done["creditsUsed"] == 15);
  CHECK(done["tokensUsed"].get<long>() > 0);
  const std::string expires = done["expiresAt"];
  // Milliseconds zeroed, as deployments answer.
  CHECK(expires.size() == 24);
  CHECK(expires.substr(19) == ".000Z");
  // The glob stays inside the section: /about is not read.
  for (const auto& [field, urls] : done["sources"].items()) {
    for (const auto& url : urls) CHECK(url != "http://shop.test/about");
  }
}

TEST_CASE("extract uses the same extraction as the json format, page by page", "[extract]") {
  Shop shop;
  const auto scrape =
      shop.api.post("/v2/scrape", {{"url", "http://shop.test/products/anvil"},
                                   {"formats", {{{"type", "json"}, {"schema", kProductSchema}}}}});
  REQUIRE(scrape.status == 200);
  auto r = shop.api.post(
      "/v2/extract", {{"urls", {"http://shop.test/products/anvil"}}, {"schema", kProductSchema}});
  REQUIRE(r.status == 200);
  const json done = shop.wait("v2", r.body["id"]);
  REQUIRE(done["status"] == "completed");
  CHECK(done["data"] == scrape.body["data"]["json"]);
  CHECK_FALSE(done.contains("sources"));  // only with showSources
}

TEST_CASE("extract runs asynchronously: processing first, then completed", "[extract]") {
  Shop shop;
  REQUIRE(shop.api.post("/__admin/settings", {{"pagePacingMs", 300}}).status == 200);
  auto r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/products/*"}},
                                         {"prompt", "the colour and the material"}});
  REQUIRE(r.status == 200);
  const auto first = shop.api.get("/v2/extract/" + r.body["id"].get<std::string>());
  REQUIRE(first.status == 200);
  CHECK(first.body["status"] == "processing");
  CHECK(first.body["data"] == json::array());
  Shop::check_schema("v2/extract-status.response", first.body);
  const json done = shop.wait("v2", r.body["id"]);
  CHECK(done["status"] == "completed");
  CHECK(done["data"].is_object());
}

TEST_CASE("extract charges credits and tokens to the team's usage", "[extract]") {
  Shop shop;
  const auto before = shop.api.get("/v2/team/token-usage");
  REQUIRE(before.status == 200);
  auto r = shop.api.post(
      "/v2/extract", {{"urls", {"http://shop.test/products/hammer"}}, {"prompt", "the material"}});
  REQUIRE(r.status == 200);
  const json done = shop.wait("v2", r.body["id"]);
  REQUIRE(done["status"] == "completed");
  const auto after = shop.api.get("/v2/team/token-usage");
  CHECK(before.body["data"]["remainingTokens"].get<long>() -
            after.body["data"]["remainingTokens"].get<long>() ==
        done["tokensUsed"].get<long>());
  const auto credits = shop.api.get("/v2/team/credit-usage");
  CHECK(credits.body["data"]["planCredits"].get<long>() -
            credits.body["data"]["remainingCredits"].get<long>() ==
        done["creditsUsed"].get<long>());
}

TEST_CASE("v1 extract: same job shape, readable through either version", "[extract]") {
  Shop shop;
  auto r = shop.api.post("/v1/extract", {{"urls", {"shop.test/products/anvil"}},
                                         {"schema", kProductSchema},
                                         {"includeSubdomains", false}});
  REQUIRE(r.status == 200);
  Shop::check_schema("v1/extract.response", r.body);
  const json done = shop.wait("v1", r.body["id"]);
  REQUIRE(done["status"] == "completed");
  CHECK(done["data"]["colour"] == "black");
  CHECK(shop.api.get("/v2/extract/" + r.body["id"].get<std::string>()).status == 200);
}

TEST_CASE("extract follows external links only when allowExternalLinks is set", "[extract]") {
  Shop shop;
  const json schema = {{"type", "object"}, {"properties", {{"founded", {{"type", "string"}}}}}};
  for (const bool external : {false, true}) {
    auto r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/products/*"}},
                                           {"schema", schema},
                                           {"showSources", true},
                                           {"allowExternalLinks", external}});
    REQUIRE(r.status == 200);
    const json done = shop.wait("v2", r.body["id"]);
    REQUIRE(done["status"] == "completed");
    INFO(done.dump());
    const bool from_maker = done["sources"].value("founded", json::array()) ==
                            json::array({"https://maker.test/anvils"});
    CHECK(from_maker == external);
  }
}

TEST_CASE("extract: unknown ids 404, bad input 400 with field-level details", "[extract]") {
  Shop shop;
  auto r = shop.api.get("/v2/extract/00000000-0000-4000-8000-000000000000");
  CHECK(r.status == 404);
  CHECK(r.body["success"] == false);
  CHECK(shop.api.get("/v1/extract/nope").status == 404);

  r = shop.api.post("/v2/extract", {{"prompt", "x"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"].at(0)["path"] == json::array({"urls"}));

  r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/", "ftp://x/"}}, {"prompt", "x"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"].at(0)["path"] == json::array({"urls", 1}));

  r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/"}}, {"schema", "not a schema"}});
  REQUIRE(r.status == 400);
  CHECK(r.body["details"].at(0)["path"] == json::array({"schema"}));

  r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/"}}, {"bogus", true}});
  CHECK(r.status == 400);
  r = shop.api.post("/v2/extract", {{"urls", json::array()}});
  CHECK(r.status == 400);

  // ignoreInvalidURLs: the bad one is skipped and named; the job runs on the rest.
  r = shop.api.post("/v2/extract", {{"urls", {"http://shop.test/about", "ftp://x/"}},
                                    {"prompt", "the email"},
                                    {"ignoreInvalidURLs", true}});
  REQUIRE(r.status == 200);
  CHECK(r.body["invalidURLs"] == json::array({"ftp://x/"}));
  const json done = shop.wait("v2", r.body["id"]);
  CHECK(done["status"] == "completed");
  CHECK(done.contains("warning"));
}

TEST_CASE("an extract whose pages cannot be read fails with a reason", "[extract]") {
  Shop shop;
  auto r = shop.api.post("/v2/extract",
                         {{"urls", {"http://no-such-host.invalid/"}}, {"prompt", "anything"}});
  REQUIRE(r.status == 200);
  const json done = shop.wait("v2", r.body["id"]);
  CHECK(done["status"] == "failed");
  CHECK(done["success"] == false);
  CHECK(done["error"].get<std::string>().find("no-such-host.invalid") != std::string::npos);
}

TEST_CASE("extract jobs belong to their team", "[extract]") {
  webdata::mock::Config config = RunningMock::quiet_config();
  webdata::mock::TeamConfig team_a;
  team_a.id = "team-a";
  team_a.keys = {"key-a"};
  webdata::mock::TeamConfig team_b;
  team_b.id = "team-b";
  team_b.keys = {"key-b"};
  config.teams = {team_a, team_b};
  RunningMock mock(config);
  ApiClient a(mock.url(), "key-a");
  ApiClient b(mock.url(), "key-b");
  auto r = a.post("/v2/extract", {{"urls", {"https://pages-3.synthetic.test/"}}, {"prompt", "x"}});
  REQUIRE(r.status == 200);
  const std::string id = r.body["id"];
  CHECK(b.get("/v2/extract/" + id).status == 404);
  CHECK(a.get("/v2/extract/" + id).status == 200);
}

// What the official JavaScript SDK 4.42 sends: v2 `startExtract` with every option it knows, and
// the v1 client's body (spread params, `origin: "js-sdk@<version>"`, `includeSubdomains`).
TEST_CASE("extract accepts every field the official JavaScript SDK sends, v2 and v1", "[extract]") {
  Shop shop;
  const json v2_body = {
      {"urls", {"http://shop.test/products/*"}},
      {"prompt", "colour and material"},
      {"schema", kProductSchema},
      {"systemPrompt", "Be brief."},
      {"allowExternalLinks", false},
      {"enableWebSearch", false},
      {"showSources", true},
      {"ignoreInvalidURLs", true},
      {"integration", "langchain"},
      {"origin", "js-sdk@4.42.0"},
      {"agent", {{"model", "FIRE-1"}}},
      {"webhook", {{"url", "http://hooks.shop.test/extract"}, {"events", {"completed"}}}},
      {"threatProtection", {{"mode", "off"}}},
      {"scrapeOptions", {{"onlyMainContent", true}, {"formats", {"markdown"}}, {"maxAge", 0}}}};
  auto r = shop.api.post("/v2/extract", v2_body);
  INFO(r.body.dump());
  REQUIRE(r.status == 200);
  Shop::check_schema("v2/extract.response", r.body);
  json done = shop.wait("v2", r.body["id"]);
  CHECK(done["status"] == "completed");
  CHECK(schema_issues(kProductSchema, done["data"]).empty());
  CHECK(done["sources"].contains("colour"));

  const json v1_body = {{"urls", {"shop.test/products/anvil"}},
                        {"prompt", "the colour"},
                        {"schema", kProductSchema},
                        {"includeSubdomains", false},
                        {"showSources", false},
                        {"agent", {{"model", "FIRE-1"}, {"sessionId", "s-1"}}},
                        {"scrapeOptions", {{"formats", {"markdown"}}, {"onlyMainContent", true}}},
                        {"origin", "js-sdk@4.42.0"}};
  r = shop.api.post("/v1/extract", v1_body);
  INFO(r.body.dump());
  REQUIRE(r.status == 200);
  done = shop.wait("v1", r.body["id"]);
  CHECK(done["status"] == "completed");
  CHECK(done["data"]["colour"] == "black");
  CHECK_FALSE(done.contains("sources"));
}

// `data` fits the caller's schema whatever the pages hold: required fields no page has, nested
// objects, arrays with bounds and enums.
TEST_CASE("extract data always validates against the request's schema", "[extract]") {
  Shop shop;
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"products",
         {{"type", "array"},
          {"maxItems", 2},
          {"items",
           {{"type", "object"},
            {"properties",
             {{"name", {{"type", "string"}}}, {"kind", {{"enum", {"tool", "other"}}}}}},
            {"required", {"name", "kind"}}}}}},
        {"founded", {{"type", "integer"}, {"minimum", 1000}}},
        {"contact",
         {{"type", "object"},
          {"properties", {{"email", {{"type", "string"}}}}},
          {"required", {"email"}}}}}},
      {"required", {"products", "founded", "contact"}}};
  for (const std::string v : {"v1", "v2"}) {
    auto r =
        shop.api.post("/" + v + "/extract", {{"urls", {"http://shop.test/*"}},
                                             {"schema", schema},
                                             {"prompt", "products, founding year and contact"}});
    REQUIRE(r.status == 200);
    const json done = shop.wait(v, r.body["id"]);
    REQUIRE(done["status"] == "completed");
    INFO(v << " data: " << done["data"].dump());
    CHECK(schema_issues(schema, done["data"]) == std::vector<std::string>{});
  }
}
