#pragma once

#include <string>

#include <nlohmann/json.hpp>

// POST /v2/crawl/params-preview: the crawl options a natural-language prompt implies. The real
// service asks a language model; the mock reads the prompt with fixed rules (the same prompt
// always gives the same options), so that a client's preview-then-crawl flow can be tested.

namespace webdata::mock::jobs {

/// The v2 crawl options a prompt implies, e.g. "only the blog, at most 50 pages, 2 levels deep,
/// skip the sitemap" -> {"includePaths":["^/blog(/.*)?$"],"limit":50,"maxDiscoveryDepth":2,
/// "sitemap":"skip"}. Rules (case-insensitive):
///  - a count of pages ("50 pages", "limit 50", "up to 50", "at most 50") -> `limit`;
///  - "N levels" / "depth N" -> `maxDiscoveryDepth`;
///  - sections (blog, docs, news, products, pricing, careers, about, help, api, guides,
///    changelog, or an explicit "/path") -> `includePaths`, or `excludePaths` after a word of
///    exclusion (except, exclude, excluding, skip, without, not, no, ignore);
///  - "subdomains" -> `allowSubdomains`, "external" -> `allowExternalLinks`, "entire site" /
///    "whole site" / "entire domain" / "whole domain" -> `crawlEntireDomain`,
///    "sitemap only" / "only the sitemap" -> sitemap "only", "skip/ignore/no/without sitemap" ->
///    sitemap "skip", "ignore robots" -> `ignoreRobotsTxt`, "query parameters" with a word of
///    exclusion -> `ignoreQueryParameters`.
/// Only the options the prompt implies are set.
nlohmann::json crawl_options_from_prompt(const std::string& prompt);

}  // namespace webdata::mock::jobs
