// The mock's own health endpoint (docs/mockserver.md); skipped against other targets.

#include "support.hpp"

using namespace webdata::conformance;

TEST_CASE("mock health endpoint answers JSON",
          "[mock-only][health]"
          "[MOCK-HEALTH]") {
  RULE(rules::kMockHealth);
  REQUIRE_MOCK();
  const auto res = get("/health", Auth::kNone);
  INFO(res.describe());
  CHECK(res.status == 200);
  CHECK(res.header("Content-Type").rfind("application/json", 0) == 0);
  REQUIRE(res.is_json());
  CHECK(res.body_json.value("status", "") == "ok");
}
