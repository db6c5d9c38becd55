#include <catch2/catch.hpp>

#include "test_util.hpp"

using content_test::md;

TEST_CASE("headings are ATX, inline content only", "[markdown]") {
  CHECK(md("<h1>One</h1><h2>Two <em>em</em></h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>") ==
        "# One\n\n## Two *em*\n\n### 3\n\n#### 4\n\n##### 5\n\n###### 6");
  CHECK(md("<h2>Line<br>break</h2>") == "## Line break");
  CHECK(md("<h1> </h1><p>after</p>") == "after");
  CHECK(md("<h2><a href='/x'><div>Card title</div></a></h2>") ==
        "## [Card title](https://example.com/x)");
}

TEST_CASE("paragraphs and browser-like whitespace collapsing", "[markdown]") {
  CHECK(md("<p>  one\n\t two  </p>\n\n<p>three</p>") == "one two\n\nthree");
  CHECK(md("<div>loose text<p>para</p>tail</div>") == "loose text\n\npara\n\ntail");
  CHECK(md("<p>a&nbsp;&nbsp;b</p>") == "a\xC2\xA0\xC2\xA0" "b");
  CHECK(md("<p>a <span> b </span> c</p>") == "a b c");
  CHECK(md("<p></p><p> </p><div><p>x</p></div>") == "x");
}

TEST_CASE("emphasis, strong, code, strikethrough", "[markdown]") {
  CHECK(md("<p><strong>bold</strong> <b>b</b> <em>em</em> <i>i</i></p>") ==
        "**bold** **b** *em* *i*");
  CHECK(md("<p>x<strong> spaced </strong>y</p>") == "x **spaced** y");
  CHECK(md("<p><strong></strong>empty<em> </em>!</p>") == "empty !");
  CHECK(md("<p><b>a</b><b>b</b></p>") == "**ab**");
  CHECK(md("<p><b>outer <b>inner</b></b></p>") == "**outer inner**");
  CHECK(md("<p><b><i>both</i></b></p>") == "***both***");
  CHECK(md("<p>foo<i>bar</i>baz</p>") == "foo*bar*baz");
  CHECK(md("<p><del>old</del> <s>s</s> <strike>st</strike></p>") == "~~old~~ ~~s~~ ~~st~~");
  CHECK(md("<p>run <code>ls  -la</code> now</p>") == "run `ls -la` now");
  CHECK(md("<p><code>a`b</code></p>") == "``a`b``");
  CHECK(md("<p><code>`x</code></p>") == "`` `x ``");
  CHECK(md("<p><kbd>Ctrl</kbd>+<kbd>C</kbd></p>") == "`Ctrl`+`C`");
  CHECK(md("<p><code>*not emphasis*</code></p>") == "`*not emphasis*`");
}

TEST_CASE("links are absolute, with titles, and empty links vanish", "[markdown]") {
  CHECK(md("<p><a href='other.html'>rel</a> <a href='/root'>root</a> "
           "<a href='//cdn.example.org/x'>proto</a> <a href='https://a.example/'>abs</a></p>") ==
        "[rel](https://example.com/dir/other.html) [root](https://example.com/root) "
        "[proto](https://cdn.example.org/x) [abs](https://a.example/)");
  CHECK(md("<p><a href='/t' title='The \"title\"'>t</a></p>") ==
        "[t](https://example.com/t \"The \\\"title\\\"\")");
  CHECK(md("<p><a href='/x'> </a>gone <a href='/y'></a></p>") == "gone");
  CHECK(md("<p><a href='javascript:void(0)'>js</a> <a>no href</a></p>") == "js no href");
  CHECK(md("<p><a href='mailto:a@example.com'>mail</a></p>") == "[mail](mailto:a@example.com)");
  CHECK(md("<p><a href='#top'>top</a></p>") == "[top](https://example.com/dir/page.html#top)");
  CHECK(md("<p><a href='/a b'>space</a></p>") == "[space](https://example.com/a%20b)");
  CHECK(md("<p><a href='/wiki/Foo_(bar)'>wiki</a> <a href='/x(y'>open</a></p>") ==
        "[wiki](https://example.com/wiki/Foo_(bar)) [open](<https://example.com/x(y>)");
  CHECK(md("<p><a href='/x'>a <strong>b</strong> <img src='i.png' alt='i'></a></p>") ==
        "[a **b** ![i](https://example.com/dir/i.png)](https://example.com/x)");
  CHECK(md("<a href='/card'><div><h3>Title</h3><p>Text</p></div></a>") ==
        "[Title Text](https://example.com/card)");
}

TEST_CASE("images, and base64 images replaced like the real service", "[markdown]") {
  CHECK(md("<p><img src='/a.png' alt='An [image]' title='T'></p>") ==
        "![An \\[image\\]](https://example.com/a.png \"T\")");
  CHECK(md("<img src='b.png'>") == "![](https://example.com/dir/b.png)");
  CHECK(md("<img data-src='/lazy.png' alt='lazy'>") == "![lazy](https://example.com/lazy.png)");
  CHECK(md("<img srcset='/s1.png 1x, /s2.png 2x' alt='s'>") == "![s](https://example.com/s1.png)");
  CHECK(md("<img alt='no source'>").empty());
  CHECK(md("<img src='data:image/png;base64,iVBORw0KGgo=' alt='dot'>") ==
        "![dot](<Base64-Image-Removed>)");
  webdata::mock::content::Options keep = content_test::full_page();
  keep.remove_base64_images = false;
  CHECK(content_test::parse("<img src='data:image/png;base64,iVBO' alt='dot'>").markdown(keep) ==
        "![dot](data:image/png;base64,iVBO)");
}

TEST_CASE("unordered, ordered and nested lists", "[markdown]") {
  CHECK(md("<ul><li>one</li><li>two</li></ul>") == "- one\n- two");
  CHECK(md("<ol><li>one</li><li>two</li></ol>") == "1. one\n2. two");
  CHECK(md("<ol start='9'><li>nine</li><li>ten</li><li>eleven</li></ol>") ==
        "9. nine\n10. ten\n11. eleven");
  CHECK(md("<ol reversed><li>c</li><li>b</li><li>a</li></ol>") == "3. c\n2. b\n1. a");
  CHECK(md("<ol><li>a</li><li value='7'>g</li><li>h</li></ol>") == "1. a\n7. g\n8. h");
  CHECK(md("<ul><li>a<ul><li>a1</li><li>a2<ol><li>deep</li></ol></li></ul></li><li>b</li></ul>") ==
        "- a\n  - a1\n  - a2\n    1. deep\n- b");
  CHECK(md("<ol><li><p>para one</p><p>para two</p></li><li>next</li></ol>") ==
        "1. para one\n\n   para two\n2. next");
  CHECK(md("<ul><li>x</li><ul><li>stray nested</li></ul></ul>") == "- x\n  - stray nested");
  CHECK(md("<ul><li>code:<pre>a\n  b</pre></li></ul>") == "- code:\n\n  ```\n  a\n    b\n  ```");
  CHECK(md("<ul><li></li><li>only</li></ul>") == "- only");
  CHECK(md("<p>before</p><ul><li>item</li></ul><p>after</p>") == "before\n\n- item\n\nafter");
}

TEST_CASE("fenced code blocks keep whitespace and take the language from the class",
          "[markdown]") {
  CHECK(md("<pre><code class='language-cpp'>int main() {\n  return 0;\n}\n</code></pre>") ==
        "```cpp\nint main() {\n  return 0;\n}\n```");
  CHECK(md("<pre class='lang-js'>let x = 1;</pre>") == "```js\nlet x = 1;\n```");
  CHECK(md("<pre data-language='go'>x := 1</pre>") == "```go\nx := 1\n```");
  CHECK(md("<pre>\n\nindented\n    *kept* &lt;tag&gt;</pre>") ==
        "```\n\nindented\n    *kept* <tag>\n```");
  CHECK(md("<pre>has ``` inside</pre>") == "````\nhas ``` inside\n````");
  CHECK(md("<pre>line<br>break</pre>") == "```\nline\nbreak\n```");
  CHECK(md("<pre>   </pre><p>x</p>") == "x");
  CHECK(md("<pre><span class='k'>if</span> <span>x</span></pre>") == "```\nif x\n```");
}

TEST_CASE("blockquotes, nested and with blocks inside", "[markdown]") {
  CHECK(md("<blockquote>quoted</blockquote>") == "> quoted");
  CHECK(md("<blockquote><p>one</p><p>two</p></blockquote>") == "> one\n>\n> two");
  CHECK(md("<blockquote><p>outer</p><blockquote><p>inner</p></blockquote></blockquote>") ==
        "> outer\n>\n> > inner");
  CHECK(md("<blockquote><ul><li>a</li><li>b</li></ul></blockquote>") == "> - a\n> - b");
}

TEST_CASE("tables become GFM pipe tables", "[markdown]") {
  CHECK(md("<table><thead><tr><th>A</th><th>B</th></tr></thead>"
           "<tbody><tr><td>1</td><td>2</td></tr></tbody></table>") ==
        "| A | B |\n| --- | --- |\n| 1 | 2 |");
  // No header row in the source: the first row becomes the header, as GFM needs one.
  CHECK(md("<table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>") ==
        "| x | y |\n| --- | --- |\n| 1 | 2 |");
  CHECK(md("<table><tr><th align='left'>L</th><th style='text-align: center'>C</th>"
           "<th align=right>R</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>") ==
        "| L | C | R |\n| :--- | :---: | ---: |\n| 1 | 2 | 3 |");
  CHECK(md("<table><tr><th>a|b</th><th>c</th></tr><tr><td><code>x|y</code></td><td>line<br>two</td>"
           "</tr></table>") ==
        "| a\\|b | c |\n| --- | --- |\n| `x\\|y` | line two |");
  CHECK(md("<table><tr><th>1</th><th>2</th><th>3</th></tr><tr><td colspan='2'>wide</td><td>z</td>"
           "</tr><tr><td>short</td></tr></table>") ==
        "| 1 | 2 | 3 |\n| --- | --- | --- |\n| wide | | z |\n| short | | |");
  CHECK(md("<table><tr><th>k</th><th>v</th></tr><tr><td rowspan='2'>r</td><td>1</td></tr>"
           "<tr><td>2</td></tr></table>") ==
        "| k | v |\n| --- | --- |\n| r | 1 |\n| | 2 |");
  CHECK(md("<table><caption>Prices</caption><tr><th>a</th><th>b</th></tr></table>") ==
        "Prices\n\n| a | b |\n| --- | --- |");
  CHECK(md("<table><tr><td><p>para</p><ul><li>li</li></ul></td><td>x</td></tr></table>") ==
        "| para li | x |\n| --- | --- |");
}

TEST_CASE("layout tables are not pipe tables", "[markdown]") {
  CHECK(md("<table><tr><td><h1>Site</h1></td></tr><tr><td><p>Body text</p></td></tr></table>") ==
        "# Site\n\nBody text");
  CHECK(md("<table><tr><td>menu</td><td><table><tr><td>a</td><td>b</td></tr></table></td></tr>"
           "</table>") == "menu\n\n| a | b |\n| --- | --- |");
}

TEST_CASE("hr, line breaks and definition lists", "[markdown]") {
  CHECK(md("<p>a</p><hr><p>b</p>") == "a\n\n---\n\nb");
  CHECK(md("<p>one<br>two<br/>three</p>") == "one  \ntwo  \nthree");
  CHECK(md("<p>one<br><br><br><br>two</p>") == "one\n\ntwo");
  CHECK(md("<p><br>lead and trail<br></p>") == "lead and trail");
  CHECK(md("<p><b>bold<br></b>next</p>") == "**bold**  \nnext");
  CHECK(md("<dl><dt>Term</dt><dd>Definition</dd><dt>T2</dt><dd>D2a</dd><dd>D2b</dd></dl>") ==
        "**Term**\n: Definition\n\n**T2**\n: D2a\n: D2b");
  CHECK(md("<dl><div><dt>Grouped</dt><dd>Yes</dd></div></dl>") == "**Grouped**\n: Yes");
}

TEST_CASE("Markdown syntax in text is escaped", "[markdown]") {
  CHECK(md("<p>*stars* _under_ snake_case `tick` [x](y) a\\b ~tilde</p>") ==
        "\\*stars\\* \\_under\\_ snake_case \\`tick\\` \\[x\\](y) a\\b \\~tilde");
  CHECK(md("<p># not a heading</p>") == "\\# not a heading");
  CHECK(md("<p>#hashtag</p>") == "#hashtag");
  CHECK(md("<p>1. not a list</p><p>2024. year</p>") == "1\\. not a list\n\n2024\\. year");
  CHECK(md("<p>- dash</p><p>+ plus</p><p>&gt; quote</p><p>---</p><p>===</p>") ==
        "\\- dash\n\n\\+ plus\n\n\\> quote\n\n\\---\n\n\\===");
  CHECK(md("<p>a - b + c > d 1. e</p>") == "a - b + c > d 1. e");
  CHECK(md("<p>&lt;div&gt; &amp;amp; &amp; 3 &lt; 4</p>") == "\\<div> \\&amp; & 3 < 4");
  CHECK(md("<p>C:\\path\\*</p>") == "C:\\path\\\\\\*");
  CHECK(md("<p>line<br># after break</p>") == "line  \n\\# after break");
}

TEST_CASE("non-content elements leave no text", "[markdown]") {
  CHECK(md("<p>a<script>var x = '<p>no</p>';</script>b<style>p{}</style>c</p>") == "abc");
  CHECK(md("<p>text</p><!-- comment --><noscript>enable js</noscript><template><p>t</p></template>") ==
        "text");
  CHECK(md("<p>icon <svg><title>svg title</title><path d='M0'/></svg>label</p>") == "icon label");
  CHECK(md("<p><select><option>one</option></select><input value='v'><textarea>t</textarea>x</p>") ==
        "x");
  CHECK(md("<video src='v.mp4'>Your browser cannot play video.</video><p>after</p>") == "after");
  CHECK(md("<iframe src='/f'></iframe><p>after</p>") == "after");
}

TEST_CASE("inline wrappers around blocks do not swallow block structure", "[markdown]") {
  CHECK(md("<my-card><h2>Title</h2><p>Body</p></my-card>") == "## Title\n\nBody");
  CHECK(md("<span><p>one</p><p>two</p></span>") == "one\n\ntwo");
  CHECK(md("<figure><img src='/f.png' alt='f'><figcaption>Caption</figcaption></figure>") ==
        "![f](https://example.com/f.png)\n\nCaption");
  CHECK(md("<details><summary>More</summary><p>Hidden text</p></details>") ==
        "More\n\nHidden text");
}

TEST_CASE("no more than one blank line between blocks", "[markdown]") {
  std::string out = md("<div><div><p>a</p></div>\n\n\n<div></div><div><p>b</p></div></div>"
                       "<section><br><br></section><p>c</p>");
  CHECK(out == "a\n\nb\n\nc");
  CHECK(out.find("\n\n\n") == std::string::npos);
}
