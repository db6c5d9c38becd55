#include <catch2/catch.hpp>

#include "webdata/webhooks.hpp"

namespace wh = webdata::webhooks;

namespace {
const std::string kBody =
    R"({"success":true,"type":"crawl.page","id":"crawl-123","webhookId":"webhook-123","data":[]})";
const std::string kSignature =
    "sha256=29729c39fd5f57c6f4d50c86dd20256a5d77b7b39d19531c17805163fb830d40";
}  // namespace

TEST_CASE("the wire-decisions test vector verifies", "[webhooks]") {
  CHECK(wh::sign("secret", kBody) == kSignature);
  CHECK(wh::verify_signature("secret", kBody, kSignature));
}

TEST_CASE("bad signatures are refused", "[webhooks]") {
  CHECK_FALSE(wh::verify_signature("other-secret", kBody, kSignature));
  std::string tampered = kBody;
  tampered.replace(tampered.find("crawl-123"), 9, "crawl-124");
  CHECK_FALSE(wh::verify_signature("secret", tampered, kSignature));
  CHECK_FALSE(wh::verify_signature("secret", kBody + " ", kSignature));
  CHECK_FALSE(wh::verify_signature("secret", kBody, kSignature.substr(7)));  // no prefix
  CHECK_FALSE(wh::verify_signature("secret", kBody, "sha1=" + kSignature.substr(7)));
  CHECK_FALSE(wh::verify_signature("secret", kBody, "sha256=" + kSignature.substr(7, 63)));
  CHECK_FALSE(wh::verify_signature("secret", kBody, "sha256=" + std::string(64, 'z')));
  CHECK_FALSE(wh::verify_signature("secret", kBody, ""));
  std::string flipped = kSignature;
  flipped.back() = flipped.back() == '0' ? '1' : '0';
  CHECK_FALSE(wh::verify_signature("secret", kBody, flipped));
}

TEST_CASE("upper-case hex and surrounding blanks are accepted", "[webhooks]") {
  std::string upper = kSignature;
  for (std::size_t i = 7; i < upper.size(); ++i) {
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
  }
  CHECK(wh::verify_signature("secret", kBody, " " + upper + " "));
}

TEST_CASE("events are parsed into typed payloads", "[webhooks]") {
  const std::string page = R"({"success": true, "type": "batch_scrape.page", "id": "job-1",
    "data": [{"markdown": "# A", "metadata": {"sourceURL": "https://a.test", "statusCode": 200}}],
    "metadata": {"run": "42"}, "error": null, "attempt": 2})";
  auto event = wh::verify_and_parse("s3cret", page, wh::sign("s3cret", page));
  REQUIRE(event.ok());
  CHECK(event->type == wh::EventType::batch_scrape_page());
  CHECK(event->type.job_kind() == "batch_scrape");
  CHECK(event->type.event() == "page");
  CHECK(event->id == "job-1");
  REQUIRE(event->data.size() == 1);
  CHECK(event->data[0].markdown == "# A");
  CHECK(event->metadata->text() == R"({"run":"42"})");
  CHECK_FALSE(event->error);
  CHECK(event->extras.count("attempt") == 1);

  auto failed = wh::parse_event(
      R"({"success": false, "type": "crawl.failed", "id": "c", "data": [], "error": "boom"})");
  REQUIRE(failed.ok());
  CHECK(failed->error == "boom");
  CHECK_FALSE(failed->success);

  auto unsigned_body = wh::verify_and_parse("s3cret", page, std::nullopt);
  REQUIRE_FALSE(unsigned_body.ok());
  CHECK(unsigned_body.error().kind == webdata::ErrorKind::kInvalidArgument);
  CHECK_FALSE(wh::verify_and_parse("s3cret", page, wh::sign("wrong", page)).ok());
  CHECK_FALSE(wh::parse_event("{\"type\": ").ok());
  CHECK_FALSE(wh::parse_event(R"({"id": "no type"})").ok());
}
