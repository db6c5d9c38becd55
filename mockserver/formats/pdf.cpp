#include "formats/pdf.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include "content/pipeline.hpp"
#include "core/base64.hpp"
#include "formats/tree.hpp"

namespace webdata::mock::formats {

namespace {

// Helvetica advance widths (per 1000 em) of U+0020..U+007E, from the standard AFM metrics.
constexpr int kHelvetica[95] = {
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333,  278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,  611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278,  556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500,  500, 334, 260, 334, 584};

double char_width(unsigned char c, double size, bool bold) {
  int w = c >= 0x20 && c <= 0x7E ? kHelvetica[c - 0x20] : 556;
  return w * size / 1000.0 * (bold ? 1.06 : 1.0);
}

// UTF-8 to Windows-1252 (the font's WinAnsiEncoding); unmappable characters become '?'.
std::string to_win_ansi(std::string_view utf8) {
  std::string out;
  std::size_t i = 0;
  while (i < utf8.size()) {
    char32_t cp = detail::next_code_point(utf8, i);
    if (cp == '\t') cp = ' ';
    if (cp < 0x20) continue;
    if (cp < 0x7F || (cp >= 0xA0 && cp <= 0xFF)) {
      out += static_cast<char>(cp);
      continue;
    }
    switch (cp) {
      case 0x20AC:
        out += '\x80';
        break;
      case 0x2018:
        out += '\x91';
        break;
      case 0x2019:
        out += '\x92';
        break;
      case 0x201C:
        out += '\x93';
        break;
      case 0x201D:
        out += '\x94';
        break;
      case 0x2022:
        out += '\x95';
        break;
      case 0x2013:
        out += '\x96';
        break;
      case 0x2014:
        out += '\x97';
        break;
      case 0x2026:
        out += '\x85';
        break;
      case 0x2122:
        out += '\x99';
        break;
      default:
        out += '?';
    }
  }
  return out;
}

std::string pdf_string(std::string_view bytes) {
  std::string out = "(";
  for (char c : bytes) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out + ")";
}

struct Line {
  std::string text;  // Windows-1252
  bool bold = false;
  double size = 11;
};

std::vector<Line> wrap(std::string_view paragraph, double size, bool bold, double width) {
  std::vector<Line> out;
  std::string line;
  double used = 0;
  std::string word;
  auto push_word = [&] {
    if (word.empty()) return;
    double w = 0;
    for (unsigned char c : word) w += char_width(c, size, bold);
    double space = line.empty() ? 0 : char_width(' ', size, bold);
    if (!line.empty() && used + space + w > width) {
      out.push_back({line, bold, size});
      line.clear();
      used = 0;
      space = 0;
    }
    // A word longer than the line is cut.
    while (w > width && !word.empty()) {
      std::string part;
      double pw = 0;
      std::size_t k = 0;
      while (k < word.size() &&
             pw + char_width(static_cast<unsigned char>(word[k]), size, bold) <= width) {
        pw += char_width(static_cast<unsigned char>(word[k]), size, bold);
        part += word[k++];
      }
      if (part.empty()) part = word.substr(0, 1), k = 1;
      out.push_back({part, bold, size});
      word = word.substr(k);
      w = 0;
      for (unsigned char c : word) w += char_width(c, size, bold);
    }
    if (!line.empty()) line += ' ';
    line += word;
    used += space + w;
    word.clear();
  };
  for (char c : to_win_ansi(paragraph)) {
    if (c == ' ')
      push_word();
    else
      word += c;
  }
  push_word();
  if (!line.empty()) out.push_back({line, bold, size});
  return out;
}

void page_size(const PdfPageSetup& setup, double& w, double& h) {
  struct Size {
    const char* name;
    double w, h;
  };
  static const Size kSizes[] = {{"A0", 2384, 3370},     {"A1", 1684, 2384},   {"A2", 1191, 1684},
                                {"A3", 842, 1191},      {"A4", 595, 842},     {"A5", 420, 595},
                                {"A6", 298, 420},       {"Letter", 612, 792}, {"Legal", 612, 1008},
                                {"Tabloid", 792, 1224}, {"Ledger", 1224, 792}};
  w = 612, h = 792;
  for (const auto& s : kSizes) {
    if (setup.format == s.name) w = s.w, h = s.h;
  }
  if (setup.landscape) std::swap(w, h);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::mutex& poppler_mutex() {
  static std::mutex m;
  return m;
}

void quiet(const std::string&, void*) {}

std::string utf8_of(const poppler::ustring& s) {
  auto bytes = s.to_utf8();
  return content::sanitize_utf8(std::string(bytes.begin(), bytes.end()));
}

constexpr double kMargin = 54;

/// The title and the text's paragraphs as lines that fit `width`, a blank line between
/// paragraphs.
std::vector<Line> layout_lines(std::string_view text, const std::string& title, double scale,
                               double width) {
  const double body = 11 * scale;
  std::vector<Line> lines;
  if (!title.empty()) {
    for (auto& l : wrap(title, 16 * scale, true, width)) lines.push_back(l);
    lines.push_back({"", false, body});
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view para = text.substr(start, end - start);
    if (para.find_first_not_of(" \t\r") == std::string_view::npos) {
      if (!lines.empty() && !lines.back().text.empty()) lines.push_back({"", false, body});
    } else {
      for (auto& l : wrap(para, body, false, width)) lines.push_back(l);
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

/// The content stream of each page: lines filled from the top margin down.
std::vector<std::string> page_streams(const std::vector<Line>& lines, double page_h) {
  std::vector<std::string> streams;
  std::string stream;
  double y = page_h - kMargin;
  bool open = false;
  for (const auto& l : lines) {
    double leading = l.size * 1.3;
    if (y - leading < kMargin && open) {
      stream += "ET\n";
      streams.push_back(stream);
      stream.clear();
      open = false;
      y = page_h - kMargin;
    }
    if (!open) {
      stream = "BT\n";
      open = true;
    }
    y -= leading;
    if (!l.text.empty()) {
      stream += std::string(l.bold ? "/F2 " : "/F1 ") + number(l.size) + " Tf\n1 0 0 1 " +
                number(kMargin) + " " + number(y) + " Tm\n" + pdf_string(l.text) + " Tj\n";
    }
  }
  if (open) {
    stream += "ET\n";
    streams.push_back(stream);
  }
  if (streams.empty()) streams.push_back("");
  return streams;
}

/// The document's objects: catalog, page tree, fonts, info, then each page and its stream
/// (object n is the result's element n - 1).
std::vector<std::string> pdf_objects(const std::vector<std::string>& streams,
                                     const std::string& title, double page_w, double page_h) {
  std::vector<std::string> objects;
  std::size_t pages = streams.size();
  std::string kids;
  for (std::size_t p = 0; p < pages; ++p) kids += std::to_string(6 + 2 * p) + " 0 R ";
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages) + " >>");
  objects.push_back(
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push_back(
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  objects.push_back("<< /Title " + pdf_string(to_win_ansi(title)) + " /Producer (webdata mock) >>");
  for (std::size_t p = 0; p < pages; ++p) {
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + number(page_w) + " " +
                      number(page_h) +
                      "] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents " +
                      std::to_string(7 + 2 * p) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(streams[p].size()) + " >>\nstream\n" +
                      streams[p] + "endstream");
  }
  return objects;
}

/// The file: header, objects, cross-reference table and trailer.
std::string pdf_file(const std::vector<std::string>& objects) {
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t off : offsets) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", off);
    out += entry;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R /Info 5 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

}  // namespace

std::string write_pdf(std::string_view text, const std::string& title, const PdfPageSetup& setup) {
  double page_w = 0, page_h = 0;
  page_size(setup, page_w, page_h);
  const double scale = std::clamp(setup.scale, 0.1, 2.0);
  const std::vector<Line> lines = layout_lines(text, title, scale, page_w - 2 * kMargin);
  return pdf_file(pdf_objects(page_streams(lines, page_h), title, page_w, page_h));
}

std::string page_pdf(const content::Document& doc, const PdfPageSetup& setup) {
  content::Options whole;
  whole.only_main_content = false;
  std::string text = doc.kind() == content::Document::Kind::kBinary ? "" : doc.text(whole);
  return write_pdf(text, doc.title(), setup);
}

std::string data_uri_pdf(const std::string& pdf) {
  return "data:application/pdf;base64," + base64_encode(pdf);
}

PdfResult pdf_to_markdown(const std::string& bytes) {
  PdfResult result;
  auto fail = [&](const std::string& message) {
    result.error = message;
    result.code = "SCRAPE_UNSUPPORTED_FILE_ERROR";
    result.markdown.clear();
    return result;
  };
  if (bytes.size() < 8 || bytes.compare(0, 5, "%PDF-") != 0) return fail("the file is not a PDF");
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    return fail("the PDF is too large");
  std::lock_guard<std::mutex> lock(poppler_mutex());
  static std::once_flag quiet_once;
  std::call_once(quiet_once, [] { poppler::set_debug_error_function(quiet, nullptr); });
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (!doc) return fail("the PDF could not be read (damaged or not a PDF)");
  if (doc->is_locked()) return fail("the PDF is encrypted and needs a password");
  result.num_pages = doc->pages();
  result.title = utf8_of(doc->get_title());
  result.author = utf8_of(doc->get_author());
  std::vector<std::string> pages;
  for (int p = 0; p < result.num_pages; ++p) {
    std::unique_ptr<poppler::page> page(doc->create_page(p));
    if (!page) continue;
    std::string text = utf8_of(page->text(poppler::rectf(), poppler::page::physical_layout));
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find_first_of("\n\f", start);
      if (end == std::string::npos) end = text.size();
      lines.push_back(detail::trim(std::string_view(text).substr(start, end - start)));
      if (end == text.size()) break;
      start = end + 1;
    }
    // Collapse the layout's runs of spaces; a short line ends its paragraph.
    std::size_t longest = 0;
    for (auto& l : lines) {
      std::string collapsed;
      for (char c : l) {
        if (c == ' ' && !collapsed.empty() && collapsed.back() == ' ') continue;
        collapsed += c;
      }
      l = collapsed;
      longest = std::max(longest, detail::utf8_length(l));
    }
    std::string md;
    std::string para;
    auto end_para = [&] {
      if (!para.empty()) md += (md.empty() ? "" : "\n\n") + para;
      para.clear();
    };
    for (const auto& l : lines) {
      if (l.empty()) {
        end_para();
        continue;
      }
      para += (para.empty() ? "" : " ") + l;
      if (detail::utf8_length(l) * 10 < longest * 6) end_para();
    }
    end_para();
    pages.push_back(md);
  }
  for (std::size_t p = 0; p < pages.size(); ++p) {
    if (p > 0) result.markdown += "\n\n---\n\n";
    result.markdown += pages[p];
  }
  return result;
}

}  // namespace webdata::mock::formats
