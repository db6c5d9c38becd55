#include <catch2/catch.hpp>

#include "webdata/result.hpp"
#include "webdata/transport.hpp"

TEST_CASE("Result holds a value or an error", "[result]") {
  webdata::Result<int> good = 42;
  REQUIRE(good.ok());
  CHECK(good.value() == 42);

  webdata::Error err;
  err.kind = webdata::ErrorKind::kHttp;
  err.http_status = 400;
  err.code = "BAD_REQUEST";
  err.message = "url is required";
  webdata::Result<int> bad = err;
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == "BAD_REQUEST");
  CHECK_THROWS_AS(bad.value(), webdata::ApiError);
  try {
    (void)bad.value();
  } catch (const webdata::ApiError& e) {
    CHECK(std::string(e.what()) == "HTTP 400 BAD_REQUEST: url is required");
    CHECK(e.error().http_status == 400);
  }
}

TEST_CASE("Result<void>", "[result]") {
  webdata::Result<void> fine;
  CHECK(fine.ok());
  CHECK_NOTHROW(fine.value());
  webdata::Result<void> failed = webdata::Error{};
  CHECK_FALSE(failed.ok());
  CHECK_THROWS_AS(failed.value(), webdata::ApiError);
}

TEST_CASE("header lookup ignores case", "[transport]") {
  webdata::Headers headers = {{"Content-Type", "application/json"}, {"Retry-After", "3"}};
  CHECK(webdata::find_header(headers, "content-type") == "application/json");
  CHECK(webdata::find_header(headers, "RETRY-AFTER") == "3");
  CHECK_FALSE(webdata::find_header(headers, "x-missing").has_value());
}
