#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <thread>

#include "formats/change_tracking.hpp"
#include "formats/diff.hpp"

using nlohmann::json;
using webdata::mock::formats::ChangeTracker;
using webdata::mock::formats::ChangeTrackingInput;
using webdata::mock::formats::unified_diff;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Applies the structured diff to `before`; must give `after`.
std::vector<std::string> apply_diff(const std::vector<std::string>& before, const json& diff) {
  std::vector<std::string> out;
  std::size_t next = 0;  // 0-based index into before
  if (diff["files"].empty()) return before;
  for (const auto& chunk : diff["files"][0]["chunks"]) {
    long old_start = chunk["oldStart"].get<long>();
    std::size_t begin = chunk["oldLines"].get<long>() == 0
                            ? static_cast<std::size_t>(old_start)
                            : static_cast<std::size_t>(old_start - 1);
    while (next < begin) out.push_back(before[next++]);
    for (const auto& c : chunk["changes"]) {
      std::string content = c["content"].get<std::string>().substr(1);
      if (c["type"] == "normal") {
        REQUIRE(before.at(next) == content);
        out.push_back(content);
        ++next;
      } else if (c["type"] == "del") {
        REQUIRE(before.at(next) == content);
        REQUIRE(c["ln"].get<std::size_t>() == next + 1);
        ++next;
      } else {
        REQUIRE(c["ln"].get<std::size_t>() == out.size() + 1);
        out.push_back(content);
      }
    }
  }
  while (next < before.size()) out.push_back(before[next++]);
  return out;
}

std::size_t lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
    }
  }
  return t[0][0];
}

ChangeTrackingInput input(const std::string& markdown, int minute, int status = 200) {
  ChangeTrackingInput in;
  in.team = "team-1";
  in.url = "https://shop.example/item";
  in.markdown = markdown;
  in.modes = {"git-diff"};
  in.status_code = status;
  in.now = std::chrono::system_clock::time_point(std::chrono::minutes(28'000'000 + minute));
  return in;
}

}  // namespace

TEST_CASE("diff: a unified diff in git's format", "[diff]") {
  auto d =
      unified_diff("# Title\n\nPrice: $10\n\nIn stock\n", "# Title\n\nPrice: $12\n\nIn stock\n");
  CHECK(d.text ==
        "--- a/markdown\n+++ b/markdown\n@@ -1,5 +1,5 @@\n # Title\n \n-Price: $10\n+Price: $12\n"
        " \n In stock\n");
  auto& file = d.json["files"][0];
  CHECK(file["additions"] == 1);
  CHECK(file["deletions"] == 1);
  CHECK(file["chunks"][0]["content"] == "@@ -1,5 +1,5 @@");
  CHECK(file["chunks"][0]["changes"][2] ==
        json({{"type", "del"}, {"del", true}, {"ln", 3}, {"content", "-Price: $10"}}));
  CHECK(
      file["chunks"][0]["changes"][0] ==
      json(
          {{"type", "normal"}, {"normal", true}, {"ln1", 1}, {"ln2", 1}, {"content", " # Title"}}));

  CHECK(unified_diff("same\ntext", "same\ntext").text.empty());
  CHECK(unified_diff("same\ntext", "same\ntext").json == json({{"files", json::array()}}));
  CHECK(unified_diff("", "a\nb").text ==
        "--- a/markdown\n+++ b/markdown\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(unified_diff("a\nb", "").text ==
        "--- a/markdown\n+++ b/markdown\n@@ -1,2 +0,0 @@\n-a\n-b\n");
}

TEST_CASE("diff: far apart changes make separate hunks with 3 lines of context", "[diff]") {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 2 ? "changed 2" : i == 18 ? "changed 18" : "line " + std::to_string(i)) + "\n";
  }
  auto d = unified_diff(before, after);
  auto& chunks = d.json["files"][0]["chunks"];
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0]["content"] == "@@ -1,5 +1,5 @@");
  CHECK(chunks[1]["content"] == "@@ -15,6 +15,6 @@");
}

TEST_CASE("diff: random edits are minimal and apply back", "[diff]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> a, b;
    int n = static_cast<int>(rng() % 30), m = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) a.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
    for (int i = 0; i < m; ++i) b.push_back(std::string(1, static_cast<char>('a' + rng() % 4)));
    std::string at, bt;
    for (auto& l : a) at += l + "\n";
    for (auto& l : b) bt += l + "\n";
    auto d = unified_diff(at, bt, "f", 1 + round % 4);
    CHECK(apply_diff(a, d.json) == b);
    long adds = 0, dels = 0;
    if (!d.json["files"].empty()) {
      adds = d.json["files"][0]["additions"];
      dels = d.json["files"][0]["deletions"];
    }
    std::size_t common = lcs(a, b);
    CHECK(static_cast<std::size_t>(dels) == a.size() - common);
    CHECK(static_cast<std::size_t>(adds) == b.size() - common);
  }
}

TEST_CASE("diff: large inputs stay fast and correct", "[diff]") {
  std::string a, b;
  for (int i = 0; i < 20000; ++i) {
    a += "row " + std::to_string(i) + "\n";
    b += "other " + std::to_string(i) + "\n";
  }
  auto d = unified_diff(a, b);
  CHECK(d.json["files"][0]["deletions"] == 20000);
  CHECK(d.json["files"][0]["additions"] == 20000);
  CHECK(apply_diff(lines_of(a), d.json) == lines_of(b));
}

TEST_CASE("changeTracking: new, same, changed, removed with a git diff", "[changeTracking]") {
  ChangeTracker tracker;
  json first = tracker.track(input("# Item\n\nPrice: $10", 0));
  CHECK(first ==
        json({{"previousScrapeAt", nullptr}, {"changeStatus", "new"}, {"visibility", "visible"}}));

  json second = tracker.track(input("# Item\n\nPrice: $10", 5));
  CHECK(second["changeStatus"] == "same");
  CHECK(second["previousScrapeAt"] == "2023-03-28T10:40:00.000Z");
  CHECK(!second.contains("diff"));

  json third = tracker.track(input("# Item\n\nPrice: $12", 9));
  CHECK(third["changeStatus"] == "changed");
  CHECK(third["previousScrapeAt"] == "2023-03-28T10:45:00.000Z");
  CHECK(third["diff"]["text"] ==
        "--- a/markdown\n+++ b/markdown\n@@ -1,3 +1,3 @@\n # Item\n \n-Price: $10\n+Price: $12\n");
  CHECK(third["diff"]["json"]["files"][0]["additions"] == 1);

  json fourth = tracker.track(input("# Not found", 12, 404));
  CHECK(fourth["changeStatus"] == "removed");
  CHECK(fourth["diff"]["json"]["files"][0]["deletions"] == 3);

  CHECK(tracker.track(input("# Not found", 13, 410))["changeStatus"] == "same");
  CHECK(tracker.track(input("# Item\n\nPrice: $12", 14))["changeStatus"] == "changed");
}

TEST_CASE("changeTracking: json mode compares extracted fields", "[changeTracking]") {
  ChangeTracker tracker;
  auto in = input("# Item", 0);
  in.modes = {"json"};
  in.json = {{"price", 10}, {"name", "Item"}, {"stock", {{"count", 3}, {"warehouse", "A"}}}};
  CHECK(tracker.track(in)["changeStatus"] == "new");
  in.now += std::chrono::minutes(1);
  json same = tracker.track(in);
  CHECK(same["changeStatus"] == "same");
  CHECK(!same.contains("json"));
  in.json["price"] = 12;
  in.json["stock"]["count"] = 0;
  in.now += std::chrono::minutes(1);
  json changed = tracker.track(in);  // markdown equal, values differ: still a change
  CHECK(changed["changeStatus"] == "changed");
  CHECK(changed["json"] == json({{"price", {{"previous", 10}, {"current", 12}}},
                                 {"stock.count", {{"previous", 3}, {"current", 0}}}}));
  CHECK(!changed.contains("diff"));  // git-diff not asked for
}

TEST_CASE("changeTracking: keys are team, URL and tag, memory is bounded", "[changeTracking]") {
  ChangeTracker tracker(3);
  tracker.track(input("a", 0));
  auto other_team = input("a", 1);
  other_team.team = "team-2";
  CHECK(tracker.track(other_team)["changeStatus"] == "new");
  auto tagged = input("a", 2);
  tagged.tag = "daily";
  CHECK(tracker.track(tagged)["changeStatus"] == "new");
  tagged.now += std::chrono::minutes(1);
  CHECK(tracker.track(tagged)["changeStatus"] == "same");
  auto untagged = input("a", 4);
  untagged.tag = "";
  CHECK(tracker.track(untagged)["changeStatus"] == "same");  // "" is no tag
  CHECK(tracker.size() == 3);
  auto other = input("x", 5);
  other.url = "https://shop.example/other";
  tracker.track(other);
  CHECK(tracker.size() == 3);
  CHECK(tracker.track(other_team)["changeStatus"] == "new");  // least recently used: forgotten

  auto zdr = input("z", 6);
  zdr.url = "https://shop.example/zdr";
  zdr.store = false;
  tracker.track(zdr);
  CHECK(tracker.track(zdr)["changeStatus"] == "new");
}

TEST_CASE("changeTracking: concurrent use of one tracker", "[changeTracking]") {
  ChangeTracker tracker(100);
  std::vector<std::thread> threads;
  std::atomic<int> news{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto in = input("v" + std::to_string(i % 3), i);
        in.url = "https://shop.example/" + std::to_string((i + t) % 10);
        if (tracker.track(in)["changeStatus"] == "new") ++news;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(news == 10);
  CHECK(tracker.size() == 10);
}
