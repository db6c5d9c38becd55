#include <catch2/catch.hpp>

#include <map>

#include "formats/actions.hpp"
#include "formats/pdf.hpp"
#include "test_util.hpp"

using nlohmann::json;
namespace formats = webdata::mock::formats;
using webdata::mock::content::Page;

namespace {

const char* kHome = R"(<html><head><title>Shop home</title></head><body>
  <h1>Welcome</h1>
  <nav><a id="about" href="/about#team">About us</a> <a href="mailto:x@shop.example">Mail</a></nav>
  <form id="search" action="/search" method="get">
    <input id="q" name="q" type="text" placeholder="Search">
    <select name="cat"><option value="all">All</option><option value="shoes" selected>Shoes</option></select>
    <input type="checkbox" id="sale" name="sale" value="yes"><label for="sale">On sale</label>
    <button type="submit" name="go" value="1">Search</button>
  </form>
  <form id="login" action="/login" method="post"><input id="user" name="user"><button>Log in</button></form>
  <ul class="items"><li>One</li><li>Two</li><li>Three</li></ul>
  <p>Paragraph one.</p><p>Paragraph two.</p>
</body></html>)";

struct FakeWeb {
  std::map<std::string, std::string> pages;
  std::vector<std::string> visited;
  formats::Navigator navigator() {
    return [this](const std::string& url) -> std::optional<Page> {
      visited.push_back(url);
      std::string path = url.substr(0, url.find('?'));
      auto it = pages.find(path);
      if (it == pages.end()) return std::nullopt;
      std::string body = it->second;
      if (url.find('?') != std::string::npos)
        body += "<p id='query'>" + url.substr(url.find('?') + 1) + "</p>";
      return Page{url, "text/html", 200, body};
    };
  }
};

Page home() {
  return Page{"https://shop.example/", "text/html", 200, kHome};
}

formats::ActionsOutcome run(FakeWeb& web, const json& actions,
                            formats::ActionSettings settings = {}) {
  settings.viewport_width = 800;
  settings.viewport_height = 600;
  return formats::ActionRunner(web.navigator(), settings).run(home(), actions);
}

}  // namespace

TEST_CASE("actions: wait accounts milliseconds and checks selectors", "[actions]") {
  FakeWeb web;
  auto ok = run(
      web,
      json::parse(R"js([{"type":"wait","milliseconds":1500},{"type":"wait","selector":"#q"}])js"));
  REQUIRE(!ok.error);
  CHECK(ok.waited == std::chrono::milliseconds(1500));
  CHECK(ok.result ==
        json::parse(R"({"screenshots":[],"scrapes":[],"javascriptReturns":[],"pdfs":[]})"));

  auto missing = run(
      web,
      json::parse(R"js([{"type":"wait","milliseconds":10},{"type":"wait","selector":"#nope"}])js"));
  REQUIRE(missing.error);
  CHECK(missing.error->index == 1);
  CHECK(missing.error->code == "SCRAPE_ACTION_ERROR");
  CHECK(missing.error->message == "action 1 (wait): no element matches selector \"#nope\"");

  auto too_long = run(
      web,
      json::parse(
          R"js([{"type":"wait","milliseconds":40000},{"type":"wait","milliseconds":30000}])js"));
  REQUIRE(too_long.error);
  CHECK(too_long.error->index == 1);
  CHECK(too_long.error->message.find("exceeds 60000 ms") != std::string::npos);

  auto bad_selector = run(web, json::parse(R"js([{"type":"wait","selector":"a:hover"}])js"));
  REQUIRE(bad_selector.error);
  CHECK(bad_selector.error->message.find("pseudo-classes") != std::string::npos);
}

TEST_CASE("actions: clicking a link navigates, the final page is the new one", "[actions]") {
  FakeWeb web;
  web.pages["https://shop.example/about"] = "<title>About</title><h1 id='team'>Our team</h1>";
  auto out =
      run(web, json::parse(R"js([{"type":"click","selector":"#about"},{"type":"scrape"}])js"));
  REQUIRE(!out.error);
  CHECK(web.visited == std::vector<std::string>{"https://shop.example/about"});
  CHECK(out.final_page.url == "https://shop.example/about");
  CHECK(out.result["scrapes"][0]["url"] == "https://shop.example/about");
  CHECK(out.result["scrapes"][0]["html"] == "<title>About</title><h1 id='team'>Our team</h1>");

  auto missing = run(web, json::parse(R"js([{"type":"click","selector":".buy"}])js"));
  REQUIRE(missing.error);
  CHECK(missing.error->message == "action 0 (click): no element matches selector \".buy\"");

  FakeWeb offline;
  auto failed = run(offline, json::parse(R"js([{"type":"click","selector":"#about"}])js"));
  REQUIRE(failed.error);
  CHECK(failed.error->message ==
        "action 0 (click): navigation to https://shop.example/about failed");

  auto mail = run(web, json::parse(R"js([{"type":"click","selector":"nav a[href^=mailto]"}])js"));
  CHECK(!mail.error);
  CHECK(mail.final_page.url == "https://shop.example/");
}

TEST_CASE("actions: write and press Enter submit a GET form", "[actions]") {
  FakeWeb web;
  web.pages["https://shop.example/search"] = "<title>Results</title>";
  auto out = run(web, json::parse(R"js([
    {"type":"click","selector":"#q"}, {"type":"write","text":"trail shoes"},
    {"type":"press","key":"Backspace"}, {"type":"press","key":"s"},
    {"type":"click","selector":"label[for=sale]"},
    {"type":"press","key":"Enter"}, {"type":"executeJavascript","script":"document.querySelector('#query').textContent"}])js"));
  REQUIRE(!out.error);
  CHECK(web.visited ==
        std::vector<std::string>{"https://shop.example/search?q=trail+shoes&cat=shoes&sale=yes"});
  CHECK(out.result["javascriptReturns"][0] ==
        json({{"type", "string"}, {"value", "q=trail+shoes&cat=shoes&sale=yes"}}));

  FakeWeb web2;
  web2.pages["https://shop.example/search"] = "<title>Results</title>";
  auto button =
      run(web2, json::parse(R"js([{"type":"click","selector":"#q"},{"type":"write","text":"a&b"},
                                          {"type":"click","selector":"#search button"}])js"));
  REQUIRE(!button.error);
  CHECK(web2.visited.back() == "https://shop.example/search?q=a%26b&cat=shoes&go=1");

  auto unfocused = run(web, json::parse(R"js([{"type":"write","text":"x"}])js"));
  REQUIRE(unfocused.error);
  CHECK(unfocused.error->message.find("click an input first") != std::string::npos);

  auto post =
      run(web, json::parse(R"js([{"type":"click","selector":"#user"},{"type":"write","text":"me"},
                                       {"type":"press","key":"Enter"}])js"));
  REQUIRE(post.error);
  CHECK(post.error->index == 2);
  CHECK(post.error->message.find("POST") != std::string::npos);
}

TEST_CASE("actions: screenshots, scroll, pdf", "[actions]") {
  FakeWeb web;
  auto out = run(web, json::parse(R"js([{"type":"screenshot"},{"type":"click","selector":"#q"},
    {"type":"write","text":"typed"},{"type":"screenshot"},{"type":"screenshot","fullPage":true},
    {"type":"scroll","direction":"down"},{"type":"scroll","selector":"ul.items"},
    {"type":"pdf","format":"A4"}])js"));
  REQUIRE(!out.error);
  auto& shots = out.result["screenshots"];
  REQUIRE(shots.size() == 3);
  for (auto& s : shots)
    CHECK(s.get<std::string>().rfind("data:image/png;base64,iVBORw0KGgo", 0) == 0);
  CHECK(shots[0] != shots[1]);  // the typed value is drawn in its field
  REQUIRE(out.result["pdfs"].size() == 1);
  std::string pdf_uri = out.result["pdfs"][0];
  CHECK(pdf_uri.rfind("data:application/pdf;base64,JVBERi0xLjQK", 0) == 0);

  auto bad = run(web, json::parse(R"js([{"type":"scroll","selector":"#nothing"}])js"));
  REQUIRE(bad.error);
  auto bad_direction = run(web, json::parse(R"js([{"type":"scroll","direction":"left"}])js"));
  REQUIRE(bad_direction.error);
}

TEST_CASE("actions: executeJavascript evaluates DOM expressions", "[actions]") {
  FakeWeb web;
  auto out = run(web, json::parse(R"js([
    {"type":"executeJavascript","script":"return document.title"},
    {"type":"executeJavascript","script":"document.querySelectorAll('ul.items li').length"},
    {"type":"executeJavascript","script":"window.location.href"},
    {"type":"executeJavascript","script":"location.hostname + ':' + 42"},
    {"type":"executeJavascript","script":"document.querySelector('h1').innerText.toUpperCase()"},
    {"type":"executeJavascript","script":"window.scrollTo(0, document.body.scrollHeight)"},
    {"type":"executeJavascript","script":"document.querySelector('#missing')"},
    {"type":"executeJavascript","script":"JSON.stringify(document.getElementsByTagName('p')[1].textContent)"},
    {"type":"executeJavascript","script":"document.querySelector('select').getAttribute('name'); 1 + 2"}])js"));
  INFO((out.error ? out.error->message : std::string()));
  REQUIRE(!out.error);
  auto& r = out.result["javascriptReturns"];
  CHECK(r[0] == json({{"type", "string"}, {"value", "Shop home"}}));
  CHECK(r[1] == json({{"type", "number"}, {"value", 3}}));
  CHECK(r[2] == json({{"type", "string"}, {"value", "https://shop.example/"}}));
  CHECK(r[3] == json({{"type", "string"}, {"value", "shop.example:42"}}));
  CHECK(r[4] == json({{"type", "string"}, {"value", "WELCOME"}}));
  CHECK(r[6] == json({{"type", "object"}, {"value", nullptr}}));
  CHECK(r[7] == json({{"type", "string"}, {"value", "\"Paragraph two.\""}}));
  CHECK(r[8] == json({{"type", "number"}, {"value", 3}}));

  auto unsupported =
      run(web, json::parse(R"js([{"type":"executeJavascript","script":"fetch('/api')"}])js"));
  REQUIRE(unsupported.error);
  CHECK(unsupported.error->message.find("'fetch' is not supported") != std::string::npos);
  auto arrow =
      run(web, json::parse(R"js([{"type":"executeJavascript","script":"[1].map(x => x)"}])js"));
  REQUIRE(arrow.error);
  CHECK(arrow.error->message.find("not supported by the mock's evaluator") != std::string::npos);

  FakeWeb web2;
  web2.pages["https://shop.example/about"] = "<title>About</title>";
  auto js_click = run(
      web2,
      json::parse(
          R"js([{"type":"executeJavascript","script":"document.getElementById('about').click()"}])js"));
  REQUIRE(!js_click.error);
  CHECK(js_click.final_page.url == "https://shop.example/about");
}

TEST_CASE("actions: limits and unknown kinds", "[actions]") {
  FakeWeb web;
  json many = json::array();
  for (int i = 0; i < 51; ++i) many.push_back({{"type", "scrape"}});
  auto out = run(web, many);
  REQUIRE(out.error);
  CHECK(out.error->index == 50);
  CHECK(out.result["scrapes"].empty());
  json fifty(many.begin(), many.begin() + 50);
  CHECK(!run(web, fifty).error);

  auto unknown =
      run(web, json::parse(R"js([{"type":"scrape"},{"type":"hover","selector":"h1"}])js"));
  REQUIRE(unknown.error);
  CHECK(unknown.error->index == 1);
  CHECK(unknown.error->message == "action 1 (hover): unknown action type \"hover\"");
  CHECK(unknown.result["scrapes"].size() == 1);  // what ran before the failure
}
