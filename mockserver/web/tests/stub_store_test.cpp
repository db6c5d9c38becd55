#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>

#include "test_support.hpp"
#include "web/stub_store.hpp"

using nlohmann::json;
using webdata::mock::Fault;
using webdata::mock::web::MappingError;
using webdata::mock::web::StubRequest;
using webdata::mock::web::StubStore;
using webdata::mock::web::testing::TempDir;

namespace {

StubRequest get(const std::string& url, webdata::mock::HeaderList headers = {}) {
  StubRequest r;
  r.method = "GET";
  r.url = url;
  r.headers = std::move(headers);
  return r;
}

StubRequest post(const std::string& url, const std::string& body) {
  StubRequest r = get(url);
  r.method = "POST";
  r.body = body;
  return r;
}

std::string body_of(StubStore& store, const StubRequest& request) {
  const auto r = store.match(request);
  return r ? r->body : "<no match>";
}

}  // namespace

TEST_CASE("url matchers: url, urlPath, urlPattern, urlPathPattern") {
  StubStore store;
  store.add({{"request", {{"url", "/exact?x=1"}}}, {"response", {{"body", "url"}}}});
  store.add({{"request", {{"urlPath", "/path"}}}, {"response", {{"body", "urlPath"}}}});
  store.add({{"request", {{"urlPattern", "/pat/[0-9]+\\?q=.*"}}},
             {"response", {{"body", "urlPattern"}}}});
  store.add({{"request", {{"urlPathPattern", "/pp/[a-z]+"}}},
             {"response", {{"body", "urlPathPattern"}}}});
  CHECK(body_of(store, get("/exact?x=1")) == "url");
  CHECK(body_of(store, get("/exact?x=2")) == "<no match>");
  CHECK(body_of(store, get("/exact")) == "<no match>");
  CHECK(body_of(store, get("/path?anything=1")) == "urlPath");
  CHECK(body_of(store, get("/path/more")) == "<no match>");
  CHECK(body_of(store, get("/pat/12?q=a")) == "urlPattern");
  CHECK(body_of(store, get("/pat/12")) == "<no match>");
  CHECK(body_of(store, get("/pp/abc?z=9")) == "urlPathPattern");
  CHECK(body_of(store, get("/pp/ABC")) == "<no match>");
}

TEST_CASE("method, host, scheme, port, headers and query parameters") {
  StubStore store;
  store.add(
      {{"request", {{"method", "POST"}, {"urlPath", "/m"}}}, {"response", {{"body", "post"}}}});
  store.add(
      {{"request", {{"method", "ANY"}, {"urlPath", "/any"}}}, {"response", {{"body", "any"}}}});
  store.add({{"request", {{"urlPath", "/h"}, {"host", {{"equalTo", "a.test"}}}}},
             {"response", {{"body", "host a"}}}});
  store.add(
      {{"request", {{"urlPath", "/h"}, {"headers", {{"Host", {{"equalTo", "b.test:8080"}}}}}}},
       {"response", {{"body", "host header b"}}}});
  store.add({{"request", {{"urlPath", "/s"}, {"scheme", "https"}, {"port", 8443}}},
             {"response", {{"body", "https 8443"}}}});
  store.add({{"request",
              {{"urlPath", "/hdr"},
               {"headers", {{"X-Token", {{"equalTo", "abc"}}}, {"X-Debug", {{"absent", true}}}}}}},
             {"response", {{"body", "headers"}}}});
  store.add({{"request",
              {{"urlPath", "/q"},
               {"queryParameters",
                {{"page", {{"matches", "[0-9]+"}}}, {"sort", {{"equalTo", "new est"}}}}}}},
             {"response", {{"body", "query"}}}});

  CHECK(body_of(store, post("/m", "")) == "post");
  CHECK(body_of(store, get("/m")) == "<no match>");
  CHECK(body_of(store, post("/any", "")) == "any");
  CHECK(body_of(store, get("/any")) == "any");
  CHECK(body_of(store, get("/h", {{"Host", "a.test"}})) == "host a");
  CHECK(body_of(store, get("/h", {{"host", "A.TEST:80"}})) == "host a");
  CHECK(body_of(store, get("/h", {{"Host", "b.test:8080"}})) == "host header b");
  CHECK(body_of(store, get("/h", {{"Host", "c.test"}})) == "<no match>");
  CHECK(body_of(store, get("/h")) == "<no match>");

  StubRequest tls = get("/s", {{"Host", "x.test:8443"}});
  tls.scheme = "https";
  CHECK(body_of(store, tls) == "https 8443");
  tls.scheme = "http";
  CHECK(body_of(store, tls) == "<no match>");
  CHECK(body_of(store, get("/s", {{"Host", "x.test"}})) == "<no match>");

  CHECK(body_of(store, get("/hdr", {{"x-token", "abc"}})) == "headers");
  CHECK(body_of(store, get("/hdr", {{"X-Token", "abc"}, {"X-Debug", "1"}})) == "<no match>");
  CHECK(body_of(store, get("/hdr", {{"X-Token", "abd"}})) == "<no match>");
  // Any of several values of a header may match.
  CHECK(body_of(store, get("/hdr", {{"X-Token", "zzz"}, {"X-Token", "abc"}})) == "headers");

  CHECK(body_of(store, get("/q?page=3&sort=new+est")) == "query");
  CHECK(body_of(store, get("/q?sort=new%20est&page=12")) == "query");
  CHECK(body_of(store, get("/q?page=x&sort=new+est")) == "<no match>");
  CHECK(body_of(store, get("/q?page=3")) == "<no match>");
}

TEST_CASE("bodyPatterns: every pattern must match") {
  StubStore store;
  store.add(
      {{"request",
        {{"method", "POST"},
         {"urlPath", "/v2/scrape"},
         {"bodyPatterns", json::array({{{"matchesJsonPath", "$.formats[?(@ == 'json')]"}},
                                       {{"equalToJson", R"({"url":"https://docs.example.test/"})"},
                                        {"ignoreExtraElements", true}}})}}},
       {"response", {{"status", 200}, {"jsonBody", {{"success", true}}}}}});
  store.add(
      {{"request",
        {{"method", "POST"},
         {"urlPath", "/echo"},
         {"bodyPatterns", json::array({{{"contains", "hello"}}, {{"doesNotMatch", ".*bye.*"}}})}}},
       {"response", {{"body", "hi"}}}});
  store.add({{"request",
              {{"method", "POST"},
               {"urlPath", "/nobody"},
               {"bodyPatterns", json::array({{{"absent", true}}})}}},
             {"response", {{"body", "empty"}}}});
  CHECK(body_of(store,
                post("/v2/scrape",
                     R"({"url":"https://docs.example.test/","formats":["markdown","json"]})")) ==
        R"({"success":true})");
  CHECK(body_of(store, post("/v2/scrape",
                            R"({"url":"https://docs.example.test/","formats":["markdown"]})")) ==
        "<no match>");
  CHECK(body_of(store,
                post("/v2/scrape", R"({"url":"https://blog.example.test/","formats":["json"]})")) ==
        "<no match>");
  CHECK(body_of(store, post("/echo", "well hello there")) == "hi");
  CHECK(body_of(store, post("/echo", "hello and bye")) == "<no match>");
  CHECK(body_of(store, post("/nobody", "")) == "empty");
  CHECK(body_of(store, post("/nobody", "x")) == "<no match>");
}

TEST_CASE("priority wins, then the most recently added mapping") {
  StubStore store;
  store.add({{"priority", 1},
             {"request", {{"urlPathPattern", "/p/.*"}}},
             {"response", {{"body", "p1"}}}});
  store.add({{"request", {{"urlPath", "/p/x"}}}, {"response", {{"body", "default priority"}}}});
  CHECK(body_of(store, get("/p/x")) == "p1");
  store.add({{"request", {{"urlPath", "/n"}}}, {"response", {{"body", "older"}}}});
  store.add({{"request", {{"urlPath", "/n"}}}, {"response", {{"body", "newer"}}}});
  CHECK(body_of(store, get("/n")) == "newer");
  store.add(
      {{"priority", 9}, {"request", {{"urlPath", "/n"}}}, {"response", {{"body", "newest, low"}}}});
  CHECK(body_of(store, get("/n")) == "newer");
}

TEST_CASE("scenarios move on and reset to Started") {
  StubStore store;
  store.add({{"scenarioName", "s"},
             {"requiredScenarioState", "Started"},
             {"newScenarioState", "two"},
             {"request", {{"urlPath", "/s"}}},
             {"response", {{"body", "one"}}}});
  store.add({{"scenarioName", "s"},
             {"requiredScenarioState", "two"},
             {"newScenarioState", "three"},
             {"request", {{"urlPath", "/s"}}},
             {"response", {{"body", "two"}}}});
  store.add({{"scenarioName", "s"},
             {"requiredScenarioState", "three"},
             {"request", {{"urlPath", "/s"}}},
             {"response", {{"body", "three"}}}});
  CHECK(body_of(store, get("/s")) == "one");
  CHECK(store.scenarios_json()["scenarios"][0]["state"] == "two");
  CHECK(body_of(store, get("/s")) == "two");
  CHECK(body_of(store, get("/s")) == "three");
  CHECK(body_of(store, get("/s")) == "three");
  store.reset_scenarios();
  CHECK(body_of(store, get("/s")) == "one");
  const auto scenarios = store.scenarios_json()["scenarios"];
  REQUIRE(scenarios.size() == 1);
  CHECK(scenarios[0]["possibleStates"] == json({"Started", "three", "two"}));
}

TEST_CASE("scenario transitions are atomic under concurrent matching") {
  StubStore store;
  store.add({{"scenarioName", "once"},
             {"requiredScenarioState", "Started"},
             {"newScenarioState", "used"},
             {"request", {{"urlPath", "/once"}}},
             {"response", {{"body", "first"}}}});
  store.add({{"scenarioName", "once"},
             {"requiredScenarioState", "used"},
             {"request", {{"urlPath", "/once"}}},
             {"response", {{"body", "later"}}}});
  std::atomic<int> firsts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        if (store.match(get("/once"))->body == "first") ++firsts;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(firsts == 1);
}

TEST_CASE("responses: status, statusMessage, headers, bodies, delay, fault") {
  TempDir root;
  root.write("__files/pages/a.html", "<h1>A</h1>");
  StubStore store(root.path());
  store.add({{"request", {{"urlPath", "/file"}}},
             {"response",
              {{"status", 201},
               {"statusMessage", "Made"},
               {"headers", {{"Content-Type", "text/html"}, {"Set-Cookie", {"a=1", "b=2"}}}},
               {"bodyFileName", "pages/a.html"},
               {"fixedDelayMilliseconds", 25}}}});
  store.add(
      {{"request", {{"urlPath", "/b64"}}}, {"response", {{"base64Body", "aGVsbG8gd29ybGQ="}}}});
  store.add({{"request", {{"urlPath", "/json"}}}, {"response", {{"jsonBody", {{"a", {1, 2}}}}}}});
  store.add({{"request", {{"urlPath", "/reset"}}},
             {"response", {{"fault", "CONNECTION_RESET_BY_PEER"}}}});
  store.add({{"name", "no response"}, {"request", {{"urlPath", "/bare"}}}});

  const auto file = store.match(get("/file"));
  REQUIRE(file);
  CHECK(file->status == 201);
  CHECK(file->status_message == "Made");
  CHECK(file->body == "<h1>A</h1>");
  CHECK(file->delay == std::chrono::milliseconds(25));
  CHECK(file->headers.size() == 3);
  CHECK(webdata::mock::find_headers(file->headers, "set-cookie") ==
        std::vector<std::string>{"a=1", "b=2"});
  CHECK(store.match(get("/b64"))->body == "hello world");
  CHECK(store.match(get("/json"))->body == R"({"a":[1,2]})");
  CHECK(store.match(get("/reset"))->fault == Fault::connection_reset_by_peer);
  const auto bare = store.match(get("/bare"));
  CHECK(bare->status == 200);
  CHECK(bare->mapping_name == "no response");
}

TEST_CASE("admin surface: add returns ids, remove, reset, mappings_json") {
  TempDir root;
  root.write(
      "mappings/one.json",
      R"({"id": "11111111-1111-4111-8111-111111111111", "request": {"urlPath": "/file"}, "response": {"body": "from file"}})");
  StubStore store(root.path());
  REQUIRE(store.size() == 1);
  const auto id =
      store.add({{"request", {{"urlPath", "/added"}}}, {"response", {{"body", "added"}}}});
  CHECK(id.size() == 36);
  CHECK(store.add({{"id", "fixed-id"}, {"request", {{"urlPath", "/x"}}}}) == "fixed-id");
  CHECK(store.add({{"uuid", "fixed-id"}, {"request", {{"urlPath", "/y"}}}}) == "fixed-id");
  CHECK(store.size() == 3);  // same id replaced
  const auto all = store.mappings_json();
  CHECK(all["meta"]["total"] == 3);
  std::set<std::string> ids;
  for (const auto& m : all["mappings"]) ids.insert(m["id"].get<std::string>());
  CHECK(ids.count(id) == 1);
  CHECK(store.mapping_json(id).value()["uuid"] == id);
  CHECK(store.remove(id));
  CHECK_FALSE(store.remove(id));
  CHECK(body_of(store, get("/added")) == "<no match>");
  CHECK(store.remove("11111111-1111-4111-8111-111111111111"));
  CHECK(body_of(store, get("/file")) == "<no match>");
  store.reset();
  CHECK(store.size() == 1);
  CHECK(body_of(store, get("/file")) == "from file");
}

TEST_CASE("the loader reads single stubs, mapping lists, subdirectories and body files") {
  TempDir root;
  root.write("mappings/a.json", R"({"request": {"urlPath": "/a"}, "response": {"body": "a"}})");
  root.write(
      "mappings/sub/dir/b.json",
      R"({"mappings": [{"request": {"urlPath": "/b1"}, "response": {"bodyFileName": "b.txt"}},
                              {"request": {"urlPath": "/b2"}, "response": {"status": 204}}]})");
  root.write("mappings/notes.txt", "ignored");
  root.write("__files/b.txt", "bee");
  StubStore store(root.path());
  CHECK(store.size() == 3);
  CHECK(body_of(store, get("/a")) == "a");
  CHECK(body_of(store, get("/b1")) == "bee");
  CHECK(store.match(get("/b2"))->status == 204);
}

TEST_CASE("unsupported or broken mappings are refused with file and reason") {
  struct Case {
    const char* json;
    const char* reason;
  };
  const Case cases[] = {
      {R"({"request": {"urlPath": "/a", "cookies": {"s": {"equalTo": "1"}}}})",
       "'cookies' is not supported"},
      {R"({"request": {"urlPathTemplate": "/a/{id}"}})", "'urlPathTemplate' is not supported"},
      {R"({"request": {"url": "/a", "urlPath": "/a"}})", "only one of url"},
      {R"({"request": {"urlPath": "/a"}, "response": {"transformers": ["response-template"]}})",
       "'transformers' is not supported"},
      {R"({"request": {"urlPath": "/a"}, "response": {"proxyBaseUrl": "http://x"}})",
       "proxyBaseUrl"},
      {R"({"request": {"urlPath": "/a"}, "response": {"fault": "TEAPOT"}})",
       "unknown fault 'TEAPOT'"},
      {R"({"request": {"urlPath": "/a"}, "response": {"bodyFileName": "missing.html"}})",
       "not found"},
      {R"({"request": {"urlPath": "/a"}, "response": {"bodyFileName": "../secret"}})",
       "without '..'"},
      {R"({"request": {"urlPath": "/a"}, "response": {"body": "x", "jsonBody": {}}})",
       "only one of body"},
      {R"({"request": {"urlPath": "/a"}, "response": {"base64Body": "***"}})", "not valid base64"},
      {R"({"request": {"urlPattern": "(["}})", "invalid regular expression"},
      {R"({"request": {"headers": {"Accept": {"equalToXml": "<a/>"}}}})",
       "header 'Accept': matcher 'equalToXml'"},
      {R"({"request": {"bodyPatterns": [{"matchesXPath": "/a"}]}})",
       "bodyPatterns: matcher 'matchesXPath'"},
      {R"({"request": {"urlPath": "/a"}, "postServeActions": []})",
       "'postServeActions' is not supported"},
      {R"({"request": {"urlPath": "/a"}, "newScenarioState": "x"})", "need a scenarioName"},
      {R"({"response": {"status": 200}})", "'request' object is missing"},
      {R"({"request": {"urlPath": "/a"}, "response": {"status": 700}})", "100..599"},
      {R"([1, 2])", "must be a JSON object"},
  };
  for (const auto& c : cases) {
    TempDir root;
    root.write("mappings/bad.json", c.json);
    INFO(c.json);
    try {
      StubStore store(root.path());
      FAIL("loaded without error");
    } catch (const MappingError& e) {
      CHECK(e.source() == "mappings/bad.json");
      CHECK_THAT(e.reason(), Catch::Contains(c.reason));
    }
  }
  TempDir list_root;
  list_root.write("mappings/list.json",
                  R"({"mappings": [{"request": {"urlPath": "/ok"}}, {"request": {"method": 5}}]})");
  CHECK_THROWS_WITH(StubStore(list_root.path()),
                    Catch::Contains("mappings/list.json mappings[1]") && Catch::Contains("method"));
  TempDir broken;
  broken.write("mappings/x.json", "{not json");
  CHECK_THROWS_WITH(StubStore(broken.path()), Catch::Contains("mappings/x.json: not valid JSON"));
  TempDir dup;
  dup.write("mappings/a.json", R"({"id": "same", "request": {"urlPath": "/a"}})");
  dup.write("mappings/b.json", R"({"id": "same", "request": {"urlPath": "/b"}})");
  CHECK_THROWS_WITH(StubStore(dup.path()), Catch::Contains("duplicate id same"));

  StubStore store;
  try {
    store.add({{"request", {{"urlPath", "/a"}, {"basicAuthCredentials", {{"username", "u"}}}}}});
    FAIL("added without error");
  } catch (const MappingError& e) {
    CHECK(e.source() == "admin");
    CHECK_THAT(e.reason(), Catch::Contains("basicAuthCredentials"));
  }
  CHECK(store.size() == 0);
}

TEST_CASE("several roots: later ones over earlier ones, each reading its own __files") {
  TempDir lower;
  lower.write("mappings/page.json",
              R"({"request": {"urlPath": "/page"}, "response": {"bodyFileName": "page.html"}})");
  lower.write("mappings/named.json", R"({"id": "named", "request": {"urlPath": "/named"},
                                         "response": {"body": "lower"}})");
  lower.write("mappings/high.json", R"({"priority": 1, "request": {"urlPath": "/high"},
                                        "response": {"body": "lower, priority 1"}})");
  lower.write("__files/page.html", "lower page");
  lower.write("__files/shared.html", "lower shared");
  TempDir upper;
  upper.write("mappings/page.json",
              R"({"request": {"urlPath": "/page"}, "response": {"bodyFileName": "page.html"}})");
  upper.write("mappings/other.json", R"({"id": "named", "request": {"urlPath": "/other"},
                                         "response": {"body": "upper"}})");
  upper.write("mappings/high.json",
              R"({"request": {"urlPath": "/high"}, "response": {"body": "upper"}})");
  upper.write("__files/page.html", "upper page");
  upper.write("__files/shared.html", "upper shared");

  StubStore store(std::vector<std::filesystem::path>{lower.path(), upper.path()});
  auto body = [&](const std::string& url) {
    StubRequest request;
    request.url = url;
    const auto matched = store.match(request);
    return matched ? matched->body : std::string("(no match)");
  };
  CHECK(body("/page") == "upper page");  // the later root wins
  CHECK(body("/high") == "upper");       // whatever the earlier root's priority
  CHECK(body("/other") == "upper");                // the same id: the later mapping replaces it
  CHECK(body("/named") == "(no match)");
  // A run-time mapping reads bodyFileName from the latest root that has the file.
  store.add({{"request", {{"urlPath", "/shared"}}},
             {"response", {{"bodyFileName", "shared.html"}}}});
  CHECK(body("/shared") == "upper shared");
  // Within a root, WireMock's order: a run-time mapping joins the latest root's priorities.
  store.add({{"priority", 9}, {"request", {{"urlPath", "/page"}}}, {"response", {{"body", "p9"}}}});
  CHECK(body("/page") == "upper page");
  store.add({{"priority", 1}, {"request", {{"urlPath", "/page"}}}, {"response", {{"body", "p1"}}}});
  CHECK(body("/page") == "p1");
  store.reset();
  CHECK(body("/shared") == "(no match)");
  CHECK(body("/page") == "upper page");
}

TEST_CASE("the bundled web root loads and lists its hosts and pages") {
  StubStore store(webdata::mock::web::testing::bundled_web_root());
  CHECK(store.size() > 50);
  const auto hosts = store.hosts();
  for (const char* host :
       {"docs.example.test", "blog.example.test", "shop.example.test", "travel.example.org",
        "www.example.com", "example.com", "edge.example.test"}) {
    CHECK(std::find(hosts.begin(), hosts.end(), host) != hosts.end());
  }
  std::size_t docs_pages = 0;
  for (const auto& [host, path] : store.pages()) {
    if (host == "docs.example.test") ++docs_pages;
  }
  CHECK(docs_pages >= 20);
}
