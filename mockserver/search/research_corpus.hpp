#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The research corpus: pages of the virtual web, read once into papers and repositories. Papers
// live on a papers site (papers.example.test/abs/<arXiv id or paper id>: `citation_*` meta tags
// as real paper sites have them, the abstract, the in-body passages as paragraphs and the
// references as links); repositories on a GitHub-like site (code.example.test/<owner>/<name>
// with its description, facts and readme; /issues/<n> and /pull/<n> pages). The bundled web
// holds a small fixed corpus (mockserver/fixtures/web/), so rankings are deterministic; pages of
// a user's own web roots on these hosts join it.

namespace webdata::mock::web {
class VirtualWeb;
}

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
  std::string updated;  ///< YYYY-MM-DD: the last revision, else `created`
  std::vector<std::string> body;        ///< in-body passages, in order
  std::vector<std::string> references;  ///< paper ids it cites
  std::string url;                      ///< its page
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
  std::string readme;  ///< markdown
  std::vector<RepoItem> items;  ///< by number
};

/// What the corpus sites hold: papers by paper id, repositories by name.
struct ResearchCorpus {
  std::vector<Paper> papers;
  std::vector<Repo> repos;
};

/// Reads every page the virtual web serves on the corpus hosts (VirtualWeb::known_urls()) and
/// parses it with the content pipeline. Pages that are neither a paper (no `citation_title`) nor
/// a repository, issue or pull request page are left out, as are references to papers the
/// corpus does not hold and issues of repositories it does not hold.
ResearchCorpus read_research_corpus(const web::VirtualWeb& web);

/// The hosts the corpus lives on.
inline constexpr const char* kPapersHost = "papers.example.test";
inline constexpr const char* kCodeHost = "code.example.test";

}  // namespace webdata::mock::search
