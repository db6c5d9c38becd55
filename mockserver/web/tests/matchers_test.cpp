#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "web/matchers.hpp"

using nlohmann::json;
using webdata::mock::web::json_equivalent;
using webdata::mock::web::PatternError;
using webdata::mock::web::ValuePattern;

namespace {
bool matches(const json& spec, const std::optional<std::string>& value) {
  return ValuePattern::compile(spec)->matches(value);
}
}  // namespace

TEST_CASE("string patterns: equalTo, caseInsensitive, contains, doesNotContain") {
  CHECK(matches({{"equalTo", "abc"}}, std::string("abc")));
  CHECK_FALSE(matches({{"equalTo", "abc"}}, std::string("ABC")));
  CHECK(matches({{"equalTo", "abc"}, {"caseInsensitive", true}}, std::string("ABC")));
  CHECK_FALSE(matches({{"equalTo", "abc"}}, std::nullopt));
  CHECK(matches({{"contains", "ell"}}, std::string("hello")));
  CHECK_FALSE(matches({{"contains", "xyz"}}, std::string("hello")));
  CHECK(matches({{"doesNotContain", "xyz"}}, std::string("hello")));
  CHECK_FALSE(matches({{"doesNotContain", "ell"}}, std::string("hello")));
}

TEST_CASE("string patterns: matches and doesNotMatch are full-string regexes") {
  CHECK(matches({{"matches", "/api/[0-9]+"}}, std::string("/api/42")));
  CHECK_FALSE(matches({{"matches", "[0-9]+"}}, std::string("/api/42")));
  CHECK(matches({{"matches", "(?i)mobile.*"}}, std::string("MOBILE safari")));
  CHECK(matches({{"doesNotMatch", "[0-9]+"}}, std::string("abc")));
  CHECK_FALSE(matches({{"doesNotMatch", "[a-z]+"}}, std::string("abc")));
  // Like WireMock, negative matchers accept an absent header or parameter.
  CHECK(matches({{"doesNotMatch", "x"}}, std::nullopt));
  CHECK(matches({{"doesNotContain", "x"}}, std::nullopt));
  CHECK_FALSE(matches({{"contains", "x"}}, std::nullopt));
  // Long input is refused instead of overflowing the stack in std::regex.
  CHECK_FALSE(matches({{"matches", ".*"}}, std::string(100000, 'a')));
}

TEST_CASE("string patterns: absent, and, or") {
  CHECK(matches({{"absent", true}}, std::nullopt));
  CHECK_FALSE(matches({{"absent", true}}, std::string("")));
  const json both = {{"and", json::array({{{"contains", "a"}}, {{"contains", "b"}}})}};
  CHECK(matches(both, std::string("ab")));
  CHECK_FALSE(matches(both, std::string("a")));
  const json either = {{"or", json::array({{{"equalTo", "a"}}, {{"equalTo", "b"}}})}};
  CHECK(matches(either, std::string("b")));
  CHECK_FALSE(matches(either, std::string("c")));
}

TEST_CASE("string patterns: unsupported or malformed specs are refused with a reason") {
  CHECK_THROWS_WITH(ValuePattern::compile({{"equalToXml", "<a/>"}}),
                    Catch::Contains("equalToXml") && Catch::Contains("not supported"));
  CHECK_THROWS_WITH(ValuePattern::compile({{"wibble", "x"}}),
                    Catch::Contains("unknown matcher key"));
  CHECK_THROWS_WITH(ValuePattern::compile({{"matches", "(unclosed"}}),
                    Catch::Contains("invalid regular expression"));
  CHECK_THROWS_WITH(ValuePattern::compile({{"contains", "x"}, {"caseInsensitive", true}}),
                    Catch::Contains("caseInsensitive"));
  CHECK_THROWS_AS(ValuePattern::compile({{"equalTo", "a"}, {"contains", "b"}}), PatternError);
  CHECK_THROWS_AS(ValuePattern::compile({{"absent", false}}), PatternError);
  CHECK_THROWS_AS(ValuePattern::compile("equalTo"), PatternError);
}

TEST_CASE("equalToJson: order, extra elements, numbers, placeholders") {
  const json expected = {{"a", 1}, {"list", {1, 2, 3}}};
  CHECK(json_equivalent(expected, json::parse(R"({"list":[1,2,3],"a":1.0})"), false, false));
  CHECK_FALSE(json_equivalent(expected, json::parse(R"({"a":1,"list":[3,2,1]})"), false, false));
  CHECK(json_equivalent(expected, json::parse(R"({"a":1,"list":[3,2,1]})"), true, false));
  CHECK_FALSE(
      json_equivalent(expected, json::parse(R"({"a":1,"list":[1,2,3],"b":2})"), false, false));
  CHECK(json_equivalent(expected, json::parse(R"({"a":1,"list":[1,2,3,4],"b":2})"), false, true));
  CHECK(json_equivalent(expected, json::parse(R"({"a":1,"list":[4,3,2,1]})"), true, true));
  CHECK_FALSE(json_equivalent(expected, json::parse(R"({"a":2,"list":[1,2,3]})"), true, true));
  CHECK(json_equivalent({{"id", "${json-unit.any-string}"}, {"n", "${json-unit.any-number}"}},
                        {{"id", "x"}, {"n", 4}}, false, false));
  CHECK_FALSE(json_equivalent({{"id", "${json-unit.any-string}"}}, {{"id", 3}}, false, false));
  CHECK(json_equivalent({{"id", "${json-unit.regex}[a-z]+-[0-9]+"}}, {{"id", "job-42"}}, false,
                        false));
  CHECK(json_equivalent({{"x", "${json-unit.ignore}"}}, {{"x", {1, 2}}}, false, false));

  const json spec = {{"equalToJson", R"({"url":"https://a.test","formats":["markdown"]})"},
                     {"ignoreExtraElements", true}};
  CHECK(matches(spec, std::string(R"({"formats":["markdown"],"url":"https://a.test","x":1})")));
  CHECK_FALSE(matches(spec, std::string("not json")));
}

TEST_CASE("matchesJsonPath as a body pattern, with and without a sub-matcher") {
  const std::string body =
      R"({"url":"https://docs.example.test/","formats":["markdown","html"],"n":null})";
  CHECK(matches({{"matchesJsonPath", "$.url"}}, body));
  CHECK_FALSE(matches({{"matchesJsonPath", "$.nope"}}, body));
  CHECK_FALSE(matches({{"matchesJsonPath", "$.n"}}, body));
  CHECK(matches({{"matchesJsonPath", "$.formats[?(@ == 'html')]"}}, body));
  // A filter on an object tests the object itself, as WireMock's JsonPath does.
  CHECK(matches({{"matchesJsonPath", "$[?(@.url =~ /.*docs\\..*/)]"}}, body));
  CHECK_FALSE(matches({{"matchesJsonPath", "$[?(@.url =~ /.*blog\\..*/)]"}}, body));
  CHECK_FALSE(matches({{"matchesJsonPath", "$[?(@.missing)]"}}, body));
  CHECK(matches({{"matchesJsonPath", {{"expression", "$.url"}, {"contains", "docs."}}}}, body));
  CHECK_FALSE(
      matches({{"matchesJsonPath", {{"expression", "$.url"}, {"contains", "blog."}}}}, body));
  CHECK(
      matches({{"matchesJsonPath", {{"expression", "$.formats[*]"}, {"equalTo", "html"}}}}, body));
  CHECK(matches({{"matchesJsonPath",
                  {{"expression", "$.formats"}, {"equalToJson", R"(["markdown","html"])"}}}},
                body));
  CHECK_FALSE(matches({{"matchesJsonPath", "$.url"}}, std::string("{broken")));
}
