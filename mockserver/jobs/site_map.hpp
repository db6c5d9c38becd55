#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "web/virtual_web.hpp"

// Map: the URLs of a site, found without scraping it (POST /v1|v2/map). It lives beside the
// crawler because it reads the site the same way a crawl's first step does: robots.txt,
// sitemaps (indexes followed) and links, with the same scope and URL-identity rules.

namespace webdata::mock::jobs {

struct MapOptions {
  std::string url;                  ///< Absolute http(s) URL of the site (or a section of it).
  std::string sitemap = "include";  ///< include | only | skip
  bool include_subdomains = true;
  bool ignore_query_parameters = true;  ///< URLs differing only by their query are one page.
  std::size_t limit = 5000;
  /// Pages fetched to read their links (and titles) beyond the start page; a site without a
  /// sitemap is found this far. Each costs a fetch and a parse, so it stays small.
  std::size_t page_budget = 50;
  std::string accept_language;  ///< From `location.languages`; empty for the default.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// One URL of the site; `title` and `description` only for pages that were read.
struct MapLink {
  std::string url;
  std::string title;
  std::string description;
};

struct MapResult {
  std::vector<MapLink> links;  ///< Start URL first, then sitemap order, then link order.
  bool timed_out = false;      ///< The deadline passed before the site was read.
  std::size_t robots_blocked = 0;  ///< URLs left out because robots.txt disallows them.
  /// When the map is due: the delays of the pages it read, one after another (nothing is slept;
  /// the caller answers at this time). At the deadline when it timed out.
  std::chrono::steady_clock::time_point ready_at{};
};

/// Reads the site: robots.txt, every sitemap it names plus /sitemap.xml (unless `skip`), and,
/// unless `only`, the links of the start page and of up to `page_budget` further pages, breadth
/// first. Keeps URLs in scope (same site, or its subdomains when asked; below the start path),
/// allowed by robots.txt, one per identity, at most `limit`. Returns at once; the result is due
/// at `ready_at`. Thread-safe (reads only `web`).
MapResult map_site(const web::VirtualWeb& web, const MapOptions& options);

}  // namespace webdata::mock::jobs
