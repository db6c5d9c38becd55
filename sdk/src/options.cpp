#include "webdata/options.hpp"

#include <openssl/rand.h>

#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

namespace webdata {

struct CancellationToken::State {
  mutable std::mutex mutex;
  mutable std::condition_variable cv;
  bool cancelled = false;
};

CancellationToken::CancellationToken() : state_(std::make_shared<State>()) {}

void CancellationToken::cancel() const {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->cancelled = true;
  }
  state_->cv.notify_all();
}

bool CancellationToken::cancelled() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->cancelled;
}

bool CancellationToken::wait_for(std::chrono::milliseconds duration) const {
  std::unique_lock<std::mutex> lock(state_->mutex);
  return state_->cv.wait_for(lock, duration, [&] { return state_->cancelled; });
}

namespace {

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  void sleep_for(std::chrono::milliseconds duration,
                 const CancellationToken& token) const override {
    if (duration.count() > 0) token.wait_for(duration);
  }
};

}  // namespace

std::shared_ptr<const Clock> steady_clock() {
  static const auto clock = std::make_shared<const SteadyClock>();
  return clock;
}

std::string make_idempotency_key() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    // OpenSSL's generator is unavailable: fall back to the standard one, still unique enough
    // for an idempotency key (not a secret).
    thread_local std::mt19937_64 gen{std::random_device{}()};
    for (auto& b : bytes) b = static_cast<unsigned char>(gen());
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0x0f];
  }
  return out;
}

}  // namespace webdata
