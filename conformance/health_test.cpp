#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "target.hpp"
#include "webdata/transport.hpp"

using webdata::conformance::target;

TEST_CASE("mock health endpoint answers JSON", "[mock-only][health]") {
  if (!target().is_mock) CONFORMANCE_SKIP("/health is part of the mock only");
  auto transport = webdata::make_curl_transport();
  webdata::HttpRequest req;
  req.url = target().base_url + "/health";
  auto res = transport->send(req);
  REQUIRE(res.ok());
  CHECK(res->status == 200);
  CHECK(res->header("Content-Type") == "application/json");
  const auto body = nlohmann::json::parse(res->body, nullptr, false);
  REQUIRE_FALSE(body.is_discarded());
  CHECK(body.value("status", "") == "ok");
}
