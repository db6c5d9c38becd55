// json_text must write exactly the bytes of nlohmann's dump(-1, ' ', false, replace): answers are
// compared byte for byte by clients that cache them, and the conformance suite reads both.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "core/json_text.hpp"

using webdata::mock::json_text;
using json = nlohmann::json;

namespace {

std::string reference(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string random_bytes(std::mt19937& rng, std::size_t max_len, bool ascii_heavy) {
  std::uniform_int_distribution<std::size_t> len(0, max_len);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> ascii(0x20, 0x7e);
  std::uniform_int_distribution<int> pick(0, 9);
  std::string s(len(rng), '\0');
  for (char& c : s) c = static_cast<char>(ascii_heavy && pick(rng) != 0 ? ascii(rng) : byte(rng));
  return s;
}

json random_value(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 3 ? 5 : 7);
  switch (kind(rng)) {
    case 0: return nullptr;
    case 1: return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    case 2: return std::uniform_int_distribution<long long>(-1000000, 1000000)(rng);
    case 3: return std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
    case 4:
    case 5: return random_bytes(rng, 40, true);
    case 6: {
      json object = json::object();
      for (int i = std::uniform_int_distribution<int>(0, 4)(rng); i > 0; --i) {
        object[random_bytes(rng, 8, true)] = random_value(rng, depth + 1);
      }
      return object;
    }
    default: {
      json array = json::array();
      for (int i = std::uniform_int_distribution<int>(0, 4)(rng); i > 0; --i) {
        array.push_back(random_value(rng, depth + 1));
      }
      return array;
    }
  }
}

}  // namespace

TEST_CASE("json_text writes nlohmann's bytes for every kind of value", "[core][json]") {
  const json cases[] = {
      nullptr, true, false, 0, -1, 42u, 18446744073709551615ull, -9223372036854775807LL - 1,
      1.5, -0.0, 1e300, 3.141592653589793, json::object(), json::array(), "",
      "plain", "quote \" backslash \\ slash / del \x7f",
      std::string("controls \x01\x02\b\f\n\r\t\x1f and nul ") + std::string(1, '\0') + "!",
      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbd",  // é, €, an emoji, U+FFFD
      "invalid \xff\xfe bytes \xc3 cut", "overlong \xc0\xaf", "surrogate \xed\xa0\x80 x",
      "above U+10FFFF \xf4\x90\x80\x80", "truncated at the end \xe2\x82",
      json{{"b", 1}, {"a", {{"nested", json::array({1, "two", nullptr, json::object()})}}},
           {"key \"quoted\"\n", "v"}, {"caf\xc3\xa9", "\xff"}},
      json::array({json::array(), json::array({json::array()}), json::object({{"", ""}})}),
  };
  for (const json& value : cases) {
    INFO(reference(value));
    CHECK(json_text(value) == reference(value));
  }
}

TEST_CASE("json_text matches nlohmann on random documents and random bytes", "[core][json]") {
  std::mt19937 rng(20261125);
  for (int i = 0; i < 3000; ++i) {
    const json value = random_value(rng, 0);
    REQUIRE(json_text(value) == reference(value));
  }
  for (int i = 0; i < 3000; ++i) {
    const json value = random_bytes(rng, 64, i % 2 == 0);
    REQUIRE(json_text(value) == reference(value));
  }
}

TEST_CASE("json_text of a long page-sized string", "[core][json]") {
  std::string markdown;
  for (int i = 0; i < 2000; ++i) markdown += "# Title " + std::to_string(i) + "\n\n\"quoted\" \\ caf\xc3\xa9\t|\n";
  const json document = {{"markdown", markdown}, {"metadata", {{"statusCode", 200}, {"title", "T"}}}};
  CHECK(json_text(document) == reference(document));
}
