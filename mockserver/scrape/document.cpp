// Stage document: the scrape document (`data` with its `metadata`) and what the outcome says of
// the page; and a PDF's document, which is made from the file without the content pipeline.
#include <algorithm>

#include "core/base64.hpp"
#include "core/ids.hpp"
#include "core/time.hpp"
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;
using requests::ScrapeOptions;

Outcome Scraper::finish(Outcome out, json data, json metadata, const std::string& url,
                        const content::Page& page, const Fetched& got) const {
  metadata["sourceURL"] = url;
  metadata["url"] = page.url;
  if (!drop_status_code_) metadata["statusCode"] = page.status_code;
  if (!page.content_type.empty()) metadata["contentType"] = page.content_type;
  metadata["scrapeId"] = uuid4();
  metadata["proxyUsed"] = got.proxy_used;
  metadata["cacheState"] = got.hit ? "hit" : "miss";
  if (got.hit) metadata["cachedAt"] = iso8601(got.cached_at);
  metadata["creditsUsed"] = out.credits;
  data["metadata"] = std::move(metadata);
  out.document = std::move(data);
  out.status_code = page.status_code;
  out.final_url = page.url;
  out.content_type = page.content_type;
  return out;
}

Outcome Scraper::scrape_pdf(const ScrapeOptions& options, const std::string& url,
                            const Plan& plan, Fetched& got, const Decoded& decoded) {
  Outcome out;
  const web::FetchResult& file = got.answer();
  json data = json::object();
  json metadata = json::object();
  // The text as markdown billed per page when asked for; otherwise the file itself,
  // base64-encoded, for one credit.
  if (decoded.pdf) {
    if (options.wants("markdown")) data["markdown"] = decoded.pdf->markdown;
    if (!decoded.pdf->title.empty()) metadata["title"] = decoded.pdf->title;
    metadata["numPages"] = decoded.pdf->num_pages;
    out.credits = std::max(1, decoded.pdf->num_pages);
  } else {
    data["markdown"] = base64_encode(file.body);
    out.credits = 1;
  }
  if (got.proxy_used == "enhanced" && !got.hit) out.credits = std::max<std::int64_t>(out.credits, 5);
  if (options.wants("rawHtml")) data["rawHtml"] = base64_encode(file.body);
  content::Page page;  // what the document says of the file (its body is not needed)
  page.url = file.url;
  page.status_code = file.status;
  page.content_type = file.content_type;
  keep(plan, got, clock_.now());
  return finish(std::move(out), std::move(data), std::move(metadata), url, page, got);
}

}  // namespace webdata::mock::scrape
