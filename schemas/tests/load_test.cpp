#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <webdata/contract/schemas.hpp>

#include "source_dir.hpp"

using nlohmann::json;
using webdata::contract::SchemaSet;
namespace fs = std::filesystem;
using webdata::contract::testing::kSource;

namespace {

// A scratch copy of the schema tree that a test may break.
struct ScratchTree {
  fs::path root;
  ScratchTree() {
    root = fs::temp_directory_path() /
           ("webdata-contract-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    for (const char* dir : {"common", "v1", "v2"}) {
      fs::create_directories(root / dir);
      fs::copy(kSource / dir, root / dir);
    }
  }
  ~ScratchTree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void write(const std::string& rel, const std::string& text) const {
    std::ofstream(root / rel, std::ios::binary | std::ios::trunc) << text;
  }
};

std::string load_error(const fs::path& dir) {
  try {
    SchemaSet::load(dir);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the embedded set is the source tree's set", "[load]") {
  const auto& embedded = SchemaSet::embedded();
  const SchemaSet loaded = SchemaSet::load(kSource);
  REQUIRE(loaded.names() == embedded.names());
  for (const auto& name : embedded.names()) {
    INFO(name);
    CHECK(loaded.document(name) == embedded.document(name));
  }
  CHECK(&SchemaSet::embedded() == &embedded);
}

TEST_CASE("every schema the contract names exists", "[load]") {
  const auto& schemas = SchemaSet::embedded();
  for (const char* common : {"scrape-document",
                             "actions-result",
                             "metadata",
                             "change-tracking",
                             "format-entry.v2",
                             "format.v1",
                             "action",
                             "location",
                             "webhook-spec",
                             "search-web-item",
                             "search-image-item",
                             "search-news-item",
                             "job-start",
                             "job-status",
                             "active-crawl",
                             "agent-result",
                             "error",
                             "webhook-event",
                             "crawl-errors",
                             "cancel"}) {
    INFO(common);
    CHECK(schemas.has(std::string("common/") + common));
  }
  for (const char* version : {"v1", "v2"}) {
    for (const char* endpoint : {"scrape", "batch-scrape", "crawl", "search"}) {
      INFO(version << " " << endpoint);
      CHECK(schemas.has(std::string(version) + "/" + endpoint + ".request"));
      CHECK(schemas.has(std::string(version) + "/" + endpoint + ".response"));
    }
    for (const char* endpoint :
         {"batch-scrape-status", "batch-scrape-cancel", "batch-scrape-errors", "crawl-status",
          "crawl-cancel", "crawl-errors", "crawl-active"}) {
      INFO(version << " " << endpoint);
      CHECK(schemas.has(std::string(version) + "/" + endpoint + ".response"));
      CHECK_FALSE(schemas.has(std::string(version) + "/" + endpoint + ".request"));
    }
  }
  CHECK(schemas.has("v2/agent.request"));
  CHECK(schemas.has("v2/agent.response"));
}

TEST_CASE("a loaded set validates like the embedded one", "[load]") {
  ScratchTree tree;
  tree.write("v2/location-only.request.json", R"({"$ref": "../common/location.json"})");
  const SchemaSet set = SchemaSet::load(tree.root);
  CHECK(set.has("v2/location-only.request"));
  CHECK_FALSE(SchemaSet::embedded().has("v2/location-only.request"));
  CHECK(set.validate("v2/location-only.request", {{"country", "DE"}}).empty());
  const auto issues = set.validate("v2/location-only.request", {{"country", 1}});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == json{"country"});
}

TEST_CASE("load reports the broken file", "[load]") {
  CHECK(load_error(kSource / "no-such-directory").find("no-such-directory") != std::string::npos);

  {
    ScratchTree tree;
    tree.write("common/location.json", "{ not json");
    CHECK(load_error(tree.root).find("location.json") != std::string::npos);
  }
  {
    ScratchTree tree;
    tree.write("v2/crawl.response.json", R"({"$ref": "../common/job-begin.json"})");
    const std::string error = load_error(tree.root);
    CHECK(error.find("crawl.response.json") != std::string::npos);
    CHECK(error.find("job-begin") != std::string::npos);
  }
  {
    ScratchTree tree;
    tree.write("v2/crawl.response.json",
               R"({"$ref": "../common/job-start.json#/properties/nope"})");
    CHECK(load_error(tree.root).find("crawl.response.json") != std::string::npos);
  }
}
