#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "web/types.hpp"

namespace webdata::mock::web {

/// A stub mapping that cannot be loaded: `source` names the file (and index in a
/// `{"mappings": [...]}` file) or "admin" for `add()`, `reason` says what is wrong.
class MappingError : public std::runtime_error {
 public:
  MappingError(std::string source, std::string reason);
  const std::string& source() const { return source_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string source_;
  std::string reason_;
};

struct Mapping;  // compiled form, private to stub_store.cpp

/// WireMock-compatible stub mappings: `<root>/mappings/**/*.json` (one stub or
/// `{"mappings": [...]}` per file), bodies read from `<root>/__files/`. The supported subset is
/// listed in docs/mockserver/virtual-web.md; anything else is refused when loaded or added.
///
/// Matching follows WireMock: the lowest `priority` wins (1 is highest, default 5); among equal
/// priorities the most recently added mapping wins. All members are thread-safe; `match` also
/// advances scenario states atomically.
class StubStore {
 public:
  /// An empty store with no root (`add` still works; `bodyFileName` then is refused).
  StubStore();
  /// Loads `root` (a missing `mappings/` directory is an empty store). Throws MappingError.
  explicit StubStore(std::filesystem::path root);
  /// Loads the roots in order, each as above: a later root's mappings are newer than an earlier
  /// one's, so they win at equal priority, and one with an earlier root's id replaces that
  /// mapping. Throws MappingError (its source names the file relative to its root).
  explicit StubStore(std::vector<std::filesystem::path> roots);
  ~StubStore();
  StubStore(const StubStore&) = delete;
  StubStore& operator=(const StubStore&) = delete;

  /// Adds one mapping (WireMock `POST /__admin/mappings` body). Returns its id (the given `id` or
  /// `uuid`, else a new UUID); a mapping with an existing id replaces it. Throws MappingError.
  std::string add(const nlohmann::json& mapping);
  /// The same, keeping the key order of `jsonBody` as given (WireMock answers it in that order;
  /// nlohmann::json sorts keys). The admin route should parse request bodies this way.
  std::string add_ordered(const nlohmann::ordered_json& mapping);
  /// Removes the mapping with this id; false when there is none.
  bool remove(const std::string& id);
  /// Back to the mappings loaded from the root at construction; scenarios back to "Started".
  void reset();
  /// Every scenario back to "Started".
  void reset_scenarios();

  /// `GET /__admin/mappings` shape: `{"mappings": [...], "meta": {"total": N}}`, in matching
  /// order (later root first, then priority, then newest first).
  nlohmann::json mappings_json() const;
  /// One mapping as `GET /__admin/mappings/{id}` answers it.
  std::optional<nlohmann::json> mapping_json(const std::string& id) const;
  /// `GET /__admin/scenarios` shape: `{"scenarios": [{id, name, state, possibleStates}]}`.
  nlohmann::json scenarios_json() const;
  std::size_t size() const;
  const std::vector<std::filesystem::path>& roots() const { return roots_; }

  /// The response of the best matching stub, or nullopt when none matches. A matched mapping
  /// with `newScenarioState` moves its scenario on.
  std::optional<StubResponse> match(const StubRequest& request) const;

  /// Hosts named by an `equalTo` host matcher (request `host` or `Host` header), lower case.
  std::vector<std::string> hosts() const;
  /// Host plus path of every GET mapping with a fixed host and path that answers 200 with an
  /// HTML (or text) body: the pages a crawler or search index can find without the network.
  std::vector<std::pair<std::string, std::string>> pages() const;

 private:
  using MappingPtr = std::shared_ptr<const Mapping>;
  /// `files`: the roots whose `__files/` a `bodyFileName` is read from, first match wins;
  /// `layer`: the index of the root the mapping belongs to.
  std::shared_ptr<const Mapping> compile(const nlohmann::ordered_json& json,
                                         const std::string& source, std::uint64_t sequence,
                                         const std::vector<std::filesystem::path>& files,
                                         std::size_t layer) const;
  void load_files(const std::filesystem::path& root, std::size_t layer);

  std::vector<std::filesystem::path> roots_;
  mutable std::shared_mutex mutex_;
  std::vector<MappingPtr> loaded_;    // from files, for reset()
  std::vector<MappingPtr> mappings_;  // in insertion order
  std::uint64_t sequence_ = 0;

  mutable std::mutex scenario_mutex_;
  mutable std::unordered_map<std::string, std::string> scenario_states_;
};

}  // namespace webdata::mock::web
