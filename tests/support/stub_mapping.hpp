#pragma once
// A WireMock mapping for one page of the virtual web, as tests post it to /__admin/mappings.

#include <string>

#include <nlohmann/json.hpp>

namespace webdata::testing {

inline nlohmann::json page_stub(const std::string& host, const std::string& path,
                                const std::string& body, int status = 200,
                                const std::string& content_type = "text/html") {
  return {{"request", {{"method", "GET"}, {"host", {{"equalTo", host}}}, {"urlPath", path}}},
          {"response",
           {{"status", status}, {"headers", {{"Content-Type", content_type}}}, {"body", body}}}};
}

}  // namespace webdata::testing
