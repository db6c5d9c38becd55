#pragma once

#include <optional>
#include <string>
#include <vector>

#include "webdata/document.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/time.hpp"

namespace webdata {

/// Answer to starting a crawl or batch scrape.
struct JobStarted {
  std::optional<bool> success;
  std::string id;
  std::string url;  ///< Address of the status resource.
  /// Batch scrape only: URLs dropped as invalid (absent unless ignoreInvalidURLs is on).
  std::optional<std::vector<std::string>> invalid_urls;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// One status chunk of a crawl or batch scrape (GET /v2/crawl/{id}, /v2/batch/scrape/{id}).
struct JobStatus {
  std::optional<bool> success;
  JobState status;
  int total = 0;      ///< Pages queued so far.
  int completed = 0;  ///< Pages scraped successfully so far.
  int credits_used = 0;
  std::optional<Timestamp> expires_at;
  /// Absolute address of the next chunk; absent on the last chunk of a finished job.
  std::optional<std::string> next;
  std::vector<Document> data;
  /// Why the job failed (the answer's `error`), when it did. Also kept in `extras["error"]`,
  /// where SDK versions before 0.2 put it.
  std::optional<std::string> error;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// A page the service failed to scrape.
struct JobError {
  std::string id;
  std::optional<Timestamp> timestamp;
  std::string url;
  std::string code;
  std::string error;
  Extras extras;
};

/// GET /v2/crawl/{id}/errors and /v2/batch/scrape/{id}/errors.
struct JobErrors {
  std::vector<JobError> errors;
  std::vector<std::string> robots_blocked;
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

}  // namespace webdata
