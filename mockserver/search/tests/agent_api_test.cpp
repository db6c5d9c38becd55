// POST /v2/agent and GET /v2/agent/{id} over real HTTP against the bundled virtual web.
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "search_support.hpp"

using namespace search_test;

namespace {

json agent(const ApiClient& api, const json& request) {
  const ApiReply reply = api.post("/v2/agent", request);
  INFO(request.dump() << " -> " << reply.status << " " << reply.text.substr(0, 3000));
  REQUIRE(reply.status == 200);
  require_schema("v2/agent.response", reply.body);
  REQUIRE(reply.body["success"] == true);
  return reply.body;
}

/// Fails unless `value` validates against the caller's `schema` (valijson, draft-07).
void require_valid(const json& schema, const json& value) {
  valijson::Schema compiled;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema);
  parser.populateSchema(schema_adapter, compiled);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter value_adapter(value);
  const bool ok = validator.validate(compiled, value_adapter, &results);
  std::string errors;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string path;
    for (const auto& part : error.context) path += part;
    errors += path + ": " + error.description + "\n";
  }
  INFO(value.dump(2) << "\n" << errors);
  REQUIRE(ok);
}

}  // namespace

TEST_CASE("the agent answers from the most relevant page and cites it", "[agent]") {
  const auto api = shared_api();
  const json body = agent(api, {{"prompt", "How much did the harbour bridge repairs cost?"}});
  const json& data = body["data"];
  REQUIRE(!data["sources"].empty());
  CHECK(data["sources"][0] == kBridge);
  CHECK(data["result"].get<std::string>().find("84 million euros") != std::string::npos);
  CHECK(body["creditsUsed"].get<int>() >= 1);
  CHECK_FALSE(data.contains("json"));

  const json river = agent(
      api,
      {{"prompt", "Why are the river levels so low and what does it mean for barges?"}})["data"];
  REQUIRE(!river["sources"].empty());
  CHECK(river["sources"][0] == kRiver);
  CHECK(river["result"].get<std::string>().find("barges") != std::string::npos);
  // Every cited source contributed text to the result.
  for (const auto& source : river["sources"])
    CHECK(source.get<std::string>().rfind("https://", 0) == 0);
}

TEST_CASE("the agent is deterministic", "[agent]") {
  const auto api = shared_api();
  const json request = {{"prompt", "solar farm battery storage homes"}};
  const json a = agent(api, request)["data"];
  const json b = agent(api, request)["data"];
  CHECK(a == b);
  CHECK(has(a["sources"].get<std::vector<std::string>>(), kSolar));
}

TEST_CASE("urls restricts the agent to those pages", "[agent][urls]") {
  const auto api = shared_api();
  const json free = agent(api, {{"prompt", "river level gauge readings"}})["data"];
  REQUIRE(!free["sources"].empty());
  const json only =
      agent(api, {{"prompt", "river level gauge readings"}, {"urls", {kPaper}}})["data"];
  CHECK(only["sources"] == json::array({kPaper}));
  CHECK(only["result"].get<std::string>().find("gauge") != std::string::npos);
  // A page outside the index is fetched and read too.
  const json docs =
      agent(api, {{"prompt", "installing quarry"},
                  {"urls", {"https://docs.example.test/getting-started/installation"}}})["data"];
  CHECK(docs["sources"] == json::array({"https://docs.example.test/getting-started/installation"}));
  CHECK(api.post("/v2/agent", {{"prompt", "x"}, {"urls", {"not a url"}}}).status == 400);
}

TEST_CASE("with a schema the agent answers a valid object from the pages", "[agent][schema]") {
  const auto api = shared_api();
  const json schema = {
      {"type", "object"},
      {"properties",
       {{"title", {{"type", "string"}}},
        {"cost", {{"type", "number"}, {"minimum", 0}}},
        {"cables", {{"type", "integer"}}},
        {"status", {{"type", "string"}, {"enum", {"closed", "reopened", "planned"}}}},
        {"published", {{"type", "string"}, {"format", "date"}}},
        {"source", {{"type", "string"}, {"format", "uri"}}},
        {"facts",
         {{"type", "array"}, {"items", {{"type", "string"}, {"maxLength", 300}}}, {"minItems", 1}}},
        {"engineer",
         {{"type", "object"},
          {"properties", {{"name", {{"type", "string"}}}, {"quoted", {{"type", "boolean"}}}}},
          {"required", {"name", "quoted"}},
          {"additionalProperties", false}}}}},
      {"required", {"title", "cost", "status", "facts", "engineer"}},
      {"additionalProperties", false}};
  const json body =
      agent(api, {{"prompt", "harbour bridge repairs cost cables reopened"}, {"schema", schema}});
  const json& data = body["data"];
  REQUIRE(data.contains("json"));
  require_valid(schema, data["json"]);
  CHECK(json::parse(data["result"].get<std::string>()) == data["json"]);
  CHECK(data["sources"][0] == kBridge);
  const json& object = data["json"];
  INFO(data.dump(2));
  CHECK(object["cost"] == 84);
  CHECK(object["cables"] == 128);
  CHECK(object["status"] == "reopened");
  CHECK(object["published"] == "2026-11-20");
  CHECK(object["source"] == kBridge);
  CHECK(object["title"].get<std::string>().find("Harbour bridge reopens") != std::string::npos);
}

TEST_CASE("schemas with arrays of objects, refs, combinators and bounds stay valid",
          "[agent][schema]") {
  const auto api = shared_api();
  const std::vector<json> schemas = {
      {{"type", "object"},
       {"definitions",
        {{"story",
          {{"type", "object"},
           {"properties",
            {{"headline", {{"type", "string"}, {"minLength", 3}}},
             {"url", {{"type", "string"}, {"format", "uri"}}},
             {"date", {{"type", "string"}, {"format", "date-time"}}}}},
           {"required", {"headline", "url", "date"}}}}}},
       {"properties",
        {{"stories",
          {{"type", "array"},
           {"items", {{"$ref", "#/definitions/story"}}},
           {"minItems", 2},
           {"maxItems", 3}}}}},
       {"required", {"stories"}}},
      {{"type", "object"},
       {"properties",
        {{"homes", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100000}}},
         {"share", {{"type", "number"}, {"exclusiveMaximum", 1}, {"exclusiveMinimum", 0}}},
         {"tags",
          {{"type", "array"},
           {"items", {{"type", "string"}, {"enum", {"energy", "transport"}}}},
           {"minItems", 2},
           {"uniqueItems", false}}},
         {"note", {{"type", {"string", "null"}}, {"maxLength", 20}}},
         {"either", {{"anyOf", {{{"type", "integer"}}, {{"type", "string"}}}}}},
         {"both",
          {{"allOf",
            {{{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}},
             {{"required", {"a"}}}}}}}}},
       {"required", {"homes", "share", "tags", "note", "either", "both"}}},
      {{"type", "array"}, {"items", {{"type", "integer"}}}, {"minItems", 3}, {"uniqueItems", true}},
      {{"type", "string"}, {"maxLength", 40}}};
  for (const auto& schema : schemas) {
    INFO(schema.dump());
    const json data =
        agent(api, {{"prompt", "solar farm homes energy"}, {"schema", schema}})["data"];
    require_valid(schema, data["json"]);
  }
  const json stories =
      agent(api, {{"prompt", "solar farm homes energy"}, {"schema", schemas[0]}})["data"];
  CHECK(stories["json"]["stories"][0]["url"] == stories["sources"][0]);
  const json homes = agent(api, {{"prompt", "how many homes does the solar farm supply"},
                                 {"schema", schemas[1]}})["data"];
  CHECK(homes["json"]["homes"] == 38000);
}

TEST_CASE("the agent job form: GET /v2/agent/{id}", "[agent][job]") {
  RunningMock mock;
  ApiClient api(mock.url());
  const auto before = balance(api);
  const json started = agent(api, {{"prompt", "library opening hours winter"}});
  const std::string id = started["id"];
  CHECK(balance(api) == before - started["creditsUsed"].get<std::int64_t>());
  const ApiReply status = api.get("/v2/agent/" + id);
  REQUIRE(status.status == 200);
  require_schema("v2/agent-status.response", status.body);
  CHECK(status.body["status"] == "completed");
  CHECK(status.body["data"] == started["data"]);
  CHECK(status.body["data"]["sources"][0] == kLibrary);
  CHECK(api.get("/v2/agent/00000000-0000-4000-8000-000000000000").status == 404);
  REQUIRE(api.post("/__admin/clock/advance", {{"milliseconds", 25LL * 3600 * 1000}}).status == 200);
  const ApiReply expired = api.get("/v2/agent/" + id);
  CHECK(expired.status == 404);
  CHECK(expired.body["error"] == "Agent job not found");
}

TEST_CASE("agent validation, maxCredits and credits", "[agent][credits]") {
  RunningMock mock;
  ApiClient api(mock.url());
  CHECK(api.post("/v2/agent", json::object()).status == 400);
  CHECK(api.post("/v2/agent", {{"prompt", "x"}, {"model", "big"}}).status == 400);
  const json capped = agent(api, {{"prompt", "river level gauge drought"}, {"maxCredits", 1}});
  CHECK(capped["creditsUsed"] == 1);
  CHECK(capped["data"]["sources"].size() <= 1);
  REQUIRE(api.post("/__admin/settings/credits", {{"team", "team-1"}, {"credits", 0}}).status ==
          200);
  CHECK(api.post("/v2/agent", {{"prompt", "river"}}).status == 402);
}

TEST_CASE("the enterprise fields the official SDK sends on an agent run are accepted, typed",
          "[agent][newer]") {
  const auto api = shared_api();
  // prepareAgentPayload in firecrawl-js sends these when set; a deployment takes them.
  const json body =
      agent(api, {{"prompt", "How much did the harbour bridge repairs cost?"},
                  {"threatProtection", {{"mode", "normal"}, {"riskScoreThreshold", 40}}},
                  {"auditMetadata", {{"username", "ana"}}},
                  {"overrideWhitelist", "team-allow-list"},
                  {"origin", "js-sdk"},
                  {"integration", "ci"}});
  CHECK(body["data"]["result"].get<std::string>().find("84 million euros") != std::string::npos);

  // Typed, not lenient: a wrong shape is still a 400 naming the field.
  const std::vector<std::pair<json, std::string>> bad = {
      {{{"threatProtection", {{"mode", "paranoid"}}}}, "threatProtection"},
      {{{"auditMetadata", json::object()}}, "auditMetadata"},
      {{{"overrideWhitelist", 3}}, "overrideWhitelist"},
  };
  for (const auto& [fields, name] : bad) {
    json request = {{"prompt", "river"}};
    request.update(fields);
    const ApiReply reply = api.post("/v2/agent", request);
    INFO(request.dump() << " -> " << reply.text);
    CHECK(reply.status == 400);
    CHECK(reply.text.find(name) != std::string::npos);
  }
}
