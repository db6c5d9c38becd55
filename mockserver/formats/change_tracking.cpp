#include "formats/change_tracking.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "core/time.hpp"
#include "formats/diff.hpp"

namespace webdata::mock::formats {

namespace {

bool has_mode(const std::vector<std::string>& modes, const char* mode) {
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

// Every differing leaf, objects walked by dotted path; arrays and scalars compared whole.
void compare(const nlohmann::json& previous, const nlohmann::json& current, const std::string& path,
             nlohmann::json& out) {
  bool walk = (previous.is_object() && (current.is_object() || current.is_null())) ||
              (current.is_object() && previous.is_null());
  if (walk) {
    std::vector<std::string> keys;
    for (auto it = previous.begin(); it != previous.end(); ++it) keys.push_back(it.key());
    for (auto it = current.begin(); it != current.end(); ++it) {
      if (!previous.contains(it.key())) keys.push_back(it.key());
    }
    for (const auto& key : keys) {
      std::string sub = path.empty() ? key : path + "." + key;
      compare(previous.contains(key) ? previous[key] : nlohmann::json(nullptr),
              current.contains(key) ? current[key] : nlohmann::json(nullptr), sub, out);
    }
    return;
  }
  if (previous != current) {
    out[path.empty() ? "value" : path] = {{"previous", previous}, {"current", current}};
  }
}

}  // namespace

ChangeTracker::ChangeTracker(std::size_t max_entries)
    : max_entries_(std::max<std::size_t>(1, max_entries)) {}

nlohmann::json ChangeTracker::track(const ChangeTrackingInput& input) {
  std::string key = input.team + '\n' + input.url + '\n' + input.tag.value_or("");
  bool removed_now = input.status_code == 404 || input.status_code == 410;
  bool json_mode = has_mode(input.modes, "json");

  std::optional<Snapshot> previous;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = slots_.find(key);
    if (it != slots_.end()) {
      previous = it->second.snapshot;
      lru_.erase(it->second.position);
      lru_.push_front(key);
      it->second.position = lru_.begin();
    }
    if (input.store) {
      Snapshot next{input.now, input.markdown, input.json, removed_now};
      if (it != slots_.end()) {
        it->second.snapshot = std::move(next);
      } else {
        lru_.push_front(key);
        slots_.emplace(key, Slot{std::move(next), lru_.begin()});
        while (slots_.size() > max_entries_) {
          slots_.erase(lru_.back());
          lru_.pop_back();
        }
      }
    }
  }

  nlohmann::json out;
  out["previousScrapeAt"] =
      previous ? nlohmann::json(iso8601(previous->at)) : nlohmann::json(nullptr);
  out["visibility"] = input.hidden ? "hidden" : "visible";
  std::string status;
  if (!previous) {
    status = "new";
  } else if (removed_now) {
    status = previous->removed ? "same" : "removed";
  } else if (previous->removed) {
    status = "changed";
  } else {
    bool same =
        previous->markdown == input.markdown && (!json_mode || previous->json == input.json);
    status = same ? "same" : "changed";
  }
  out["changeStatus"] = status;
  if (previous && (status == "changed" || status == "removed")) {
    if (has_mode(input.modes, "git-diff")) {
      std::string before = previous->removed ? "" : previous->markdown;
      std::string after = removed_now ? "" : input.markdown;
      UnifiedDiff diff = unified_diff(before, after);
      out["diff"] = {{"text", diff.text}, {"json", diff.json}};
    }
    if (json_mode) {
      nlohmann::json fields = nlohmann::json::object();
      compare(previous->removed ? nlohmann::json(nullptr) : previous->json,
              removed_now ? nlohmann::json(nullptr) : input.json, "", fields);
      out["json"] = fields;
    }
  }
  return out;
}

std::size_t ChangeTracker::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

void ChangeTracker::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  slots_.clear();
  lru_.clear();
}

}  // namespace webdata::mock::formats
