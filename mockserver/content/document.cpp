#include "content/document.hpp"

#include <cstdint>
#include <unordered_set>

#include "content/pipeline.hpp"
#include "core/text.hpp"

namespace webdata::mock::content {

struct Document::Impl {
  Kind kind = Kind::kHtml;
  std::string raw;
  std::string content_type;
  std::string page_url;
  std::string text;  // decoded, valid UTF-8 body for the non-HTML kinds
  std::string title;
  Parsed parsed;
};

namespace {

using dom::Node;

std::string mime_of(std::string_view content_type) {
  std::size_t semi = content_type.find(';');
  return to_lower(dom::trim_html_space(content_type.substr(0, semi)));
}

std::string charset_of(std::string_view content_type) {
  std::string lower = to_lower(content_type);
  std::size_t p = lower.find("charset=");
  if (p == std::string::npos) return "";
  std::size_t start = p + 8;
  while (start < lower.size() && (lower[start] == '"' || lower[start] == '\'')) ++start;
  std::size_t end = start;
  while (end < lower.size() && lower[end] != ';' && lower[end] != '"' && lower[end] != '\'' &&
         !dom::is_html_space(lower[end]) && lower[end] != '>' && lower[end] != '/') {
    ++end;
  }
  return lower.substr(start, end - start);
}

bool has_prefix(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has_suffix(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

Document::Kind sniff(std::string_view body) {
  std::string_view s = body.substr(0, 1024);
  if (has_prefix(s, "\xEF\xBB\xBF")) s.remove_prefix(3);
  if (s.find('\0') != std::string_view::npos) return Document::Kind::kBinary;
  std::string_view t = dom::trim_html_space(s);
  if (t.empty()) return Document::Kind::kHtml;
  if (t.front() == '<') {
    std::string lower = to_lower(t);
    if (has_prefix(lower, "<?xml") && lower.find("<html") == std::string::npos) {
      return Document::Kind::kXml;
    }
    return Document::Kind::kHtml;
  }
  if (t.front() == '{' || t.front() == '[') {
    if (!nlohmann::json::parse(body, nullptr, false).is_discarded()) return Document::Kind::kJson;
  }
  return Document::Kind::kText;
}

Document::Kind kind_of(std::string_view content_type, std::string_view body) {
  std::string mime = mime_of(content_type);
  if (mime.empty()) return sniff(body);
  if (mime == "text/html" || mime == "application/xhtml+xml") return Document::Kind::kHtml;
  if (mime == "application/json" || has_suffix(mime, "+json")) return Document::Kind::kJson;
  if (mime == "text/xml" || mime == "application/xml" || has_suffix(mime, "+xml")) {
    return Document::Kind::kXml;
  }
  if (has_prefix(mime, "text/") || mime == "application/javascript" ||
      mime == "application/ecmascript") {
    return Document::Kind::kText;
  }
  return Document::Kind::kBinary;
}

// windows-1252 bytes 0x80..0x9F; the rest of the range maps to the same code point (Latin-1).
constexpr std::uint16_t kCp1252High[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

std::string decode_cp1252(std::string_view in) {
  std::string out;
  out.reserve(in.size() + in.size() / 8);
  for (char ch : in) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 && c < 0xA0) {
      append_utf8(out, kCp1252High[c - 0x80]);
    } else {
      append_utf8(out, c);
    }
  }
  return out;
}

std::string decode_utf16(std::string_view in, bool little_endian) {
  std::string out;
  for (std::size_t i = 0; i + 1 < in.size(); i += 2) {
    auto b0 = static_cast<unsigned char>(in[i]), b1 = static_cast<unsigned char>(in[i + 1]);
    std::uint32_t unit = little_endian ? (b1 << 8 | b0) : (b0 << 8 | b1);
    if (unit >= 0xD800 && unit <= 0xDBFF && i + 3 < in.size()) {
      auto c0 = static_cast<unsigned char>(in[i + 2]), c1 = static_cast<unsigned char>(in[i + 3]);
      std::uint32_t low = little_endian ? (c1 << 8 | c0) : (c0 << 8 | c1);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        append_utf8(out, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        i += 2;
        continue;
      }
    }
    append_utf8(out, (unit >= 0xD800 && unit <= 0xDFFF) ? 0xFFFD : unit);
  }
  return out;
}

// The body as UTF-8: BOMs honoured, Latin-1 / windows-1252 transcoded when declared (in the
// Content-Type or an early <meta charset>) and the bytes are not UTF-8 anyway. A body that needs
// no transcoding (nearly all) is returned as a view of itself; a transcoded one lives in storage.
std::string_view decode_body(std::string_view body, std::string_view content_type, bool html,
                             std::string& storage) {
  if (has_prefix(body, "\xEF\xBB\xBF")) return body.substr(3);
  if (has_prefix(body, "\xFF\xFE")) return storage = decode_utf16(body.substr(2), true);
  if (has_prefix(body, "\xFE\xFF")) return storage = decode_utf16(body.substr(2), false);
  std::string charset = charset_of(content_type);
  if (charset.empty() && html) {
    std::string head = to_lower(body.substr(0, 2048));
    std::size_t meta = head.find("<meta");
    while (meta != std::string::npos && charset.empty()) {
      std::size_t end = head.find('>', meta);
      charset = charset_of(std::string_view(head).substr(meta, end == std::string::npos ? end : end - meta));
      meta = head.find("<meta", meta + 5);
    }
  }
  static const std::unordered_set<std::string> kLatin1 = {
      "iso-8859-1", "iso8859-1", "latin1", "l1", "windows-1252", "cp1252", "x-cp1252",
      "ascii", "us-ascii", "iso-8859-15", "latin-1", "iso_8859-1"};
  if (kLatin1.count(charset) != 0 && !is_valid_utf8(body)) return storage = decode_cp1252(body);
  return body;
}

std::optional<Url> base_url_of(const dom::Tree& tree, const std::optional<Url>& page) {
  for (const Node& n : tree.nodes) {
    if (n.is("base")) {
      if (const std::string* href = n.attr("href")) {
        if (auto u = resolve_url(page, *href)) return u;
      }
      break;  // only the first <base> counts, as in browsers
    }
  }
  return page;
}

std::string first_title(const dom::Tree& tree) {
  for (const Node& n : tree.nodes) {
    if (n.is("title")) return dom::collapsed_text(n);
  }
  return "";
}

bool rel_has(const Node& n, std::string_view token) {
  const std::string* rel = n.attr("rel");
  if (rel == nullptr) return false;
  std::string lower = to_lower(*rel);
  std::string_view rest = lower;
  while (!rest.empty()) {
    std::size_t i = 0;
    while (i < rest.size() && dom::is_html_space(rest[i])) ++i;
    std::size_t j = i;
    while (j < rest.size() && !dom::is_html_space(rest[j])) ++j;
    if (rest.substr(i, j - i) == token) return true;
    rest.remove_prefix(j);
  }
  return false;
}

// Metadata keys filled from named sources; the same names never come from arbitrary <meta>.
struct NamedKey {
  const char* key;
  const char* meta;  // name or property, compared case-insensitively
};
constexpr NamedKey kNamedKeys[] = {
    {"description", "description"},
    {"keywords", "keywords"},
    {"robots", "robots"},
    {"ogTitle", "og:title"},
    {"ogDescription", "og:description"},
    {"ogUrl", "og:url"},
    {"ogImage", "og:image"},
    {"ogAudio", "og:audio"},
    {"ogDeterminer", "og:determiner"},
    {"ogLocale", "og:locale"},
    {"ogSiteName", "og:site_name"},
    {"ogVideo", "og:video"},
    {"dcTermsCreated", "dcterms.created"},
    {"dcDateCreated", "dc.date.created"},
    {"dcDate", "dc.date"},
    {"dcTermsType", "dcterms.type"},
    {"dcType", "dc.type"},
    {"dcTermsAudience", "dcterms.audience"},
    {"dcTermsSubject", "dcterms.subject"},
    {"dcSubject", "dc.subject"},
    {"dcDescription", "dc.description"},
    {"dcTermsKeywords", "dcterms.keywords"},
    {"modifiedTime", "article:modified_time"},
    {"publishedTime", "article:published_time"},
    {"articleTag", "article:tag"},
    {"articleSection", "article:section"},
};

// Keys a page can never set: the named ones above and those the scrape service owns.
bool is_reserved_key(std::string_view key) {
  for (const auto& k : kNamedKeys) {
    if (key == k.key) return true;
  }
  static constexpr std::string_view kReserved[] = {
      "title",    "language",   "favicon",   "ogLocaleAlternate", "sourceURL",   "url",
      "statusCode", "scrapeId", "error",     "contentType",       "proxyUsed",   "cacheState",
      "cachedAt", "creditsUsed", "numPages"};
  for (auto r : kReserved) {
    if (key == r) return true;
  }
  return false;
}

const std::string* meta_key(const Node& meta) {
  for (const char* attr : {"name", "property", "itemprop"}) {
    const std::string* v = meta.attr(attr);
    if (v != nullptr && !dom::trim_html_space(*v).empty()) return v;
  }
  return nullptr;
}

// Absolute http(s) URLs written in text (plain text, JSON, XML such as sitemaps and feeds).
std::vector<std::string> urls_in_text(std::string_view text) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  std::size_t pos = 0;
  while (true) {
    std::size_t p = text.find("http", pos);
    if (p == std::string_view::npos) break;
    pos = p + 4;
    std::string_view rest = text.substr(p);
    if (!has_prefix(rest, "http://") && !has_prefix(rest, "https://")) continue;
    std::size_t end = 0;
    while (end < rest.size()) {
      char c = rest[end];
      if (static_cast<unsigned char>(c) <= 0x20 || c == '"' || c == '\'' || c == '<' ||
          c == '>' || c == '`' || c == '\\' || c == '{' || c == '}' || c == '|' || c == '^') {
        break;
      }
      ++end;
    }
    std::string_view candidate = rest.substr(0, end);
    while (!candidate.empty() && std::string_view(".,;:!?)]").find(candidate.back()) != std::string_view::npos) {
      candidate.remove_suffix(1);
    }
    pos = p + std::max<std::size_t>(end, 4);
    auto u = parse_url(candidate);
    if (!u || !u->is_http() || u->host.empty()) continue;
    std::string s = u->without_fragment();
    if (seen.insert(s).second) out.push_back(std::move(s));
  }
  return out;
}

std::string fenced(std::string_view text, std::string_view language) {
  std::size_t run = 0, best = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  std::string fence(std::max<std::size_t>(3, best + 1), '`');
  std::string body(text);
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  if (dom::trim_html_space(body).empty()) return "";
  return fence + std::string(language) + "\n" + body + "\n" + fence;
}

}  // namespace

std::string sanitize_utf8(std::string_view in) {
  if (is_valid_utf8(in)) return std::string(in);
  std::string out;
  out.reserve(in.size());
  std::size_t i = 0;
  while (i < in.size()) {
    std::size_t len = 1;
    auto c = static_cast<unsigned char>(in[i]);
    std::size_t want = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (want != 0 && i + want <= in.size() && is_valid_utf8(in.substr(i, want))) {
      len = want;
      out += in.substr(i, len);
    } else {
      out += "\xEF\xBF\xBD";
    }
    i += len;
  }
  return out;
}

Document Document::parse(Page page) {
  auto impl = std::make_shared<Impl>();
  impl->raw = std::move(page.body);
  impl->content_type = page.content_type;
  impl->page_url = page.url;
  impl->kind = kind_of(page.content_type, impl->raw);
  std::optional<Url> page_url = parse_url(page.url);
  std::string transcoded;
  if (impl->kind == Kind::kHtml) {
    impl->parsed.tree = dom::parse_html(decode_body(impl->raw, page.content_type, true, transcoded));
    impl->parsed.stats = compute_stats(impl->parsed.tree);
    impl->parsed.base = base_url_of(impl->parsed.tree, page_url);
    impl->title = first_title(impl->parsed.tree);
  } else {
    impl->parsed.tree = dom::parse_html("");
    impl->parsed.stats = compute_stats(impl->parsed.tree);
    impl->parsed.base = page_url;
    if (impl->kind != Kind::kBinary) {
      impl->text = sanitize_utf8(decode_body(impl->raw, page.content_type, false, transcoded));
    }
  }
  return Document(std::move(impl));
}

Document::Kind Document::kind() const { return impl_->kind; }

std::string Document::base_url() const {
  return impl_->parsed.base ? impl_->parsed.base->str() : impl_->page_url;
}

std::string Document::raw_html() const { return impl_->raw; }

std::string Document::title() const { return impl_->title; }

const Parsed& Document::parsed() const { return impl_->parsed; }

std::string Document::html(const Options& options) const {
  validate_selectors(options);
  switch (impl_->kind) {
    case Kind::kHtml:
      return serialize_html(impl_->parsed, make_view(impl_->parsed, options), options);
    case Kind::kText:
    case Kind::kJson:
    case Kind::kXml: {
      std::string out = "<pre>";
      dom::append_escaped_text(out, impl_->text);
      return out + "</pre>";
    }
    case Kind::kBinary:
      break;
  }
  return "";
}

std::string Document::markdown(const Options& options) const {
  validate_selectors(options);
  switch (impl_->kind) {
    case Kind::kHtml:
      return render_markdown(impl_->parsed, make_view(impl_->parsed, options), options);
    case Kind::kText:
      return impl_->text;
    case Kind::kJson:
      return fenced(impl_->text, "json");
    case Kind::kXml:
      return fenced(impl_->text, "xml");
    case Kind::kBinary:
      break;
  }
  return "";
}

std::string Document::text(const Options& options) const {
  validate_selectors(options);
  if (impl_->kind == Kind::kHtml) {
    return render_text(impl_->parsed, make_view(impl_->parsed, options), options);
  }
  return impl_->text;
}

std::vector<std::string> Document::links() const {
  if (impl_->kind != Kind::kHtml) return urls_in_text(impl_->text);
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const Node& n : impl_->parsed.tree.nodes) {
    if (!(n.is("a") || n.is("area"))) continue;
    const std::string* href = n.attr("href");
    if (href == nullptr) continue;
    auto u = resolve_url(impl_->parsed.base, *href);
    if (!u) continue;
    // The service keeps mailto: links as written, beside the page's http(s) links.
    const bool mail = u->scheme == "mailto" && !u->path.empty();
    if (!mail && (!u->is_http() || u->host.empty())) continue;
    std::string s = mail ? u->str() : u->without_fragment();
    if (seen.insert(s).second) out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> Document::images() const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto add = [&](std::string_view reference) {
    if (dom::trim_html_space(reference).empty() || is_data_image(reference)) return;
    auto u = resolve_url(impl_->parsed.base, reference);
    if (!u || !u->is_http() || u->host.empty()) return;
    std::string s = u->str();
    if (seen.insert(s).second) out.push_back(std::move(s));
  };
  if (impl_->kind == Kind::kBinary && has_prefix(mime_of(impl_->content_type), "image/")) {
    add(impl_->page_url);
    return out;
  }
  for (const Node& n : impl_->parsed.tree.nodes) {
    if (!n.is_element() || n.ns != dom::Namespace::kHtml) continue;
    if (n.is("img") || (n.is("input") && n.attr("type") != nullptr &&
                        iequals(*n.attr("type"), "image"))) {
      for (const char* attr : {"src", "data-src"}) {
        if (const std::string* v = n.attr(attr)) add(*v);
      }
    }
    if (n.is("img") || (n.is("source") && n.parent != nullptr && n.parent->is("picture"))) {
      for (const char* attr : {"srcset", "data-srcset"}) {
        if (const std::string* v = n.attr(attr)) {
          for (const auto& u : srcset_urls(*v)) add(u);
        }
      }
    }
    if (n.is("video")) {
      if (const std::string* v = n.attr("poster")) add(*v);
    }
    if (n.is("meta")) {
      const std::string* key = meta_key(n);
      const std::string* content = n.attr("content");
      if (key != nullptr && content != nullptr) {
        std::string k = to_lower(dom::trim_html_space(*key));
        if (k == "og:image" || k == "og:image:url" || k == "og:image:secure_url" ||
            k == "twitter:image" || k == "twitter:image:src") {
          add(*content);
        }
      }
    }
  }
  return out;
}

nlohmann::json Document::metadata() const {
  nlohmann::json m = nlohmann::json::object();
  // The service lists og:locale:alternate values for every page it reads as text, [] for none.
  if (impl_->kind == Kind::kBinary) return m;
  if (impl_->kind != Kind::kHtml) return {{"ogLocaleAlternate", nlohmann::json::array()}};
  const dom::Tree& tree = impl_->parsed.tree;
  if (!impl_->title.empty()) m["title"] = impl_->title;
  if (tree.html != nullptr) {
    if (const std::string* lang = tree.html->attr("lang")) {
      std::string_view l = dom::trim_html_space(*lang);
      if (!l.empty()) m["language"] = std::string(l);
    }
  }
  nlohmann::json locale_alternates = nlohmann::json::array();
  std::string favicon, touch_icon;
  for (const Node& n : tree.nodes) {
    if (n.is("link") && n.attr("href") != nullptr) {
      if (favicon.empty() && rel_has(n, "icon")) favicon = absolute_url(impl_->parsed, *n.attr("href"));
      if (touch_icon.empty() && rel_has(n, "apple-touch-icon")) {
        touch_icon = absolute_url(impl_->parsed, *n.attr("href"));
      }
      continue;
    }
    if (!n.is("meta")) continue;
    const std::string* key_attr = meta_key(n);
    const std::string* content_attr = n.attr("content");
    if (key_attr == nullptr || content_attr == nullptr) continue;
    std::string key(dom::trim_html_space(*key_attr));
    std::string content(dom::trim_html_space(*content_attr));
    if (content.empty()) continue;
    std::string lower = to_lower(key);
    for (const auto& named : kNamedKeys) {
      if (lower == named.meta && !m.contains(named.key)) m[named.key] = content;
    }
    if (lower == "og:locale:alternate") locale_alternates.push_back(content);
    if (is_reserved_key(key)) continue;
    auto it = m.find(key);
    if (it == m.end()) {
      m[key] = content;
    } else if (it->is_array()) {
      it->push_back(content);
    } else {
      *it = nlohmann::json::array({*it, content});
    }
  }
  m["ogLocaleAlternate"] = std::move(locale_alternates);
  if (!favicon.empty()) {
    m["favicon"] = favicon;
  } else if (!touch_icon.empty()) {
    m["favicon"] = touch_icon;
  }
  return m;
}

}  // namespace webdata::mock::content
