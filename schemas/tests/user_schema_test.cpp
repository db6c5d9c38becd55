// UserSchema: a schema sent by a user, checked by valijson; what valijson cannot compile is left
// out rather than failing the request.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include <webdata/contract/user_schema.hpp>

using nlohmann::json;
using webdata::contract::UserSchema;

TEST_CASE("user schema: draft-07 keywords, local $refs, nodes read against the root",
          "[user-schema]") {
  const json root = json::parse(R"({
    "type": "object",
    "required": ["name", "tags"],
    "properties": {
      "name": {"type": "string", "minLength": 2},
      "price": {"$ref": "#/definitions/money"},
      "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}, "uniqueItems": true},
      "kind": {"anyOf": [{"enum": ["book", "film"]}, {"type": "null"}]},
      "child": {"$ref": "#"}
    },
    "additionalProperties": false,
    "definitions": {"money": {"type": "number", "minimum": 0, "multipleOf": 0.01}},
    "$defs": {"tag": {"type": "string", "pattern": "^[a-z]+$"}}
  })");
  const UserSchema schema(root);
  CHECK(schema.accepts({{"name", "Quarry"}, {"tags", {"db"}}, {"price", 9.99}, {"kind", nullptr}}));
  CHECK(schema.accepts({{"name", "Quarry"},
                        {"tags", json::array()},
                        {"child", {{"name", "Inner"}, {"tags", {"x"}}}}}));
  CHECK_FALSE(schema.accepts({{"name", "Q"}, {"tags", json::array()}}));           // minLength
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}}));                               // required
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {"DB"}}}));             // $defs pattern
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {"a", "a"}}}));         // uniqueItems
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {}}, {"price", -1}}));  // minimum
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {}}, {"kind", "song"}}));  // anyOf
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {}}, {"extra", 1}}));      // additional
  CHECK_FALSE(schema.accepts({{"name", "Quarry"}, {"tags", {}}, {"child", {{"name", "I"}}}}));
  CHECK_FALSE(schema.accepts({{"name", 3}, {"tags", {}}}));  // strong types: no "3" for 3 either

  // A node of the root, and a copy of one: its $refs still reach the root's definitions.
  const json& price = root["properties"]["price"];
  CHECK(schema.accepts(12.5, price));
  CHECK(schema.accepts(19.99, price));  // a fractional multipleOf within a tolerance
  CHECK_FALSE(schema.accepts(19.995, price));
  CHECK_FALSE(schema.accepts("12.5", price));
  const json tags_copy = root["properties"]["tags"];
  CHECK(schema.accepts({"a", "b"}, tags_copy));
  CHECK_FALSE(schema.accepts({"a", "B"}, tags_copy));
  CHECK(schema.accepts(nullptr, json::parse(R"({"type": ["integer", "null"]})")));
  CHECK_FALSE(schema.accepts(2.5, json::parse(R"({"type": "integer"})")));
}

TEST_CASE("user schema: checked formats are patterns, the rest annotations, and null passes",
          "[user-schema]") {
  const json root = json::parse(R"({"type": "object", "properties": {
    "email": {"type": ["string", "null"], "format": "email"},
    "when": {"type": "string", "format": "date", "pattern": "^2"},
    "host": {"type": "string", "format": "hostname"}}})");
  const UserSchema schema(root,
                          {{"email", "^[^@]+@[^@]+$"}, {"date", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}});
  CHECK(schema.accepts({{"email", "a@b.test"}, {"when", "2024-05-01"}, {"host", "not a host!"}}));
  CHECK(schema.accepts({{"email", nullptr}}));
  CHECK_FALSE(schema.accepts({{"email", "nobody"}}));
  CHECK_FALSE(schema.accepts({{"when", "2024-05"}}));      // the format's pattern
  CHECK_FALSE(schema.accepts({{"when", "1999-05-01"}}));   // and the node's own pattern
  CHECK(UserSchema(root).accepts({{"email", "nobody"}}));  // no formats checked: annotations
}

TEST_CASE("user schema: what valijson cannot compile is left out, never a crash or a hang",
          "[user-schema]") {
  // A dangling $ref, one to another document, a cycle of refs, a regex std::regex refuses.
  const json root = json::parse(R"({"type": "object", "properties": {
    "a": {"$ref": "#/definitions/missing"},
    "b": {"$ref": "https://elsewhere.test/schema.json#/x"},
    "c": {"$ref": "#/definitions/loop1"},
    "d": {"type": "string", "pattern": "(unclosed"},
    "e": {"type": "object", "patternProperties": {"[z-a]": {"type": "integer"}, "^n": {"type": "number"}}},
    "f": {"type": "integer"}},
    "definitions": {"loop1": {"$ref": "#/definitions/loop2"}, "loop2": {"$ref": "#/definitions/loop1"}}})");
  const UserSchema schema(root);
  CHECK(
      schema.accepts({{"a", 1}, {"b", "x"}, {"c", true}, {"d", "anything"}, {"e", {{"zz", "s"}}}}));
  CHECK_FALSE(schema.accepts({{"e", {{"n1", "not a number"}}}}));  // the readable pattern stays
  CHECK_FALSE(schema.accepts({{"f", "x"}}));                       // and the rest of the schema

  // Not a schema at all where one belongs: accepts everything, as the walker reads nothing there.
  const UserSchema broken(json::parse(R"({"type": "array", "items": 5})"));
  CHECK(broken.accepts(json::array({1, "x"})));
  CHECK(UserSchema(json(true)).accepts(42));
  CHECK_FALSE(UserSchema(json(false)).accepts(42));
}

TEST_CASE("user schema: one schema checked from many threads", "[user-schema]") {
  const UserSchema schema(json::parse(
      R"({"type": "array", "items": {"$ref": "#/definitions/n"}, "definitions": {"n": {"type": "integer", "maximum": 9}}})"));
  std::vector<std::thread> threads;
  std::vector<int> right(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const json node = {{"type", "integer"}, {"maximum", i % 5}};  // new nodes to compile too
        right[t] += schema.accepts({1, 2, 3}) && !schema.accepts({10}) &&
                    schema.accepts(i % 5, node) && !schema.accepts(i % 5 + 1, node);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(right == std::vector<int>(4, 50));
}
