#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/time.hpp"

namespace webdata {

/// A metadata value the SDK has no field for: a string (most `<meta>` tags), a string array
/// (a repeated meta tag) or any other JSON.
using MetadataValue = std::variant<std::string, std::vector<std::string>, Json>;

/// `metadata` of a scrape document. Known keys are typed; every other key is kept in `extras`,
/// and so is a known key whose value has an unexpected type (e.g. a repeated `title` meta).
struct Metadata {
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> language;
  std::optional<std::string> source_url;  ///< `sourceURL`: the URL as requested.
  std::optional<std::string> url;         ///< Final URL after redirects.
  std::optional<std::string> keywords;
  std::optional<std::string> robots;
  std::optional<std::string> og_title;
  std::optional<std::string> og_description;
  std::optional<std::string> og_url;
  std::optional<std::string> og_image;
  std::optional<std::string> og_site_name;
  std::optional<std::vector<std::string>> og_locale_alternate;
  std::optional<int> status_code;  ///< HTTP status of the target page.
  std::optional<std::string> error;
  std::optional<std::string> scrape_id;
  std::optional<std::string> content_type;
  std::optional<ProxyMode> proxy_used;
  std::optional<std::string> cache_state;  ///< `hit` or `miss`.
  std::optional<Timestamp> cached_at;
  std::optional<int> credits_used;
  std::optional<int> num_pages;  ///< PDFs.
  std::optional<std::string> favicon;
  /// Every other key, by its wire name.
  std::map<std::string, MetadataValue> extras;

  /// An extra key as a string (the first element when it is an array).
  std::optional<std::string> extra_string(const std::string& key) const;
};

}  // namespace webdata
