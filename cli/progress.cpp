#include "progress.hpp"

#include <algorithm>
#include <cstdio>

namespace webdata::cli {

std::string render_progress(const std::string& label, int completed, int total, double seconds,
                            const std::string& state, int width) {
  const int shown_total = std::max(total, completed);
  const int filled =
      shown_total > 0 ? static_cast<int>(static_cast<long long>(completed) * width / shown_total) : 0;
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(width - filled), '.');
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f", seconds > 0 ? completed / seconds : 0.0);
  return label + "  [" + bar + "]  " + std::to_string(completed) + "/" +
         std::to_string(shown_total) + " pages  " + rate + " pages/s  " + state;
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled, std::string label,
                         std::chrono::steady_clock::time_point start)
    : out_(out), enabled_(enabled), label_(std::move(label)), start_(start) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(int completed, int total, const std::string& state) {
  completed_ = completed;
  total_ = total;
  state_ = state;
  dirty_ = true;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw();
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_ || state_.empty()) return;
  if (dirty_) draw();
  out_ << "\n" << std::flush;
}

void ProgressBar::draw() {
  if (!enabled_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // "\x1b[K" clears what a longer previous line left behind.
  out_ << "\r" << render_progress(label_, completed_, total_, seconds, state_) << "\x1b[K"
       << std::flush;
  drawn_ = true;
  dirty_ = false;
}

}  // namespace webdata::cli
