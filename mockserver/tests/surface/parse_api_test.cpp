// POST /v2/parse over real HTTP: multipart bodies built byte by byte, every supported file type
// through the scrape pipeline, options, credits, and each way a request can be refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api_client.hpp"
#include "formats/pdf.hpp"
#include "mock_fixture.hpp"
#include "schema_check.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;
using namespace std::string_literals;

namespace {

const std::string kBoundary = "----webdata-test-7MA4YWxkTrZu0gW";
const std::string kMultipart = "multipart/form-data; boundary=" + kBoundary;

struct Part {
  std::string name;
  std::string filename;  ///< empty: a plain field
  std::string content_type;
  std::string body;
};

std::string multipart(const std::vector<Part>& parts, const std::string& boundary = kBoundary) {
  std::string out;
  for (const auto& p : parts) {
    out += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) out += "; filename=\"" + p.filename + "\"";
    out += "\r\n";
    if (!p.content_type.empty()) out += "Content-Type: " + p.content_type + "\r\n";
    out += "\r\n" + p.body + "\r\n";
  }
  return out + "--" + boundary + "--\r\n";
}

const std::string kHtml =
    "<html><head><title>Quarterly report</title><meta name=\"description\" content=\"Q3\"></head>"
    "<body><nav><a href=\"/home\">Home</a></nav><main><h1>Quarterly report</h1>"
    "<p>Revenue grew in <a href=\"https://example.com/regions\">every region</a>.</p></main>"
    "<footer>Copyright</footer></body></html>";

struct ParseApi {
  RunningMock mock;
  ApiClient api{mock.url()};

  webdata::testing::ApiReply parse(const std::vector<Part>& parts,
                                   const std::string& content_type = kMultipart) const {
    return api.post_text("/v2/parse", multipart(parts), {{"Content-Type", content_type}});
  }
  long long remaining() const {
    return api.get("/v2/team/credit-usage").body["data"]["remainingCredits"].get<long long>();
  }
};

/// `lines` lines of text; the mock's PDF writer puts about 45 on a page.
std::string long_text(int lines) {
  std::string out;
  for (int i = 1; i <= lines; ++i) out += "Line " + std::to_string(i) + " of the notes.\n";
  return out;
}

}  // namespace

TEST_CASE("parse: an HTML file becomes the document a scrape of it would be", "[surface][parse]") {
  ParseApi t;
  const long long before = t.remaining();
  const auto r = t.parse({{"file", "report.html", "text/html", kHtml}});
  REQUIRE(r.status == 200);
  surface_test::check_schema("v2/parse.response", r.body);
  const json& data = r.body["data"];
  CHECK(data["markdown"].get<std::string>().find("# Quarterly report") != std::string::npos);
  CHECK(data["markdown"].get<std::string>().find("Copyright") == std::string::npos);  // main only
  CHECK_FALSE(data.contains("html"));
  CHECK_FALSE(data.contains("rawHtml"));
  CHECK(data["metadata"]["title"] == "Quarterly report");
  CHECK(data["metadata"]["description"] == "Q3");
  CHECK(data["metadata"]["sourceURL"] == "report.html");
  CHECK(data["metadata"]["url"] == "https://parse.firecrawl.dev/uploads/report.html");
  CHECK(data["metadata"]["statusCode"] == 200);
  CHECK(data["metadata"]["creditsUsed"] == 1);
  CHECK(t.remaining() == before - 1);
}

TEST_CASE("parse: options choose formats and content, as they do for a scrape", "[surface][parse]") {
  ParseApi t;
  const json options = {{"formats", {"markdown", "html", "rawHtml", "links"}},
                        {"onlyMainContent", false},
                        {"excludeTags", {"nav"}}};
  const auto r = t.parse({{"options", "", "application/json", options.dump()},
                          {"file", "report.html", "text/html", kHtml}});
  REQUIRE(r.status == 200);
  const json& data = r.body["data"];
  const std::string markdown = data["markdown"];
  CHECK(markdown.find("Copyright") != std::string::npos);  // onlyMainContent false
  CHECK(markdown.find("Home") == std::string::npos);       // nav excluded
  CHECK(data["rawHtml"] == kHtml);
  CHECK(data["html"].get<std::string>().find("<nav") == std::string::npos);
  // Relative links resolve against the upload's URL, absolute ones stay.
  CHECK(data["links"] == json({"https://parse.firecrawl.dev/home", "https://example.com/regions"}));

  // The json format costs what it costs in a scrape (1 + 4), and is made from the same page.
  const long long before = t.remaining();
  const json extraction = {{"formats", {{{"type", "json"}, {"prompt", "the title"}}}}};
  const auto j = t.parse({{"file", "report.html", "text/html", kHtml},
                          {"options", "", "", extraction.dump()}});
  REQUIRE(j.status == 200);
  CHECK(j.body["data"].contains("json"));
  CHECK(j.body["data"]["metadata"]["creditsUsed"] == 5);
  CHECK(t.remaining() == before - 5);
}

TEST_CASE("parse: PDF, plain text and Markdown files", "[surface][parse]") {
  ParseApi t;
  SECTION("a PDF goes through the pdf parser, billed per page") {
    const std::string pdf = webdata::mock::formats::write_pdf(
        long_text(120) + "The river rose in spring.", "River notes");
    const long long before = t.remaining();
    const auto r = t.parse({{"file", "notes.pdf", "application/pdf", pdf}});
    REQUIRE(r.status == 200);
    surface_test::check_schema("v2/parse.response", r.body);
    const json& meta = r.body["data"]["metadata"];
    CHECK(r.body["data"]["markdown"].get<std::string>().find("The river rose in spring.") !=
          std::string::npos);
    CHECK(meta["title"] == "River notes");
    const int pages = meta["numPages"];
    CHECK(pages >= 2);
    CHECK(meta["creditsUsed"] == pages);
    CHECK(t.remaining() == before - pages);
    CHECK(meta["sourceURL"] == "notes.pdf");
    CHECK(meta["contentType"] == "application/pdf");

    // parsers: [] returns the file itself, base64-encoded, for one credit.
    const auto raw = t.parse({{"file", "notes.pdf", "application/pdf", pdf},
                              {"options", "", "", R"({"parsers":[]})"}});
    REQUIRE(raw.status == 200);
    CHECK(raw.body["data"]["metadata"]["creditsUsed"] == 1);
    CHECK(raw.body["data"]["markdown"].get<std::string>().rfind("JVBERi0", 0) == 0);
  }
  SECTION("plain text is its own markdown; html wraps it") {
    const std::string text = "Line one <not a tag>\nLine two & more";
    const auto r = t.parse({{"file", "notes.txt", "text/plain", text},
                            {"options", "", "", R"({"formats":["markdown","html"]})"}});
    REQUIRE(r.status == 200);
    CHECK(r.body["data"]["markdown"] == text);
    CHECK(r.body["data"]["html"] == "<pre>Line one &lt;not a tag&gt;\nLine two &amp; more</pre>");
  }
  SECTION("Markdown stays Markdown") {
    const std::string md = "# Title\n\n- one\n- two\n";
    const auto r = t.parse({{"file", "README.md", "text/markdown", md}});
    REQUIRE(r.status == 200);
    CHECK(r.body["data"]["markdown"] == md);
    CHECK(r.body["data"]["metadata"]["sourceURL"] == "README.md");
  }
}

TEST_CASE("parse: the file type comes from the Content-Type, else from the extension",
          "[surface][parse]") {
  ParseApi t;
  // What clients send for a type they do not know: the extension decides.
  auto r = t.parse({{"file", "page.HTM", "application/octet-stream", kHtml}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["metadata"]["title"] == "Quarterly report");
  CHECK(r.body["data"]["metadata"]["contentType"] == "text/html");
  r = t.parse({{"file", "notes.markdown", "", "*plain* words"}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["markdown"] == "*plain* words");
  // A named type wins over the extension; a filename without one gets the type's.
  r = t.parse({{"file", "export", "text/html; charset=utf-8", kHtml}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["metadata"]["title"] == "Quarterly report");
  CHECK(r.body["data"]["metadata"]["sourceURL"] == "export");
  CHECK(r.body["data"]["metadata"]["url"] == "https://parse.firecrawl.dev/uploads/export.html");
  // The synthetic URL is percent-encoded like a URL component.
  r = t.parse({{"file", "my report?.txt", "text/plain", "x"}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["metadata"]["url"] ==
        "https://parse.firecrawl.dev/uploads/my%20report%3F.txt");
}

TEST_CASE("parse: binary content with NUL bytes arrives intact", "[surface][parse]") {
  ParseApi t;
  const std::string text = "before\0after\r\n--not-the-boundary\r\nend"s;
  const auto r = t.parse({{"file", "bin.txt", "text/plain", text},
                          {"options", "", "", R"({"formats":["rawHtml"]})"}});
  REQUIRE(r.status == 200);
  CHECK(r.body["data"]["rawHtml"].get<std::string>() == text);
}

TEST_CASE("parse: refusals are clear 4xx answers in the error envelope", "[surface][parse]") {
  ParseApi t;
  const auto refused = [](const webdata::testing::ApiReply& r, int status, const std::string& code,
                          const std::string& words) {
    INFO(r.status << " " << r.text);
    CHECK(r.status == status);
    CHECK(r.body["success"] == false);
    if (!code.empty()) CHECK(r.body["code"] == code);
    CHECK(r.body["error"].get<std::string>().find(words) != std::string::npos);
  };
  const long long before = t.remaining();

  SECTION("a JSON body") {
    refused(t.api.post("/v2/parse", json{{"file", "x"}}), 400, "BAD_REQUEST", "Missing file upload");
  }
  SECTION("no Content-Type") {
    refused(t.api.post_text("/v2/parse", "file=x", {{"Content-Type", ""}}), 400, "BAD_REQUEST",
            "without a Content-Type");
  }
  SECTION("multipart without a boundary") {
    refused(t.parse({{"file", "a.html", "text/html", kHtml}}, "multipart/form-data"), 400,
            "BAD_REQUEST", "boundary");
  }
  SECTION("a malformed body: no closing delimiter") {
    std::string body = multipart({{"file", "a.html", "text/html", kHtml}});
    body.resize(body.size() - ("--" + kBoundary + "--\r\n").size());
    refused(t.api.post_text("/v2/parse", body, {{"Content-Type", kMultipart}}), 400, "BAD_REQUEST",
            "Malformed multipart");
  }
  SECTION("no file part, or a file part without a filename") {
    refused(t.parse({{"options", "", "", "{}"}}), 400, "BAD_REQUEST", "Missing file upload");
    refused(t.parse({{"file", "", "text/html", kHtml}}), 400, "BAD_REQUEST", "no filename");
  }
  SECTION("an unsupported file type") {
    refused(t.parse({{"file", "logo.png", "image/png", "\x89PNG\r\n"}}), 400,
            "UNSUPPORTED_FILE_TYPE", "Supported file types");
    refused(t.parse({{"file", "data.bin", "application/octet-stream", "x"}}), 400,
            "UNSUPPORTED_FILE_TYPE", "data.bin");
  }
  SECTION("options that are not JSON, not an object, or not valid") {
    refused(t.parse({{"file", "a.html", "text/html", kHtml}, {"options", "", "", "{nope"}}), 400,
            "BAD_REQUEST", "Invalid JSON in the 'options' field");
    refused(t.parse({{"file", "a.html", "text/html", kHtml}, {"options", "", "", "[1]"}}), 400,
            "BAD_REQUEST", "must parse to a JSON object");
    const auto r = t.parse({{"file", "a.html", "text/html", kHtml},
                            {"options", "", "", R"({"onlyMainContent":"yes","waitFor":100})"}});
    refused(r, 400, "BAD_REQUEST", "");
    REQUIRE(r.body["details"].is_array());
    std::vector<std::string> paths;
    for (const auto& issue : r.body["details"]) paths.push_back(issue["path"].dump());
    CHECK(std::find(paths.begin(), paths.end(), R"(["onlyMainContent"])") != paths.end());
    refused(t.parse({{"file", "a.html", "text/html", kHtml},
                     {"options", "", "", R"({"formats":["markdown","screenshot"]})"}}),
            400, "PARSE_UNSUPPORTED_OPTIONS", "screenshot");
    refused(t.parse({{"file", "a.html", "text/html", kHtml},
                     {"options", "", "", R"({"includeTags":["div["]})"}}),
            400, "BAD_REQUEST", "selector");
  }
  SECTION("no key") {
    const auto r = t.api.send("POST", "/v2/parse", multipart({{"file", "a.html", "text/html", kHtml}}),
                              {{"Content-Type", kMultipart}}, false);
    CHECK(r.status == 401);
  }
  // Nothing refused was billed.
  CHECK(t.remaining() == before);
}

TEST_CASE("parse: a body over the mock's limit answers 413", "[surface][parse]") {
  auto config = RunningMock::quiet_config();
  config.server.body_limit = 4096;
  RunningMock mock(config);
  ApiClient api(mock.url());
  const auto r = api.post_text("/v2/parse",
                               multipart({{"file", "big.txt", "text/plain", std::string(8192, 'x')}}),
                               {{"Content-Type", kMultipart}});
  CHECK(r.status == 413);
  CHECK(r.body["success"] == false);
  // A file under the limit still parses.
  const auto ok = api.post_text("/v2/parse", multipart({{"file", "small.txt", "text/plain", "x"}}),
                                {{"Content-Type", kMultipart}});
  CHECK(ok.status == 200);
}

TEST_CASE("parse: the team must afford the document", "[surface][parse]") {
  auto config = RunningMock::quiet_config();
  webdata::mock::TeamConfig team;
  team.id = "poor";
  team.keys = {"test-key"};
  team.credits = 2;
  config.teams = {team};
  RunningMock mock(config);
  ApiClient api(mock.url());
  const std::string pdf =
      webdata::mock::formats::write_pdf(long_text(400), "Long");
  const auto r = api.post_text("/v2/parse", multipart({{"file", "long.pdf", "application/pdf", pdf}}),
                               {{"Content-Type", kMultipart}});
  CHECK(r.status == 402);
  const auto ok = api.post_text("/v2/parse", multipart({{"file", "a.txt", "text/plain", "x"}}),
                                {{"Content-Type", kMultipart}});
  CHECK(ok.status == 200);
}

TEST_CASE("parse: feedback may name the parse's scrapeId, and no other id", "[surface][parse]") {
  ParseApi t;
  const auto r = t.parse({{"file", "report.html", "text/html", kHtml}});
  REQUIRE(r.status == 200);
  const std::string id = r.body["data"]["metadata"]["scrapeId"];
  const json feedback = {{"endpoint", "parse"}, {"jobId", id}, {"rating", "good"}};
  CHECK(t.api.post("/v2/feedback", feedback).status == 200);
  json unknown = feedback;
  unknown["jobId"] = "5b0c7c8e-1d2f-4a3b-9c4d-5e6f7a8b9c0d";
  const auto refused = t.api.post("/v2/feedback", unknown);
  CHECK(refused.status == 404);
  CHECK(refused.body["feedbackErrorCode"] == "JOB_NOT_FOUND");
}
