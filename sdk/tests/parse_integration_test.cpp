// Client::parse over real HTTP against a webdata-mock process: the multipart upload libcurl
// writes (curl_mime), bytes and path forms, options, and the errors of each side.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::MockAndClient;
using namespace std::string_literals;

namespace {

const std::string kHtml =
    "<html><head><title>Release notes</title></head><body><nav>Menu</nav><main>"
    "<h1>Release notes</h1><p>See <a href=\"/changes\">the changes</a>.</p></main></body></html>";

/// A file in the system's temporary directory, removed on destruction.
struct TempFile {
  std::filesystem::path path;
  TempFile(const std::string& name, const std::string& content)
      : path(std::filesystem::temp_directory_path() /
             ("webdata-parse-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

/// A PDF of `lines` (plain ASCII without parentheses or backslashes), 50 to a page in Helvetica,
/// with `title` in its document information: made here, as a user's file would be, so that the
/// test needs nothing of the mock but its API.
std::string lines_pdf(const std::vector<std::string>& lines, const std::string& title) {
  const std::size_t per_page = 50;
  const std::size_t pages = std::max<std::size_t>(1, (lines.size() + per_page - 1) / per_page);
  // Objects 1 to 4: catalog, page tree, font, document information; then each page and its
  // content stream.
  std::vector<std::string> objects(4 + 2 * pages);
  std::string kids;
  for (std::size_t page = 0; page < pages; ++page) {
    const std::size_t number = 5 + 2 * page;
    kids += std::to_string(number) + " 0 R ";
    std::string content = "BT /F1 11 Tf 14 TL 72 760 Td\n";
    for (std::size_t i = page * per_page; i < std::min(lines.size(), (page + 1) * per_page); ++i) {
      content += "(" + lines[i] + ") Tj T*\n";
    }
    content += "ET\n";
    objects[number - 1] =
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
        "<< /Font << /F1 3 0 R >> >> /Contents " +
        std::to_string(number + 1) + " 0 R >>";
    objects[number] =
        "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream";
  }
  objects[0] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages) + " >>";
  objects[2] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  objects[3] = "<< /Title (" + title + ") >>";
  std::string pdf = "%PDF-1.4\n";
  std::string xref = "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t i = 0; i < objects.size(); ++i) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", pdf.size());  // 20 bytes each
    xref += entry;
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref_at = pdf.size();
  return pdf + xref + "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R /Info 4 0 R >>\nstartxref\n" + std::to_string(xref_at) + "\n%EOF\n";
}

}  // namespace

TEST_CASE_METHOD(MockAndClient,
                 "Client::parse uploads bytes and gets the document a scrape would make",
                 "[integration][parse]") {
  webdata::ParseOptions options;
  options.formats = {webdata::FormatEntry("markdown"), webdata::FormatEntry("links")};
  auto doc = client.parse(webdata::ParseFile{kHtml, "notes.html", "text/html"}, options);
  REQUIRE(doc.ok());
  REQUIRE(doc->markdown);
  CHECK(doc->markdown->find("# Release notes") != std::string::npos);
  CHECK(doc->markdown->find("Menu") == std::string::npos);  // main content only, by default
  REQUIRE(doc->links);
  CHECK(*doc->links == std::vector<std::string>{"https://parse.firecrawl.dev/changes"});
  CHECK(doc->metadata.title == std::optional<std::string>("Release notes"));
  CHECK(doc->metadata.source_url == std::optional<std::string>("notes.html"));
  CHECK(doc->metadata.credits_used == 1);

  // No content type: the SDK names one from the extension.
  auto md = client.parse(webdata::ParseFile{"# Heading\n\ntext\n", "README.MD", ""});
  REQUIRE(md.ok());
  CHECK(md->markdown == std::optional<std::string>("# Heading\n\ntext\n"));

  // The connection is reused for ordinary JSON calls after a multipart one, and back.
  auto usage = client.credit_usage();
  REQUIRE(usage.ok());
  auto again = client.parse(webdata::ParseFile{"plain", "a.txt", "text/plain"});
  REQUIRE(again.ok());
  CHECK(again->markdown == std::optional<std::string>("plain"));
}

TEST_CASE_METHOD(MockAndClient,
                 "Client::parse sends binary content intact, from bytes and from a path",
                 "[integration][parse]") {
  const std::string bytes = "a\0b\r\n--boundary-like\r\n\0end"s;
  webdata::ParseOptions raw;
  raw.formats = {webdata::FormatEntry("rawHtml")};
  auto doc = client.parse(webdata::ParseFile{bytes, "bytes.txt", "text/plain"}, raw);
  REQUIRE(doc.ok());
  CHECK(doc->raw_html == std::optional<std::string>(bytes));

  std::vector<std::string> lines;
  for (int i = 1; i <= 120; ++i) lines.push_back("Line " + std::to_string(i) + " of the report.");
  const TempFile pdf("report.pdf", lines_pdf(lines, "Annual report"));
  auto parsed = client.parse(pdf.path);
  REQUIRE(parsed.ok());
  CHECK(parsed->metadata.title == std::optional<std::string>("Annual report"));
  CHECK(parsed->metadata.source_url == std::optional<std::string>(pdf.path.filename().string()));
  REQUIRE(parsed->metadata.num_pages);
  CHECK(*parsed->metadata.num_pages >= 2);
  CHECK(parsed->metadata.credits_used == parsed->metadata.num_pages);
  REQUIRE(parsed->markdown);
  CHECK(parsed->markdown->find("Line 120 of the report.") != std::string::npos);
}

TEST_CASE_METHOD(MockAndClient,
                 "Client::parse errors: refused before sending, and the service's refusals",
                 "[integration][parse]") {
  auto missing = client.parse(std::filesystem::path("/nonexistent/webdata/file.pdf"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().kind == webdata::ErrorKind::kInvalidArgument);
  auto directory = client.parse(std::filesystem::temp_directory_path());
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().kind == webdata::ErrorKind::kInvalidArgument);
  auto unnamed = client.parse(webdata::ParseFile{"x", " ", "text/plain"});
  REQUIRE_FALSE(unnamed.ok());
  CHECK(unnamed.error().kind == webdata::ErrorKind::kInvalidArgument);

  auto image = client.parse(webdata::ParseFile{"\x89PNG", "logo.png", ""});
  REQUIRE_FALSE(image.ok());
  CHECK(image.error().http_status == 400);
  CHECK(image.error().code == "UNSUPPORTED_FILE_TYPE");

  webdata::ParseOptions bad;
  bad.proxy = webdata::ProxyMode("enhanced");
  auto refused = client.parse(webdata::ParseFile{kHtml, "a.html", "text/html"}, bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
  CHECK(refused.error().details.find("proxy") != std::string::npos);
}

TEST_CASE("parse_content_type_for names the types the service reads", "[parse]") {
  CHECK(webdata::parse_content_type_for("a.PDF") == "application/pdf");
  CHECK(webdata::parse_content_type_for("dir.v2/page.htm") == "text/html");
  CHECK(webdata::parse_content_type_for("notes.markdown") == "text/markdown");
  CHECK(webdata::parse_content_type_for("notes.txt") == "text/plain");
  CHECK(webdata::parse_content_type_for("dir.v2/noext") == "application/octet-stream");
  CHECK(webdata::parse_content_type_for("archive.zip") == "application/octet-stream");
}
