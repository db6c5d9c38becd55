// Map benchmark: POST /v2/map of a 10,000-page synthetic site (every page, from its sitemap and
// the links of the first pages) against an in-process mock, timed over HTTP with bare libcurl.
// The goal (issue 20): under 1 s per map. Run on demand, never as a test:
//
//   map_bench [--rounds 5] [--pages 10000]
//
// Prints `result:` lines like the other benchmarks, and `goal: met|missed`.

#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/mock_server.hpp"
#include "bench_util.hpp"

using namespace webdata::bench;

int main(int argc, char** argv) {
  const int rounds = std::stoi(arg(argc, argv, "--rounds", "5"));
  const std::string pages = arg(argc, argv, "--pages", "10000");
  webdata::mock::Config config;
  config.server.port = 0;
  config.server.access_log = false;
  std::ostringstream log;
  webdata::mock::MockServer server(config, log);
  server.start();

  RawHttp http;
  http.set_headers({"Authorization: Bearer test-key", "Content-Type: application/json"});
  const std::string url = "https://pages-" + pages + ".fanout-10.synthetic.test/";
  const std::string body = nlohmann::json{{"url", url}, {"limit", 100000}}.dump();
  std::vector<double> seconds;
  std::size_t links = 0;
  for (int i = 0; i < rounds; ++i) {
    const auto start = Clock::now();
    const auto response = http.post(server.base_url() + "/v2/map", body);
    seconds.push_back(seconds_since(start));
    if (response.status != 200) {
      std::cerr << "map_bench: HTTP " << response.status << ": " << response.body.substr(0, 300)
                << "\n";
      return 1;
    }
    links = nlohmann::json::parse(response.body).at("links").size();
  }
  server.stop();
  std::cout << "result: map.links " << links << "\n"
            << "result: map.first_s " << fmt("%.3f", seconds.front()) << "\n"
            << "result: map.median_s " << fmt("%.3f", median(seconds)) << "\n"
            << "result: map.max_s " << fmt("%.3f", max_of(seconds)) << "\n"
            << "goal: " << (max_of(seconds) < 1.0 ? "met" : "missed")
            << " (every map of the " << pages << "-page site under 1 s)\n";
  return 0;
}
