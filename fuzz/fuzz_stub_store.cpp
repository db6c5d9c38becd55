// The WireMock mapping loader: one untrusted mapping (or {"mappings": [...]}) is compiled, listed
// and matched against a few requests, then removed. The store's root holds the bundled bodies
// (`__files/`) and no mappings, so `bodyFileName` is exercised too.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "web/stub_store.hpp"

namespace {

namespace web = webdata::mock::web;

web::StubStore& store() {
  static web::StubStore* instance = [] {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / "webdata-fuzz-stub-root";
    std::error_code ec;
    fs::create_directories(root, ec);
    if (!fs::exists(root / "__files")) {
      fs::create_directory_symlink(fs::path(WEBDATA_FUZZ_FIXTURES) / "web" / "__files",
                                   root / "__files", ec);
    }
    return new web::StubStore(root);
  }();
  return *instance;
}

std::vector<web::StubRequest> probes() {
  std::vector<web::StubRequest> out(4);
  out[0].url = "/";
  out[0].headers = {{"Host", "docs.example.test"}};
  out[1].method = "POST";
  out[1].url = "/v2/scrape?x=1&y=%20z";
  out[1].headers = {{"Host", "127.0.0.1:3002"}, {"Content-Type", "application/json"},
                    {"Authorization", "Bearer test-key"}};
  out[1].body = R"({"url":"https://pinned.example/a","formats":["markdown"],"n":[1,2.5,null]})";
  out[2].url = "/a/b/c.html?q=search#frag";
  out[2].headers = {{"Host", "shop.example.test"}, {"Accept-Language", "de"}};
  out[3].method = "PUT";
  out[3].url = "/__admin/x";
  out[3].body = "not json";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = nlohmann::ordered_json::parse(
      std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (parsed.is_discarded()) return 0;
  std::vector<nlohmann::ordered_json> mappings;
  if (parsed.is_object() && parsed.contains("mappings") && parsed["mappings"].is_array()) {
    for (auto& m : parsed["mappings"]) mappings.push_back(m);
  } else {
    mappings.push_back(parsed);
  }
  auto& stubs = store();
  std::vector<std::string> ids;
  for (const auto& mapping : mappings) {
    try {
      ids.push_back(stubs.add_ordered(mapping));
    } catch (const web::MappingError& e) {
      (void)e.reason();
    }
  }
  static const auto requests = probes();
  for (const auto& request : requests) (void)stubs.match(request);
  (void)stubs.mappings_json().dump();
  (void)stubs.scenarios_json().dump();
  (void)stubs.hosts();
  (void)stubs.pages();
  for (const auto& id : ids) (void)stubs.remove(id);
  stubs.reset_scenarios();
  if (stubs.size() != 0) __builtin_trap();  // every mapping added was removed again
  return 0;
}
