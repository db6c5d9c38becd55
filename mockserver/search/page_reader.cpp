#include "search/page_reader.hpp"

#include <cctype>
#include <set>

#include "content/document.hpp"
#include "content/dom.hpp"
#include "content/pipeline.hpp"
#include "core/text.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "formats/pdf.hpp"
#include "search/service.hpp"
#include "search/text.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

std::string meta_string(const json& metadata, const char* key) {
  if (!metadata.contains(key)) return "";
  const json& value = metadata.at(key);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && !value.empty() && value.front().is_string()) {
    return value.front().get<std::string>();
  }
  return "";
}

/// "text/html; charset=utf-8" -> "text/html".
std::string media_type(const std::string& content_type) {
  return to_lower(collapse_space(content_type.substr(0, content_type.find(';'))));
}

}  // namespace

std::string file_extension(const std::string& path) {
  const std::string bare = path.substr(0, path.find_first_of("?#"));
  const auto slash = bare.rfind('/');
  const auto dot = bare.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return to_lower(bare.substr(dot + 1));
}

namespace {

std::string filetype_of(const std::string& content_type, const std::string& path) {
  const std::string type = media_type(content_type);
  if (type == "application/pdf") return "pdf";
  if (type.empty() || type == "text/html" || type == "application/xhtml+xml") {
    const std::string ext = file_extension(path);
    return ext.empty() || ext == "htm" ? "html" : ext;
  }
  if (type == "text/plain") return "txt";
  const std::string ext = file_extension(path);
  return ext.empty() ? type.substr(type.find('/') + 1) : ext;
}

std::optional<int> dimension(const content::dom::Node& node, const char* name) {
  const std::string* value = node.attr(name);
  if (value == nullptr || value->empty() || value->size() > 6) return std::nullopt;
  int n = 0;
  for (char c : *value) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n > 0 ? std::optional<int>(n) : std::nullopt;
}

/// A PDF's record: its title (or first line), text and second sentence as the description.
/// The same reader as the `pdf` parser of scrape (poppler), so search indexes what a scrape of
/// the file shows; a file poppler cannot open is not a searchable document.
bool read_pdf_page(const std::string& body, PageRecord& page) {
  const formats::PdfResult pdf = formats::pdf_to_markdown(body);
  if (pdf.error) return false;
  page.title = collapse_space(pdf.title);
  page.text = pdf.markdown;
  if (page.title.empty()) {
    const auto lines = split_sentences(pdf.markdown);
    if (!lines.empty()) page.title = clip(lines.front(), 80);
  }
  const auto sentences = split_sentences(page.text);
  if (!sentences.empty()) {
    page.description = clip(sentences.size() > 1 ? sentences[1] : sentences[0], 200);
  }
  return true;
}

/// What the page's metadata says: description, language, Open Graph image, date, article.
void read_metadata(const json& metadata, const std::optional<Url>& url, PageRecord& page) {
  page.description = meta_string(metadata, "description");
  if (page.description.empty()) page.description = meta_string(metadata, "ogDescription");
  const std::string language_tag = meta_string(metadata, "language");
  page.language = to_lower(language_tag.substr(0, language_tag.find_first_of("-_")));
  page.og_image = meta_string(metadata, "ogImage");
  if (!page.og_image.empty()) page.og_image = resolve_url_string(url, page.og_image);
  for (const char* key : {"publishedTime", "datePublished", "dcDate", "dcTermsCreated", "date",
                          "pubdate", "modifiedTime"}) {
    if (auto date = parse_iso8601(meta_string(metadata, key))) {
      page.date = date;
      break;
    }
  }
  page.article = !meta_string(metadata, "publishedTime").empty() ||
                 to_lower(meta_string(metadata, "og:type")) == "article";
}

/// An image's alt text, or the caption of the figure it is in.
std::string image_alt(const content::dom::Node& node) {
  if (const std::string* alt = node.attr("alt")) {
    std::string text = collapse_space(*alt);
    if (!text.empty()) return text;
  }
  std::string caption;
  for (const auto* up = node.parent; up != nullptr; up = up->parent) {
    if (!up->is("figure")) continue;
    for (const auto* child : up->children) {
      if (child->is("figcaption")) caption = content::dom::collapsed_text(*child);
    }
    break;
  }
  return caption;
}

/// Images with their alt text and declared size, and the first <time datetime>. The Document's
/// own tree (no second parse); its base already honours <base href>.
void read_images(const content::Document& document, PageRecord& page) {
  const content::dom::Tree& tree = document.parsed().tree;
  const std::optional<Url>& base = document.parsed().base;
  std::set<std::string> seen;
  for (const auto& node : tree.nodes) {
    if (node.is("time") && !page.date && node.attr("datetime") != nullptr) {
      page.date = parse_iso8601(*node.attr("datetime"));
    }
    if (!node.is("img") || node.attr("src") == nullptr) continue;
    const std::string& src = *node.attr("src");
    if (src.rfind("data:", 0) == 0) continue;
    ImageRecord image;
    image.url = resolve_url_string(base, src);
    if (!seen.insert(image.url).second) continue;
    image.alt = image_alt(node);
    const auto width = dimension(node, "width");
    const auto height = dimension(node, "height");
    if (width && height) image.size = Size{*width, *height};
    page.images.push_back(std::move(image));
  }
}

}  // namespace

std::optional<PageRecord> SearchService::read_page(const std::string& url,
                                                   const std::string& language,
                                                   std::chrono::steady_clock::time_point* due) const {
  web::FetchRequest request;
  request.url = url;
  request.timeout = kIndexFetchTimeout;
  if (!language.empty()) request.accept_language = language + ";q=1.0,en;q=0.5";
  if (due != nullptr) request.start = *due;
  const web::FetchResult fetched = web_.fetch_deferred(request);
  if (due != nullptr) *due = std::max(*due, fetched.ready_at);
  if (!fetched.ok || fetched.status >= 400) return std::nullopt;
  const auto final_url = parse_http_url(fetched.url.empty() ? url : fetched.url);
  if (!final_url) return std::nullopt;

  PageRecord page;
  page.url = final_url->str();
  page.host = final_url->host;
  page.path = final_url->target();
  page.filetype = filetype_of(fetched.content_type, page.path);
  if (page.filetype == "pdf") {
    if (!read_pdf_page(fetched.body, page)) return std::nullopt;
    return page;
  }
  const std::string type = media_type(fetched.content_type);
  if (!(type.empty() || type == "text/html" || type == "application/xhtml+xml" ||
        type == "text/plain")) {
    return std::nullopt;
  }
  const content::Document document =
      content::Document::parse({page.url, fetched.content_type, fetched.status, fetched.body});
  page.title = collapse_space(document.title());
  page.text = document.text(content::Options());
  page.links = document.links();
  read_metadata(document.metadata(), parse_url(page.url), page);
  read_images(document, page);
  return page;
}

}  // namespace webdata::mock::search
