#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Sitemaps (sitemaps.org protocol 0.9), read by an XML parser (pugixml, ADR 0020): a crawl's and
// a map's second source of URLs after robots.txt. No I/O here; the caller fetches.

namespace webdata::mock::jobs {

/// What a sitemap document gave: its `<loc>` entries, or why it gave none.
struct Sitemap {
  bool is_index = false;  ///< `<sitemapindex>`: the locations are further sitemaps.
  std::vector<std::string> locations;
  /// Why the document is not a sitemap ("" when it is): malformed XML (with the byte offset),
  /// another root element, a gzip stream that does not inflate or inflates past 50 MiB.
  std::string error;
};

/// Reads a sitemap or sitemap index: XML, or XML compressed with gzip (`.xml.gz`, recognised by
/// its magic bytes, not its name). Elements are matched by their local name in the sitemap
/// namespace (or none), so `<sm:loc>` counts and an extension's `<image:loc>` does not; `<loc>`
/// text is entity-decoded, CDATA is read, surrounding whitespace is dropped.
Sitemap parse_sitemap(std::string_view body);

/// Reads the sitemaps in `start` in order, following indexes breadth first, and hands each page
/// URL to `on_page`. A sitemap is read once; 50 at most, so a hostile index cannot loop; `fetch`
/// answers nullopt for a sitemap that cannot be read. One that cannot be read or parsed is
/// skipped (the crawl goes on without it). Stops early when `stop` says so.
void follow_sitemaps(std::vector<std::string> start,
                     const std::function<std::optional<std::string>(const std::string&)>& fetch,
                     const std::function<void(const std::string&)>& on_page,
                     const std::function<bool()>& stop = {});

}  // namespace webdata::mock::jobs
