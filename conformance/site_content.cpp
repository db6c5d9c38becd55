// The runner's test site. Its graph (the crawl tests rely on it):
//
//   /               -> /docs/, /blog/post-1.html, /private/secret.html, /missing.html,
//                      https://outside.invalid/page (external), /docs/a.html#part (fragment),
//                      #top (fragment only)
//   /docs/          -> /docs/a.html, /docs/b.html, /blog/post-1.html (outside /docs/)
//   /docs/a.html    -> /, /docs/b.html
//   /docs/b.html    -> /docs/
//   /blog/post-1.html -> /
//   /sitemap.xml    lists /, /docs/, /docs/a.html, /docs/b.html, /blog/post-1.html,
//                   /sitemap-only.html (linked from nowhere)
//   /robots.txt     disallows /private/
//   /big/           -> /big/1.html .. /big/12.html (about 1.1 MB of text each; not linked from /)
//   /slow-tree/     -> /slow-tree/1.html -> /slow-tree/2.html ... (each answers after 1.5 s)
//   /redirect       302 -> /docs/b.html;  /slow.html answers after 5 s;  /files/doc.pdf: a PDF
//   anything else   the 404 page

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

#include "test_site.hpp"

namespace webdata::conformance {

namespace {

using Body = std::shared_ptr<const std::string>;

Body text(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

std::string page(const std::string& title, const std::string& head_extra, const std::string& main) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         "</title>\n" + head_extra +
         "<script>window.conformanceScript = 'SCRIPT-MARKER';</script>\n</head>\n<body>\n"
         "<nav><a href=\"/\">Home</a> NAVIGATION-MARKER</nav>\n<main>\n" +
         main + "\n</main>\n<footer>FOOTER-MARKER copyright</footer>\n</body>\n</html>\n";
}

std::string home() {
  const std::string head =
      "<meta name=\"description\" content=\"The home page of the conformance site.\">\n"
      "<meta name=\"keywords\" content=\"conformance, testing\">\n"
      "<meta name=\"robots\" content=\"index, follow\">\n"
      "<meta property=\"og:title\" content=\"Conformance OG Title\">\n"
      "<meta property=\"og:description\" content=\"Conformance OG description\">\n"
      "<meta property=\"og:url\" content=\"https://conformance.example/\">\n"
      "<meta property=\"og:image\" content=\"https://conformance.example/og.png\">\n"
      "<meta property=\"og:site_name\" content=\"Conformance Site\">\n"
      "<meta property=\"og:locale:alternate\" content=\"de_DE\">\n"
      "<meta property=\"og:locale:alternate\" content=\"fr_FR\">\n";
  const std::string main =
      "<h1>Conformance Home</h1>\n"
      "<p>Welcome to the <strong>conformance</strong> site.</p>\n"
      "<ul><li>alpha item</li><li>beta item</li></ul>\n"
      "<p><a href=\"/docs/\">Documentation</a> and <a href=\"/blog/post-1.html\">the blog</a>"
      " and <a href=\"/docs/a.html#part\">part of A</a> and <a href=\"/docs/\">docs "
      "again</a>.</p>\n"
      "<p><a href=\"/private/secret.html\">Private</a> <a href=\"/missing.html\">Missing</a>"
      " <a href=\"https://outside.invalid/page\">Outside</a> <a href=\"#top\">Top</a></p>\n"
      "<div id=\"skipme\">EXCLUDED-BLOCK-MARKER</div>\n"
      "<img src=\"/img/logo.png\" alt=\"Logo\">\n";
  return page("Conformance Home", head, main);
}

std::string simple(const std::string& title, const std::string& heading, const std::string& body,
                   const std::vector<std::string>& links) {
  std::string main = "<h1>" + heading + "</h1>\n<p>" + body + "</p>\n<ul>\n";
  for (const auto& l : links) main += "<li><a href=\"" + l + "\">" + l + "</a></li>\n";
  main += "</ul>";
  return page(title, "<meta name=\"description\" content=\"" + title + " page\">\n", main);
}

std::string big_page(int n) {
  std::string html = "<!DOCTYPE html><html lang=\"en\"><head><title>Big page " + std::to_string(n) +
                     "</title></head><body><main><h1>Big page " + std::to_string(n) + "</h1>\n";
  int k = 0;
  while (html.size() < site_facts::kBigPageBytes) {
    html += "<p>Big page " + std::to_string(n) + " paragraph " + std::to_string(k++) +
            ": the quick brown fox jumps over the lazy dog while the suite checks chunking.</p>\n";
  }
  return html + "</main></body></html>\n";
}

std::string pdf() {
  const std::string stream = "BT /F1 24 Tf 72 720 Td (Conformance PDF document) Tj ET";
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
      "/Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "\nendstream",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const auto off : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", off);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

// A tiny valid PNG (1x1, transparent) for the image link.
std::string png() {
  static const unsigned char bytes[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
      0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00,
      0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78,
      0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00,
      0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

const Body& cached(int key, std::string (*make)()) {
  static std::mutex mutex;
  static std::map<int, Body> bodies;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = bodies[key];
  if (!slot) slot = text(make());
  return slot;
}

SiteResponse html(Body body, int status = 200) {
  SiteResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// The pages of the graph above, or nothing when `path` is none of them.
std::optional<SiteResponse> graph_page(const std::string& path) {
  if (path == "/" || path == "/index.html") return html(cached(0, home));
  if (path == "/docs/" || path == "/docs") {
    return html(text(simple("Docs Index", "Documentation", "The documentation index.",
                            {"/docs/a.html", "/docs/b.html", "/blog/post-1.html"})));
  }
  if (path == "/docs/a.html") {
    return html(text(
        simple("Page A", "Page A", "Alpha content of <em>page A</em>.", {"/", "/docs/b.html"})));
  }
  if (path == "/docs/b.html") {
    return html(text(simple("Page B", "Page B", "Beta content of page B.", {"/docs/"})));
  }
  if (path == "/blog/post-1.html") {
    return html(text(simple("Post One", "Post One", "The first blog post.", {"/"})));
  }
  if (path == "/sitemap-only.html") {
    return html(
        text(simple("Sitemap Only", "Sitemap Only", "Reachable from the sitemap only.", {})));
  }
  if (path == "/private/secret.html") {
    return html(text(simple("Secret", "Secret", "Robots.txt disallows this page.", {"/"})));
  }
  return std::nullopt;
}

SiteResponse typed(const char* content_type, Body body) {
  SiteResponse r;
  r.content_type = content_type;
  r.body = std::move(body);
  return r;
}

// robots.txt, the sitemap, the redirect and the binary files, or nothing.
std::optional<SiteResponse> site_file(const std::string& path, const std::string& origin) {
  if (path == "/robots.txt") {
    return typed("text/plain", text("User-agent: *\nDisallow: /private/\n\nSitemap: " + origin +
                                    "/sitemap.xml\n"));
  }
  if (path == "/sitemap.xml") {
    std::string xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    for (const char* p : {"/", "/docs/", "/docs/a.html", "/docs/b.html", "/blog/post-1.html",
                          "/sitemap-only.html"}) {
      xml += "<url><loc>" + origin + p + "</loc></url>\n";
    }
    return typed("application/xml", text(xml + "</urlset>\n"));
  }
  if (path == "/redirect") {
    SiteResponse r;
    r.status = 302;
    r.headers = {{"Location", "/docs/b.html"}};
    r.body = text("<html><body>Moved</body></html>");
    return r;
  }
  if (path == "/files/doc.pdf") return typed("application/pdf", cached(1, pdf));
  if (path == "/img/logo.png") return typed("image/png", cached(2, png));
  return std::nullopt;
}

// The large and the slow pages, or nothing.
std::optional<SiteResponse> load_page(const std::string& path) {
  if (path == "/slow.html") {
    auto r = html(text(simple("Slow", "Slow", "This page answers after five seconds.", {})));
    r.delay = std::chrono::milliseconds(5000);
    return r;
  }
  if (path == "/big/" || path == "/big") {
    std::vector<std::string> links;
    for (int i = 1; i <= site_facts::kBigPages; ++i) {
      links.push_back("/big/" + std::to_string(i) + ".html");
    }
    return html(text(simple("Big Index", "Big Index", "Large pages.", links)));
  }
  if (path.rfind("/big/", 0) == 0) {
    const int n = std::atoi(path.c_str() + 5);
    if (n >= 1 && n <= site_facts::kBigPages) {
      static std::mutex mutex;
      static std::map<int, Body> bodies;
      std::lock_guard<std::mutex> lock(mutex);
      auto& slot = bodies[n];
      if (!slot) slot = text(big_page(n));
      return html(slot);
    }
  }
  if (path.rfind("/slow-tree/", 0) == 0) {
    const int n = path == "/slow-tree/" ? 0 : std::atoi(path.c_str() + 11);
    std::vector<std::string> links;
    if (n < site_facts::kSlowTreePages) {
      links.push_back("/slow-tree/" + std::to_string(n + 1) + ".html");
    }
    auto r =
        html(text(simple("Slow tree " + std::to_string(n), "Slow tree", "A slow page.", links)));
    r.delay = std::chrono::milliseconds(1500);
    return r;
  }
  return std::nullopt;
}

}  // namespace

SiteResponse site_page(const std::string& target, const std::string& host) {
  const std::string path = target.substr(0, target.find('?'));
  if (auto r = graph_page(path)) return std::move(*r);
  if (auto r = site_file(path, "http://" + host)) return std::move(*r);
  if (auto r = load_page(path)) return std::move(*r);
  return html(text(simple("Not Found", "Not Found Page", "No page at this address.", {"/"})), 404);
}

}  // namespace webdata::conformance
