#pragma once

// What the watch tests (plain and TLS) read off a crawl watch: every event, the documents' URLs
// in order, and the error that ended it.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "webdata/webdata.hpp"

namespace webdata::testing {

struct Watched {
  std::vector<WatchEvent> events;
  std::vector<std::string> urls;  // of the documents, in order
  std::optional<Error> error;
};

/// Reads `stream` to its end (or its first error).
inline Watched watch_all(Stream<WatchEvent> stream) {
  Watched out;
  for (auto& event : stream) {
    if (!event.ok()) {
      out.error = event.error();
      break;
    }
    if (event->document) out.urls.push_back(event->document->metadata.source_url.value_or(""));
    out.events.push_back(std::move(*event));
  }
  return out;
}

/// `mode`, polling every 30 ms for at most a minute.
inline WatchPolicy policy_for(WatchMode mode) {
  WatchPolicy policy;
  policy.mode = mode;
  policy.polling.interval = std::chrono::milliseconds(30);
  policy.polling.max_wait = std::chrono::seconds(60);
  return policy;
}

}  // namespace webdata::testing
