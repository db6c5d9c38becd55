#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"

// The research paper index, its GitHub slice, developer search, feedback and support ask (v2):
// Client::search_papers, get_paper, read_paper, similar_papers, search_github,
// developer_search, feedback, search_feedback, support_ask (docs/reference/research.md).
// Answers are read tolerantly: each model and item keeps the members this SDK does not know in
// `extras`, and the answer's `diagnostics` name the members that did not have their type.

namespace webdata {

struct SearchPapersRequest {
  std::string query;
  std::optional<std::int64_t> k;  ///< 1-500, default 40
  std::vector<std::string> authors;     ///< substrings; all must match
  std::vector<std::string> categories;  ///< subject categories ("cs.LG"); all must match
  std::optional<std::string> from;      ///< YYYY-MM-DD
  std::optional<std::string> to;
};

struct SimilarPapersRequest {
  std::string intent;               ///< required
  std::optional<std::string> mode;  ///< similar | citers | references
  std::optional<std::int64_t> k;
  std::optional<bool> rerank;
  std::vector<std::string> anchor;  ///< more seed papers
};

struct PaperSignals {
  double structural = 0;
  double semantic = 0;
  double article_rank = 0;
  double seed_overlap = 0;
  Extras extras;
};

struct PaperResult {
  std::string paper_id;
  std::string primary_id;  ///< "arxiv:...", "doi:...", ...
  std::map<std::string, std::vector<std::string>> ids;
  std::string title;
  std::string abstract;
  double score = 0;
  std::optional<PaperSignals> signals;  ///< on related papers
  Extras extras;
};

struct PaperMetadata {
  std::string paper_id;
  std::map<std::string, std::vector<std::string>> ids;
  std::string title;
  std::string abstract;
  std::optional<std::string> authors;
  std::vector<std::string> categories;
  std::optional<std::string> created_date;
  std::optional<std::string> update_date;
  Extras extras;
};

struct PaperPassage {
  std::string text;
  double score = 0;
  Extras extras;
};

struct PaperSearch {
  std::vector<PaperResult> results;
  Extras extras;
  Diagnostics diagnostics;
};

/// A paper's metadata; with a question (read_paper), the passages that answer it.
struct Paper {
  PaperMetadata paper;
  std::optional<std::string> query;
  std::vector<PaperPassage> passages;
  Extras extras;
  Diagnostics diagnostics;
};

struct SimilarPapers {
  std::vector<PaperResult> results;
  long long pool_size = 0;
  bool truncated = false;
  std::optional<std::string> note;
  Extras extras;
  Diagnostics diagnostics;
};

struct GithubSearchItem {
  std::optional<std::string> result_type;  ///< github_history | repo_readme | web
  std::string repo;
  std::string url;
  std::optional<std::string> page_type;  ///< issue | pull
  std::optional<long long> number;
  std::string snippet;
  std::optional<std::string> content_md;
  Extras extras;
};

struct GithubSearch {
  std::vector<GithubSearchItem> results;
  std::vector<std::string> warnings;
  std::optional<std::string> replacement;
  Extras extras;
  Diagnostics diagnostics;
};

struct DeveloperSearchRequest {
  std::string query;
  std::optional<std::int64_t> k;         ///< 1-100, default 10
  std::optional<std::int64_t> passages;  ///< 1-5, default 1
  std::vector<std::string> types;        ///< doc | issue | pull_request | readme
  std::vector<std::string> repos;        ///< owner/name
  std::vector<std::string> sources;
  std::optional<std::string> language;
  std::vector<std::string> topic;
  std::optional<std::string> license;
  std::optional<std::int64_t> min_stars;
  std::optional<std::int64_t> max_stars;
  std::optional<bool> archived;
  std::optional<bool> fork;
};

struct DeveloperPassage {
  std::string text;
  std::optional<std::string> citation_url;
  Extras extras;
};

struct DeveloperResult {
  std::string id;  ///< its prefix is the kind: doc:, issue:, pull_request:, readme:
  std::string url;
  std::optional<std::string> title;
  std::vector<DeveloperPassage> passages;
  std::optional<std::string> license_state;  ///< licensed | known_absent | unknown
  std::optional<std::string> license_spdx;
  Extras extras;
};

struct DeveloperSearch {
  std::vector<DeveloperResult> results;
  Extras extras;
  Diagnostics diagnostics;
};

/// Feedback on a job (`endpoint`: search | scrape | parse | map); for search_feedback the
/// endpoint and job id come from the call.
struct FeedbackRequest {
  std::string endpoint;
  std::string job_id;
  std::string rating;  ///< good | partial | bad
  std::vector<std::string> issues;
  std::vector<std::string> tags;
  std::optional<std::string> note;
  std::optional<std::string> url;
  std::optional<std::string> query_suggestions;
  std::vector<std::string> valuable_sources;  ///< URLs
};

struct FeedbackReceipt {
  std::string feedback_id;
  long long credits_refunded = 0;
  bool already_submitted = false;
  std::optional<std::string> warning;
  Extras extras;
  Diagnostics diagnostics;
};

struct SupportAnswer {
  std::string answer;
  std::optional<std::string> job_id;
  std::optional<std::string> job_type;  ///< crawl | batch_scrape | scrape
  std::optional<std::string> status;
  std::vector<std::string> sources;  ///< URLs (`sources[].url`)
  Extras extras;
  Diagnostics diagnostics;
};

}  // namespace webdata
