#pragma once

// Reading one page of the virtual web into a PageRecord (SearchService::read_page): HTML through
// content::Document, PDF through formats/pdf (the reader scrape's `pdf` parser uses).

#include <chrono>
#include <string>

namespace webdata::mock::search {

/// How long indexing waits for one page of the virtual web.
inline constexpr std::chrono::milliseconds kIndexFetchTimeout{5000};

/// The lower-case extension of a URL path ("pdf" for "/a/report.PDF?x=1"); empty without one.
std::string file_extension(const std::string& path);

}  // namespace webdata::mock::search
