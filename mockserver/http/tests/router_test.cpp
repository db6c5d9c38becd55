// The router on its own: which route runs, its captures, 404 and 405.
#include <catch2/catch.hpp>

#include <string>

#include "http/router.hpp"

using webdata::mock::http::PathParams;
using webdata::mock::http::Request;
using webdata::mock::http::Response;
using webdata::mock::http::Router;

namespace {

/// A route that answers its name and its captures as "name k=v k=v".
webdata::mock::http::RouteHandler named(const std::string& name) {
  return [name](const Request&, const PathParams& params) {
    Response response;
    response.body = name;
    for (const auto& [key, value] : params) response.body += " " + key + "=" + value;
    return response;
  };
}

Response ask(const Router& router, const std::string& method, const std::string& path) {
  Request request;
  request.method = method;
  request.path = path;
  request.target = path;
  return router.dispatch(request);
}

}  // namespace

TEST_CASE("router: literal segments win over captures, whatever the order routes were added",
          "[http][router]") {
  Router router;
  router.add("GET", "/v2/crawl/{id}", named("status"));
  router.add("GET", "/v2/crawl/{id}/errors", named("errors"));
  router.add("GET", "/v2/crawl/active", named("active"));
  router.add("DELETE", "/v2/crawl/{id}", named("cancel"));

  CHECK(ask(router, "GET", "/v2/crawl/active").body == "active");
  CHECK(ask(router, "GET", "/v2/crawl/abc").body == "status id=abc");
  CHECK(ask(router, "GET", "/v2/crawl/abc/errors").body == "errors id=abc");
  CHECK(ask(router, "DELETE", "/v2/crawl/abc").body == "cancel id=abc");
  // Empty segments are skipped: a doubled or trailing slash matches the same route.
  CHECK(ask(router, "GET", "//v2//crawl/abc/").body == "status id=abc");
  // HEAD runs the GET route.
  CHECK(ask(router, "HEAD", "/v2/crawl/active").body == "active");
}

TEST_CASE("router: routes with as many captures keep the order they were added in",
          "[http][router]") {
  Router router;
  router.add("GET", "/a/{x}/{y}", named("first"));
  router.add("GET", "/a/{p}/{q}", named("second"));
  router.add("GET", "/a/{x}", named("one"));
  CHECK(ask(router, "GET", "/a/1/2").body == "first x=1 y=2");
  CHECK(ask(router, "GET", "/a/1").body == "one x=1");
}

TEST_CASE("router: an unknown path is 404, a known path under another method 405 with Allow",
          "[http][router]") {
  Router router;
  router.add("GET", "/v2/crawl/{id}", named("status"));
  router.add("DELETE", "/v2/crawl/{id}", named("cancel"));
  router.add("POST", "/v2/crawl", named("start"));

  const Response missing = ask(router, "GET", "/v2/nothing/here");
  CHECK(missing.status == 404);
  CHECK(missing.body.find("Route not found: GET /v2/nothing/here") != std::string::npos);
  CHECK(ask(router, "GET", "/v2/crawl/abc/extra").status == 404);  // more segments than any route
  CHECK(ask(router, "GET", "/v2").status == 404);                  // fewer

  const Response wrong = ask(router, "PUT", "/v2/crawl/abc");
  CHECK(wrong.status == 405);
  CHECK(wrong.header("Allow") == std::optional<std::string>("DELETE, GET"));
  CHECK(wrong.body.find("(allowed: DELETE, GET)") != std::string::npos);
  CHECK(ask(router, "GET", "/v2/crawl").status == 405);

  CHECK(router.knows_path("/v2/crawl/abc"));
  CHECK_FALSE(router.knows_path("/v2/crawl/abc/def"));
}
