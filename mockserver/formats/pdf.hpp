#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "content/document.hpp"

namespace webdata::mock::formats {

/// Page setup of the `pdf` action (spec action `{type: pdf, format, landscape, scale}`).
struct PdfPageSetup {
  std::string format = "Letter";  ///< A0..A6, Letter, Legal, Tabloid, Ledger; unknown -> Letter
  bool landscape = false;
  double scale = 1.0;  ///< text size factor, clamped to 0.1..2 (as browsers clamp print scale)
};

/// A minimal PDF 1.4 of plain text: Helvetica 11 pt (scaled), lines wrapped with Helvetica's
/// metrics, 54 pt margins, as many pages as needed, `title` in bold on the first page and in the
/// document information dictionary. Text outside Windows-1252 is written as '?'. Cross-reference
/// offsets are exact, so strict readers (poppler, pdf.js) open it without repair.
std::string write_pdf(std::string_view text, const std::string& title,
                      const PdfPageSetup& setup = {});

/// The `pdf` action: the current page (title + the whole page's text, as printing shows it).
std::string page_pdf(const content::Document& doc, const PdfPageSetup& setup = {});

/// "data:application/pdf;base64,..." (what actions.pdfs carries).
std::string data_uri_pdf(const std::string& pdf);

/// A PDF read for the `pdf` parser (v2 parsers: ["pdf"], v1 parsePDF).
struct PdfResult {
  std::optional<std::string> error;  ///< set when the file cannot be read; then code says why
  std::string code;                  ///< "SCRAPE_UNSUPPORTED_FILE_ERROR" when error is set
  std::string markdown;  ///< paragraphs separated by blank lines, pages by "\n\n---\n\n"
  int num_pages = 0;
  std::string title;   ///< document information Title, may be empty
  std::string author;  ///< document information Author, may be empty
};

/// Text of every page with poppler (physical layout): a line much shorter than the page's
/// longest ends a paragraph. Encrypted (password-protected) and unreadable files give an
/// error. Thread-safe (poppler calls are serialized).
PdfResult pdf_to_markdown(const std::string& bytes);

}  // namespace webdata::mock::formats
