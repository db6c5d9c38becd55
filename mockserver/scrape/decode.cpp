// Stage decode: what a fetched answer is (a page the content pipeline reads, or a PDF), read
// from its content type; a PDF's text is read here when the request asked for it.
#include <algorithm>
#include <cctype>

#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

namespace {

bool is_html_like(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  type.erase(std::remove(type.begin(), type.end(), ' '), type.end());
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return type.empty() || type == "text/html" || type == "application/xhtml+xml" ||
         type.rfind("text/", 0) == 0 || type == "application/json" || type == "application/xml" ||
         (type.size() > 5 && (type.compare(type.size() - 4, 4, "+xml") == 0 ||
                              type.compare(type.size() - 5, 5, "+json") == 0));
}

bool is_pdf(const std::string& content_type) {
  return content_type.rfind("application/pdf", 0) == 0;
}

/// v2 `parsers` and v1 `parsePDF`: the PDF's text, or why it cannot be read.
std::optional<Failure> read_pdf(const requests::ScrapeOptions& options,
                                const web::FetchResult& answer, Decoded& out) {
  if (options.actions && !options.actions->empty()) {
    return Failure{500, "SCRAPE_ACTION_ERROR", "Actions need an HTML page; " + answer.url +
                                                   " is a PDF",
                   nullptr};
  }
  if (!options.parses_pdf()) return std::nullopt;
  formats::PdfResult pdf = formats::pdf_to_markdown(answer.body);
  if (pdf.error) {
    return Failure{500, pdf.code.empty() ? "SCRAPE_UNSUPPORTED_FILE_ERROR" : pdf.code,
                   "The PDF at " + answer.url + " cannot be read: " + *pdf.error, nullptr};
  }
  out.pdf = std::move(pdf);
  return std::nullopt;
}

}  // namespace

std::optional<Failure> decode(const requests::ScrapeOptions& options,
                              const web::FetchResult& answer, Decoded& out) {
  if (is_pdf(answer.content_type)) {
    out.kind = Decoded::Kind::kPdf;
    return read_pdf(options, answer, out);
  }
  if (!is_html_like(answer.content_type)) {
    return Failure{500, "SCRAPE_UNSUPPORTED_FILE_ERROR",
                   "Unsupported content type '" + answer.content_type + "' at " + answer.url,
                   nullptr};
  }
  out.kind = Decoded::Kind::kPage;
  return std::nullopt;
}

bool reads_as_page(const std::string& content_type) { return is_html_like(content_type); }

content::Page page_of(web::FetchResult fetched, const std::string& requested_url) {
  content::Page page;
  page.url = fetched.url.empty() ? requested_url : std::move(fetched.url);
  page.content_type = std::move(fetched.content_type);
  page.status_code = fetched.status;
  page.body = std::move(fetched.body);
  return page;
}

}  // namespace webdata::mock::scrape
