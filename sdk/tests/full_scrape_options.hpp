#pragma once

// Scrape options with every member set, each to a value other than its default: what the request
// tests send, models_test.cpp to hold its exact wire form, contract_test.cpp to validate it (and
// the v1 options, crawl and search requests built on the same members) against the schemas.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "webdata/webdata.hpp"

namespace webdata::testing {

/// Sets the members the v1 and v2 scrape options both have.
template <class Options>
void set_shared_scrape_options(Options& o) {
  o.only_main_content = true;
  o.include_tags = {"main"};
  o.exclude_tags = {"nav", "footer"};
  o.max_age = std::chrono::hours(48);
  o.headers = std::map<std::string, std::string>{{"Cookie", "a=b"}};
  o.wait_for = std::chrono::milliseconds(100);
  o.mobile = false;
  o.skip_tls_verification = true;
  o.timeout = std::chrono::seconds(30);
  o.location = Location{"DE", std::vector<std::string>{"de-DE"}};
  o.remove_base64_images = true;
  o.block_ads = true;
  o.store_in_cache = true;
  o.zero_data_retention = false;
  o.origin = "webdata-cpp";
  o.integration = "sdk-tests";
}

/// Every v2 scrape option set: each format kind and action kind, with all their options.
inline ScrapeOptions full_scrape_options() {
  ScrapeOptions options;
  options.formats = {
      "markdown",
      "summary",
      "html",
      "rawHtml",
      "links",
      "images",
      "branding",
      FormatEntry::json_extraction(
          Json::parse(R"({"type":"object","properties":{"price":{"type":"number"}}})").value(),
          "The price"),
      FormatEntry::screenshot(true, 90, Viewport{1280, 720}),
      FormatEntry::change_tracking(std::vector<std::string>{"git-diff", "json"},
                                   Json::parse(R"({"type":"object"})").value(), "what changed",
                                   "daily")};
  set_shared_scrape_options(options);
  Parser pdf("pdf");
  pdf.max_pages = 10;
  options.parsers = {pdf};
  options.actions = {Action::wait(std::chrono::milliseconds(100)),
                     Action::wait_for("#app"),
                     Action::click("a.more", false),
                     Action::write("query"),
                     Action::press("Enter"),
                     Action::scroll("down", std::string("#list")),
                     Action::screenshot(true, 50, Viewport{800, 600}),
                     Action::scrape(),
                     Action::execute_javascript("return 1"),
                     Action::pdf("A4", false, 1.0)};
  options.proxy = ProxyMode::automatic();
  return options;
}

}  // namespace webdata::testing
