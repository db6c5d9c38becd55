#pragma once

// Shared pieces of the search and agent HTTP tests.

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <webdata/contract/schemas.hpp>

#include "api_client.hpp"
#include "eventually.hpp"
#include "mock_fixture.hpp"

namespace search_test {

using json = nlohmann::json;
using webdata::testing::ApiClient;
using webdata::testing::ApiReply;
using webdata::testing::RunningMock;

inline const std::string kBridge = "https://news.example.test/2026/11/harbour-bridge-reopens";
inline const std::string kRiver = "https://news.example.test/2026/10/river-levels-record-low";
inline const std::string kSolar = "https://news.example.test/2026/06/solar-farm-opens";
inline const std::string kLibrary = "https://news.example.test/2025/12/library-extends-hours";
inline const std::string kTram = "https://news.example.test/2026/09/neue-strassenbahnlinie";
inline const std::string kReport =
    "https://news.example.test/reports/annual-energy-report-2026.pdf";
inline const std::string kRepo = "https://github.example.test/harbour-city/tide-tables";
inline const std::string kIssue = "https://github.example.test/harbour-city/tide-tables/issues/12";
inline const std::string kPaper = "https://arxiv.example.test/abs/2611.04021";

/// One mock for the tests that only read (the index is built once).
inline RunningMock& shared_mock() {
  static RunningMock mock;
  return mock;
}

inline ApiClient shared_api() {
  return ApiClient(shared_mock().url());
}

/// Fails the test when `body` does not validate against the named response schema.
inline void require_schema(const std::string& schema, const json& body) {
  const auto issues = webdata::contract::SchemaSet::embedded().validate(schema, body);
  std::string text;
  for (const auto& issue : issues) text += issue.to_json().dump() + "\n";
  INFO(schema << ": " << text << body.dump(2).substr(0, 2000));
  REQUIRE(issues.empty());
}

/// POST /v2/search that must succeed (200, schema-valid); returns the body.
/// GET /v2/agent/{id}, answered 200 and schema-checked.
inline json agent_status(const ApiClient& api, const std::string& id) {
  const ApiReply reply = api.get("/v2/agent/" + id);
  INFO(reply.status << " " << reply.text.substr(0, 2000));
  REQUIRE(reply.status == 200);
  require_schema("v2/agent-status.response", reply.body);
  return reply.body;
}

/// Polls an agent run until it leaves `processing` (at most 20 s).
inline json wait_agent_end(const ApiClient& api, const std::string& id) {
  json body;
  REQUIRE(webdata::testing::eventually([&] {
    body = agent_status(api, id);
    return body["status"] != "processing";
  }));
  return body;
}

inline json search(const ApiClient& api, json request, const std::string& version = "v2") {
  const ApiReply reply = api.post("/" + version + "/search", request);
  INFO(request.dump() << " -> " << reply.status << " " << reply.text.substr(0, 2000));
  REQUIRE(reply.status == 200);
  require_schema(version + "/search.response", reply.body);
  REQUIRE(reply.body["success"] == true);
  return reply.body;
}

/// The `url`s of a result array, in order.
inline std::vector<std::string> urls(const json& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.at("url").get<std::string>());
  return out;
}

inline bool has(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

inline std::string host_of(const std::string& url) {
  const auto start = url.find("://") + 3;
  return url.substr(start, url.find('/', start) - start);
}

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::int64_t balance(const ApiClient& api) {
  return api.get("/__admin/settings").body["creditBalances"]["team-1"].get<std::int64_t>();
}

}  // namespace search_test
