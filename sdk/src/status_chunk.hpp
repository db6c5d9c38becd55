#pragma once

// A job status answer decoded without a tree of the whole answer: a 10 MB chunk as an
// nlohmann DOM takes several times its text, which set the client's peak memory when walking
// a large crawl (bench/analysis.md). The chunk keeps its body; every member but `data` is
// decoded at once, each document only when asked for, from its own slice of the body.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec.hpp"
#include "json_scan.hpp"

namespace webdata::detail {

class StatusChunk {
 public:
  /// Validates and indexes `body`; a kParse error (the one `parse_body` gives) when it is not
  /// JSON, truncated included.
  static Result<StatusChunk> scan(std::string body);

  /// The answer says `"success": false` at the top level.
  bool reports_failure() const;

  /// Decodes every member but the documents into `head()`; a kParse error naming the path
  /// ("unexpected <what>: at status: ...") when one has the wrong shape, `data` included
  /// when it is neither an array nor null.
  std::optional<Error> decode_head(const char* what);

  /// The status without its documents (`data` empty) after `decode_head`.
  JobStatus& head() { return head_; }
  const JobStatus& head() const { return head_; }

  /// How many documents the chunk holds.
  std::size_t size() const { return documents_.size(); }

  /// Document `index` decoded from its slice; a kParse error naming its place in `data`.
  Result<Document> document(std::size_t index) const;

  /// Leaves out the first `count` documents (ones the caller already has).
  void drop_front(std::size_t count);

  /// The head with every document decoded into `data`; the first failing document's error.
  Result<JobStatus> take_all() &&;

  /// Gives the body back (for an error answer built from it).
  std::string take_body() && { return std::move(body_); }

 private:
  std::string body_;
  json rest_;  ///< Every top-level member but an array `data` (an answer that is not an object).
  std::vector<JsonSpan> documents_;
  std::size_t dropped_ = 0;  ///< Documents left out before `documents_` (their index in `data`).
  JobStatus head_;
  const char* what_ = "job status";
};

/// A whole status from JSON text the caller keeps (`from_json<JobStatus>`): the same decoder,
/// without copying the text. Not JSON: nullopt, so the caller words that error.
std::optional<Result<JobStatus>> decode_status_text(std::string_view text, const char* what);

}  // namespace webdata::detail
