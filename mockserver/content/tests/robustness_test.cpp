#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "test_util.hpp"

using content_test::load;
using content_test::parse;
using webdata::mock::content::Document;
using webdata::mock::content::Options;

namespace {

using content_test::repeat;

bool valid_utf8(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace

TEST_CASE("empty and whitespace-only input", "[robustness]") {
  for (const char* body : {"", "   \n\t", "<html></html>", "<!doctype html>"}) {
    INFO(body);
    auto doc = parse(body);
    CHECK(doc.markdown(Options{}).empty());
    CHECK(doc.html(Options{}).empty());
    CHECK(doc.links().empty());
    CHECK(doc.images().empty());
    CHECK(doc.metadata() == nlohmann::json({{"ogLocaleAlternate", nlohmann::json::array()}}));
    CHECK(doc.title().empty());
  }
}

TEST_CASE("100k-deep nesting neither overflows the stack nor takes long", "[robustness]") {
  const std::size_t depth = 100000;
  auto start = std::chrono::steady_clock::now();
  for (const std::string& open : {std::string("<div>"), std::string("<span>"),
                                   std::string("<blockquote>"), std::string("<ul><li>"),
                                   std::string("<b><i><a href='/x'>"), std::string("<table><tr><td>")}) {
    INFO(open);
    auto doc = parse(repeat(open, depth) + "deep text" + repeat("</div>", 10));
    std::string md = doc.markdown(Options{});
    CHECK(md.find("deep text") != std::string::npos);
    CHECK(doc.html(Options{}).find("deep text") != std::string::npos);
    CHECK(doc.text(Options{}).find("deep text") != std::string::npos);
    (void)doc.links();
    (void)doc.metadata();
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
}

TEST_CASE("nesting below the cap keeps its structure", "[robustness]") {
  auto doc = parse(repeat("<div>", 300) + "<p>in <b>deep</b> div</p>" + repeat("</div>", 300));
  CHECK(doc.markdown(Options{}) == "in **deep** div");
  CHECK(parse(repeat("<blockquote>", 3) + "q").markdown(Options{}) == "> > > q");
}

TEST_CASE("invalid UTF-8 becomes U+FFFD, every output stays valid UTF-8", "[robustness]") {
  std::string bad = "<title>T\xFF</title><p>caf\xC3 \xE2\x82 ok \xF0\x9F\x98\x80 \xED\xA0\x80</p>"
                    "<a href='/\xFE'>l</a><meta name='x' content='\xC0\xAF'>";
  auto doc = parse(bad);
  std::string md = doc.markdown(content_test::full_page());
  CHECK(valid_utf8(md));
  CHECK(md.find("\xEF\xBF\xBD") != std::string::npos);
  CHECK(md.find("\xF0\x9F\x98\x80") != std::string::npos);  // valid sequences survive
  CHECK(valid_utf8(doc.html(Options{})));
  CHECK(valid_utf8(doc.text(Options{})));
  CHECK(valid_utf8(doc.title()));
  CHECK_NOTHROW(doc.metadata().dump());
  for (const auto& l : doc.links()) CHECK(valid_utf8(l));
  CHECK(doc.raw_html() == bad);  // rawHtml is the body as fetched
}

TEST_CASE("Latin-1 pages are transcoded when declared", "[robustness]") {
  std::string latin1 = "<p>Gr\xFC\xDF" "e \x80 5</p>";
  auto by_header = Document::parse({"https://e.example/", "text/html; charset=ISO-8859-1", 200, latin1});
  CHECK(by_header.markdown(Options{}) == "Gr\xC3\xBC\xC3\x9F" "e \xE2\x82\xAC 5");
  auto by_meta = Document::parse(
      {"https://e.example/", "text/html", 200, "<meta charset=\"windows-1252\">" + latin1});
  CHECK(by_meta.markdown(Options{}) == "Gr\xC3\xBC\xC3\x9F" "e \xE2\x82\xAC 5");
  // Declared Latin-1 but actually UTF-8 (a common server misconfiguration): left as UTF-8.
  auto mislabelled = Document::parse(
      {"https://e.example/", "text/html; charset=iso-8859-1", 200, "<p>Gr\xC3\xBC\xC3\x9F" "e</p>"});
  CHECK(mislabelled.markdown(Options{}) == "Gr\xC3\xBC\xC3\x9F" "e");
  auto bom = Document::parse({"https://e.example/", "text/html", 200, "\xEF\xBB\xBF<p>bom</p>"});
  CHECK(bom.markdown(Options{}) == "bom");
  auto utf16 = Document::parse(
      {"https://e.example/", "text/html", 200, std::string("\xFF\xFE<\0p\0>\0\xE9\0", 10)});
  CHECK(utf16.markdown(Options{}) == "\xC3\xA9");
}

TEST_CASE("malformed HTML is repaired the way browsers do", "[robustness]") {
  auto doc = parse("<p>one<p>two<ul><li>a<li>b</ul><b>bold<i>both</b> italic</i><table><td>cell"
                   "<td>two</table><div attr=\"unterminated>text");
  CHECK(doc.markdown(Options{}) ==
        "one\n\ntwo\n\n- a\n- b\n\n**bold*both*** *italic*\n\n| cell | two |\n| --- | --- |");
}

TEST_CASE("plain text, JSON, XML and binary bodies", "[robustness]") {
  auto text = Document::parse({"https://e.example/a.txt", "text/plain", 200,
                               "Hello *world*\nSee https://e.example/x#frag, and (https://f.example/y)."});
  CHECK(text.kind() == Document::Kind::kText);
  CHECK(text.markdown(Options{}) == "Hello *world*\nSee https://e.example/x#frag, and (https://f.example/y).");
  CHECK(text.html(Options{}) ==
        "<pre>Hello *world*\nSee https://e.example/x#frag, and (https://f.example/y).</pre>");
  CHECK(text.links() == std::vector<std::string>{"https://e.example/x", "https://f.example/y"});
  CHECK(text.metadata() == nlohmann::json({{"ogLocaleAlternate", nlohmann::json::array()}}));

  auto json = Document::parse({"https://e.example/api", "application/json", 200,
                               "{\"url\": \"https://e.example/item\", \"n\": 1}"});
  CHECK(json.kind() == Document::Kind::kJson);
  CHECK(json.markdown(Options{}) == "```json\n{\"url\": \"https://e.example/item\", \"n\": 1}\n```");
  CHECK(json.links() == std::vector<std::string>{"https://e.example/item"});

  auto xml = Document::parse({"https://e.example/sitemap.xml", "application/xml", 200,
                              "<?xml version=\"1.0\"?><urlset><url><loc>https://e.example/a</loc>"
                              "</url><url><loc>https://e.example/b</loc></url></urlset>"});
  CHECK(xml.kind() == Document::Kind::kXml);
  CHECK(xml.links() == std::vector<std::string>{"https://e.example/a", "https://e.example/b"});
  CHECK(xml.markdown(Options{}).rfind("```xml\n<?xml", 0) == 0);

  auto sniffed = Document::parse({"https://e.example/", "", 200, "  <html><p>sniffed</p>"});
  CHECK(sniffed.kind() == Document::Kind::kHtml);
  CHECK(Document::parse({"https://e.example/", "", 200, "[1, 2]"}).kind() == Document::Kind::kJson);
  CHECK(Document::parse({"https://e.example/", "", 200, "just words"}).kind() ==
        Document::Kind::kText);
  CHECK(Document::parse({"https://e.example/feed", "application/rss+xml", 200, "<rss/>"}).kind() ==
        Document::Kind::kXml);
  CHECK(Document::parse({"https://e.example/", "application/xhtml+xml", 200, "<p>x</p>"}).kind() ==
        Document::Kind::kHtml);

  auto png = Document::parse({"https://e.example/i.png", "image/png", 200, std::string("\x89PNG\0\0", 6)});
  CHECK(png.kind() == Document::Kind::kBinary);
  CHECK(png.markdown(Options{}).empty());
  CHECK(png.images() == std::vector<std::string>{"https://e.example/i.png"});
  auto bad_text = Document::parse({"https://e.example/t", "text/plain", 200, "a\xFF" "b"});
  CHECK(bad_text.markdown(Options{}) == "a\xEF\xBF\xBD" "b");
  // Selectors are validated whatever the body is.
  Options bad;
  bad.include_tags = {"p["};
  CHECK_THROWS_AS(text.markdown(bad), webdata::mock::content::SelectorError);
}

TEST_CASE("one Document is safe to query from several threads", "[robustness]") {
  auto doc = parse(load("docs.html"), "https://widget.example/docs/install");
  const std::string expected_md = doc.markdown(Options{});
  const std::string expected_html = doc.html(content_test::full_page());
  const auto expected_links = doc.links();
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        Document copy = doc;
        ok[static_cast<std::size_t>(t)] += copy.markdown(Options{}) == expected_md &&
                                           copy.html(content_test::full_page()) == expected_html &&
                                           copy.links() == expected_links;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok == std::vector<int>(4, 20));
}
