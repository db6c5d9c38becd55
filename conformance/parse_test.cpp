// Parse (docs/reference/parse.md): a file uploaded as multipart/form-data becomes a document, as
// a scrape makes one of a page. Deployments older than the endpoint do not serve it: the precheck
// finds that (capability `parse`) and the cases are skipped with its reason.

#include <algorithm>

#include "checks.hpp"
#include "parse_upload.hpp"
#include "support.hpp"

using namespace webdata::conformance;

namespace {

const std::string kPage =
    "<!DOCTYPE html><html lang=\"en\"><head><title>Conformance upload</title></head><body>"
    "<nav><a href=\"/nav-only\">Navigation link</a></nav>"
    "<main><h1>Uploaded heading</h1><p>A paragraph with <strong>bold words</strong> and "
    "<a href=\"https://example.com/absolute\">an absolute link</a>.</p></main>"
    "<footer>Footer text</footer></body></html>";

}  // namespace

TEST_CASE("v2 parse: an uploaded HTML file becomes a document with the formats asked for",
          "[parse]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][PARSE-DOCUMENT]") {
  CHECKS_RULES(&rules::kParseDocument);
  REQUIRE_CAPABILITY("parse");
  RULE(rules::kParseDocument);
  const std::string filename = "conformance-upload.html";
  const auto res = post_parse({{"options", "", "", R"({"formats":["markdown","links"]})"},
                               {"file", filename, "text/html", kPage}});
  INFO(res.describe());
  CHECK_JSON_ANSWER(res);
  REQUIRE(res.status == 200);
  CHECK_SCHEMA("v2/parse.response", res.body_json);
  CHECK(res.body_json.value("success", false));
  const json data = res.body_json.value("data", json::object());
  const std::string markdown = data.value("markdown", "");
  CHECK(has_heading(markdown, 1, "Uploaded heading"));
  CHECK(has_strong(markdown, "bold words"));
  // onlyMainContent defaults to true here as in a scrape.
  CHECK(markdown.find("Footer text") == std::string::npos);
  CHECK_FALSE(data.contains("html"));
  REQUIRE(data.contains("links"));
  const json links = data.at("links");
  CHECK(std::find(links.begin(), links.end(), json("https://example.com/absolute")) != links.end());
  const json meta = data.value("metadata", json::object());
  CHECK(meta.value("title", "") == "Conformance upload");
  // The service names the file itself; a deployment may spell it as a URL ending in the name.
  const std::string source = meta.value("sourceURL", "");
  INFO("metadata.sourceURL " << source);
  CHECK(source.size() >= filename.size());
  CHECK(source.compare(source.size() - std::min(source.size(), filename.size()), filename.size(),
                       filename) == 0);
}

TEST_CASE("v2 parse: no file part or an unreadable file type is refused",
          "[parse]"
          "[ENV-CONTENT-TYPE][ENV-SCHEMA][PARSE-REFUSALS]") {
  CHECKS_RULES(&rules::kParseRefusals);
  REQUIRE_CAPABILITY("parse");
  RULE(rules::kParseRefusals);
  const auto check_refused = [](const ApiResponse& res) {
    INFO(res.describe());
    CHECK(res.status >= 400);
    CHECK(res.status < 500);
    CHECK_JSON_ANSWER(res);
    CHECK_SCHEMA("common/error", res.body_json);
    CHECK(res.body_json.value("success", true) == false);
  };
  check_refused(post_parse({{"options", "", "", "{}"}}));
  // No deployment reads Windows executables.
  check_refused(post_parse({{"file", "tool.exe", "application/x-msdownload", "MZ\x90"}}));
  // JSON is not an upload.
  check_refused(post("/v2/parse", {{"file", "conformance.html"}}));
}
