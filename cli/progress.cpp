#include "progress.hpp"

#include <algorithm>
#include <cstdio>

namespace webdata::cli {
namespace {

/// Below this, a rate is mostly noise of the first poll's timing.
constexpr double kMinRateSeconds = 1.0;

}  // namespace

std::optional<double> pages_per_second(int pages, double seconds) {
  if (seconds < kMinRateSeconds || pages < 0) return std::nullopt;
  return pages / seconds;
}

std::string render_progress(const std::string& label, int completed, int total,
                            std::optional<double> rate, const std::string& state, int width) {
  const int shown_total = std::max(total, completed);
  const int filled =
      shown_total > 0 ? static_cast<int>(static_cast<long long>(completed) * width / shown_total) : 0;
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(width - filled), '.');
  std::string text = label + "  [" + bar + "]  " + std::to_string(completed) + "/" +
                     std::to_string(shown_total) + " pages  ";
  if (rate) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", *rate);
    text += std::string(buf) + " pages/s  ";
  }
  return text + state;
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled, std::string label)
    : out_(out), enabled_(enabled), label_(std::move(label)) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(int completed, int total, const std::string& state) {
  const auto now = std::chrono::steady_clock::now();
  if (!first_time_) {
    first_time_ = now;
    first_completed_ = completed;
  }
  completed_ = completed;
  total_ = total;
  state_ = state;
  dirty_ = true;
  // Throttled while on screen; drawn at once after a clear(), so it is never missing for long.
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw();
}

void ProgressBar::clear() {
  if (!enabled_ || !drawn_ || finished_) return;
  out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
  dirty_ = true;
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_ || state_.empty()) return;
  if (dirty_ || !drawn_) draw();
  out_ << "\n" << std::flush;
}

void ProgressBar::draw() {
  if (!enabled_) return;
  std::optional<double> rate;
  if (first_time_) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_time_).count();
    rate = pages_per_second(completed_ - first_completed_, seconds);
  }
  // "\x1b[K" clears what a longer previous line left behind.
  out_ << "\r" << render_progress(label_, completed_, total_, rate, state_) << "\x1b[K"
       << std::flush;
  drawn_ = true;
  dirty_ = false;
}

}  // namespace webdata::cli
