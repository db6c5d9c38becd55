#include <catch2/catch.hpp>

#include "formats/branding.hpp"
#include "formats/css.hpp"
#include "test_util.hpp"

using formats_test::parse;
using nlohmann::json;
using webdata::mock::formats::branding;
using webdata::mock::formats::stylesheet_urls;
namespace detail = webdata::mock::formats::detail;

TEST_CASE("css colors: hex, rgb, hsl, named, variables, shorthands", "[branding]") {
  auto hex = [](const char* v, const detail::CssVariables& vars = {}) {
    auto c = detail::parse_color(v, vars);
    return c ? detail::hex(*c) : std::string("none");
  };
  CHECK(hex("#abc") == "#AABBCC");
  CHECK(hex("#FF000080") == "#FF0000");
  CHECK(hex("rgb(255, 128, 0)") == "#FF8000");
  CHECK(hex("rgba(0 0 255 / 50%)") == "#0000FF");
  CHECK(hex("rgb(100%, 0%, 50%)") == "#FF0080");
  CHECK(hex("hsl(120, 100%, 25%)") == "#008000");
  CHECK(hex("hsl(0deg 100% 50%)") == "#FF0000");
  CHECK(hex("RebeccaPurple") == "#663399");
  CHECK(hex("1px solid #ccc") == "#CCCCCC");
  CHECK(hex("var(--brand)", {{"--brand", "var(--blue)"}, {"--blue", "#0055ff"}}) == "#0055FF");
  CHECK(hex("var(--missing, tomato)") == "#FF6347");
  CHECK(hex("12px") == "none");
  CHECK(hex("#ggg") == "none");
  CHECK(detail::parse_color("transparent")->a == 0);
}

TEST_CASE("css parsing: media blocks flattened, comments and !important dropped", "[branding]") {
  auto rules = detail::parse_css(
      "/* c */ body { color: red !important; background: url('a;b.png') #fff }"
      "@media (min-width: 600px) { .x { color: blue } } @import url(x.css);"
      "@keyframes k { from { top: 0 } } @font-face { font-family: 'Inter'; src: url(i.woff2) }");
  REQUIRE(rules.size() == 3);
  CHECK(rules[0].selector == "body");
  CHECK(rules[0].declarations[0] == std::pair<std::string, std::string>{"color", "red"});
  CHECK(rules[0].declarations[1].second == "url('a;b.png') #fff");
  CHECK(rules[1].selector == ".x");
  CHECK(rules[2].selector == "@font-face");
}

TEST_CASE("branding: a light site with custom properties, fonts and a logo", "[branding]") {
  auto doc = parse(R"(<html><head>
    <link rel="icon" href="/favicon.png"><meta property="og:image" content="/og.png">
    <link rel="stylesheet" href="/css/site.css">
    <link href="https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono" rel="stylesheet">
    <style>
      :root { --color-primary: #1a73e8; --color-secondary: hsl(340, 80%, 45%); --accent: #fbbc04; }
      body { background-color: #fafafa; color: #202124; font-family: "Inter", Arial, sans-serif; }
      h1, h2 { font-family: 'Playfair Display', serif; }
      a { color: var(--color-primary); }
    </style></head>
    <body><header><a href="/" class="site-logo"><img src="/img/brand.svg" alt="Acme"></a></header>
    <h1>Hello</h1><p>Text</p></body></html>)",
                   "https://acme.example/");
  json b = branding(doc);
  INFO(b.dump(2));
  CHECK(b["colorScheme"] == "light");
  CHECK(b["colors"] == json({{"primary", "#1A73E8"},
                             {"secondary", "#CF1754"},
                             {"accent", "#FBBC04"},
                             {"background", "#FAFAFA"},
                             {"textPrimary", "#202124"},
                             {"link", "#1A73E8"}}));
  CHECK(b["fonts"] ==
        json::parse(
            R"([{"family":"Inter"},{"family":"Playfair Display"},{"family":"Roboto Mono"}])"));
  CHECK(b["typography"]["fontFamilies"] ==
        json({{"primary", "Inter"}, {"heading", "Playfair Display"}}));
  CHECK(b["logo"] == "https://acme.example/img/brand.svg");
  CHECK(b["images"] == json({{"logo", "https://acme.example/img/brand.svg"},
                             {"favicon", "https://acme.example/favicon.png"},
                             {"ogImage", "https://acme.example/og.png"}}));
  CHECK(stylesheet_urls(doc) ==
        std::vector<std::string>{
            "https://acme.example/css/site.css",
            "https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto+Mono"});
}

TEST_CASE("branding: a dark site, brand colors from buttons and frequency, extra css",
          "[branding]") {
  auto doc = parse(R"(<html><head><style>
      html { background: #0d1117 }
      .btn { background-color: rgb(35, 134, 54); color: white }
      .tag { color: #d29922 } .badge { border: 1px solid #d29922 } .note { color: #a371f7 }
    </style></head><body style="color: #e6edf3"><img src="/logo-dark.png" alt="Company logo">
    <p>Dark page</p></body></html>)");
  json b =
      branding(doc, "a { color: #58a6ff } body { font: 16px/1.5 'IBM Plex Sans', sans-serif }");
  INFO(b.dump(2));
  CHECK(b["colorScheme"] == "dark");
  CHECK(b["colors"]["background"] == "#0D1117");
  CHECK(b["colors"]["textPrimary"] == "#E6EDF3");
  CHECK(b["colors"]["link"] == "#58A6FF");
  CHECK(b["colors"]["primary"] == "#238636");    // the button
  CHECK(b["colors"]["secondary"] == "#D29922");  // used twice
  CHECK(b["colors"]["accent"] == "#A371F7");
  CHECK(b["typography"]["fontFamilies"]["primary"] == "IBM Plex Sans");
  CHECK(b["logo"] == "https://example.com/logo-dark.png");
}

TEST_CASE("branding: a page without CSS gets the browser's defaults", "[branding]") {
  json b = branding(parse("<p>plain</p>"));
  CHECK(b["colorScheme"] == "light");
  CHECK(b["colors"]["background"] == "#FFFFFF");
  CHECK(b["colors"]["textPrimary"] == "#000000");
  CHECK(b["colors"]["link"] == "#0000EE");
  CHECK(b["colors"]["primary"] == "#0000EE");
  CHECK(b["fonts"] == json::array());
  CHECK(b["typography"]["fontFamilies"]["primary"].is_null());
  CHECK(b["logo"].is_null());
  CHECK(b["images"]["favicon"].is_null());
}
