#include <catch2/catch.hpp>

#include "content/document.hpp"

using webdata::mock::content::Document;
using webdata::mock::content::Options;

TEST_CASE("smoke") {
  auto doc = Document::parse({"https://example.com/a/", "text/html", 200, "<h1>Hi</h1><p>x <b>y</b></p>"});
  CHECK(doc.markdown(Options{}) == "# Hi\n\nx **y**");
}
