// Exchange over real HTTP: the mock's teams have no Exchange (the Alexandria tool catalogue), so
// GET /exchange/discover and a v2 search asking for Exchange tools answer as the service does for
// such a team; a search that leaves Exchange out is unchanged by the Exchange options.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_client.hpp"
#include "mock_fixture.hpp"

using webdata::testing::ApiClient;
using webdata::testing::RunningMock;
using json = nlohmann::json;

namespace {

constexpr const char* kNotEnabled = "Exchange is not enabled for this team.";

}  // namespace

TEST_CASE("exchange: discover answers 403 for a team without Exchange", "[exchange]") {
  RunningMock mock;
  const ApiClient api(mock.url(), "test-key");
  const auto r = api.get("/exchange/discover");
  CHECK(r.status == 403);
  CHECK(r.body["success"] == false);
  CHECK(r.body["error"] == kNotEnabled);
  // Authentication comes first, as on every API route.
  CHECK(ApiClient(mock.url(), "").get("/exchange/discover").status == 401);
}

TEST_CASE("exchange: a v2 search asking for Exchange tools is refused with 403", "[exchange]") {
  RunningMock mock;
  const ApiClient api(mock.url(), "test-key");
  for (const json& body :
       {json{{"query", "kettle"}, {"sources", {"web", "alexandria"}}},
        json{{"query", "kettle"}, {"sources", {{{"type", "alexandria"}}}}},
        json{{"query", "kettle"}, {"domainTools", true}, {"toolDetail", "full"}}}) {
    const auto r = api.post("/v2/search", body);
    CHECK(r.status == 403);
    CHECK(r.body["error"] == kNotEnabled);
  }
}

TEST_CASE("exchange: search options that leave Exchange out search the web", "[exchange]") {
  RunningMock mock;
  const ApiClient api(mock.url(), "test-key");
  const auto r = api.post("/v2/search", {{"query", "kettle"},
                                         {"sources", {"web"}},
                                         {"domainTools", false},
                                         {"toolDetail", "compact"}});
  CHECK(r.status == 200);
  CHECK(r.body["data"]["web"].is_array());
  const auto bad = api.post("/v2/search", {{"query", "kettle"}, {"toolDetail", "everything"}});
  CHECK(bad.status == 400);
}
