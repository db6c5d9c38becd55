// Checks that a webdata-mock (or any deployment) answers at its address: GET /health, which a
// deployment without that route answers with a 404 (it answers, so it is up).
//
//   health_check [BASE_URL]      default: $WEBDATA_API_URL or http://127.0.0.1:3002
#include <cstdlib>
#include <iostream>

#include <webdata/webdata.hpp>

int main(int argc, char** argv) {
  std::string base = argc > 1 ? argv[1] : "";
  if (base.empty()) {
    const char* env = std::getenv("WEBDATA_API_URL");
    base = env != nullptr && *env != '\0' ? env : "http://127.0.0.1:3002";
  }
  auto transport = webdata::make_curl_transport();
  webdata::HttpRequest request;
  request.url = base + "/health";
  request.timeout = std::chrono::seconds(5);
  auto response = transport->send(request);
  if (!response.ok()) {
    std::cerr << "health check failed: " << response.error().describe() << "\n";
    return 1;
  }
  if (auto line = webdata::describe_non_json_answer("GET", request.url, *response);
      line && response->status == 404) {
    std::cout << base << " answers; " << *line << "\n";
    return 0;
  }
  std::cout << "GET " << request.url << " -> " << response->status << " "
            << response->body.substr(0, 200) << "\n";
  return response->status == 200 ? 0 : 1;
}
