#pragma once

#include <chrono>
#include <ostream>
#include <string>

namespace webdata::cli {

/// A one-line progress bar for crawls and batches: pages done / total, rate, state. Redrawn
/// in place with '\r', at most ten times a second, and ended with a newline.
///
///     crawl  [#########...........]  12/27 pages  8.4 pages/s  scraping
class ProgressBar {
 public:
  /// `start` is when the job was started (the rate counts from there).
  ProgressBar(std::ostream& out, bool enabled, std::string label,
              std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void update(int completed, int total, const std::string& state);
  /// Draws the last state and ends the line (once).
  void finish();

 private:
  void draw();

  std::ostream& out_;
  bool enabled_;
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  int completed_ = 0;
  int total_ = 0;
  std::string state_;
  bool drawn_ = false;
  bool dirty_ = false;  ///< The last update is not on screen yet.
  bool finished_ = false;
};

/// The bar text itself (no '\r'), for a given moment; `width` is the number of bar cells.
std::string render_progress(const std::string& label, int completed, int total,
                            double seconds, const std::string& state, int width = 20);

}  // namespace webdata::cli
