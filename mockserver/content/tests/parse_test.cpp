// The parsed tree's layout (one node vector, children and attributes as runs of shared buffers,
// text in one buffer) and the per-parse arena gumbo allocates from.

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "content/dom.hpp"
#include "test_util.hpp"

using content_test::parse;
using webdata::mock::content::Options;
namespace dom = webdata::mock::content::dom;

namespace {

using content_test::repeat;

// Every structural promise of dom::Tree, checked node by node: ids are pre-order positions,
// subtrees are contiguous, children are exactly the next-sibling chain from id + 1, and every
// pointer (parent, children, document/html/head/body) lands inside this tree's node vector.
void check_tree(const dom::Tree& tree) {
  REQUIRE(!tree.nodes.empty());
  REQUIRE(tree.document == &tree.nodes.front());
  const dom::Node* const first = tree.nodes.data();
  const dom::Node* const last = first + tree.nodes.size();
  auto inside = [&](const dom::Node* n) { return n >= first && n < last; };
  CHECK(tree.document->subtree_size == tree.nodes.size());
  for (const dom::Node* named : {tree.html, tree.head, tree.body}) {
    if (named != nullptr) CHECK(inside(named));
  }
  std::size_t child_links = 0;
  for (std::size_t id = 0; id < tree.nodes.size(); ++id) {
    const dom::Node& n = tree.nodes[id];
    REQUIRE(n.id == id);
    REQUIRE(n.subtree_size >= 1);
    REQUIRE(id + n.subtree_size <= tree.nodes.size());
    if (id > 0) {
      REQUIRE(inside(n.parent));
      REQUIRE(n.parent->id < id);
      REQUIRE(id + n.subtree_size <= n.parent->id + n.parent->subtree_size);
    }
    std::size_t expected = id + 1;
    for (const dom::Node* c : n.children) {
      REQUIRE(inside(c));
      REQUIRE(c->id == expected);
      REQUIRE(c->parent == &n);
      expected += c->subtree_size;
    }
    REQUIRE(expected == id + n.subtree_size);
    child_links += n.children.size();
    if (!n.children.empty()) {
      CHECK(n.children.front() == n.children[0]);
      CHECK(n.children.back() == *n.children.rbegin());
    }
    if (n.type != dom::NodeType::kText && n.type != dom::NodeType::kComment) CHECK(n.text.empty());
  }
  CHECK(child_links == tree.nodes.size() - 1);
}

std::string big_page(std::size_t paragraphs) {
  std::string html = "<!doctype html><title>big</title><body>";
  for (std::size_t i = 0; i < paragraphs; ++i) {
    const std::string n = std::to_string(i);
    html += "<p id='p" + n + "' class='c" + n + "'>para " + n + " <a href='/docs/" + n +
            "'>link " + n + "</a> and <em>more</em></p>";
  }
  return html + "</body>";
}

}  // namespace

TEST_CASE("the tree keeps its invariants on ordinary, malformed and deep pages", "[parse]") {
  const std::vector<std::string> pages = {
      "",
      "plain text only",
      "<!doctype html><html><head><title>t</title></head><body><p>a<b>b</b>c</p></body></html>",
      "<p>one<p>two<table><tr><td>x<td>y</table><b><i>mis</b>nested</i><!-- c --><svg><g/></svg>",
      "<ul><li>a<li>b<ul><li>c</ul></ul><select><option>o</select><template><p>t</template>",
      repeat("<div>", 3000) + "deep" + repeat("</div>", 3000),
      repeat("<b><table><tr><td>", 800) + "deep cells",
      repeat("<span><p>", 1500) + "adoption",
      content_test::load("docs.html"),
  };
  for (const auto& page : pages) {
    INFO(page.substr(0, 80));
    check_tree(dom::parse_html(page));
  }
}

TEST_CASE("a moved tree's pointers follow it", "[parse]") {
  dom::Tree source = dom::parse_html("<html lang=en><body><p class=a>x<a href='/y'>y</a></p></body>");
  const dom::Node* const body = source.body;
  dom::Tree moved = std::move(source);
  check_tree(moved);
  CHECK(moved.body == body);  // the node buffer moved, it was not copied
  REQUIRE(moved.html != nullptr);
  REQUIRE(moved.html->attr("lang") != nullptr);
  CHECK(*moved.html->attr("lang") == "en");
  dom::Tree assigned;
  assigned = std::move(moved);
  check_tree(assigned);
  CHECK(dom::collapsed_text(*assigned.body) == "xy");
}

TEST_CASE("text and attributes are kept exactly, whatever their size", "[parse]") {
  // 0xFF is one byte in and three (U+FFFD) out: text storage cannot be sized from the input.
  const std::string bad(20000, '\xFF');
  const std::string long_text = repeat("0123456789", 50000);  // one 500 KB text node
  const std::string long_href = "/" + repeat("abcdefghij", 10000);
  dom::Tree tree = dom::parse_html("<p>" + bad + "</p><p>" + long_text + "</p><a href='" +
                                   long_href + "' data-x=''>l</a><!--" + long_text + "-->");
  check_tree(tree);
  std::vector<std::string_view> texts;
  const dom::Node* anchor = nullptr;
  std::string_view comment;
  for (const auto& n : tree.nodes) {
    if (n.type == dom::NodeType::kText) texts.push_back(n.text);
    if (n.type == dom::NodeType::kComment) comment = n.text;
    if (n.is("a")) anchor = &n;
  }
  REQUIRE(texts.size() == 3);
  CHECK(texts[0] == repeat("\xEF\xBF\xBD", bad.size()));
  CHECK(texts[1] == long_text);
  CHECK(texts[2] == "l");
  CHECK(comment == long_text);
  REQUIRE(anchor != nullptr);
  REQUIRE(anchor->attributes.size() == 2);
  CHECK(anchor->attributes[0].name == "href");
  CHECK(anchor->attributes[0].value == long_href);
  CHECK(anchor->attributes[1].name == "data-x");
  CHECK(anchor->attributes[1].value.empty());
}

TEST_CASE("a page far bigger than one arena block, then small ones, on one thread", "[parse]") {
  // Gumbo needs ~10 bytes per byte of page: this one spans dozens of arena blocks.
  const std::size_t paragraphs = 20000;
  const std::string html = big_page(paragraphs);
  REQUIRE(html.size() > 1500000);
  const std::string md = parse(html).markdown(content_test::full_page());
  std::size_t at = 0;
  for (std::size_t i = 0; i < paragraphs; i += 997) {
    const std::string n = std::to_string(i);
    const std::string expected =
        "para " + n + " [link " + n + "](https://example.com/docs/" + n + ") and *more*";
    at = md.find(expected, at);
    REQUIRE(at != std::string::npos);
  }
  check_tree(dom::parse_html(html));
  // The next parses reuse the blocks this thread kept, with the big page's bytes still in them.
  CHECK(parse(html).markdown(content_test::full_page()) == md);
  CHECK(content_test::md("<h1>small</h1><p>after <b>big</b></p>") == "# small\n\nafter **big**");
}

TEST_CASE("parses on several threads at once give the single-threaded answer", "[parse]") {
  const std::vector<std::string> pages = {big_page(3000), content_test::load("docs.html"),
                                          content_test::load("shop.html"), "<p>tiny</p>"};
  std::vector<std::string> expected;
  for (const auto& p : pages) expected.push_back(parse(p).markdown(Options{}));
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < ok.size(); ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < 12; ++i) {
        const std::size_t k = (i + t) % pages.size();
        ok[t] += parse(pages[k]).markdown(Options{}) == expected[k];
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok == std::vector<int>(4, 12));
}
