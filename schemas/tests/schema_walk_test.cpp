#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include <webdata/contract/schema_walk.hpp>

using nlohmann::json;
using webdata::contract::MemberSchemas;
using webdata::contract::SchemaEditor;
using webdata::contract::SchemaNode;
using webdata::contract::SchemaVisitor;
using webdata::contract::SchemaWalker;

namespace {

SchemaNode at(const json& schema) {
  return SchemaNode{nullptr, &schema};
}

// Records the schema nodes walk() enters, by their "title", with the value met there.
class Recorder final : public SchemaVisitor {
 public:
  std::vector<std::string> entered;
  std::optional<std::size_t> pick;
  bool enter(const SchemaNode& node, const json& value) override {
    entered.push_back(node.schema->value("title", "?") + "=" + value.dump());
    return node.schema->value("title", "") != "stop";
  }
  std::optional<std::size_t> choose(const SchemaNode&, const std::vector<SchemaNode>&,
                                    const json&) override {
    return pick;
  }
};

const json kRoot = json::parse(R"({
  "definitions": {
    "name": {"type": "string", "title": "name", "minLength": 1},
    "alias": {"$ref": "#/definitions/name"},
    "loop": {"$ref": "#/definitions/loop"},
    "tagged": {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]}
  },
  "type": "object",
  "title": "root",
  "properties": {
    "first": {"$ref": "#/definitions/alias", "description": "over the target"},
    "list": {"type": "array", "title": "list", "items": {"title": "item", "type": ["integer", "null"]}},
    "pair": {"title": "pair", "items": [{"title": "p0"}, {"title": "p1"}], "additionalItems": {"title": "more"}}
  },
  "patternProperties": {"^x-": {"title": "ext"}, "^x-a": {"title": "ext-a"}},
  "additionalProperties": false
})");

}  // namespace

TEST_CASE("schema walk: local $ref chains are followed, dangling refs and cycles stop") {
  const SchemaWalker walker(kRoot);
  const json& first = kRoot["properties"]["first"];
  CHECK(walker.deref(at(first)).schema == &kRoot["definitions"]["name"]);
  CHECK(walker.resolve(at(first), "#")->schema == &kRoot);
  CHECK_FALSE(walker.resolve(at(first), "#/definitions/none"));
  CHECK_FALSE(walker.resolve(at(first), "other.json#/x"));  // not local
  CHECK_FALSE(walker.resolve(at(first), "#/definitions/~9bad"));
  const json dangling = {{"$ref", "#/nowhere"}};
  CHECK(walker.deref(at(dangling)).schema == &dangling);
  // A cycle ends after a bounded number of hops, at a node still holding its $ref.
  const SchemaNode loop = walker.deref(at(kRoot["definitions"]["loop"]));
  CHECK(loop.schema->contains("$ref"));
}

TEST_CASE("schema walk: a resolver of the caller's resolves refs across documents") {
  const std::map<std::string, json> docs = {
      {"a", json::parse(R"({"properties": {"x": {"$ref": "b#/definitions/y"}}})")},
      {"b", json::parse(R"({"definitions": {"y": {"type": "integer"}}})")}};
  const SchemaWalker walker([&docs](const SchemaNode& from, const std::string& ref) {
    const auto hash = ref.find('#');
    const auto doc = docs.find(ref.substr(0, hash));
    if (doc == docs.end()) return std::optional<SchemaNode>();
    CHECK(from.doc != nullptr);
    return std::optional<SchemaNode>(
        SchemaNode{&doc->first, &doc->second.at(json::json_pointer(ref.substr(hash + 1)))});
  });
  const auto& a = *docs.find("a");
  const SchemaNode x = walker.member(SchemaNode{&a.first, &a.second}, "x").property.value();
  const SchemaNode y = walker.deref(x);
  CHECK(*y.doc == "b");
  CHECK(SchemaWalker::types(*y.schema) == std::vector<std::string>{"integer"});
}

TEST_CASE("schema walk: flatten folds $ref, allOf and a chosen anyOf/oneOf branch") {
  const SchemaWalker walker(kRoot);
  // The $ref's target, with the node's own keywords over it.
  const json first = walker.flatten(at(kRoot["properties"]["first"]));
  CHECK(first == json({{"type", "string"},
                       {"title", "name"},
                       {"minLength", 1},
                       {"description", "over the target"}}));

  const json merged = json::parse(R"({
    "title": "own",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "allOf": [
      {"$ref": "#/definitions/tagged"},
      {"title": "part", "properties": {"a": {"type": "number"}, "b": {}}, "required": ["a", "b"]}
    ]
  })");
  const json flat = walker.flatten(at(merged));
  CHECK_FALSE(flat.contains("allOf"));
  CHECK(flat["title"] == "own");                       // the node's own keywords come first
  CHECK(flat["type"] == "object");                     // from the first part
  CHECK(flat["properties"]["a"]["type"] == "string");  // a property named twice: first wins
  CHECK(flat["properties"].contains("kind"));
  CHECK(flat["properties"].contains("b"));
  CHECK(flat["required"] == json({"a", "kind", "b"}));  // unioned, no repeats

  const json either =
      json::parse(R"({"anyOf": [{"type": "null"}, {"$ref": "#/definitions/name"}]})");
  // Without a chooser the branches stay for the caller.
  CHECK(walker.flatten(at(either)) == either);
  const auto not_null = [](const std::vector<json>& branches) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < branches.size(); ++i) {
      if (branches[i].value("type", "") != "null") return i;
    }
    return std::nullopt;
  };
  const json chosen = walker.flatten(at(either), not_null);
  CHECK_FALSE(chosen.contains("anyOf"));
  CHECK(chosen["type"] == "string");
  CHECK(chosen["minLength"] == 1);
  // A chooser that declines leaves the keyword as it is.
  const json declined = walker.flatten(
      at(either), [](const std::vector<json>&) { return std::optional<std::size_t>(); });
  CHECK(declined == either);

  // Schemas that are not objects come back unchanged; a cycle or a dangling ref ends.
  CHECK(walker.flatten(at(json(true))) == json(true));
  const json cyclic = walker.flatten(at(kRoot["definitions"]["loop"]));
  CHECK(cyclic.is_object());
  CHECK(walker.flatten(SchemaNode{}) == json::object());
  const json dangling = {{"$ref", "#/nowhere"}, {"title", "kept"}};
  CHECK(walker.flatten(at(dangling)) == json({{"title", "kept"}}));
}

TEST_CASE("schema walk: members, items and types") {
  const SchemaWalker walker(kRoot);
  const SchemaNode root = at(kRoot);
  const MemberSchemas first = walker.member(root, "first");
  CHECK(first.property.has_value());
  CHECK_FALSE(first.forbidden);
  // An unknown member: additionalProperties false.
  const MemberSchemas unknown = walker.member(root, "zzz");
  CHECK(unknown.forbidden);
  CHECK_FALSE(unknown.property);
  // A pattern match makes the member known; every matching pattern applies.
  const MemberSchemas ext = walker.member(root, "x-a");
  CHECK(ext.patterns.size() == 2);
  CHECK_FALSE(ext.forbidden);
  CHECK_FALSE(ext.additional);
  CHECK(walker.member(root, "x-b").patterns.size() == 1);
  // A pattern std::regex cannot read counts as matching (the author meant it to apply).
  const json broken =
      json::parse(R"({"patternProperties": {"[": {}}, "additionalProperties": false})");
  CHECK(walker.member(at(broken), "anything").patterns.size() == 1);
  CHECK_FALSE(walker.member(at(broken), "anything").forbidden);
  const json open = json::parse(R"({"additionalProperties": {"title": "extra"}})");
  CHECK(walker.member(at(open), "any").additional.value().schema->at("title") == "extra");
  CHECK_FALSE(walker.member(at(json::object()), "any").forbidden);

  const json& pair = kRoot["properties"]["pair"];
  CHECK(walker.item(at(pair), 0)->schema->at("title") == "p0");
  CHECK(walker.item(at(pair), 1)->schema->at("title") == "p1");
  CHECK(walker.item(at(pair), 5)->schema->at("title") == "more");
  CHECK(walker.item(at(kRoot["properties"]["list"]), 9)->schema->at("title") == "item");
  CHECK_FALSE(walker.item(root, 0));

  CHECK(SchemaWalker::types(kRoot["properties"]["list"]["items"]) ==
        std::vector<std::string>{"integer", "null"});
  CHECK(SchemaWalker::types(json::object()).empty());
  CHECK(SchemaWalker::types(json({{"type", json::array({1, "string"})}})) ==
        std::vector<std::string>{"string"});
  CHECK(SchemaWalker::has_type("integer", json(3)));
  CHECK_FALSE(SchemaWalker::has_type("integer", json(3.5)));
  CHECK(SchemaWalker::has_type("number", json(3)));
  CHECK(SchemaWalker::has_type("null", json()));
  CHECK_FALSE(SchemaWalker::has_type("object", json::array()));
  CHECK(SchemaWalker::has_type("made-up", json("anything")));
  CHECK(SchemaWalker::allowed_value(json({{"enum", {"a", "b"}}}), json("b")));
  CHECK_FALSE(SchemaWalker::allowed_value(json({{"enum", {"a", "b"}}}), json("c")));
  CHECK_FALSE(SchemaWalker::allowed_value(json({{"const", 1}}), json(2)));
  CHECK(SchemaWalker::allowed_value(json({{"const", 1}, {"enum", {1, 2}}}), json(1)));
}

TEST_CASE("schema walk: walk() meets each value with its schema and the visitor steers") {
  const SchemaWalker walker(kRoot);
  const json value =
      json::parse(R"({"first": "x", "list": [1, null], "pair": [1, 2, 3], "x-a": 0})");
  Recorder recorder;
  walker.walk(at(kRoot), value, recorder);
  CHECK(recorder.entered == std::vector<std::string>{"root=" + value.dump(), "name=\"x\"",
                                                     "list=[1,null]", "item=1", "item=null",
                                                     "pair=[1,2,3]", "p0=1", "p1=2", "more=3",
                                                     "ext=0", "ext-a=0"});

  // allOf branches are all walked; anyOf/oneOf only into the branch the visitor picks.
  const json combined = json::parse(R"({
    "title": "top",
    "allOf": [{"title": "all0"}, {"title": "stop", "properties": {"a": {"title": "hidden"}}}],
    "anyOf": [{"title": "any0"}, {"title": "any1"}],
    "oneOf": [{"title": "one0"}, {"title": "one1"}]
  })");
  Recorder none;
  walker.walk(at(combined), json({{"a", 1}}), none);
  CHECK(none.entered ==
        std::vector<std::string>{"top={\"a\":1}", "all0={\"a\":1}", "stop={\"a\":1}"});
  Recorder second;
  second.pick = 1;
  walker.walk(at(combined), json(1), second);
  CHECK(second.entered ==
        std::vector<std::string>{"top=1", "all0=1", "stop=1", "any1=1", "one1=1"});
  Recorder out_of_range;
  out_of_range.pick = 7;
  walker.walk(at(combined), json(1), out_of_range);
  CHECK(out_of_range.entered.size() == 3);
}

TEST_CASE("schema walk: an editing visitor fills values on the way down") {
  const json schema = json::parse(R"({
    "definitions": {"limits": {"properties": {"max": {"default": 5}}}},
    "properties": {
      "limits": {"$ref": "#/definitions/limits", "default": {}},
      "tags": {"items": {"properties": {"seen": {"default": false}}}}
    }
  })");
  // Inserts each absent property's default, then the walk descends into what it inserted.
  class Defaults final : public SchemaEditor {
   public:
    bool enter(const SchemaNode& node, json& value) override {
      if (!value.is_object() || !node.schema->contains("properties")) return true;
      for (const auto& [key, prop] : node.schema->at("properties").items()) {
        if (!value.contains(key) && prop.contains("default")) value[key] = prop["default"];
      }
      return true;
    }
  } defaults;
  json value = {{"tags", json::array({json::object(), {{"seen", true}}})}};
  SchemaWalker(schema).walk(at(schema), value, defaults);
  CHECK(value ==
        json::parse(R"({"limits": {"max": 5}, "tags": [{"seen": false}, {"seen": true}]})"));
}

TEST_CASE("schema walk: deep or hostile schemas end") {
  // allOf nested far deeper than the flatten bound: flatten stops, walk follows the value only.
  json deep = json::object();
  for (int i = 0; i < 200; ++i) deep = json({{"allOf", json::array({deep})}});
  const SchemaWalker walker(deep);
  CHECK(walker.flatten(at(deep)).is_object());
  const json self = json::parse(R"({"$ref": "#", "properties": {"a": {"$ref": "#"}}})");
  const SchemaWalker self_walker(self);
  CHECK(self_walker.flatten(at(self)).is_object());
  Recorder recorder;
  self_walker.walk(at(self), json::parse(R"({"a": {"a": {"a": 1}}})"), recorder);
  CHECK(recorder.entered.size() == 4);  // bounded by the value, not the schema's cycle
}
