#include <catch2/catch.hpp>

#include "formats/extract.hpp"
#include "test_util.hpp"

using formats_test::load;
using formats_test::parse;
using formats_test::schema_errors;
using nlohmann::json;
using webdata::mock::formats::extract;

namespace {

json run(const std::string& page, const json& schema, const std::string& prompt = "") {
  auto doc = parse(load(page), "https://ridge.example/packs/summit-40");
  json out = extract(doc, {}, schema, prompt);
  INFO(out.dump(2));
  auto errors = schema_errors(schema, out);
  for (const auto& e : errors) UNSCOPED_INFO(e);
  CHECK(errors.empty());
  return out;
}

}  // namespace

TEST_CASE("json: a flat product schema is filled from the page", "[json]") {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "name": {"type": "string"},
      "price": {"type": "number"},
      "currency": {"type": "string"},
      "sku": {"type": "string"},
      "inStock": {"type": "boolean"},
      "description": {"type": "string"},
      "weight": {"type": "string"},
      "colour": {"type": "string"},
      "releaseDate": {"type": "string", "format": "date"},
      "supportEmail": {"type": "string", "format": "email"},
      "phone": {"type": "string"},
      "image": {"type": "string", "format": "uri"},
      "features": {"type": "array", "items": {"type": "string"}}
    },
    "required": ["name", "price", "inStock"]
  })");
  json out = run("product.html", schema);
  CHECK(out["name"] == "Summit Pack 40");  // JSON-LD "name" beats the <title>
  CHECK(out["price"].get<double>() == Approx(89.90));
  CHECK(out["currency"] == "EUR");
  CHECK(out["sku"] == "RO-SP40");
  CHECK(out["inStock"] == true);
  CHECK(out["description"] == "A 40 litre hiking backpack with a ventilated back panel.");
  CHECK(out["weight"] == "1.35 kg");
  CHECK(out["colour"] == "Forest green");
  CHECK(out["releaseDate"] == "2024-03-03");
  CHECK(out["supportEmail"] == "support@ridge.example");
  CHECK(out["phone"] == "+49 30 1234567");
  CHECK(out["image"] == "https://ridge.example/img/summit-40-og.jpg");
  CHECK(out["features"] ==
        json({"Ventilated back panel", "Rain cover included", "Hydration sleeve"}));
}

TEST_CASE("json: a table becomes an array of objects by column names", "[json]") {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "variants": {
        "type": "array",
        "items": {
          "type": "object",
          "properties": {
            "size": {"type": "string", "enum": ["S", "M", "L", "XL"]},
            "price": {"type": "number", "minimum": 0},
            "inStock": {"type": "boolean"},
            "backLength": {"type": "integer"}
          },
          "required": ["size", "price", "inStock"],
          "additionalProperties": false
        },
        "minItems": 1
      }
    },
    "required": ["variants"],
    "additionalProperties": false
  })");
  json out = run("product.html", schema);
  REQUIRE(out["variants"].size() == 3);
  CHECK(out["variants"][0] ==
        json({{"size", "S"}, {"price", 89.9}, {"inStock", true}, {"backLength", 42}}));
  CHECK(out["variants"][2]["size"] == "L");
  CHECK(out["variants"][2]["price"].get<double>() == Approx(94.9));
  CHECK(out["variants"][2]["inStock"] == false);
}

TEST_CASE("json: repeated cards become objects, nested objects, $ref and formats", "[json]") {
  json schema = json::parse(R"({
    "definitions": {
      "person": {
        "type": "object",
        "properties": {
          "name": {"type": "string"},
          "role": {"type": "string", "enum": ["Engineer", "Designer", "Manager", "Intern"]},
          "email": {"type": "string", "format": "email"},
          "phone": {"type": ["string", "null"]}
        },
        "required": ["name", "email"]
      }
    },
    "type": "object",
    "properties": {
      "team": {"type": "array", "items": {"$ref": "#/definitions/person"}, "maxItems": 2},
      "openPositions": {"type": "array", "items": {"type": "string"}},
      "founded": {"type": "integer", "minimum": 1900, "maximum": 2100},
      "office": {"type": "object", "properties": {"hours": {"type": "string"}}, "required": ["hours"]},
      "fax": {"type": ["string", "null"]}
    },
    "required": ["team", "fax"]
  })");
  json out = run("listing.html", schema);
  REQUIRE(out["team"].size() == 2);  // maxItems
  CHECK(out["team"][0] == json({{"name", "Ada Park"},
                                {"role", "Engineer"},
                                {"email", "ada@corp.example"},
                                {"phone", "(555) 010-2000"}}));
  CHECK(out["team"][1]["role"] == "Designer");
  CHECK(out["openPositions"] == json({"Senior engineer", "Product designer"}));
  CHECK(out["founded"] == 1998);
  CHECK(out["office"]["hours"] == "Monday to Friday");
  CHECK(out["fax"].is_null());  // no evidence, and null is allowed
}

TEST_CASE("json: required fields without evidence get typed defaults that validate", "[json]") {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "warrantyYears": {"type": "integer", "minimum": 1, "maximum": 10},
      "certified": {"type": "boolean"},
      "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
      "grade": {"type": "string", "enum": ["gold", "silver"]},
      "kind": {"const": "backpack"},
      "reviewedAt": {"type": "string", "format": "date-time"},
      "code": {"type": "string", "minLength": 3},
      "nested": {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 5}},
                 "required": ["x"]},
      "optionalThing": {"type": "string"}
    },
    "required": ["warrantyYears", "certified", "grade", "kind", "reviewedAt", "code", "nested"]
  })");
  json out = run("article.html", schema);
  CHECK(out["warrantyYears"] == 1);
  CHECK(out["certified"] == false);
  CHECK(out["grade"] == "gold");
  CHECK(out["kind"] == "backpack");
  CHECK(!out.contains("optionalThing"));               // not required, no evidence: left out
  CHECK(out["reviewedAt"] == "2023-11-02T08:30:00Z");  // the article's date is evidence
}

TEST_CASE("json: article fields: title, author, date-time, summary, links", "[json]") {
  json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "headline": {"type": "string", "maxLength": 12},
      "author": {"type": "string"},
      "published": {"type": "string", "format": "date-time"},
      "summary": {"type": "string"},
      "language": {"type": "string"},
      "headings": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
      "topic": {"type": "string", "enum": ["geology", "rivers", "cooking"]}
    }
  })");
  json out = run("article.html", schema);
  CHECK(out["headline"] == "Why Rivers M");  // cut to maxLength
  CHECK(out["author"] == "Dana Flores");
  CHECK(out["published"] == "2023-11-02T08:30:00Z");
  CHECK(out["summary"].get<std::string>().rfind("Rivers rarely run straight", 0) == 0);
  CHECK(out["language"] == "en");
  CHECK(out["headings"] == json({"Why Rivers Meander", "Oxbow lakes", "Why it matters"}));
  CHECK(out["topic"] == "rivers");
}

TEST_CASE("json: without a schema the prompt picks the keys", "[json]") {
  auto doc = parse(load("product.html"), "https://ridge.example/packs/summit-40");
  json out = extract(doc, {}, nullptr, "Extract the price, the features and the support email");
  INFO(out.dump(2));
  CHECK(out["title"] == "Summit Pack 40 | Ridge Outfitters");
  CHECK(out["price"].get<double>() == Approx(89.9));
  CHECK(out["features"].size() == 3);
  CHECK(out["email"] == "support@ridge.example");
  CHECK(extract(doc, {}, nullptr, "Extract the price, the features and the support email") == out);

  json plain = extract(doc, {}, json::object(), "");
  CHECK(plain["url"] == "https://ridge.example/packs/summit-40");
  CHECK(plain["headings"].size() == 4);
}

TEST_CASE("json: different pages give different values for one schema", "[json]") {
  json schema = {{"type", "object"},
                 {"properties", {{"title", {{"type", "string"}}}, {"email", {{"type", "string"}}}}},
                 {"required", {"title", "email"}}};
  json a = run("product.html", schema);
  json b = run("article.html", schema);
  CHECK(a["title"] != b["title"]);
  CHECK(b["email"] == "editor@geo.example");
}

TEST_CASE("json: hostile and odd schemas still give valid output", "[json]") {
  json recursive = json::parse(R"({
    "type": "object",
    "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}},
    "required": ["name"]
  })");
  run("product.html", recursive);
  json any_of = json::parse(R"({
    "type": "object",
    "properties": {"price": {"anyOf": [{"type": "null"}, {"type": "number"}]},
                   "id": {"type": "string", "pattern": "^[A-Z]{2}-"}},
    "required": ["price"]
  })");
  json out = run("product.html", any_of);
  CHECK(out["price"].get<double>() == Approx(89.9));
  json array_root = {{"type", "array"}, {"items", {{"type", "string"}}}};
  run("product.html", array_root);
}
