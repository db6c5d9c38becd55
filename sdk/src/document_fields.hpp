#pragma once

// The field lists of a document and its metadata, shared by the tree codec (codec_models.cpp)
// and the decoder that reads a document from its own text (document_text.cpp).
#include "codec.hpp"

namespace webdata::detail {

template <class IO, class D>
void document_fields(IO& io, D& d) {
  io("markdown", d.markdown);
  io("summary", d.summary);
  io("html", d.html);
  io("rawHtml", d.raw_html);
  io("screenshot", d.screenshot);
  io("links", d.links);
  io("images", d.images);
  io("json", d.json);
  io("llm_extraction", d.llm_extraction);
  io("extract", d.extract);
  io("actions", d.actions);
  io("metadata", d.metadata);
  io("warning", d.warning);
  io("changeTracking", d.change_tracking);
  io("branding", d.branding);
  io("attributes", d.attributes);
  io("answer", d.answer);
  io("highlights", d.highlights);
  io("rawBase64", d.raw_base64);
}

template <class IO, class M>
void metadata_fields(IO& io, M& m) {
  io("title", m.title);
  io("description", m.description);
  io("language", m.language);
  io("sourceURL", m.source_url);
  io("url", m.url);
  io("keywords", m.keywords);
  io("robots", m.robots);
  io("ogTitle", m.og_title);
  io("ogDescription", m.og_description);
  io("ogUrl", m.og_url);
  io("ogImage", m.og_image);
  io("ogSiteName", m.og_site_name);
  io("ogLocaleAlternate", m.og_locale_alternate);
  io("statusCode", m.status_code);
  io("error", m.error);
  io("scrapeId", m.scrape_id);
  io("contentType", m.content_type);
  io("proxyUsed", m.proxy_used);
  io("cacheState", m.cache_state);
  io("cachedAt", m.cached_at);
  io("creditsUsed", m.credits_used);
  io("numPages", m.num_pages);
  io("favicon", m.favicon);
}

/// A metadata value kept as extras: a string, a list of strings, or any other JSON.
MetadataValue to_metadata_value(const Json& j);

}  // namespace webdata::detail
