#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"

namespace webdata {

/// Webhook of a crawl, batch scrape or agent run. Sent as the bare URL string when only `url` is set,
/// otherwise as `{url, headers?, metadata?, events?}`.
struct WebhookSpec {
  std::string url;
  std::optional<std::map<std::string, std::string>> headers;
  /// Free-form object echoed back in every delivery as `metadata`, e.g.
  /// `webdata::Json::object(std::map<std::string, std::string>{{"run", "42"}})`.
  std::optional<Json> metadata;
  /// Default (unset): every event.
  std::optional<std::vector<WebhookEventKind>> events;

  WebhookSpec() = default;
  WebhookSpec(std::string receiver_url)
      : url(std::move(receiver_url)) {}  // NOLINT(google-explicit-constructor)
  WebhookSpec(const char* receiver_url)
      : url(receiver_url) {}  // NOLINT(google-explicit-constructor)
};

}  // namespace webdata
