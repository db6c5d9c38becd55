#include <catch2/catch.hpp>

#include "core/url.hpp"
#include "test_util.hpp"

using content_test::load;
using content_test::parse;
using Strings = std::vector<std::string>;
using webdata::mock::parse_url;
using webdata::mock::resolve_url;
using webdata::mock::resolve_url_string;

TEST_CASE("links: absolute http(s) and mailto:, fragments dropped, deduplicated, document order",
          "[links]") {
  auto doc = parse(
      "<nav><a href='/a'>a</a></nav><p><a href='b.html#sec'>b</a> <a href='/a#x'>again</a>"
      "<a href='mailto:x@example.com'>m</a><a href='javascript:void(0)'>js</a><a href='#top'>top</a>"
      "<a href='tel:+1'>t</a><a>none</a><a href=''>empty</a><a href='HTTPS://Other.Example:443/Q?x=1#f'>o</a>"
      "<a href='ftp://files.example/x'>ftp</a></p><map><area href='/area' alt='x'></map>"
      "<link href='/style.css' rel='stylesheet'>");
  // mailto: stays as written, as the service keeps it; javascript:, tel: and ftp: go.
  CHECK(doc.links() == Strings{"https://example.com/a", "https://example.com/dir/b.html",
                               "mailto:x@example.com", "https://example.com/dir/page.html",
                               "https://other.example/Q?x=1", "https://example.com/area"});
}

TEST_CASE("links come from the whole page, whatever the content options", "[links]") {
  auto doc = parse(load("docs.html"), "https://widget.example/docs/install");
  Strings links = doc.links();
  CHECK(links.front() == "https://widget.example/docs/install");  // the skip link's #content
  CHECK(std::find(links.begin(), links.end(), "https://github.com/example/widget") != links.end());
  CHECK(std::find(links.begin(), links.end(), "https://widget.example/privacy") != links.end());
  CHECK(links.size() == 9);  // #linux, #options and /docs/install are the page itself
}

TEST_CASE("images: img src, srcset, data-src, picture sources, poster, og/twitter image",
          "[images]") {
  auto doc = parse(
      "<head><meta property='og:image' content='/og.png'><meta name='twitter:image' "
      "content='https://cdn.example/tw.png'></head>"
      "<img src='a.png' srcset='a-2x.png 2x, /a-3x.png 3x'><img data-src='/lazy.jpg'>"
      "<picture><source srcset='/p.webp 1x, /p2.webp 2x'><img src='/p.jpg'></picture>"
      "<video poster='/poster.jpg'></video><img src='a.png'><img src='data:image/png;base64,AA'>"
      "<img src=''><input type='image' src='/btn.png'>");
  CHECK(doc.images() == Strings{"https://example.com/og.png", "https://cdn.example/tw.png",
                                "https://example.com/dir/a.png", "https://example.com/dir/a-2x.png",
                                "https://example.com/a-3x.png", "https://example.com/lazy.jpg",
                                "https://example.com/p.webp", "https://example.com/p2.webp",
                                "https://example.com/p.jpg", "https://example.com/poster.jpg",
                                "https://example.com/btn.png"});
}

TEST_CASE("metadata of a page with Open Graph, Dublin Core and other meta tags", "[metadata]") {
  auto doc = parse(load("og.html"), "https://www.imdb.example/title/tt0117500/");
  nlohmann::json m = doc.metadata();
  CHECK(m["title"] == "The Rock (1996)");
  CHECK(m["keywords"] == "movie, action, alcatraz");
  CHECK(m["robots"] == "index, follow");
  CHECK(m["ogTitle"] == "The Rock");
  CHECK(m["ogDescription"] ==
        "Sean Connery found fame and fortune as the suave, sophisticated British agent.");
  CHECK(m["ogUrl"] == "https://www.imdb.example/title/tt0117500/");
  CHECK(m["ogImage"] == "https://ia.media-imdb.example/images/rock.jpg");
  CHECK(m["ogAudio"] == "https://example.com/bond/theme.mp3");
  CHECK(m["ogVideo"] == "https://example.com/bond/trailer.swf");
  CHECK(m["ogDeterminer"] == "the");
  CHECK(m["ogLocale"] == "en_US");
  CHECK(m["ogLocaleAlternate"] == nlohmann::json::array({"fr_FR", "es_ES"}));
  CHECK(m["ogSiteName"] == "IMDb");
  CHECK(m["dcDateCreated"] == "1996-06-07");
  CHECK(m["dcTermsSubject"] == "Film");
  CHECK(m["dcDescription"] == "An action film");
  // Every <meta name|property|itemprop> under its own name; repeated ones as arrays.
  CHECK(m["og:title"] == "The Rock");
  CHECK(m["og:type"] == "video.movie");
  CHECK(m["og:locale:alternate"] == nlohmann::json::array({"fr_FR", "es_ES"}));
  CHECK(m["twitter:card"] == "summary_large_image");
  CHECK(m["DC.date.created"] == "1996-06-07");
  CHECK(m["genre"] == "Action");
  // Keys the scrape service owns cannot be set by the page; empty content is no value.
  CHECK_FALSE(m.contains("statusCode"));
  CHECK_FALSE(m.contains("sourceURL"));
  CHECK_FALSE(m.contains("empty"));
  CHECK_FALSE(m.contains("language"));
  CHECK_FALSE(m.contains("favicon"));
  CHECK_FALSE(m.contains("description"));
  for (const auto& [key, value] : m.items()) {
    INFO(key);
    CHECK((value.is_string() || (value.is_array() && !value.empty() && value[0].is_string())));
  }
}

TEST_CASE("metadata: description, language, favicon, article times", "[metadata]") {
  nlohmann::json docs = parse(load("docs.html"), "https://widget.example/docs/install").metadata();
  CHECK(docs["title"] == "Installation · Widget Docs");
  CHECK(docs["description"] == "How to install Widget on Linux, macOS and Windows.");
  CHECK(docs["language"] == "en");
  CHECK(docs["favicon"] == "https://widget.example/assets/favicon.svg");
  CHECK(docs["viewport"] == "width=device-width, initial-scale=1");

  nlohmann::json blog = parse(load("blog.html"), "https://crumb.example/posts/x").metadata();
  CHECK(blog["language"] == "en-GB");
  CHECK(blog["publishedTime"] == "2024-03-01T09:00:00Z");
  CHECK(blog["modifiedTime"] == "2024-03-02T10:30:00Z");
  CHECK(blog["articleTag"] == "bread");
  CHECK(blog["article:tag"] == nlohmann::json::array({"bread", "sourdough"}));
  CHECK(blog["articleSection"] == "Recipes");
  CHECK(blog["author"] == "Jane Baker");

  nlohmann::json shop = parse(load("shop.html"), "https://shop.example/p/tr2").metadata();
  CHECK(shop["favicon"] == "https://shop.example/favicon.ico");
  CHECK(shop["product:price:amount"] == "129.00");
  CHECK(shop["name"] == nullptr);  // itemprop on non-meta elements is not metadata

  nlohmann::json german = parse(load("german.html"), "https://b.example/").metadata();
  CHECK(german["language"] == "de");
  CHECK(german["title"] == "\xC3\x96" "ffnungszeiten und Anfahrt \xE2\x80\x93 B\xC3\xA4" "ckerei M\xC3\xBC" "ller");

  nlohmann::json touch = parse("<link rel='apple-touch-icon' href='/t.png'><title>t</title>").metadata();
  CHECK(touch["favicon"] == "https://example.com/t.png");
  // The service lists og:locale:alternate values on every page, none as [].
  CHECK(parse("<p>no head</p>").metadata() ==
        nlohmann::json({{"ogLocaleAlternate", nlohmann::json::array()}}));
}

TEST_CASE("URL resolution follows RFC 3986 and browser habits", "[url]") {
  auto base = parse_url("http://a.example/b/c/d;p?q");
  REQUIRE(base);
  auto r = [&](const char* ref) { return resolve_url_string(base, ref); };
  CHECK(r("g") == "http://a.example/b/c/g");
  CHECK(r("./g") == "http://a.example/b/c/g");
  CHECK(r("g/") == "http://a.example/b/c/g/");
  CHECK(r("/g") == "http://a.example/g");
  CHECK(r("//g") == "http://g/");
  CHECK(r("?y") == "http://a.example/b/c/d;p?y");
  CHECK(r("g?y") == "http://a.example/b/c/g?y");
  CHECK(r("#s") == "http://a.example/b/c/d;p?q#s");
  CHECK(r("") == "http://a.example/b/c/d;p?q");
  CHECK(r(".") == "http://a.example/b/c/");
  CHECK(r("..") == "http://a.example/b/");
  CHECK(r("../..") == "http://a.example/");
  CHECK(r("../../../g") == "http://a.example/g");
  CHECK(r("g;x=1/../y") == "http://a.example/b/c/y");
  CHECK(r("  /trim\n me  ") == "http://a.example/trim%20me");
  CHECK(r("\\back\\slash") == "http://a.example/back/slash");
  CHECK(r("/caf\xC3\xA9?q=\xC3\xA9") == "http://a.example/caf%C3%A9?q=%C3%A9");
  CHECK(r("HTTP://EXAMPLE.org:80") == "http://example.org/");
  CHECK(r("https://x.example:8443/p") == "https://x.example:8443/p");
  CHECK(r("mailto:someone@example.com") == "mailto:someone@example.com");
  CHECK(resolve_url_string(std::nullopt, "rel/path") == "rel/path");
  CHECK_FALSE(resolve_url(std::nullopt, "rel/path"));
}
