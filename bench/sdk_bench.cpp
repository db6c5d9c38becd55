// SDK benchmark against a running webdata-mock (bench/run.sh starts it with --page-pacing 0).
//
//   sdk_bench prepare  --api URL --key K [--site HOST] [--limit 100000]
//       starts a crawl through the SDK, waits for it, prints `result: job=ID`
//   sdk_bench iterate  --api URL --key K --job ID
//       walks every document through Job::documents() in a fresh process and reports this
//       process's peak RSS (VmHWM) against the size of the largest chunk
//   sdk_bench overhead --api URL --key K [--page URL] [--calls 3000]
//       the same POST /v2/scrape through the SDK and through a bare libcurl handle,
//       interleaved in blocks; per-call medians and the SDK's overhead
//   sdk_bench parse    --api URL --key K --job ID
//       one 10 MB status chunk parsed by the SDK (JSON -> typed JobStatus), and by
//       nlohmann::json alone, in MB/s
//
// Lines starting with `result:` are read by bench/run.sh.

#include <webdata/webdata.hpp>

#include <nlohmann/json.hpp>

#include <iostream>

#include "bench_util.hpp"

using namespace webdata::bench;

namespace {

webdata::Client make_client(const std::string& api, const std::string& key) {
  webdata::ClientOptions options;
  options.api_url = api;
  options.api_key = key;
  options.timeout = std::chrono::minutes(5);
  return webdata::Client(options);
}

double kib_to_mib(std::int64_t kib) { return static_cast<double>(kib) / 1024.0; }

int prepare(const std::string& api, const std::string& key, int argc, char** argv) {
  const std::string site = arg(argc, argv, "--site", "pages-100000.fanout-10.synthetic.test");
  const int limit = std::stoi(arg(argc, argv, "--limit", "100000"));
  const auto client = make_client(api, key);
  webdata::CrawlRequest request;
  request.url = "https://" + site + "/";
  request.limit = limit;
  request.scrape_options = webdata::ScrapeOptions{};
  request.scrape_options->formats = {"markdown"};
  const auto start = Clock::now();
  const webdata::CrawlJob job = client.start_crawl(request).value();
  webdata::PollingPolicy policy;
  policy.interval = std::chrono::milliseconds(250);
  const webdata::JobStatus done = job.poll_until_done(policy).value();
  if (done.status != webdata::JobState::completed()) {
    std::cerr << "sdk_bench: crawl ended " << done.status.value() << "\n";
    return 1;
  }
  std::cout << "result: job=" << job.id() << "\nresult: job_pages=" << done.completed
            << "\nresult: job_seconds=" << fmt("%.1f", seconds_since(start)) << "\n";
  return 0;
}

int iterate(const std::string& api, const std::string& key, const std::string& id) {
  const auto client = make_client(api, key);
  const std::int64_t before_kib = proc_status_kib("self", "VmRSS");
  std::size_t documents = 0;
  std::size_t markdown_bytes = 0;
  const auto start = Clock::now();
  for (auto& doc : client.crawl_job(id).documents()) {
    if (!doc.ok()) {
      std::cerr << "sdk_bench: " << doc.error().describe() << "\n";
      return 1;
    }
    ++documents;
    markdown_bytes += doc->markdown ? doc->markdown->size() : 0;
  }
  const double seconds = seconds_since(start);
  const std::int64_t hwm_kib = proc_status_kib("self", "VmHWM");

  // The chunk sizes, measured after the peak was read so they do not count in it.
  RawHttp http;
  http.set_headers({"Authorization: Bearer " + key});
  std::size_t largest = 0;
  std::size_t chunks = 0;
  std::string next = api + "/v2/crawl/" + id;
  while (!next.empty()) {
    auto r = http.get(next);
    ++chunks;
    largest = std::max(largest, r.body.size());
    const auto body = nlohmann::json::parse(r.body);
    next = body.contains("next") ? body.at("next").get<std::string>() : "";
  }
  const double largest_mib = mib(static_cast<double>(largest));
  std::cout << "result: sdk_documents=" << documents
            << "\nresult: sdk_iterate_s=" << fmt("%.2f", seconds)
            << "\nresult: sdk_docs_per_s=" << fmt("%.0f", static_cast<double>(documents) / seconds)
            << "\nresult: sdk_markdown_mib=" << fmt("%.1f", mib(static_cast<double>(markdown_bytes)))
            << "\nresult: sdk_chunks=" << chunks
            << "\nresult: sdk_chunk_mib=" << fmt("%.2f", largest_mib)
            << "\nresult: sdk_rss_before_mib=" << fmt("%.1f", kib_to_mib(before_kib))
            << "\nresult: sdk_hwm_mib=" << fmt("%.1f", kib_to_mib(hwm_kib))
            << "\nresult: sdk_hwm_growth_mib=" << fmt("%.1f", kib_to_mib(hwm_kib - before_kib))
            << "\nresult: sdk_hwm_over_chunk=" << fmt("%.2f", kib_to_mib(hwm_kib) / largest_mib)
            << "\nresult: sdk_growth_over_chunk="
            << fmt("%.2f", kib_to_mib(hwm_kib - before_kib) / largest_mib) << "\n";
  return 0;
}

int overhead(const std::string& api, const std::string& key, int argc, char** argv) {
  const std::string page =
      arg(argc, argv, "--page", "https://docs.example.test/getting-started/quickstart");
  const int calls = std::stoi(arg(argc, argv, "--calls", "3000"));
  const int block = 100;

  const auto client = make_client(api, key);
  webdata::ScrapeRequest request;
  request.url = page;
  request.formats = {"markdown"};
  // The raw call sends exactly the SDK's body.
  const std::string body = webdata::to_json(request).text();

  RawHttp http;
  http.set_headers({"Authorization: Bearer " + key, "Content-Type: application/json",
                    "Accept: application/json"});
  const std::string url = api + "/v2/scrape";

  std::vector<double> raw_us, sdk_us;
  std::size_t raw_bytes = 0;
  std::size_t sdk_bytes = 0;
  for (int i = 0; i < 200; ++i) {  // warm-up: connections, the mock's page cache, allocators
    http.post(url, body);
    client.scrape(request).value();
  }
  for (int done = 0; done < calls; done += block) {
    for (int i = 0; i < block; ++i) {
      const auto start = Clock::now();
      const auto r = http.post(url, body);
      raw_us.push_back(seconds_since(start) * 1e6);
      if (r.status != 200) throw std::runtime_error("raw scrape answered " + std::to_string(r.status));
      raw_bytes = r.body.size();
    }
    for (int i = 0; i < block; ++i) {
      const auto start = Clock::now();
      const auto doc = client.scrape(request);
      sdk_us.push_back(seconds_since(start) * 1e6);
      if (!doc.ok()) throw std::runtime_error(doc.error().describe());
      sdk_bytes = doc->markdown ? doc->markdown->size() : 0;
    }
  }
  const double raw = median(raw_us);
  const double sdk = median(sdk_us);
  std::cout << "result: overhead_calls=" << raw_us.size()
            << "\nresult: overhead_response_bytes=" << raw_bytes
            << "\nresult: overhead_markdown_bytes=" << sdk_bytes
            << "\nresult: raw_us_median=" << fmt("%.1f", raw)
            << "\nresult: sdk_us_median=" << fmt("%.1f", sdk)
            << "\nresult: raw_us_p99=" << fmt("%.1f", percentile(raw_us, 99))
            << "\nresult: sdk_us_p99=" << fmt("%.1f", percentile(sdk_us, 99))
            << "\nresult: sdk_overhead_pct=" << fmt("%.1f", (sdk - raw) / raw * 100) << "\n";
  return 0;
}

int parse(const std::string& api, const std::string& key, const std::string& id) {
  RawHttp http;
  http.set_headers({"Authorization: Bearer " + key});
  const std::string text = http.get(api + "/v2/crawl/" + id).body;
  const double mb = static_cast<double>(text.size()) / 1e6;

  auto rate = [&](auto&& once) {
    std::vector<double> rates;
    for (int round = 0; round < 5; ++round) {
      const auto start = Clock::now();
      once();
      rates.push_back(mb / seconds_since(start));
    }
    return median(rates);
  };
  std::size_t docs = 0;
  const double sdk = rate([&] {
    auto status = webdata::from_json<webdata::JobStatus>(text);
    if (!status.ok()) throw std::runtime_error(status.error().describe());
    docs = status->data.size();
  });
  const double dom = rate([&] {
    auto tree = nlohmann::json::parse(text, nullptr, false);
    if (tree.is_discarded()) throw std::runtime_error("chunk is not JSON");
  });
  const double sax = rate([&] {
    if (!nlohmann::json::accept(text)) throw std::runtime_error("chunk is not JSON");
  });
  std::cout << "result: parse_chunk_mb=" << fmt("%.2f", mb) << "\nresult: parse_chunk_docs=" << docs
            << "\nresult: parse_sdk_mb_s=" << fmt("%.1f", sdk)
            << "\nresult: parse_nlohmann_dom_mb_s=" << fmt("%.1f", dom)
            << "\nresult: parse_nlohmann_accept_mb_s=" << fmt("%.1f", sax) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: sdk_bench prepare|iterate|overhead|parse --api URL --key K ...\n";
    return 2;
  }
  const std::string command = argv[1];
  const std::string api = arg(argc, argv, "--api", "http://127.0.0.1:3002");
  const std::string key = arg(argc, argv, "--key", "test-key");
  try {
    if (command == "prepare") return prepare(api, key, argc, argv);
    if (command == "iterate") return iterate(api, key, arg(argc, argv, "--job"));
    if (command == "overhead") return overhead(api, key, argc, argv);
    if (command == "parse") return parse(api, key, arg(argc, argv, "--job"));
  } catch (const std::exception& e) {
    std::cerr << "sdk_bench " << command << ": " << e.what() << "\n";
    return 1;
  }
  std::cerr << "sdk_bench: unknown command " << command << "\n";
  return 2;
}
