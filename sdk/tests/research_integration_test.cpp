// Research, developer search, feedback and support ask through the SDK against a webdata-mock
// process: typed answers over the mock's bundled corpus, and its errors.
#include <catch2/catch.hpp>

#include <string>

#include "sdk_mock.hpp"
#include "webdata/webdata.hpp"

using webdata::testing::MockAndClient;

TEST_CASE_METHOD(MockAndClient,
                 "research: papers searched, inspected, read and related through the SDK",
                 "[research]") {
  webdata::SearchPapersRequest search;
  search.query = "graph neural network molecules";
  search.k = 3;
  const auto found = client.search_papers(search);
  REQUIRE(found.ok());
  REQUIRE(found->results.size() == 3);
  CHECK(found->results[0].paper_id == "1004");
  CHECK(found->results[0].ids.at("arxiv").front() == "2205.00404");
  const auto paper = client.get_paper(found->results[1].primary_id);
  REQUIRE(paper.ok());
  CHECK(paper->paper.title == found->results[1].title);
  CHECK(paper->passages.empty());
  const auto read = client.read_paper("arxiv:2101.00101", "which dataset", 1);
  REQUIRE(read.ok());
  REQUIRE(read->passages.size() == 1);
  CHECK(read->passages[0].text.find("QM9") != std::string::npos);
  webdata::SimilarPapersRequest similar;
  similar.intent = "molecule property prediction";
  similar.k = 1;
  const auto related = client.similar_papers("1001", similar);
  REQUIRE(related.ok());
  CHECK(related->truncated);
  REQUIRE(related->results.size() == 1);
  CHECK(related->results[0].signals.has_value());
  const auto missing = client.get_paper("no-such-paper");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().http_status == 404);
}

TEST_CASE_METHOD(
    MockAndClient,
    "research: GitHub slice, developer search, feedback and support ask through the SDK",
    "[research]") {
  const auto gh = client.search_github("retry backoff", 2);
  REQUIRE(gh.ok());
  REQUIRE_FALSE(gh->results.empty());
  CHECK(gh->results[0].repo == "acme/flowpipe");
  CHECK(gh->replacement == "/v2/search/developer");
  webdata::DeveloperSearchRequest dev;
  dev.query = "backoff";
  dev.repos = {"acme/flowpipe"};
  dev.types = {"pull_request"};
  const auto found = client.developer_search(dev);
  REQUIRE(found.ok());
  REQUIRE(found->results.size() == 1);
  CHECK(found->results[0].id == "pull_request:acme/flowpipe#415");
  CHECK(found->results[0].license_spdx == "Apache-2.0");
  webdata::FeedbackRequest fb;
  fb.rating = "good";
  fb.valuable_sources = {"https://docs.example.test/"};
  // Feedback names a search the mock answered this team (its `id`).
  const auto searched = client.search("webhooks");
  REQUIRE(searched.ok());
  REQUIRE(searched->id.has_value());
  const auto receipt = client.search_feedback(*searched->id, fb);
  REQUIRE(receipt.ok());
  CHECK_FALSE(receipt->feedback_id.empty());
  const auto again = client.search_feedback(*searched->id, fb);
  REQUIRE(again.ok());
  CHECK(again->already_submitted);
  const auto never_made = client.search_feedback("0e8b1f5e-8c1d-4b35-9a0e-1c7d3f0a2b44", fb);
  REQUIRE_FALSE(never_made.ok());
  CHECK(never_made.error().http_status == 404);
  webdata::FeedbackRequest bare;
  bare.rating = "good";  // a good rating without a valuable source
  const auto refused_rating = client.search_feedback(*searched->id, bare);
  REQUIRE_FALSE(refused_rating.ok());
  CHECK(refused_rating.error().http_status == 400);
  fb.endpoint = "scrape";
  fb.job_id = "0e8b1f5e-8c1d-4b35-9a0e-1c7d3f0a2b44";  // no such scrape
  const auto refused = client.feedback(fb);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 404);
  const auto general = client.support_ask("how do I crawl?");
  REQUIRE(general.ok());
  CHECK_FALSE(general->answer.empty());
  const auto unknown = client.support_ask("why?", "0e8b1f5e-8c1d-4b35-9a0e-1c7d3f0a2b44");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().http_status == 404);
}
