// The page formats walk the content::Document's own tree: what was decoded once (charset
// included) is what every format reads, with no second parse of the raw bytes.
#include <catch2/catch.hpp>

#include "content/document.hpp"
#include "formats/queries.hpp"

using webdata::mock::content::Document;
using webdata::mock::content::Options;
namespace formats = webdata::mock::formats;
using json = nlohmann::json;

namespace {

// windows-1252 bytes (é, è, û, the euro sign at 0x80), declared by <meta charset> only.
const std::string kLatinPage =
    "<html><head><meta charset=\"windows-1252\"><title>Caf\xe9</title></head><body><main>"
    "<p title=\"Caf\xe9 cr\xe8me\">Le caf\xe9 co\xfbte 3 \x80 au comptoir.</p>"
    "<p>Rien d'autre ici.</p></main></body></html>";

}  // namespace

TEST_CASE("attributes and answers read a windows-1252 page as its characters",
          "[formats][queries]") {
  const Document doc = Document::parse({"https://cafe.example/", "text/html", 200, kLatinPage});
  const json found = formats::attributes(doc, json::array({{{"selector", "p"}, {"attribute", "title"}}}));
  REQUIRE(found.size() == 1);
  CHECK(found[0]["values"] == json::array({"Caf\xc3\xa9 cr\xc3\xa8me"}));
  const std::string answer = formats::answer(doc, Options{}, "combien co\xc3\xbbte le caf\xc3\xa9");
  CHECK(answer.find("caf\xc3\xa9 co\xc3\xbbte 3 \xe2\x82\xac") != std::string::npos);
  CHECK(answer.find("\xef\xbf\xbd") == std::string::npos);  // no U+FFFD from re-reading raw bytes
}

TEST_CASE("attributes of a page that is not HTML find nothing, without error", "[formats][queries]") {
  const Document doc = Document::parse({"https://api.example/x", "application/json", 200, "{\"a\":1}"});
  const json found = formats::attributes(doc, json::array({{{"selector", "a"}, {"attribute", "href"}}}));
  REQUIRE(found.size() == 1);
  CHECK(found[0]["values"].empty());
}
