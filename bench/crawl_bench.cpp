// Crawl benchmark: a synthetic site crawled by webdata-mock (run with --page-pacing 0), from the
// POST to the first status that says `completed`, then every chunk of the result paged through.
//
//   crawl_bench --api http://127.0.0.1:PORT --key test-key --mock-pid PID
//               [--site pages-10000.fanout-10.synthetic.test] [--limit 10000] [--runs 3]
//
// Prints a markdown section; the lines starting with `result:` are read by bench/run.sh.

#include <nlohmann/json.hpp>

#include <iostream>
#include <thread>

#include "bench_util.hpp"

using nlohmann::json;
using namespace webdata::bench;

namespace {

struct Run {
  double crawl_seconds = 0;
  std::int64_t pages = 0;
  std::vector<double> chunk_ms;
  std::vector<std::size_t> chunk_bytes;
  std::vector<std::size_t> chunk_docs;
  std::int64_t mock_hwm_kib = 0;
  int polls = 0;
};

Run crawl_once(RawHttp& http, const std::string& api, const std::string& site, long limit,
               const std::string& mock_pid) {
  Run run;
  const json request = {{"url", "https://" + site + "/"},
                        {"limit", limit},
                        {"scrapeOptions", {{"formats", {"markdown"}}}}};
  const auto start = Clock::now();
  const auto started = http.post(api + "/v2/crawl", request.dump());
  if (started.status != 200) {
    throw std::runtime_error("POST /v2/crawl answered " + std::to_string(started.status) + ": " +
                             started.body);
  }
  const std::string id = json::parse(started.body).at("id").get<std::string>();
  const std::string status_url = api + "/v2/crawl/" + id;
  for (;;) {
    const auto st = http.get(status_url + "?limit=1");
    ++run.polls;
    const json body = json::parse(st.body);
    const std::string state = body.value("status", "");
    if (state == "completed") {
      run.pages = body.value("completed", 0LL);
      break;
    }
    if (state != "scraping") throw std::runtime_error("crawl ended " + state + ": " + st.body);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  run.crawl_seconds = seconds_since(start);

  std::string next = status_url;
  // Reused and written once up front: a fresh 10 MB buffer's page faults (reserve() alone maps
  // nothing) are the client's cost, not the server's, and made the first chunk look slow.
  static std::string buffer;
  if (buffer.capacity() < (std::size_t{12} << 20)) {
    buffer.resize(std::size_t{12} << 20);
    buffer.clear();
  }
  while (!next.empty()) {
    double seconds = 0;
    const long status = http.get_into(next, buffer, seconds);
    if (status != 200) throw std::runtime_error("chunk answered " + std::to_string(status));
    run.chunk_ms.push_back(seconds * 1000);
    run.chunk_bytes.push_back(buffer.size());
    const json body = json::parse(buffer);
    run.chunk_docs.push_back(body.at("data").size());
    next = body.contains("next") && body.at("next").is_string() ? body.at("next").get<std::string>()
                                                                  : "";
  }
  run.mock_hwm_kib = proc_status_kib(mock_pid, "VmHWM");
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string api = arg(argc, argv, "--api", "http://127.0.0.1:3002");
    const std::string key = arg(argc, argv, "--key", "test-key");
    const std::string mock_pid = arg(argc, argv, "--mock-pid", "");
    const std::string site = arg(argc, argv, "--site", "pages-10000.fanout-10.synthetic.test");
    const long limit = std::stol(arg(argc, argv, "--limit", "10000"));
    const int runs = std::stoi(arg(argc, argv, "--runs", "3"));

    RawHttp http;
    http.set_headers({"Authorization: Bearer " + key, "Content-Type: application/json"});
    const std::int64_t idle_kib = proc_status_kib(mock_pid, "VmRSS");

    std::vector<double> crawl_s, rates, worst_chunk, median_chunk;
    std::cout << "| run | pages | crawl s | pages/s | chunks | chunk ms (median / max) | "
                 "largest chunk | mock VmHWM |\n|---|---|---|---|---|---|---|---|\n";
    for (int i = 1; i <= runs; ++i) {
      const Run r = crawl_once(http, api, site, limit, mock_pid);
      const double rate = static_cast<double>(r.pages) / r.crawl_seconds;
      crawl_s.push_back(r.crawl_seconds);
      rates.push_back(rate);
      worst_chunk.push_back(max_of(r.chunk_ms));
      median_chunk.push_back(median(r.chunk_ms));
      const std::size_t largest = *std::max_element(r.chunk_bytes.begin(), r.chunk_bytes.end());
      std::cout << "| " << i << " | " << r.pages << " | " << fmt("%.2f", r.crawl_seconds) << " | "
                << fmt("%.0f", rate) << " | " << r.chunk_ms.size() << " | "
                << fmt("%.1f", median(r.chunk_ms)) << " / " << fmt("%.1f", max_of(r.chunk_ms))
                << " | " << fmt("%.1f MiB", mib(static_cast<double>(largest))) << " | "
                << fmt("%.0f MiB", static_cast<double>(r.mock_hwm_kib) / 1024) << " |\n";
      if (i == 1) {
        std::cout << "\nresult: first_run_hwm_mib="
                  << fmt("%.0f", static_cast<double>(r.mock_hwm_kib) / 1024) << "\n\n";
      }
    }
    std::cout << "\nresult: idle_rss_mib=" << fmt("%.0f", static_cast<double>(idle_kib) / 1024)
              << "\nresult: crawl_s=" << fmt("%.3f", median(crawl_s))
              << "\nresult: pages_per_s=" << fmt("%.0f", median(rates))
              << "\nresult: chunk_median_ms=" << fmt("%.1f", median(median_chunk))
              << "\nresult: chunk_max_ms=" << fmt("%.1f", max_of(worst_chunk))
              << "\nresult: final_hwm_mib="
              << fmt("%.0f", static_cast<double>(proc_status_kib(mock_pid, "VmHWM")) / 1024)
              << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "crawl_bench: " << e.what() << "\n";
    return 1;
  }
}
