#include <catch2/catch.hpp>

#include "test_util.hpp"

using content_test::load;
using content_test::parse;
using webdata::mock::content::Options;
using webdata::mock::content::SelectorError;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

Options with_include(std::vector<std::string> include) {
  Options o;
  o.include_tags = std::move(include);
  return o;
}

Options with_exclude(std::vector<std::string> exclude) {
  Options o = content_test::full_page();
  o.exclude_tags = std::move(exclude);
  return o;
}

}  // namespace

TEST_CASE("html drops scripts, styles, comments and head, URLs become absolute", "[html]") {
  auto doc = parse(
      "<html><head><title>t</title><style>p{}</style></head><body>"
      "<!-- c --><script>alert(1)</script><noscript>js</noscript>"
      "<p class='x'>Hi &amp; <a href='../up'>up</a> <img src='i.png' srcset='a.png 1x, /b.png 2x'></p>"
      "<form action='/send'><input type='image' src='go.png'></form>"
      "<a href='javascript:go()'>js</a> <a href='mailto:x@example.com'>m</a></body></html>");
  CHECK(doc.html(content_test::full_page()) ==
        "<p class=\"x\">Hi &amp; <a href=\"https://example.com/up\">up</a> "
        "<img src=\"https://example.com/dir/i.png\" srcset=\"https://example.com/dir/a.png 1x, "
        "https://example.com/b.png 2x\"></p>"
        "<form action=\"https://example.com/send\"><input type=\"image\" "
        "src=\"https://example.com/dir/go.png\"></form>"
        "<a href=\"javascript:go()\">js</a> <a href=\"mailto:x@example.com\">m</a>");
}

TEST_CASE("html keeps pre newlines, escapes text and attributes", "[html]") {
  auto doc = parse("<pre>\n\nx &lt; y</pre><p title='a \"q\" &amp; b'>&nbsp;</p>");
  CHECK(doc.html(content_test::full_page()) ==
        "<pre>\n\nx &lt; y</pre><p title=\"a &quot;q&quot; &amp; b\">&nbsp;</p>");
}

TEST_CASE("removeBase64Images replaces data: image sources in html", "[html]") {
  auto doc = parse("<img src='data:image/png;base64,AAAA' alt='a' "
                   "srcset='data:image/png;base64,BBBB 1x, /big.png 2x'>");
  CHECK(doc.html(content_test::full_page()) ==
        "<img src=\"<Base64-Image-Removed>\" alt=\"a\" srcset=\"https://example.com/big.png 2x\">");
  Options keep = content_test::full_page();
  keep.remove_base64_images = false;
  CHECK(contains(doc.html(keep), "src=\"data:image/png;base64,AAAA\""));
}

TEST_CASE("<base href> is the base of relative URLs", "[html]") {
  auto doc = parse("<head><base href='https://cdn.example.net/root/'></head><a href='x'>x</a>");
  CHECK(doc.base_url() == "https://cdn.example.net/root/");
  CHECK(doc.markdown(content_test::full_page()) == "[x](https://cdn.example.net/root/x)");
  auto relative_base = parse("<base href='/sub/'><a href='y'>y</a>");
  CHECK(relative_base.links() == std::vector<std::string>{"https://example.com/sub/y"});
}

TEST_CASE("main content of a documentation page", "[main-content]") {
  auto doc = parse(load("docs.html"), "https://widget.example/docs/install");
  std::string md = doc.markdown(Options{});
  CHECK(md ==
        "# Installation\n\n"
        "Widget runs on **Linux**, **macOS** and **Windows**. You need "
        "[the requirements](https://widget.example/docs/requirements) first.\n\n"
        "## Linux\n\n"
        "Install the package:\n\n"
        "```bash\nsudo apt-get install widget\nwidget --version\n```\n\n"
        "**Note:** the `widget` binary needs glibc 2.31 or newer.\n\n"
        "## Options\n\n"
        "| Flag | Default | Meaning |\n| --- | --- | --- |\n"
        "| `--port` | 8080 | Port to listen on |\n"
        "| `--mode` | fast | One of fast \\| safe |");
  std::string html = doc.html(Options{});
  CHECK(html.rfind("<main id=\"content\">", 0) == 0);
  CHECK_FALSE(contains(html, "breadcrumbs"));
  CHECK_FALSE(contains(html, "Previous"));

  std::string full = doc.markdown(content_test::full_page());
  for (const char* kept : {"[Docs](https://widget.example/docs/)", "Introduction", "On this page",
                           "© 2024 Example Inc.", "# Installation", "Skip to content"}) {
    INFO(kept);
    CHECK(contains(full, kept));
  }
  // blockAds also covers cookie pop-ups (spec 4.1), whatever onlyMainContent says.
  CHECK_FALSE(contains(full, "We use cookies"));
  Options no_block = content_test::full_page();
  no_block.block_ads = false;
  CHECK(contains(doc.markdown(no_block), "We use cookies"));
}

TEST_CASE("main content of a blog article: the one <article>, without furniture",
          "[main-content]") {
  auto doc = parse(load("blog.html"), "https://crumb.example/posts/sourdough");
  std::string md = doc.markdown(Options{});
  CHECK(md ==
        "# Baking sourdough at home\n\n"
        "By [Jane Baker](https://crumb.example/authors/jane) · 1 March 2024\n\n"
        "Sourdough needs only *flour*, *water* and *salt* \xE2\x80\x94 and patience.\n\n"
        "![A finished loaf](https://crumb.example/posts/images/loaf.jpg)\n\n"
        "The finished loaf.\n\n"
        "## What you need\n\n"
        "1. 500 g bread flour\n2. 350 g water\n   - at room temperature\n3. 10 g salt\n\n"
        "> Good bread takes time.\n>\n> \xE2\x80\x94 Every baker\n\n"
        "![spacer](<Base64-Image-Removed>)\n\n"
        "![The crumb](https://crumb.example/img/crumb.jpg)");
  std::string full = doc.markdown(content_test::full_page());
  CHECK(contains(full, "Great post!"));
  CHECK(contains(full, "Archives"));
  CHECK_FALSE(contains(full, "doubleclick"));
}

TEST_CASE("main content of a shop page without <main>: boilerplate removed by name",
          "[main-content]") {
  auto doc = parse(load("shop.html"), "https://shop.example/p/trail-runner-2");
  std::string md = doc.markdown(Options{});
  CHECK(md.rfind("![Trail Runner 2, side view](https://shop.example/p/tr2-main.jpg)", 0) == 0);
  CHECK(contains(md, "# Trail Runner 2\n\n$129.00 ~~$159.00~~"));
  CHECK(contains(md, "Weight: 280\xC2\xA0g."));
  CHECK(contains(md, "| EU | US | In stock |\n| --- | --- | --- |\n| 42 | 8.5 | Yes |"));
  for (const char* dropped : {"Free shipping", "Cart (0)", "Shoes", "Instagram", "Outdoor Shop",
                              "Cookies help us"}) {
    INFO(dropped);
    CHECK_FALSE(contains(md, dropped));
  }
}

TEST_CASE("main content of a non-English page", "[main-content]") {
  auto doc = parse(load("german.html"), "https://baeckerei.example/anfahrt");
  CHECK(doc.markdown(Options{}) ==
        "# \xC3\x96" "ffnungszeiten & Anfahrt\n\n"
        "Unsere B\xC3\xA4" "ckerei in der K\xC3\xB6" "nigstra\xC3\x9F" "e ist **montags bis samstags** "
        "ge\xC3\xB6" "ffnet. \xE2\x80\x9E" "Frische Br\xC3\xB6" "tchen\xE2\x80\x9C gibt es ab 6\xC2\xA0Uhr.\n\n"
        "## Zeiten\n\n"
        "**Mo\xE2\x80\x93" "Fr**\n: 6:00\xE2\x80\x93" "18:00 Uhr\n\n**Sa**\n: 7:00\xE2\x80\x93" "13:00 Uhr\n\n"
        "Anfahrt: Stra\xC3\x9F" "enbahn Linie 5 bis "
        "[K\xC3\xB6" "nigsplatz](https://baeckerei.example/haltestellen/k%C3%B6nigsplatz).");
}

TEST_CASE("main-content rules in isolation", "[main-content]") {
  Options o;
  SECTION("header and footer inside an article are content, page-level ones are not") {
    auto doc = parse("<header>Site</header><div><article><header><h1>T</h1></header><p>Body "
                     "text of the article.</p><footer>By me</footer></article><article><p>Second"
                     "</p></article></div><footer>Page footer</footer>");
    CHECK(doc.markdown(o) == "# T\n\nBody text of the article.\n\nBy me\n\nSecond");
  }
  SECTION("role landmarks and hidden elements") {
    auto doc = parse("<div role='banner'>banner</div><div role='navigation'>nav</div>"
                     "<p>content</p><div hidden>hidden</div><p style='display: none'>none</p>"
                     "<div role='contentinfo'>info</div><div role='dialog'>dialog</div>");
    CHECK(doc.markdown(o) == "content");
  }
  SECTION("an aside inside an article is content (a callout), a page aside is not") {
    auto doc = parse("<aside>page aside</aside><article><p>text</p><aside>Note: callout</aside>"
                     "</article>");
    CHECK(doc.markdown(o) == "text\n\nNote: callout");
  }
  SECTION("class words mark furniture, but not a wrapper holding most of the text") {
    auto doc = parse("<div class='page has-sidebar'><div class='main-nav'>a b c</div>"
                     "<p>The real content is this long paragraph of text.</p>"
                     "<div class='postFooter'>footer</div><div class='entry-header'>Kept</div>"
                     "</div>");
    CHECK(doc.markdown(o) == "The real content is this long paragraph of text.\n\nKept");
  }
  SECTION("the fullest <main> wins; role=main counts") {
    auto doc = parse("<main><p>short</p></main><div role='main'><p>much longer content here</p>"
                     "</div>");
    CHECK(doc.markdown(o) == "much longer content here");
  }
  SECTION("several articles (a listing) keep the whole page") {
    auto doc = parse("<nav>n</nav><article><h2>A</h2></article><article><h2>B</h2></article>");
    CHECK(doc.markdown(o) == "## A\n\n## B");
  }
  SECTION("an article holding little of the page text is not taken as the main content") {
    auto doc = parse("<div><p>Plenty of body text outside any article, the real content of this "
                     "page.</p><article>tiny</article></div>");
    CHECK(doc.markdown(o) ==
          "Plenty of body text outside any article, the real content of this page.\n\ntiny");
  }
  SECTION("skip links go") {
    auto doc = parse("<a href='#main'>Skip to main content</a><p>x</p>");
    CHECK(doc.markdown(o) == "x");
  }
}

TEST_CASE("includeTags selects elements, excludeTags removes them", "[selectors]") {
  auto doc = parse("<div id='a' class='note warn'><p>A</p><span data-x='1'>in A</span></div>"
                   "<article><p class='lead'>Lead</p><p>Body</p><nav>article nav</nav></article>"
                   "<p class='lead'>Outside</p><ul><li><a href='/l'>link</a></li></ul>");
  CHECK(doc.markdown(with_include({"p.lead"})) == "Lead\n\nOutside");
  CHECK(doc.markdown(with_include({"#a"})) == "A\n\nin A");
  CHECK(doc.markdown(with_include({"[data-x]"})) == "in A");
  CHECK(doc.markdown(with_include({"[data-x=\"1\"]"})) == "in A");
  CHECK(doc.markdown(with_include({"[data-x=2]"})).empty());
  CHECK(doc.markdown(with_include({"div.note.warn#a > span"})) == "in A");
  CHECK(doc.markdown(with_include({"article p"})) == "Lead\n\nBody");
  CHECK(doc.markdown(with_include({"ul a, #a p"})) == "A\n\n[link](https://example.com/l)");
  // Nested matches are output once; the selection is in document order.
  CHECK(doc.markdown(with_include({"p", "article"})) == "A\n\nLead\n\nBody\n\nOutside");
  // The selected element itself is kept even if it is furniture; furniture inside goes.
  CHECK(doc.markdown(with_include({"nav"})) == "article nav");
  CHECK(doc.markdown(with_include({"article"})) == "Lead\n\nBody");
  CHECK(doc.html(with_include({"span"})) == "<span data-x=\"1\">in A</span>");
  CHECK(doc.markdown(with_include({"", "  "})) == doc.markdown(Options{}));

  CHECK(doc.markdown(with_exclude({"article", ".note"})) ==
        "Outside\n\n- [link](https://example.com/l)");
  CHECK(doc.markdown(with_exclude({"p"})) == "in A\n\narticle nav\n\n- [link](https://example.com/l)");
  Options both = with_include({"article"});
  both.exclude_tags = {".lead"};
  CHECK(doc.markdown(both) == "Body");
}

TEST_CASE("selector syntax: attribute operators, combinators, escapes", "[selectors]") {
  auto doc = parse("<div lang='en-US' class='md:flex'><p title='Hello World'>t</p><p>u</p>"
                   "<h2>h</h2><p>after h2</p><p>later</p></div>");
  CHECK(doc.markdown(with_include({"[lang|=en] [title^=Hello]"})) == "t");
  CHECK(doc.markdown(with_include({"[title$=World]"})) == "t");
  CHECK(doc.markdown(with_include({"[title*='lo Wo']"})) == "t");
  CHECK(doc.markdown(with_include({"[title~=World]"})) == "t");
  CHECK(doc.markdown(with_include({"[title='hello world' i]"})) == "t");
  CHECK(doc.markdown(with_include({".md\\:flex > h2 + p"})) == "after h2");
  CHECK(doc.markdown(with_include({"h2 ~ p"})) == "after h2\n\nlater");
  CHECK(doc.markdown(with_include({"DIV > H2"})) == "## h");
  CHECK(doc.markdown(with_include({"div > *"})) == "t\n\nu\n\n## h\n\nafter h2\n\nlater");
}

TEST_CASE("invalid selectors throw SelectorError naming the selector", "[selectors]") {
  auto doc = parse("<p>x</p>");
  for (const char* bad : {"div[", "p >", ",p", "p,", "a:hover", "::before", "#", ".", "[=x]",
                          "p[title=\"open]", "a!b", "p ) q", "p:not(.x)", "[x=]"}) {
    INFO(bad);
    CHECK_THROWS_AS(doc.markdown(with_include({bad})), SelectorError);
    CHECK_THROWS_AS(doc.html(with_exclude({bad})), SelectorError);
    CHECK(webdata::mock::content::selector_error(bad).has_value());
  }
  try {
    doc.markdown(with_include({"a:hover"}));
    FAIL("no exception");
  } catch (const SelectorError& e) {
    CHECK(e.selector() == "a:hover");
    CHECK(std::string(e.what()) ==
          "invalid selector \"a:hover\": pseudo-classes and pseudo-elements are not supported "
          "(':hover') at offset 1");
  }
  CHECK_FALSE(webdata::mock::content::selector_error("div.note#x [data-id='1'] > p ~ span + a"));
  CHECK_NOTHROW(webdata::mock::content::validate_selectors(with_include({"p", ""})));
  CHECK_THROWS_AS(webdata::mock::content::validate_selectors(with_exclude({"p["})),
                  SelectorError);
}

TEST_CASE("blockAds removes ad slots, ad-network iframes and links", "[ads]") {
  std::string html =
      "<p>Article text that is long enough to be the content.</p>"
      "<div class='ad-container'>Buy now!</div>"
      "<ins class='adsbygoogle' data-ad-client='ca-pub-1'></ins>"
      "<iframe src='https://tpc.googlesyndication.com/safeframe'></iframe>"
      "<div id='div-gpt-ad-123'>gpt</div>"
      "<a href='https://www.googleadservices.com/pagead/aclk?x'>Sponsored link</a>"
      "<img src='https://pixel.adsrvr.org/p.gif' alt='track'>"
      "<div class='sponsored-posts'>Sponsored</div>"
      "<div class='badge'>Badge</div><div class='download'>Download</div>";
  auto doc = parse(html);
  Options ads = content_test::full_page();
  CHECK(doc.markdown(ads) ==
        "Article text that is long enough to be the content.\n\nBadge\n\nDownload");
  ads.block_ads = false;
  std::string kept = doc.markdown(ads);
  CHECK(contains(kept, "Buy now!"));
  CHECK(contains(kept, "Sponsored link"));
  CHECK(contains(doc.html(ads), "googlesyndication"));
}

TEST_CASE("cookie banners and consent managers go with blockAds or onlyMainContent", "[ads]") {
  std::string html =
      "<p>Recipes for cookies: butter, sugar, flour and a lot of patience.</p>"
      "<div class='cookie-notice'>We use cookies</div>"
      "<div id='CybotCookiebotDialog'>Cookiebot</div>"
      "<div class='gdpr-overlay'>GDPR</div>"
      "<div role='dialog' aria-label='Cookie consent'>Consent</div>"
      "<div class='cookie-recipe'>Chocolate chip</div>";
  auto doc = parse(html);
  Options o = content_test::full_page();
  CHECK(doc.markdown(o) ==
        "Recipes for cookies: butter, sugar, flour and a lot of patience.\n\nChocolate chip");
  o.block_ads = false;
  CHECK(contains(doc.markdown(o), "Cookiebot"));
  Options main_only;
  main_only.block_ads = false;
  CHECK_FALSE(contains(doc.markdown(main_only), "Cookiebot"));
}

TEST_CASE("text() is the same content without Markdown", "[text]") {
  auto doc = parse("<h1>Title</h1><p>Some <b>bold</b> and <a href='/x'>link</a> *raw*.</p>"
                   "<ul><li>one</li><li>two</li></ul><img src='/i.png' alt='img'>"
                   "<table><tr><td>a</td><td>b</td></tr></table><pre>code  here</pre>");
  CHECK(doc.text(content_test::full_page()) ==
        "Title\n\nSome bold and link *raw*.\n\none\ntwo\n\na\n\nb\n\ncode  here");
  CHECK(parse(load("docs.html")).text(Options{}).rfind("Installation\n\nWidget runs on Linux", 0) ==
        0);
}
