#include "search/site_filters.hpp"

#include "core/text.hpp"
#include "search/service.hpp"

namespace webdata::mock::search {

bool host_has_label(const std::string& host, const std::string& label) {
  std::size_t start = 0;
  while (start <= host.size()) {
    std::size_t end = host.find('.', start);
    if (end == std::string::npos) end = host.size();
    if (host.compare(start, end - start, label) == 0) return true;
    start = end + 1;
  }
  return false;
}

bool host_in_site(const std::string& host, const std::string& site) {
  return host == site || (host.size() > site.size() &&
                          host.compare(host.size() - site.size(), site.size(), site) == 0 &&
                          host[host.size() - site.size() - 1] == '.');
}

/// site: "example.com" or "example.com/docs" against a page.
bool matches_site(const PageRecord& page, const std::string& site) {
  const auto slash = site.find('/');
  const std::string host = site.substr(0, slash);
  if (!host_in_site(page.host, host)) return false;
  if (slash == std::string::npos) return true;
  return to_lower(page.path).rfind(site.substr(slash), 0) == 0;
}

bool url_contains(const PageRecord& page, const std::string& word) {
  return to_lower(page.url).find(word) != std::string::npos;
}

bool in_category(const PageRecord& page, const std::string& category) {
  if (category == "pdf") return page.filetype == "pdf";
  if (category == "github") return host_has_label(page.host, "github");
  if (category == "developer") {
    // Developer documentation and Q&A: by the host's labels or a documentation path.
    static const char* const kDeveloperLabels[] = {
        "docs",   "developer",     "developers",    "dev",   "devdocs", "readthedocs", "github",
        "gitlab", "stackoverflow", "stackexchange", "npmjs", "pypi",    "crates",      "mdn"};
    for (const char* label : kDeveloperLabels) {
      if (host_has_label(page.host, label)) return true;
    }
    const std::string path = to_lower(page.path);
    for (const char* prefix : {"/docs/", "/api/", "/reference/", "/developers/"}) {
      if (path.rfind(prefix, 0) == 0) return true;
    }
    return false;
  }
  if (category == "research") {
    static const char* const kResearchLabels[] = {
        "arxiv",    "scholar", "researchgate",  "semanticscholar",
        "pubmed",   "ncbi",    "biorxiv",       "medrxiv",
        "ssrn",     "acm",     "ieee",          "jstor",
        "springer", "nature",  "sciencedirect", "openreview",
        "research", "papers"};
    for (const char* label : kResearchLabels) {
      if (host_has_label(page.host, label)) return true;
    }
    const auto dot = page.host.rfind('.');
    const std::string tld = dot == std::string::npos ? page.host : page.host.substr(dot + 1);
    return tld == "edu" || page.host.find(".ac.") != std::string::npos;
  }
  return false;
}

}  // namespace webdata::mock::search
