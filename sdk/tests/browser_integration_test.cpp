// The SDK's browser session and interact calls over real HTTP against a webdata-mock process.
#include <catch2/catch.hpp>

#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::MockAndClient;

TEST_CASE_METHOD(MockAndClient, "Client browser sessions: create, execute, list, delete",
                 "[integration][browser]") {
  webdata::BrowserRequest request;
  request.ttl = 120;
  auto session = client.create_browser(request);
  REQUIRE(session.ok());
  CHECK_FALSE(session->id.empty());
  CHECK_FALSE(session->cdp_url.empty());
  CHECK(session->expires_at.has_value());

  webdata::BrowserExecuteRequest code;
  code.code = "open https://pages-5.synthetic.test/\nget url";
  auto ran = client.browser_execute(session->id, code);
  REQUIRE(ran.ok());
  CHECK(ran->exit_code == 0);
  CHECK(ran->result == "https://pages-5.synthetic.test/");

  auto active = client.list_browsers("active");
  REQUIRE(active.ok());
  REQUIRE(active->size() == 1);
  CHECK(active->front().id == session->id);
  CHECK(active->front().status == "active");

  auto ended = client.delete_browser(session->id);
  REQUIRE(ended.ok());
  CHECK(ended->status == "destroyed");
  CHECK(ended->credits_billed == 2);
  auto gone = client.browser_execute(session->id, code);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().http_status == 410);
  // A profile saved by one session is where the next one starts.
  webdata::BrowserRequest saving;
  saving.profile = webdata::BrowserProfile{"work", true};
  auto first = client.create_browser(saving);
  REQUIRE(first.ok());
  REQUIRE(client.browser_execute(first->id, code).ok());
  REQUIRE(client.delete_browser(first->id).ok());
  webdata::BrowserRequest reading;
  reading.profile = webdata::BrowserProfile{"work", std::nullopt};
  auto second = client.create_browser(reading);
  REQUIRE(second.ok());
  webdata::BrowserExecuteRequest where;
  where.code = "get url";
  auto resumed = client.browser_execute(second->id, where);
  REQUIRE(resumed.ok());
  CHECK(resumed->result == "https://pages-5.synthetic.test/");
  REQUIRE(client.delete_browser(second->id).ok());
  auto unknown = client.delete_browser("no-such-session");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().http_status == 404);
}

TEST_CASE_METHOD(MockAndClient, "Client interact: a prompt on a scrape's page, then stop",
                 "[integration][browser]") {
  webdata::ScrapeRequest scrape;
  scrape.url = "https://pages-5.synthetic.test/";
  auto doc = client.scrape(scrape);
  REQUIRE(doc.ok());
  REQUIRE(doc->metadata.scrape_id.has_value());
  const std::string id = *doc->metadata.scrape_id;
  webdata::InteractRequest prompt;
  prompt.prompt = "scroll down";
  auto acted = client.interact(id, prompt);
  REQUIRE(acted.ok());
  CHECK(acted->exit_code == 0);
  CHECK(acted->result.find("URL: https://pages-5.synthetic.test/") != std::string::npos);
  auto stopped = client.stop_interaction(id);
  REQUIRE(stopped.ok());
  CHECK(stopped->status == "destroyed");
  auto again = client.stop_interaction(id);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().http_status == 404);
}
