#include <catch2/catch.hpp>

#include "formats/pdf.hpp"
#include "test_util.hpp"

using formats_test::load;
using formats_test::parse;
namespace formats = webdata::mock::formats;

namespace {

// Every xref entry must point at "<n> 0 obj" and startxref at the table.
void check_xref(const std::string& pdf) {
  std::size_t startxref = pdf.rfind("startxref\n");
  REQUIRE(startxref != std::string::npos);
  std::size_t xref = std::stoul(pdf.substr(startxref + 10));
  REQUIRE(pdf.compare(xref, 5, "xref\n") == 0);
  std::size_t line = pdf.find('\n', xref + 5) + 1;
  std::size_t count = std::stoul(pdf.substr(pdf.find(' ', xref + 5) + 1));
  REQUIRE(count > 1);
  for (std::size_t n = 0; n < count; ++n) {
    std::string entry = pdf.substr(line + n * 20, 20);
    REQUIRE(entry.size() == 20);
    if (n == 0) {
      CHECK(entry == "0000000000 65535 f \n");
      continue;
    }
    std::size_t offset = std::stoul(entry.substr(0, 10));
    CHECK(pdf.compare(offset, std::to_string(n).size() + 6, std::to_string(n) + " 0 obj") == 0);
  }
}

}  // namespace

TEST_CASE("pdf: the writer's output is well formed and poppler reads it back", "[pdf]") {
  std::string text =
      "Rivers rarely run straight for long.\n\nA second paragraph with (parentheses), a "
      "back\\slash "
      "and caf\xC3\xA9 cr\xC3\xA8me.\n\nShort line";
  std::string pdf = formats::write_pdf(text, "River notes");
  CHECK(pdf.rfind("%PDF-1.4\n", 0) == 0);
  CHECK(pdf.size() > 500);
  check_xref(pdf);
  auto read = formats::pdf_to_markdown(pdf);
  REQUIRE(!read.error);
  CHECK(read.num_pages == 1);
  CHECK(read.title == "River notes");
  INFO(read.markdown);
  CHECK(read.markdown.rfind("River notes\n\n", 0) == 0);
  CHECK(read.markdown.find("Rivers rarely run straight for long.") != std::string::npos);
  CHECK(read.markdown.find("(parentheses), a back\\slash and caf\xC3\xA9 cr\xC3\xA8me.") !=
        std::string::npos);
  CHECK(read.markdown.find("Short line") != std::string::npos);
}

TEST_CASE("pdf: long text flows over pages, page setup changes the media box", "[pdf]") {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += "Paragraph " + std::to_string(i) +
            " has enough words to wrap across the width of one page "
            "when it is set in eleven point Helvetica with normal margins.\n\n";
  }
  std::string pdf = formats::write_pdf(text, "Long");
  check_xref(pdf);
  auto read = formats::pdf_to_markdown(pdf);
  REQUIRE(!read.error);
  CHECK(read.num_pages > 10);
  CHECK(read.markdown.find("\n\n---\n\n") != std::string::npos);  // page separators
  CHECK(read.markdown.find("Paragraph 299 has enough words") != std::string::npos);

  formats::PdfPageSetup a4;
  a4.format = "A4";
  a4.landscape = true;
  CHECK(formats::write_pdf("x", "t", a4).find("/MediaBox [0 0 842.00 595.00]") !=
        std::string::npos);
  CHECK(formats::write_pdf("x", "t").find("/MediaBox [0 0 612.00 792.00]") != std::string::npos);
}

TEST_CASE("pdf: a page printed to PDF keeps its title and text", "[pdf]") {
  auto doc = parse(load("article.html"));
  std::string pdf = formats::page_pdf(doc);
  auto read = formats::pdf_to_markdown(pdf);
  REQUIRE(!read.error);
  CHECK(read.title == "Why Rivers Meander");
  CHECK(read.markdown.find("Oxbow lakes") != std::string::npos);
  CHECK(read.markdown.find("editor@geo.example") !=
        std::string::npos);  // the whole page, footer too
  CHECK(formats::data_uri_pdf(pdf).rfind("data:application/pdf;base64,JVBERi0xLjQK", 0) == 0);
}

TEST_CASE("pdf: encrypted, damaged and non-PDF files are refused clearly", "[pdf]") {
  auto not_pdf = formats::pdf_to_markdown("<html>hello</html>");
  REQUIRE(not_pdf.error);
  CHECK(not_pdf.code == "SCRAPE_UNSUPPORTED_FILE_ERROR");

  auto damaged =
      formats::pdf_to_markdown("%PDF-1.4\n1 0 obj << /Type /Nothing\nthis is not a pdf\n");
  REQUIRE(damaged.error);
  CHECK(damaged.code == "SCRAPE_UNSUPPORTED_FILE_ERROR");

  // A standard-security-handler PDF whose /U entry does not match the empty password.
  std::string pdf = formats::write_pdf("secret", "Secret");
  std::string enc_obj = "<< /Filter /Standard /V 1 /R 2 /P -44 /O <" + std::string(64, 'a') +
                        "> /U <" + std::string(64, 'b') + "> >>";
  std::size_t xref = pdf.rfind("\nxref\n") + 1;
  std::string body = pdf.substr(0, xref);
  std::size_t enc_offset = body.size();
  body += "8 0 obj\n" + enc_obj + "\nendobj\n";
  std::size_t new_xref = body.size();
  // Rebuild the xref with the extra object.
  std::string table = pdf.substr(xref, pdf.find("trailer") - xref);
  std::size_t count_at = table.find("0 ") + 2;
  std::size_t count = std::stoul(table.substr(count_at));
  REQUIRE(count == 8);
  table.replace(count_at, 1, "9");
  char entry[32];
  std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", enc_offset);
  table += entry;
  body += table +
          "trailer\n<< /Size 9 /Root 1 0 R /Info 5 0 R /Encrypt 8 0 R /ID "
          "[<0123456789abcdef0123456789abcdef> "
          "<0123456789abcdef0123456789abcdef>] >>\nstartxref\n" +
          std::to_string(new_xref) + "\n%%EOF\n";
  auto locked = formats::pdf_to_markdown(body);
  REQUIRE(locked.error);
  CHECK(locked.error->find("encrypted") != std::string::npos);
  CHECK(locked.code == "SCRAPE_UNSUPPORTED_FILE_ERROR");
}
