// The status chunk decoder (sdk/src/status_chunk.hpp, json_scan.hpp): its scanner against
// nlohmann's own verdict, and the decoded chunks against the DOM decoder they replace.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../src/json_scan.hpp"
#include "fakes.hpp"
#include "webdata/webdata.hpp"

using nlohmann::json;
using webdata::detail::scan_json;
using webdata::testing::FakeClientFixture;
using webdata::testing::FakeTransport;
using webdata::testing::json_response;

namespace {

// Braces, brackets, quotes and escapes inside strings, nested values, unicode escapes and raw
// UTF-8: what a scanner that counts brackets without reading strings would get wrong.
const std::string kChunk = R"({"success": true, "status": "completed", "total": 3,
  "completed": 3, "creditsUsed": 3, "expiresAt": "2026-11-24T10:00:00.000Z",
  "next": "http://api.test:3002/v2/crawl/c1?skip=3", "shard": {"a": [1, {"b": "}"}]},
  "data": [
    {"markdown": "# One {not a brace} [nor a bracket] \"quoted\" \\ back\\\\slash \/ \u00e9 \ud83d\ude00 ü",
     "links": ["https://a.test/1", "https://a.test/2"],
     "metadata": {"sourceURL": "https://a.test/1", "statusCode": 200, "custom": {"x": [1, 2]}},
     "futureField": {"nested": ["]", "}", "\""]}},
    {"markdown": "two", "metadata": {"sourceURL": "https://a.test/2", "statusCode": 404,
     "error": "Not Found", "og:image": ["a", "b"]}},
    {"summary": "three", "json": {"k": [true, false, null, -1.5e3, 0]}}
  ],
  "warning": "w"})";

std::string text_of(const webdata::Json& j) { return j.text(); }

webdata::JobStatus decode_status(const std::string& text) {
  auto status = webdata::from_json<webdata::JobStatus>(text);
  if (!status.ok()) FAIL(status.error().describe());
  return std::move(status).value();
}

std::string error_of(const std::string& text) {
  auto status = webdata::from_json<webdata::JobStatus>(text);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == webdata::ErrorKind::kParse);
  return status.error().message;
}


}  // namespace

TEST_CASE("scan_json indexes the top-level members and each element of data", "[chunk]") {
  const auto scanned = scan_json(kChunk, "data");
  REQUIRE(scanned);
  REQUIRE(scanned->is_object);
  std::vector<std::string> keys;
  for (const auto& m : scanned->members) keys.push_back(m.key);
  CHECK(keys == std::vector<std::string>{"success", "status", "total", "completed", "creditsUsed",
                                         "expiresAt", "next", "shard", "data", "warning"});
  REQUIRE(scanned->split == std::size_t{8});
  const auto slice = [&](webdata::detail::JsonSpan s) {
    return kChunk.substr(s.begin, s.end - s.begin);
  };
  CHECK(slice(scanned->members[7].value) == R"({"a": [1, {"b": "}"}]})");
  const json tree = json::parse(kChunk);
  REQUIRE(scanned->elements.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(json::parse(slice(scanned->elements[i])) == tree["data"][i]);
  }
  CHECK(json::parse(slice(scanned->members[8].value)) == tree["data"]);
}

TEST_CASE("scan_json unescapes keys and reports the last of duplicate members", "[chunk]") {
  const auto scanned = scan_json(R"({"da\u0074a": [1], "x\"y": 2, "data": [3, 4]})", "data");
  REQUIRE(scanned);
  REQUIRE(scanned->members.size() == 3);
  CHECK(scanned->members[0].key == "data");
  CHECK(scanned->members[1].key == "x\"y");
  CHECK(scanned->split == std::size_t{2});
  CHECK(scanned->elements.size() == 2);

  const auto not_array = scan_json(R"({"data": [1, 2], "data": "late"})", "data");
  REQUIRE(not_array);
  CHECK(not_array->split == std::size_t{1});
  CHECK(not_array->elements.empty());
}

TEST_CASE("scan_json accepts exactly what nlohmann::json accepts", "[chunk]") {
  const std::vector<std::string> cases = {
      "", " ", "{}", "[]", " {} ", "\xEF\xBB\xBF{}", "\xEF\xBB{}", "{} {}", "{},", "[1,]", "[,1]",
      "{,}", R"({"a":1,})", R"({"a" 1})", R"({"a":})", R"({a:1})", R"({"a":1 "b":2})", "0", "-0",
      "01", "1.", ".5", "-", "1e", "1e+", "1E-7", "+1", "1.5e308", "123456789012345678901234567890",
      "tru", "true", "truex", "nul", "null", "false", "False", "NaN", R"("\u12")", R"("\u12G4")",
      R"("\x")", R"("\'")", R"("\/")", R"("\ud83d\ude00")", R"("\ud83d")", R"("\ude00")",
      R"("\ud83d\u0041")", R"("\ud83dx")", "\"a\tb\"", "\"a\nb\"", "\"\x7f\"", "\"\xC3\xA9\"",
      "\"\xC0\xAF\"", "\"\xE0\x80\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"",
      "\"\xF0\x9F\x98\x80\"", "\"\xF0\x9F\x98\"", "\"\xFF\"", "\"\x80\"", "\"abc", "[1, 2",
      R"({"a": [1, {"b": "}"}]})", R"({"a": "\"}"})", R"({"a": "\\"})", R"({"a": "\\\"})",
      "[[[]]]", "[[[]]", "[]]", "{\"a\":{\"b\":{}}}}", "/* c */ {}", std::string("{}\0", 3),
      R"({"data": [{"a": 1}, 2, "x", null, [1]]})", R"({"data": {}})", R"({"data": [1 2]})",
      R"({"data": [1,]})", R"({"data": ])"};
  for (const auto& text : cases) {
    INFO("text: " << text);
    CHECK(scan_json(text, "data").has_value() == json::accept(text));
  }
}

TEST_CASE("scan_json agrees with nlohmann on every truncation and byte change of a chunk",
          "[chunk]") {
  REQUIRE(json::accept(kChunk));
  for (std::size_t n = 0; n < kChunk.size(); ++n) {
    const std::string prefix = kChunk.substr(0, n);
    INFO("prefix of " << n << " bytes");
    CHECK_FALSE(scan_json(prefix, "data").has_value());
  }
  // Each byte replaced by each of a few characters that change the structure.
  for (std::size_t at = 0; at < kChunk.size(); ++at) {
    for (const char c : std::string("\"\\{}[],:0 a\x01\xC3")) {
      std::string text = kChunk;
      text[at] = c;
      INFO("byte " << at << " set to " << static_cast<int>(static_cast<unsigned char>(c)));
      CHECK(scan_json(text, "data").has_value() == json::accept(text));
    }
  }
}

TEST_CASE("scan_json walks deep nesting without recursion", "[chunk]") {
  const std::size_t depth = 200000;
  std::string deep = R"({"data": [)" + std::string(depth, '[') + std::string(depth, ']') + "]}";
  const auto scanned = scan_json(deep, "data");
  REQUIRE(scanned);
  CHECK(scanned->elements.size() == 1);
  deep.pop_back();
  CHECK_FALSE(scan_json(deep, "data").has_value());
}

TEST_CASE("a chunk decodes to what the tree decoder gives", "[chunk]") {
  const webdata::JobStatus status = decode_status(kChunk);
  CHECK(status.success == true);
  CHECK(status.status == webdata::JobState::completed());
  CHECK(status.total == 3);
  CHECK(status.completed == 3);
  CHECK(status.credits_used == 3);
  REQUIRE(status.expires_at);
  CHECK(status.next == "http://api.test:3002/v2/crawl/c1?skip=3");
  // Unknown top-level keys are kept, as before.
  REQUIRE(status.extras.count("shard") == 1);
  CHECK(text_of(status.extras.at("shard")) == R"({"a":[1,{"b":"}"}]})");
  CHECK(text_of(status.extras.at("warning")) == R"("w")");
  CHECK(status.extras.count("data") == 0);

  REQUIRE(status.data.size() == 3);
  CHECK(status.data[0].markdown ==
        "# One {not a brace} [nor a bracket] \"quoted\" \\ back\\\\slash / \xC3\xA9 "
        "\xF0\x9F\x98\x80 \xC3\xBC");
  CHECK(status.data[0].links == std::vector<std::string>{"https://a.test/1", "https://a.test/2"});
  CHECK(text_of(status.data[0].extras.at("futureField")) == R"({"nested":["]","}","\""]})");
  CHECK(status.data[1].metadata.status_code == 404);
  CHECK(status.data[2].summary == "three");

  // Each document equals the same element decoded on its own through the tree decoder.
  const json tree = json::parse(kChunk);
  for (std::size_t i = 0; i < 3; ++i) {
    auto alone = webdata::from_json<webdata::Document>(tree["data"][i].dump());
    REQUIRE(alone.ok());
    CHECK(text_of(webdata::to_json(status.data[i])) == text_of(webdata::to_json(*alone)));
  }
}

TEST_CASE("a chunk without data, with null data or empty data has no documents", "[chunk]") {
  for (const char* text : {R"({"status": "scraping", "total": 1})",
                           R"({"status": "scraping", "data": null})",
                           R"({"status": "scraping", "data": []})"}) {
    INFO(text);
    const auto status = decode_status(text);
    CHECK(status.data.empty());
    CHECK(status.status == webdata::JobState("scraping"));
    CHECK(status.extras.empty());
  }
}

TEST_CASE("a chunk whose essential members are unusable is a parse error naming where",
          "[chunk]") {
  CHECK(error_of(R"({"status": "completed", "data": "none"})") ==
        "unexpected JSON: at data: expected an array, got a string (it begins: {\"data\":\"none\","
        "\"status\":\"completed\"})");
  CHECK(error_of(R"({"status": "completed", "data": {"a": 1}})") ==
        "unexpected JSON: at data: expected an array, got an object (it begins: {\"data\":{\"a\":1},"
        "\"status\":\"completed\"})");
  CHECK(error_of(R"({"status": "completed", "data": [{"markdown": "a"}, 7]})") ==
        "unexpected JSON: at data[1]: expected an object, got an integer (it begins: 7)");
  CHECK(error_of(R"({"status": 5, "data": [1]})") ==
        "unexpected JSON: at status: expected a string, got an integer (it begins: {\"status\":5})");
  CHECK(error_of(R"([{"status": "completed"}])") ==
        "unexpected JSON: at (top level): expected an object, got an array (it begins: "
        "[{\"status\":\"completed\"}])");
  CHECK(error_of(R"({"status": "completed", "data": [{"markdown": "a"}])") ==
        "not valid JSON text");
  CHECK(error_of("") == "not valid JSON text");
}

TEST_CASE("a member of another type than expected is kept and named, not a failure", "[chunk]") {
  const auto status = decode_status(
      R"({"status": "completed", "total": "9", "next": 3, "error": {}, "data": [{"markdown": 1}]})");
  CHECK(status.total == 0);
  CHECK_FALSE(status.next.has_value());
  CHECK_FALSE(status.error.has_value());
  CHECK(text_of(status.extras.at("total")) == R"("9")");
  CHECK(text_of(status.extras.at("next")) == "3");
  CHECK(text_of(status.extras.at("error")) == "{}");
  CHECK(status.diagnostics ==
        webdata::Diagnostics{
            "at total: expected an integer, got a string; kept as raw JSON in extras",
            "at next: expected a string, got an integer; kept as raw JSON in extras",
            "at error: expected a string, got an object; kept as raw JSON in extras"});
  REQUIRE(status.data.size() == 1);
  CHECK_FALSE(status.data[0].markdown.has_value());
  CHECK(text_of(status.data[0].extras.at("markdown")) == "1");
  CHECK(status.data[0].diagnostics ==
        webdata::Diagnostics{
            "at data[0].markdown: expected a string, got an integer; kept as raw JSON in extras"});
}

TEST_CASE("a truncated status answer is a clean parse error", "[chunk][client]") {
  FakeClientFixture f;
  const std::string cut = kChunk.substr(0, kChunk.size() / 2);
  f.transport->push(json_response(200, cut));
  auto status = f.client().crawl_job("c1").status();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == webdata::ErrorKind::kParse);
  CHECK(status.error().http_status == 200);
  CHECK(status.error().message ==
        "response body is not valid JSON (" + std::to_string(cut.size()) +
            " bytes, truncated?) (GET /v2/crawl/c1)");
  CHECK(status.error().raw_body == cut);

  f.transport->push(json_response(200, cut));
  std::vector<bool> oks;
  for (auto& doc : f.client().crawl_job("c1").documents()) oks.push_back(doc.ok());
  CHECK(oks == std::vector<bool>{false});
}

TEST_CASE("a 2xx status answer saying success false is an HTTP error", "[chunk][client]") {
  FakeClientFixture f;
  f.transport->push(json_response(200, R"({"success": false, "error": "Job expired"})"));
  auto status = f.client().crawl_job("c1").status();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == webdata::ErrorKind::kHttp);
  CHECK(status.error().message == "Job expired");
}

TEST_CASE("documents() ends with the error of a document that does not decode",
          "[chunk][client]") {
  FakeClientFixture f;
  f.transport->push(json_response(
      200,
      R"({"status": "completed", "total": 5, "completed": 5, "data": [{"markdown": "a"}, 2, {"markdown": "c"}], "next": "http://api.test:3002/v2/crawl/c1?skip=3"})"));
  std::vector<std::string> seen;
  std::string error;
  for (auto& doc : f.client().crawl_job("c1").documents()) {
    if (doc.ok()) {
      seen.push_back(doc->markdown.value_or(""));
    } else {
      error = doc.error().message;
    }
  }
  CHECK(seen == std::vector<std::string>{"a"});  // the documents before the bad one arrive
  CHECK(error == "unexpected job status: at data[1]: expected an object, got an integer (it begins: 2)");
  CHECK(f.transport->count() == 1);  // and `next` is not followed after it
}

TEST_CASE("pages() gives each chunk whole, unknown keys kept, and stops at a bad one",
          "[chunk][client]") {
  FakeClientFixture f;
  f.transport->push(json_response(
      200,
      R"({"status": "scraping", "total": 4, "completed": 2, "shard": 7, "data": [{"markdown": "a"}, {"markdown": "b"}], "next": "http://api.test:3002/v2/crawl/c1?skip=2"})"));
  f.transport->push(json_response(
      200,
      R"({"status": "completed", "total": 4, "completed": 4, "data": [{"markdown": "c"}, "d"], "next": "http://api.test:3002/v2/crawl/c1?skip=4"})"));
  std::vector<std::size_t> sizes;
  std::vector<std::string> errors;
  for (auto& page : f.client().crawl_job("c1").pages()) {
    if (!page.ok()) {
      errors.push_back(page.error().message);
      continue;
    }
    sizes.push_back(page->data.size());
    CHECK(text_of(page->extras.at("shard")) == "7");
  }
  CHECK(sizes == std::vector<std::size_t>{2});
  CHECK(errors == std::vector<std::string>{"unexpected job status: at data[1]: expected an object, "
                                           "got a string (it begins: \"d\")"});
  CHECK(f.transport->count() == 2);
}
