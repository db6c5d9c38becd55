#include <catch2/catch.hpp>

#include "formats/summary.hpp"
#include "test_util.hpp"

using formats_test::load;
using formats_test::parse;
using webdata::mock::formats::summarize;
using webdata::mock::formats::summarize_text;
using webdata::mock::formats::SummaryLimits;

TEST_CASE("summary picks the central sentences of the main content, in document order",
          "[summary]") {
  auto doc = parse(load("article.html"), "https://geo.example/meanders");
  std::string s = summarize(doc, {});
  INFO(s);
  CHECK(s.rfind("Rivers rarely run straight for long.", 0) == 0);  // first sentence scores high
  CHECK(s.find("meander") != std::string::npos);
  CHECK(s.find("Why it matters") == std::string::npos);  // headings are never sentences
  CHECK(s.find("Home") == std::string::npos);            // navigation is not main content
  CHECK(s.find("Photo credits") == std::string::npos);   // too short to be a sentence
  CHECK(s.size() <= 1000);
  // Document order: "erodes the outer bank" comes before "oxbow lake" in the page.
  auto a = s.find("outer bank");
  auto b = s.find("oxbow lake");
  if (a != std::string::npos && b != std::string::npos) CHECK(a < b);
}

TEST_CASE("summary respects its bounds", "[summary]") {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += "Sentence number " + std::to_string(i) + " talks about river erosion and sediment. ";
  }
  SummaryLimits three{3, 1000};
  std::string s = summarize_text(text, "River erosion", three);
  std::size_t sentences = 0;
  for (char c : s) sentences += c == '.';
  CHECK(sentences == 3);
  SummaryLimits small{5, 120};
  CHECK(summarize_text(text, "River erosion", small).size() <= 120);
  SummaryLimits tiny{5, 20};  // shorter than any sentence: the best one is cut at a word
  std::string cut = summarize_text(text, "", tiny);
  CHECK(!cut.empty());
  CHECK(cut.size() <= 20);
}

TEST_CASE("summary is deterministic and depends on the page", "[summary]") {
  auto a = parse(load("article.html"));
  auto b = parse(load("product.html"));
  CHECK(summarize(a, {}) == summarize(a, {}));
  CHECK(summarize(a, {}) != summarize(b, {}));
  CHECK(summarize(b, {}).find("Summit Pack 40") != std::string::npos);
}

TEST_CASE("summary of a page without sentences is empty", "[summary]") {
  CHECK(summarize(parse("<h1>Menu</h1><ul><li>Home</li><li>About</li></ul>"), {}).empty());
  CHECK(summarize(webdata::mock::content::Document::parse(
                      {"https://x.example/a.png", "image/png", 200, std::string("\x89PNG", 4)}),
                  {})
            .empty());
}
