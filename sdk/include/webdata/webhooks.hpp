#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webdata/document.hpp"
#include "webdata/json.hpp"
#include "webdata/open_enum.hpp"
#include "webdata/result.hpp"
#include "webdata/transport.hpp"

/// Receiving webhook deliveries: check the signature, then read the event.
///
///     auto event = webdata::webhooks::verify_and_parse(secret, body,
///                                                      request.header("X-Service-Signature"));
///     if (!event.ok()) return respond(401);
///     if (event->type == webdata::webhooks::EventType::crawl_page()) store(event->data);
namespace webdata::webhooks {

/// The signature header the specification names. Some deployments use another name (e.g.
/// `X-Firecrawl-Signature`); the verifier only needs the header's value.
inline constexpr const char* kSignatureHeader = "X-Service-Signature";

/// Event type: crawl.started, crawl.page, crawl.completed, crawl.failed and the same for
/// batch_scrape (open: unknown types survive).
class EventType : public OpenEnum<EventType> {
 public:
  using OpenEnum::OpenEnum;
  static EventType crawl_started() { return EventType("crawl.started"); }
  static EventType crawl_page() { return EventType("crawl.page"); }
  static EventType crawl_completed() { return EventType("crawl.completed"); }
  static EventType crawl_failed() { return EventType("crawl.failed"); }
  static EventType batch_scrape_started() { return EventType("batch_scrape.started"); }
  static EventType batch_scrape_page() { return EventType("batch_scrape.page"); }
  static EventType batch_scrape_completed() { return EventType("batch_scrape.completed"); }
  static EventType batch_scrape_failed() { return EventType("batch_scrape.failed"); }

  /// The part before the dot: "crawl" or "batch_scrape".
  std::string job_kind() const { return value().substr(0, value().find('.')); }
  /// The part after the dot: "started", "page", "completed" or "failed".
  std::string event() const {
    const auto dot = value().find('.');
    return dot == std::string::npos ? value() : value().substr(dot + 1);
  }
};

/// One webhook delivery.
struct Event {
  bool success = false;
  EventType type;
  std::string id;  ///< Job id.
  std::optional<std::string> webhook_id;
  /// `page` events: the scraped page; other events: empty.
  std::vector<Document> data;
  /// The `metadata` of the webhook specification, echoed back.
  std::optional<Json> metadata;
  std::optional<std::string> error;  ///< Set for failed events.
  Extras extras;
  /// Keys of this answer that did not have the expected type (kept in `extras`), one line each.
  Diagnostics diagnostics;
};

/// `sha256=<lowercase hex HMAC-SHA256(secret, raw_body)>`, the header value a sender computes.
std::string sign(std::string_view secret, std::string_view raw_body);

/// True when `header_value` is `sha256=<hex>` of HMAC-SHA256(secret, raw_body). Compares in
/// constant time; hex digits are accepted in either case. Pass the body bytes exactly as
/// received (not re-serialized JSON).
bool verify_signature(std::string_view secret, std::string_view raw_body,
                      std::string_view header_value);

/// Reads a delivery body into an `Event` (kParse error when it is not one).
Result<Event> parse_event(std::string_view raw_body);

/// Verifies, then parses. A bad or missing signature is a kInvalidArgument error and the body
/// is not parsed.
Result<Event> verify_and_parse(std::string_view secret, std::string_view raw_body,
                               const std::optional<std::string>& header_value);

/// The same, taking the delivery's request headers as received: the signature is the value of
/// `header_name` (case-insensitive), for deployments that name it differently.
///
///     auto event = webdata::webhooks::verify_and_parse(secret, body, request_headers);
Result<Event> verify_and_parse(std::string_view secret, std::string_view raw_body,
                               const Headers& headers,
                               const std::string& header_name = kSignatureHeader);

}  // namespace webdata::webhooks
