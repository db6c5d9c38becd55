#pragma once

// The host and URL tests behind the search operators (site:, inurl:, includeDomains, related:)
// and the categories (in_category, declared with SearchService).

#include <string>

#include "search/index.hpp"

namespace webdata::mock::search {

/// `label` is one of the dot-separated labels of `host` ("github" in "docs.github.com").
bool host_has_label(const std::string& host, const std::string& label);
/// `host` is `site` or a subdomain of it.
bool host_in_site(const std::string& host, const std::string& site);
/// site: "example.com" or "example.com/docs" against a page.
bool matches_site(const PageRecord& page, const std::string& site);
/// The page's URL, lower-cased, contains `word` (already lower case).
bool url_contains(const PageRecord& page, const std::string& word);

}  // namespace webdata::mock::search
