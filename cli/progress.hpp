#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>

namespace webdata::cli {

/// A one-line progress bar for crawls and batches: pages done / total, rate, state. Redrawn
/// in place with '\r', at most ten times a second, and ended with a newline.
///
///     crawl  [#########...........]  12/27 pages  8.4 pages/s  scraping
///
/// The bar shares the terminal with the documents printed on stdout: `clear()` erases it
/// before anything else is written, and the next `update()` draws it again below.
class ProgressBar {
 public:
  ProgressBar(std::ostream& out, bool enabled, std::string label);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void update(int completed, int total, const std::string& state);
  /// Erases the bar from its line (if drawn), so that other output starts at column 0.
  void clear();
  /// Draws the last state and ends the line (once).
  void finish();

 private:
  void draw();

  std::ostream& out_;
  bool enabled_;
  std::string label_;
  std::chrono::steady_clock::time_point last_draw_{};
  /// The first update: the rate counts pages done since then, over the time since then.
  std::optional<std::chrono::steady_clock::time_point> first_time_;
  int first_completed_ = 0;
  int completed_ = 0;
  int total_ = 0;
  std::string state_;
  bool drawn_ = false;  ///< The bar is on screen now (not cleared, not finished).
  bool dirty_ = false;  ///< The last update is not on screen yet.
  bool finished_ = false;
};

/// The rate in pages per second, or nothing while `seconds` is too short to mean anything
/// (a job that finished 5 pages in its first 50 ms does not run at 100 pages/s).
std::optional<double> pages_per_second(int pages, double seconds);

/// The bar text itself (no '\r'), for a given moment; `width` is the number of bar cells. The
/// rate is left out when there is none yet.
std::string render_progress(const std::string& label, int completed, int total,
                            std::optional<double> rate, const std::string& state, int width = 20);

}  // namespace webdata::cli
