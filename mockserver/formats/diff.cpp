#include "formats/diff.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace webdata::mock::formats {

namespace {

constexpr long kMaxCost = 4096;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Marks the lines of a that are deleted and of b that are inserted (the classic xdiff shape).
class Myers {
 public:
  Myers(const std::vector<int>& a, const std::vector<int>& b, std::vector<bool>& del,
        std::vector<bool>& ins)
      : a_(a), b_(b), del_(del), ins_(ins) {}

  void run(long a0, long a1, long b0, long b1) {
    while (a0 < a1 && b0 < b1 && a_[a0] == b_[b0]) ++a0, ++b0;
    while (a0 < a1 && b0 < b1 && a_[a1 - 1] == b_[b1 - 1]) --a1, --b1;
    if (a0 == a1) {
      for (long j = b0; j < b1; ++j) ins_[j] = true;
      return;
    }
    if (b0 == b1) {
      for (long i = a0; i < a1; ++i) del_[i] = true;
      return;
    }
    long x = 0, y = 0, u = 0, v = 0;
    if (!middle_snake(a0, a1, b0, b1, x, y, u, v) || (x == a0 && y == b0 && u == a1 && v == b1) ||
        (x == a1 && y == b1) || (u == a0 && v == b0)) {
      for (long i = a0; i < a1; ++i) del_[i] = true;
      for (long j = b0; j < b1; ++j) ins_[j] = true;
      return;
    }
    run(a0, x, b0, y);
    run(u, a1, v, b1);
  }

 private:
  // The middle snake of the shortest edit script, in absolute coordinates: (x, y) -> (u, v).
  bool middle_snake(long a0, long a1, long b0, long b1, long& x_out, long& y_out, long& u_out,
                    long& v_out) {
    const long n = a1 - a0;
    const long m = b1 - b0;
    const long delta = n - m;
    const bool odd = (delta & 1) != 0;
    const long max_d = std::min((n + m + 1) / 2, kMaxCost);
    const long offset = max_d + 1;
    std::vector<long> vf(static_cast<std::size_t>(2 * max_d + 3), 0);
    std::vector<long> vb(static_cast<std::size_t>(2 * max_d + 3), 0);
    auto F = [&](long k) -> long& { return vf[static_cast<std::size_t>(k + offset)]; };
    auto B = [&](long k) -> long& { return vb[static_cast<std::size_t>(k + offset)]; };
    for (long d = 0; d <= max_d; ++d) {
      for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && F(k - 1) < F(k + 1))) ? F(k + 1) : F(k - 1) + 1;
        long y = x - k;
        long x0 = x, y0 = y;
        while (x < n && y < m && a_[a0 + x] == b_[b0 + y]) ++x, ++y;
        F(k) = x;
        long c = delta - k;
        if (odd && c >= -(d - 1) && c <= d - 1 && F(k) + B(c) >= n) {
          x_out = a0 + x0, y_out = b0 + y0, u_out = a0 + x, v_out = b0 + y;
          return true;
        }
      }
      for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && B(k - 1) < B(k + 1))) ? B(k + 1) : B(k - 1) + 1;
        long y = x - k;
        long x0 = x, y0 = y;
        while (x < n && y < m && a_[a1 - 1 - x] == b_[b1 - 1 - y]) ++x, ++y;
        B(k) = x;
        long c = delta - k;
        if (!odd && c >= -d && c <= d && B(k) + F(c) >= n) {
          x_out = a1 - x, y_out = b1 - y, u_out = a1 - x0, v_out = b1 - y0;
          return true;
        }
      }
    }
    return false;  // costlier than kMaxCost: the caller replaces the region whole
  }

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  std::vector<bool>& del_;
  std::vector<bool>& ins_;
};

struct Op {
  char kind;      // ' ', '-', '+'
  long old_line;  // 1-based, for ' ' and '-'
  long new_line;  // 1-based, for ' ' and '+'
  std::string_view text;
};

std::string range(long start, long count) {
  if (count == 1) return std::to_string(start);
  return std::to_string(count == 0 ? start - 1 : start) + "," + std::to_string(count);
}

/// The edit script from `a_lines` to `b_lines`, line by line (Myers).
std::vector<Op> edit_script(const std::vector<std::string_view>& a_lines,
                            const std::vector<std::string_view>& b_lines) {
  std::unordered_map<std::string_view, int> ids;
  std::vector<int> a, b;
  for (auto l : a_lines) a.push_back(ids.emplace(l, static_cast<int>(ids.size())).first->second);
  for (auto l : b_lines) b.push_back(ids.emplace(l, static_cast<int>(ids.size())).first->second);
  std::vector<bool> del(a.size(), false), ins(b.size(), false);
  Myers(a, b, del, ins).run(0, static_cast<long>(a.size()), 0, static_cast<long>(b.size()));
  std::vector<Op> ops;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && del[i]) {
      ops.push_back({'-', static_cast<long>(i + 1), 0, a_lines[i]});
      ++i;
    } else if (j < b.size() && ins[j]) {
      ops.push_back({'+', 0, static_cast<long>(j + 1), b_lines[j]});
      ++j;
    } else {
      ops.push_back({' ', static_cast<long>(i + 1), static_cast<long>(j + 1), a_lines[i]});
      ++i, ++j;
    }
  }
  return ops;
}

/// The last op of the hunk of the change at `k`: ctx lines after the last change that is at
/// most 2*ctx equal lines away from the one before it.
std::size_t hunk_end(const std::vector<Op>& ops, std::size_t k, std::size_t ctx) {
  std::size_t last_change = k;
  for (std::size_t p = k; p < ops.size(); ++p) {
    if (ops[p].kind != ' ') {
      last_change = p;
    } else if (p - last_change > 2 * ctx) {
      break;
    }
  }
  return std::min(ops.size() - 1, last_change + ctx);
}

/// The text and the JSON chunks of a diff's hunks, and its counts of changed lines.
struct Hunks {
  std::string text;
  nlohmann::json chunks = nlohmann::json::array();
  long additions = 0;
  long deletions = 0;
};

/// The hunk of ops[start..end] appended to `out`.
void write_hunk(const std::vector<Op>& ops, std::size_t start, std::size_t end, Hunks& out) {
  // Line numbers where the hunk starts (for an empty side: the line before it).
  long old_start = 1, new_start = 1, old_count = 0, new_count = 0;
  for (std::size_t p = 0; p < start; ++p) {
    if (ops[p].kind != '+') ++old_start;
    if (ops[p].kind != '-') ++new_start;
  }
  nlohmann::json changes = nlohmann::json::array();
  std::string body;
  for (std::size_t p = start; p <= end; ++p) {
    const Op& op = ops[p];
    std::string line = std::string(1, op.kind) + std::string(op.text);
    body += line + "\n";
    if (op.kind == ' ') {
      ++old_count, ++new_count;
      changes.push_back({{"type", "normal"},
                         {"normal", true},
                         {"ln1", op.old_line},
                         {"ln2", op.new_line},
                         {"content", line}});
    } else if (op.kind == '-') {
      ++old_count, ++out.deletions;
      changes.push_back({{"type", "del"}, {"del", true}, {"ln", op.old_line}, {"content", line}});
    } else {
      ++new_count, ++out.additions;
      changes.push_back({{"type", "add"}, {"add", true}, {"ln", op.new_line}, {"content", line}});
    }
  }
  std::string header =
      "@@ -" + range(old_start, old_count) + " +" + range(new_start, new_count) + " @@";
  out.text += header + "\n" + body;
  out.chunks.push_back({{"content", header},
                        {"changes", changes},
                        {"oldStart", old_count == 0 ? old_start - 1 : old_start},
                        {"oldLines", old_count},
                        {"newStart", new_count == 0 ? new_start - 1 : new_start},
                        {"newLines", new_count}});
}

}  // namespace

UnifiedDiff unified_diff(std::string_view before, std::string_view after, const std::string& file,
                         int context) {
  const std::vector<Op> ops = edit_script(split_lines(before), split_lines(after));
  const auto ctx = static_cast<std::size_t>(std::max(0, context));
  Hunks hunks;
  std::size_t k = 0;
  while (k < ops.size()) {
    if (ops[k].kind == ' ') {
      ++k;
      continue;
    }
    // A hunk: from ctx lines before this change to ctx lines after its last change.
    const std::size_t start = k >= ctx ? k - ctx : 0;
    const std::size_t end = hunk_end(ops, k, ctx);
    write_hunk(ops, start, end, hunks);
    k = end + 1;
  }
  UnifiedDiff out;
  nlohmann::json files = nlohmann::json::array();
  if (!hunks.text.empty()) {
    out.text = "--- a/" + file + "\n+++ b/" + file + "\n" + hunks.text;
    files.push_back({{"from", file},
                     {"to", file},
                     {"chunks", hunks.chunks},
                     {"additions", hunks.additions},
                     {"deletions", hunks.deletions}});
  }
  out.json = {{"files", files}};
  return out;
}

}  // namespace webdata::mock::formats
