#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "webdata/document.hpp"
#include "webdata/job_status.hpp"
#include "webdata/options.hpp"

namespace webdata {

/// How `CrawlJob::watch` follows a crawl.
enum class WatchMode {
  kAuto,       ///< The service's WebSocket watcher when it offers one, else polling.
  kWebSocket,  ///< The WebSocket only; an error when the service does not offer it.
  kPolling,    ///< Status polls only.
};

/// Settings of one watch. `polling.max_wait` and `polling.cancel` bound every mode;
/// `polling.interval` spaces the polls when nothing new came.
struct WatchPolicy {
  WatchMode mode = WatchMode::kAuto;
  PollingPolicy polling;
  /// Time to open the WebSocket (TCP connect and handshake).
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
  /// Largest WebSocket message accepted (the first one carries every document so far).
  std::size_t max_message_bytes = std::size_t{256} * 1024 * 1024;
};

/// One step of a watched crawl.
struct WatchEvent {
  enum class Kind {
    kStatus,    ///< State or counters changed (the first event is always one).
    kDocument,  ///< A page was scraped: `document`.
    kFinished,  ///< The crawl ended; `status` is final. Always the last event.
  };
  Kind kind = Kind::kStatus;
  /// State and counters as known at this event; `data` is always empty.
  JobStatus status;
  std::optional<Document> document;
  /// Why the crawl failed, when it did.
  std::optional<std::string> error;
  /// Delivered by the WebSocket watcher (false: by polling).
  bool websocket = false;
};

}  // namespace webdata
