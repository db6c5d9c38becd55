#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The bundled research corpus: papers on a papers site (papers.example.test, arXiv-style ids,
// a citation graph) and repositories on a GitHub-like site (code.example.test: readmes, issues
// and pull requests). Small, fixed and written for the mock, so its rankings are deterministic.

namespace webdata::mock::search {

struct Paper {
  std::string paper_id;  ///< canonical, a decimal string
  std::string arxiv;     ///< arXiv id ("" when none)
  std::string doi;       ///< DOI ("" when none)
  std::string title;
  std::string abstract;
  std::string authors;  ///< comma-joined
  std::vector<std::string> categories;
  std::string created;  ///< YYYY-MM-DD
  std::vector<std::string> body;        ///< in-body passages, in order
  std::vector<std::string> references;  ///< paper ids it cites
};

struct RepoItem {
  std::string kind;  ///< issue | pull_request
  std::int64_t number = 0;
  std::string title;
  std::string body;
};

struct Repo {
  std::string name;  ///< owner/name
  std::string description;
  std::string language;
  std::string license;  ///< SPDX id, "" when none
  std::int64_t stars = 0;
  bool archived = false;
  bool fork = false;
  std::vector<std::string> topics;
  std::string readme;
  std::vector<RepoItem> items;
};

const std::vector<Paper>& research_papers();
const std::vector<Repo>& research_repos();

/// The hosts the corpus lives on.
inline constexpr const char* kPapersHost = "papers.example.test";
inline constexpr const char* kCodeHost = "code.example.test";

}  // namespace webdata::mock::search
