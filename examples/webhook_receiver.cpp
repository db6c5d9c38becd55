// A webhook receiver that verifies signatures. It listens on 127.0.0.1 (any free port), starts a
// batch scrape whose webhook points at itself, and checks every delivery with
// webdata::webhooks::verify_and_parse before trusting it.
//
//   webhook_receiver URL...     pages to scrape; secret: $WEBDATA_WEBHOOK_SECRET (the mock's
//                               default: test-secret)
//
// The deployment must reach this machine's 127.0.0.1 (a mock or a deployment running here).
// Deliveries without a signature (deployments that sign nothing) are said to be unsigned.
//
// The HTTP server here is the least that works (one request per connection, POSIX sockets), so
// the example needs nothing but the SDK; use your web framework's server in real code.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "example_support.hpp"

namespace {

struct Delivery {
  std::optional<std::string> signature;  // the signature header's value
  std::string body;                      // the raw bytes, exactly as received
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Accepts connections on a background thread and keeps every POST it receives.
class Receiver {
 public:
  explicit Receiver(std::string signature_header) : header_(lower(std::move(signature_header))) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(fd_, 16) != 0 || getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~Receiver() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/webhook"; }

  /// Waits until `done(deliveries)` holds or `timeout` passes; returns a copy of the deliveries.
  template <class Pred>
  std::vector<Delivery> wait(std::chrono::seconds timeout, Pred done) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return done(deliveries_); });
    return deliveries_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd pfd{fd_, POLLIN, 0};
      if (poll(&pfd, 1, 100) <= 0) continue;
      const int conn = accept(fd_, nullptr, nullptr);
      if (conn < 0) continue;
      handle(conn);
      close(conn);
    }
  }

  void handle(int conn) {
    std::string data;
    char buf[8192];
    std::size_t header_end = std::string::npos;
    std::size_t content_length = 0;
    for (;;) {
      pollfd pfd{conn, POLLIN, 0};
      if (poll(&pfd, 1, 5000) <= 0) return;
      const ssize_t n = read(conn, buf, sizeof buf);
      if (n <= 0) return;
      data.append(buf, static_cast<std::size_t>(n));
      if (header_end == std::string::npos) {
        header_end = data.find("\r\n\r\n");
        if (header_end == std::string::npos) continue;
        const std::string head = lower(data.substr(0, header_end));
        const auto at = head.find("\r\ncontent-length:");
        if (at != std::string::npos) content_length = std::stoul(head.substr(at + 17));
      }
      if (data.size() >= header_end + 4 + content_length) break;
    }
    Delivery d;
    d.body = data.substr(header_end + 4, content_length);
    // Header lines: "Name: value"; names compare case-insensitively.
    std::size_t line = data.find("\r\n") + 2;
    while (line < header_end) {
      const std::size_t end = data.find("\r\n", line);
      const std::string text = data.substr(line, end - line);
      const auto colon = text.find(':');
      if (colon != std::string::npos && lower(text.substr(0, colon)) == header_) {
        d.signature = text.substr(text.find_first_not_of(' ', colon + 1));
      }
      line = end + 2;
    }
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    (void)!write(conn, answer.data(), answer.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      deliveries_.push_back(std::move(d));
    }
    cv_.notify_all();
  }

  std::string header_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Delivery> deliveries_;
};

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

// Checks each delivery's signature and prints its event; false when one does not verify.
bool verify_all(const std::string& secret, const std::vector<Delivery>& deliveries) {
  bool all_good = true;
  std::size_t unsigned_deliveries = 0;
  for (const auto& d : deliveries) {
    if (!d.signature) {
      ++unsigned_deliveries;
      continue;
    }
    auto event = webdata::webhooks::verify_and_parse(secret, d.body, d.signature);
    if (!event.ok()) {
      std::cout << "REJECTED delivery: " << event.error().describe() << "\n";
      all_good = false;
      continue;
    }
    std::cout << "verified " << event->type.value() << " for job " << event->id;
    if (!event->data.empty()) {
      std::cout << ": " << event->data.front().metadata.source_url.value_or("?");
    }
    if (event->metadata) std::cout << " metadata " << event->metadata->text();
    std::cout << "\n";
  }
  if (unsigned_deliveries > 0) {
    std::cout << unsigned_deliveries << " deliveries without a signature: this deployment does not "
              << "sign its webhooks\n";
  }
  return all_good;
}

}  // namespace

int main(int argc, char** argv) {
  webdata::BatchScrapeRequest request;
  request.urls = example::targets(argc, argv);
  if (request.urls.empty()) return example::usage("webhook_receiver URL...");
  const std::string secret = env_or("WEBDATA_WEBHOOK_SECRET", "test-secret");
  Receiver receiver(env_or("WEBDATA_SIGNATURE_HEADER", webdata::webhooks::kSignatureHeader));
  webdata::Client client;

  webdata::WebhookSpec hook(receiver.url());
  hook.metadata = webdata::Json::object({{"run", "example-42"}});
  request.webhook = hook;
  auto job = client.start_batch_scrape(request);
  if (!job.ok()) return example::failed("start", job.error());
  std::cout << "batch " << job->id() << " started; webhooks to " << receiver.url() << "\n";

  // started, one page event per document, completed: wait for the completed one.
  const auto deliveries = receiver.wait(std::chrono::seconds(60), [](const auto& all) {
    for (const auto& d : all) {
      if (d.body.find("\"batch_scrape.completed\"") != std::string::npos) return true;
    }
    return false;
  });
  if (deliveries.empty()) {
    std::cerr << "no webhook arrived within 60 s: can the deployment reach " << receiver.url()
              << "?\n";
    return 1;
  }
  const bool verified = verify_all(secret, deliveries);

  // A body changed in transit does not verify with the original signature.
  if (deliveries.front().signature) {
    const std::string forged = deliveries.front().body + " ";
    const bool tamper_detected = !webdata::webhooks::verify_signature(
        secret, forged, *deliveries.front().signature);
    std::cout << "tampered body rejected: " << (tamper_detected ? "yes" : "NO") << "\n";
    if (!tamper_detected) return 1;
  }
  return verified ? 0 : 1;
}
