// Stage plan: what the options decide before anything is fetched.
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

using requests::ScrapeOptions;

namespace {

/// The page cache's key: the URL and what changes what a site answers (device, languages,
/// country, the proxy a page came through).
std::string cache_key(const ScrapeOptions& options, const std::string& url) {
  std::string key = url;
  key += options.mobile ? "|mobile" : "|desktop";
  key += "|" + options.accept_language();
  key += "|" + options.location.country;
  key += options.proxy_mode() == "enhanced" ? "|enhanced" : "|basic";
  return key;
}

}  // namespace

content::Options content_options(const ScrapeOptions& options) {
  content::Options out;
  out.only_main_content = options.only_main_content;
  if (options.include_tags) out.include_tags = *options.include_tags;
  if (options.exclude_tags) out.exclude_tags = *options.exclude_tags;
  out.remove_base64_images = options.remove_base64_images;
  out.block_ads = options.block_ads;
  return out;
}

std::optional<Failure> make_plan(const ScrapeOptions& options, const Url& url, bool upload,
                                 Plan& out) {
  out.timeout = std::chrono::milliseconds(options.timeout);
  out.wait_for = std::chrono::milliseconds(options.wait_for);
  if (out.wait_for >= out.timeout) return no_time_left("waitFor", "leaves", out.wait_for, out.timeout);
  out.fetch_timeout = out.timeout - out.wait_for;
  out.proxy = options.proxy_mode();
  out.lockdown = rules_of(options.version).has_lockdown && options.lockdown;
  out.zero_retention = options.keeps_nothing();
  const bool sensitive = options.sensitive();
  out.store = !upload && options.store_in_cache && !sensitive && !out.zero_retention;
  out.max_age = std::chrono::milliseconds(options.max_age);
  out.key = cache_key(options, url.str());
  const bool readable = !upload && out.max_age.count() > 0 && !sensitive &&
                        (!out.zero_retention || out.lockdown);
  if (!readable) out.max_age = std::chrono::milliseconds(0);
  return std::nullopt;
}

}  // namespace webdata::mock::scrape
