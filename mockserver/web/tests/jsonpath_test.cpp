#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "web/jsonpath.hpp"

using nlohmann::json;
using webdata::mock::web::JsonPath;
using webdata::mock::web::JsonPathError;

namespace {

// The selected values, copied, in the order select() returns them.
json selected(const std::string& path, const json& doc) {
  json out = json::array();
  for (const json* v : JsonPath(path).select(doc)) out.push_back(*v);
  return out;
}

const json kBody = json::parse(R"({
  "url": "https://docs.example.com/start",
  "formats": ["markdown", "html"],
  "limit": 10,
  "options": {"onlyMainContent": true, "waitFor": 0, "tag": null}
})");

const json kStore = json::parse(R"({
  "store": {"book": [
    {"title": "A", "price": 8.95, "tags": ["x"], "meta": {"title": "inner"}},
    {"title": "B", "price": 12.99, "isbn": "0-553", "author": "Ann"},
    {"title": "C", "price": 22.99, "author": "Bob", "sale": false}
  ], "name": "Shop", "open": true},
  "empty": null,
  "count": 3
})");

}  // namespace

TEST_CASE("JSONPath subset") {
  const json doc = json::parse(R"({
    "store": {"book": [
      {"title": "A", "price": 8.95, "tags": ["x"]},
      {"title": "B", "price": 12.99, "isbn": "0-553"},
      {"title": "C", "price": 22.99}
    ], "name": "Shop"},
    "empty": null
  })");
  auto count = [&](const std::string& path) { return JsonPath(path).select(doc).size(); };
  CHECK(count("$.store.name") == 1);
  CHECK(count("$['store']['name']") == 1);
  CHECK(count("$.store.book[1].title") == 1);
  CHECK(JsonPath("$.store.book[-1].title").select(doc).front()->get<std::string>() == "C");
  CHECK(count("$.store.book[*].title") == 3);
  CHECK(count("$..title") == 3);
  CHECK(count("$..price") == 3);
  CHECK(count("$.store.book[?(@.isbn)]") == 1);
  CHECK(count("$.store.book[?(!@.isbn)]") == 2);
  CHECK(count("$.store.book[?(@.price > 10)]") == 2);
  CHECK(count("$.store.book[?(@.price > 10 && @.title != 'C')]") == 1);
  CHECK(count("$.store.book[?(@.title == 'A' || @.title == \"C\")]") == 2);
  CHECK(count("$.store.book[?(@.title =~ /[ab]/i)]") == 2);
  CHECK(count("$.store.book[0,2]") == 2);
  CHECK(count("$.missing") == 0);
  CHECK(count("$.store.*") == 2);
  CHECK_FALSE(JsonPath("$..title").definite());
  CHECK(JsonPath("$.store.book[0]").definite());
  CHECK_THROWS_WITH(JsonPath("$.a[1:3]"), Catch::Contains("slices"));
  CHECK_THROWS_WITH(JsonPath("$.a.length()"), Catch::Contains("functions"));
  CHECK_THROWS_AS(JsonPath("store.book"), JsonPathError);
}

TEST_CASE("JSONPath: a filter on an object tests the object itself, as Jayway JsonPath does") {
  CHECK(selected("$[?(@.url =~ /.*docs\\..*/)]", kBody) == json::array({kBody}));
  CHECK(selected("$[?(@.url =~ /.*blog\\..*/)]", kBody).empty());
  // =~ is a whole-string match, not a search.
  CHECK(selected("$[?(@.url =~ /docs/)]", kBody).empty());
  CHECK(selected("$[?(@.url =~ /HTTPS:.*/i)]", kBody).size() == 1);
  CHECK(selected("$[?(@.limit == 10)]", kBody).size() == 1);
  CHECK(selected("$[?(@.options.onlyMainContent == true)]", kBody).size() == 1);
  CHECK(selected("$[?(@.missing)]", kBody).empty());
  CHECK(selected("$.options[?(@.waitFor < 1)]", kBody) == json::array({kBody["options"]}));
  // A filter on a scalar selects nothing.
  CHECK(selected("$.limit[?(@ == 10)]", kBody).empty());
  // On an array, each element is tested; `@` is the element itself.
  CHECK(selected("$.formats[?(@ == 'html')]", kBody) == json::array({"html"}));
  CHECK(selected("$.formats[?(@ =~ /mark.*/)]", kBody) == json::array({"markdown"}));
}

TEST_CASE("JSONPath: comparisons of numbers, strings, booleans, null and other paths") {
  CHECK(selected("$.store.book[?(@.price >= 12.99)].title", kStore) == json::array({"B", "C"}));
  CHECK(selected("$.store.book[?(@.price <= 12.99)].title", kStore) == json::array({"A", "B"}));
  CHECK(selected("$.store.book[?(@.price < 12.99)].title", kStore) == json::array({"A"}));
  CHECK(selected("$.store.book[?(@.price != 8.95)].title", kStore) == json::array({"B", "C"}));
  // Numbers compare by value, whatever their JSON spelling.
  CHECK(selected("$[?(@.count == 3.0)]", kStore).size() == 1);
  CHECK(selected("$[?(@.count == 3e0)]", kStore).size() == 1);
  // Strings order lexicographically.
  CHECK(selected("$.store.book[?(@.author > 'Ann')].title", kStore) == json::array({"C"}));
  CHECK(selected("$.store.book[?(@.sale == false)].title", kStore) == json::array({"C"}));
  CHECK(selected("$[?(@.empty == null)]", kStore).size() == 1);
  // A path on the right-hand side, read from the same element.
  CHECK(selected("$.store.book[?(@.title == @.meta.title)]", kStore).empty());
  CHECK(selected("$.store.book[?(@.title == @.title)].title", kStore).size() == 3);
  // Ordering across types, or against an absent member, never holds.
  CHECK(selected("$.store.book[?(@.title > 5)]", kStore).empty());
  CHECK(selected("$.store.book[?(@.isbn < 'z')].title", kStore) == json::array({"B"}));
  // Grouping with parentheses.
  CHECK(selected("$.store.book[?((@.price > 20 || @.isbn) && @.author)].title", kStore) ==
        json::array({"B", "C"}));
  CHECK(selected("$.store.book[?(@.tags && !@.isbn)].title", kStore) == json::array({"A"}));
}

TEST_CASE("JSONPath: wildcards, unions and negative indexes") {
  CHECK(selected("$.store.book[*].title", kStore) == json::array({"A", "B", "C"}));
  CHECK(selected("$.store.book.*.title", kStore) == json::array({"A", "B", "C"}));
  CHECK(selected("$.formats.*", kBody) == json::array({"markdown", "html"}));
  CHECK(selected("$.store.book[-2].title", kStore) == json::array({"B"}));
  CHECK(selected("$.store.book[-4]", kStore).empty());
  CHECK(selected("$.store.book[3]", kStore).empty());
  CHECK(selected("$.store.book[2,0].title", kStore) == json::array({"C", "A"}));
  CHECK(selected("$.store['name','open']", kStore) == json::array({"Shop", true}));
  CHECK(selected("$[\"count\"]", kStore) == json::array({3}));
  // A wildcard on a scalar selects nothing.
  CHECK(selected("$.count.*", kStore).empty());
  CHECK_FALSE(JsonPath("$.store.book[*]").definite());
  CHECK_FALSE(JsonPath("$.store.book[0,1]").definite());
  CHECK_FALSE(JsonPath("$.store.book[?(@.isbn)]").definite());
  CHECK(JsonPath("$['store'].name").definite());
  CHECK(JsonPath("$").definite());
  CHECK(selected("$", kBody) == json::array({kBody}));
}

TEST_CASE("JSONPath: recursive descent") {
  // Every "title" at any depth, in document order (the nested meta.title included).
  CHECK(selected("$..title", kStore) == json::array({"A", "inner", "B", "C"}));
  CHECK(selected("$.store..author", kStore) == json::array({"Ann", "Bob"}));
  CHECK(selected("$..book[0].title", kStore) == json::array({"A"}));
  // `..[?()]` applies the filter to every array and every object below the root; a filter on an
  // object tests the object itself, so an element is found once through its array and once on
  // its own. matchesJsonPath asks only whether anything is found, so the repeat changes no match.
  CHECK(selected("$..[?(@.isbn)].title", kStore) == json::array({"B", "B"}));
  CHECK(selected("$..book[?(@.price > 20)].author", kStore) == json::array({"Bob"}));
  // `..*` is every value below the root (members in key order: the parsed object sorts them).
  CHECK(selected("$.options..*", kBody) == json::array({true, nullptr, 0}));
  CHECK(selected("$..nothing", kStore).empty());
}

TEST_CASE("JSONPath: bad expressions are refused with a reason, never a crash") {
  const auto refused = [](const std::string& path, const std::string& reason) {
    INFO(path);
    CHECK_THROWS_AS(JsonPath(path), JsonPathError);
    CHECK_THROWS_WITH(JsonPath(path), Catch::Contains(reason) && Catch::Contains("'" + path + "'"));
  };
  refused("", "must start with '$'");
  refused("store.book", "must start with '$'");
  refused("$.", "expected a member name");
  refused("$.a[", "expected an index");
  refused("$.a[0", "expected ']'");
  refused("$.a['x", "unterminated string");
  refused("$.a[1:3]", "slices");
  refused("$.a.length()", "functions");
  refused("$.a[?(@.b == $.c)]", "only refer to '@'");
  refused("$.a[?(@.b ==)]", "expected a literal");
  refused("$.a[?(@.b == 'x']", "expected ')'");
  refused("$.a[?(@.b == 'x')", "expected ']'");
  refused("$.a[?(@.b =~ x)]", "=~ needs /regex/");
  refused("$.a[?(@.b =~ /x)]", "unterminated /regex/");
  refused("$.a[?(5)]", "must be a path or a comparison");
  refused("$.a[?(!5)]", "'!' needs a path");
  refused("$.a[99999999999999999999999]", "out of range");
  refused("$.a junk", "unexpected");
  refused("$.a[?(" + std::string(200, '(') + "@.b" + std::string(200, ')') + ")]", "nest deeper");
  // A regex std::regex cannot compile is a JSONPath error too, with the regex's reason.
  CHECK_THROWS_AS(JsonPath("$[?(@.a =~ /([/)]"), JsonPathError);
  CHECK_THROWS_WITH(JsonPath("$[?(@.a =~ /([/)]"), Catch::Contains("invalid regular expression"));
}

TEST_CASE("JSONPath: one compiled path answers for many documents") {
  const JsonPath path("$.items[?(@.n > 1)].n");
  CHECK(path.select(json::parse(R"({"items": [{"n": 1}, {"n": 2}]})")).size() == 1);
  CHECK(path.select(json::parse(R"({"items": {"n": 5}})")).size() == 1);
  CHECK(path.select(json::parse(R"([1, 2])")).empty());
  CHECK(path.select(json("text")).empty());
  CHECK(path.select(json()).empty());
}
