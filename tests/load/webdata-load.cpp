// webdata-load: mixed traffic against the mock at N keep-alive connections for a bounded time,
// then checks what must hold under load: no 5xx, no dropped connection, every job terminal, every
// job's webhooks delivered ending with exactly one terminal event, and memory back to its level
// after a reset (no leak across rounds).
//
//   webdata-load [--seconds 60] [--connections 64] [--rounds 2] [--url http://127.0.0.1:3002]
//
// Without --url it starts a mock in-process on a free loopback port (bundled virtual web, admin
// on, small chunks so status polls page). With --url the target must be a loopback mock started
// with --admin and the bundled fixtures. Webhooks go to a receiver in this process. Exit 0 when
// every check passed, 1 otherwise, 2 for bad arguments.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "app/mock_server.hpp"
#include "webhook_receiver.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Receiver = webdata::mock::webhooks::testing::Receiver;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

struct Options {
  int seconds = 60;
  int connections = 64;
  int rounds = 2;
  std::string url;
};

struct Stats {
  std::mutex mutex;
  std::map<int, long> by_status;
  std::map<std::string, long> by_op;
  long requests = 0;
  std::atomic<long> dropped{0};
  std::vector<std::string> problems;

  void count(const std::string& op, int status) {
    std::lock_guard<std::mutex> lock(mutex);
    ++requests;
    ++by_status[status];
    ++by_op[op];
  }
  void problem(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    if (problems.size() < 20) problems.push_back(text);
  }
};

struct Job {
  std::string id;
  std::string resource;  // "crawl" or "batch/scrape"
  bool webhook = false;
};

class Jobs {
 public:
  void add(Job job) {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  std::optional<Job> pick(std::mt19937& rng) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (jobs_.empty()) return std::nullopt;
    // Mostly recent jobs: those are the ones still running.
    const std::size_t n = jobs_.size();
    const std::size_t window = std::min<std::size_t>(n, 64);
    return jobs_[n - 1 - std::uniform_int_distribution<std::size_t>(0, window - 1)(rng)];
  }
  std::vector<Job> all() {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<Job> jobs_;
};

struct Reply {
  int status = 0;
  json body;
};

/// One keep-alive connection; a connection the server closes without saying so is "dropped".
class Connection {
 public:
  Connection(std::string host, unsigned short port, std::string key, Stats& stats)
      : host_(std::move(host)), port_(port), key_(std::move(key)), stats_(stats) {}

  std::optional<Reply> call(const std::string& op, const std::string& method,
                            const std::string& target, const json& body = nullptr) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      beast::error_code ec;
      if (!stream_) {
        stream_ = std::make_unique<beast::tcp_stream>(ioc_);
        stream_->connect(tcp::endpoint(net::ip::make_address(host_), port_), ec);
        if (ec) {
          stats_.problem("connect failed: " + ec.message());
          ++stats_.dropped;
          stream_.reset();
          return std::nullopt;
        }
      }
      bhttp::request<bhttp::string_body> req{
          method == "POST" ? bhttp::verb::post : method == "DELETE" ? bhttp::verb::delete_ : bhttp::verb::get,
          target, 11};
      req.set(bhttp::field::host, host_ + ":" + std::to_string(port_));
      req.set(bhttp::field::authorization, "Bearer " + key_);
      if (!body.is_null()) {
        req.set(bhttp::field::content_type, "application/json");
        req.body() = body.dump();
      }
      req.prepare_payload();
      stream_->expires_after(std::chrono::seconds(120));
      bhttp::write(*stream_, req, ec);
      beast::flat_buffer buffer;
      bhttp::response<bhttp::string_body> res;
      if (!ec) bhttp::read(*stream_, buffer, res, ec);
      if (ec) {
        // A keep-alive connection closed between requests by the server's idle timeout would
        // be legitimate only after 30 s of silence, which this tool never leaves; count it.
        stats_.problem(op + " " + target + ": connection lost: " + ec.message());
        ++stats_.dropped;
        stream_.reset();
        continue;
      }
      Reply reply;
      reply.status = static_cast<int>(res.result_int());
      reply.body = json::parse(res.body(), nullptr, false);
      if (reply.body.is_discarded()) reply.body = nullptr;
      stats_.count(op, reply.status);
      if (reply.status >= 500) {
        stats_.problem(op + " " + target + " -> " + std::to_string(reply.status) + " " +
                       res.body().substr(0, 200));
      }
      if (!res.keep_alive()) stream_.reset();
      return reply;
    }
    return std::nullopt;
  }

 private:
  std::string host_;
  unsigned short port_;
  std::string key_;
  Stats& stats_;
  net::io_context ioc_;
  std::unique_ptr<beast::tcp_stream> stream_;
};

long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

const std::vector<std::string> kPages = {
    "https://docs.example.test/",
    "https://docs.example.test/getting-started/quickstart",
    "https://docs.example.test/concepts/pipelines",
    "https://docs.example.test/reference/cli",
    "https://blog.example.test/",
    "https://shop.example.test/",
    "https://docs.example.test/no-such-page",  // a 404 page is a document, not an error
};

/// One worker: a connection and a random mix of operations until `until`.
void worker(int index, const std::string& host, unsigned short port, const std::string& hook,
            Clock::time_point until, Stats& stats, Jobs& jobs) {
  std::mt19937 rng(static_cast<unsigned>(index * 7919 + 1));
  Connection conn(host, port, "test-key", stats);
  std::uniform_int_distribution<int> percent(0, 99);
  std::uniform_int_distribution<std::size_t> page(0, kPages.size() - 1);
  while (Clock::now() < until) {
    const int roll = percent(rng);
    if (roll < 35) {
      json body = {{"url", kPages[page(rng)]}, {"formats", {"markdown", "links"}}};
      if (roll % 3 == 0) body["maxAge"] = 0;
      conn.call("scrape", "POST", roll % 2 ? "/v2/scrape" : "/v1/scrape", body);
    } else if (roll < 40) {
      const bool with_hook = roll % 2 == 0;
      json body = {{"url", "https://docs.example.test/"}, {"limit", 4}};
      if (with_hook) body["webhook"] = {{"url", hook}, {"metadata", {{"worker", std::to_string(index)}}}};
      const auto r = conn.call("crawl", "POST", "/v2/crawl", body);
      if (r && r->status == 200 && r->body.contains("id")) {
        jobs.add({r->body["id"].get<std::string>(), "crawl", with_hook});
      }
    } else if (roll < 43) {
      json body = {{"urls", {kPages[page(rng)], kPages[page(rng)], "not a url"}}};
      body["webhook"] = hook;
      const auto r = conn.call("batch", "POST", "/v2/batch/scrape", body);
      if (r && r->status == 200 && r->body.contains("id")) {
        jobs.add({r->body["id"].get<std::string>(), "batch/scrape", true});
      }
    } else if (roll < 80) {
      const auto job = jobs.pick(rng);
      if (!job) continue;
      // Status with paging: follow `next` (rewritten to this connection) a few chunks.
      std::string target = "/v2/" + job->resource + "/" + job->id + "?limit=2";
      for (int chunk = 0; chunk < 4 && !target.empty(); ++chunk) {
        const auto r = conn.call("status", "GET", target);
        if (!r || r->status != 200) break;
        target.clear();
        if (r->body.contains("next") && r->body["next"].is_string()) {
          const std::string next = r->body["next"];
          const auto pos = next.find("/v2/");
          if (pos != std::string::npos) target = next.substr(pos);
        }
      }
    } else if (roll < 85) {
      const auto job = jobs.pick(rng);
      if (!job) continue;
      const auto r = conn.call("cancel", "DELETE", "/v2/" + job->resource + "/" + job->id);
      if (r && r->status != 200 && r->status != 409) {
        stats.problem("cancel answered " + std::to_string(r->status));
      }
    } else if (roll < 90) {
      const auto job = jobs.pick(rng);
      if (!job) continue;
      conn.call("errors", "GET", "/v2/" + job->resource + "/" + job->id + "/errors");
    } else if (roll < 95) {
      conn.call("active", "GET", "/v2/crawl/active");
    } else {
      conn.call("health", "GET", "/health");
    }
  }
}

struct RoundResult {
  bool ok = true;
  long rss_after_reset_kib = 0;
};

RoundResult run_round(int round, const Options& options, const std::string& host,
                      unsigned short port, Receiver& receiver) {
  RoundResult result;
  Stats stats;
  Jobs jobs;
  const std::string hook = receiver.url("/hook");
  const auto start = Clock::now();
  const auto until = start + std::chrono::seconds(options.seconds);
  std::vector<std::thread> threads;
  for (int i = 0; i < options.connections; ++i) {
    threads.emplace_back(worker, i + round * 1000, host, port, hook, until, std::ref(stats),
                         std::ref(jobs));
  }
  for (auto& t : threads) t.join();
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();

  // Every job reaches a terminal state (bounded wait).
  Connection conn(host, port, "test-key", stats);
  const auto all = jobs.all();
  std::map<std::string, std::string> final_state;
  const auto settle_until = Clock::now() + std::chrono::seconds(300);
  for (const auto& job : all) {
    for (;;) {
      const auto r = conn.call("final", "GET", "/v2/" + job.resource + "/" + job.id + "?limit=1");
      const std::string state =
          r && r->body.is_object() ? r->body.value("status", "?") : std::string("?");
      if (state != "scraping" || Clock::now() > settle_until) {
        final_state[job.id] = state;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  int not_terminal = 0;
  for (const auto& [id, state] : final_state) {
    if (state != "completed" && state != "failed" && state != "cancelled") {
      ++not_terminal;
      stats.problem("job " + id + " ended in state '" + state + "'");
    }
  }

  // Every webhook job's events arrive, ending with exactly one completed/failed event.
  std::set<std::string> hooked;
  for (const auto& job : all) {
    if (job.webhook) hooked.insert(job.id);
  }
  std::map<std::string, int> terminal_events;
  const auto hooks_until = Clock::now() + std::chrono::seconds(120);
  for (;;) {
    terminal_events.clear();
    for (const auto& request : receiver.requests()) {
      const auto body = json::parse(request.body, nullptr, false);
      if (!body.is_object()) continue;
      const std::string type = body.value("type", "");
      const std::string id = body.value("id", "");
      const bool terminal = type.size() > 10 && (type.substr(type.size() - 10) == ".completed" ||
                                                 type.substr(type.size() - 7) == ".failed");
      if (terminal && hooked.count(id) != 0) ++terminal_events[id];
    }
    if (terminal_events.size() == hooked.size() || Clock::now() > hooks_until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  int undelivered = 0;
  for (const auto& id : hooked) {
    const int n = terminal_events.count(id) ? terminal_events[id] : 0;
    if (n != 1) {
      ++undelivered;
      stats.problem("job " + id + ": " + std::to_string(n) + " terminal webhook events");
    }
  }

  long errors_5xx = 0;
  for (const auto& [status, n] : stats.by_status) {
    if (status >= 500) errors_5xx += n;
  }
  const long rss_before_reset = rss_kib();
  // Back to the start state: jobs, cache, journal and webhook log freed.
  conn.call("reset", "POST", "/__admin/reset");
  malloc_trim(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  result.rss_after_reset_kib = rss_kib();

  std::printf("round %d: %.1f s, %d connections, %ld requests (%.0f/s), %zu jobs (%zu with webhooks), "
              "%zu webhook requests\n",
              round, secs, options.connections, stats.requests, stats.requests / secs, all.size(),
              hooked.size(), receiver.requests().size());
  std::printf("  by operation:");
  for (const auto& [op, n] : stats.by_op) std::printf(" %s=%ld", op.c_str(), n);
  std::printf("\n  by status:");
  for (const auto& [status, n] : stats.by_status) std::printf(" %d=%ld", status, n);
  std::printf("\n  5xx=%ld dropped=%ld not-terminal=%d webhooks-missing=%d rss: %ld MiB before "
              "reset, %ld MiB after\n",
              errors_5xx, stats.dropped.load(), not_terminal, undelivered, rss_before_reset / 1024,
              result.rss_after_reset_kib / 1024);
  for (const auto& p : stats.problems) std::printf("  problem: %s\n", p.c_str());
  result.ok = errors_5xx == 0 && stats.dropped == 0 && not_terminal == 0 && undelivered == 0 &&
              stats.requests > 0 && !all.empty();
  return result;
}

int usage(const char* why) {
  std::fprintf(stderr, "webdata-load: %s\nusage: webdata-load [--seconds N] [--connections N] "
                       "[--rounds N] [--url http://127.0.0.1:PORT]\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](int& out, int lo, int hi) {
      if (i + 1 >= argc) return false;
      out = std::atoi(argv[++i]);
      return out >= lo && out <= hi;
    };
    if (arg == "--seconds") {
      if (!value(options.seconds, 1, 3600)) return usage("--seconds: 1..3600");
    } else if (arg == "--connections") {
      if (!value(options.connections, 1, 512)) return usage("--connections: 1..512");
    } else if (arg == "--rounds") {
      if (!value(options.rounds, 1, 10)) return usage("--rounds: 1..10");
    } else if (arg == "--url" && i + 1 < argc) {
      options.url = argv[++i];
    } else {
      return usage(("unknown argument " + arg).c_str());
    }
  }

  std::ostringstream mock_log;
  std::unique_ptr<webdata::mock::MockServer> mock;
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  if (options.url.empty()) {
    webdata::mock::Config config;
    config.server.port = 0;
    config.server.access_log = false;
    config.server.threads = 8;
    config.admin = true;
    config.page_pacing_ms = 5;
    config.chunk_bytes = 4096;  // status polls page
    webdata::mock::TeamConfig team;
    team.id = "team-1";
    team.keys = {"test-key"};
    team.concurrency = 32;
    config.teams = {team};
    mock = std::make_unique<webdata::mock::MockServer>(config, mock_log);
    mock->start();
    port = mock->port();
  } else {
    const std::string prefix = "http://127.0.0.1:";
    if (options.url.rfind(prefix, 0) != 0) return usage("--url must be http://127.0.0.1:PORT");
    port = static_cast<unsigned short>(std::atoi(options.url.c_str() + prefix.size()));
    if (port == 0) return usage("--url needs a port");
  }

  bool ok = true;
  long first_rss = 0;
  long last_rss = 0;
  for (int round = 1; round <= options.rounds; ++round) {
    {
      // A receiver per round: it keeps every request it got, which is this tool's memory, not
      // the mock's, and must not count in the comparison below.
      Receiver receiver;  // answers 200 to every webhook
      ok = run_round(round, options, host, port, receiver).ok && ok;
    }
    malloc_trim(0);
    const long rss = rss_kib();
    if (round == 1) first_rss = rss;
    last_rss = rss;
  }
  if (mock && options.rounds > 1) {
    // After a reset, a round leaves nothing behind: the resident size stays within a margin of
    // the first round's (allocator caches and thread stacks). ASan keeps freed memory in
    // quarantine, so there the figure is only reported.
    const long allowed = first_rss + first_rss / 4 + 32 * 1024;
    std::printf("rss after reset: first round %ld MiB, last round %ld MiB (allowed %ld MiB%s)\n",
                first_rss / 1024, last_rss / 1024, allowed / 1024,
                kAsan ? ", not enforced under ASan" : "");
    if (!kAsan && last_rss > allowed) {
      std::printf("FAIL: resident size grew across rounds\n");
      ok = false;
    }
  }
  if (mock) mock->stop();
  std::printf("%s\n", ok ? "load: all checks passed" : "load: FAILED");
  return ok ? 0 : 1;
}
