#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/text.hpp"

// The admin API's stub mappings and scenarios under /__admin/ (wire-decisions section 9), as
// WireMock has them. A mapping that names a host is a page of the virtual web; one without a
// host answers requests to the mock itself (an API stub); the listings merge both stores.

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

/// A mapping that names a host (request `host`, or a `Host` header matcher) is a page of the
/// virtual web; one without a host answers requests to the mock itself (an API stub).
bool targets_virtual_web(const json& mapping) {
  if (!mapping.is_object() || !mapping.contains("request") || !mapping.at("request").is_object()) {
    return false;
  }
  const json& request = mapping.at("request");
  if (request.contains("host")) return true;
  if (request.contains("headers") && request.at("headers").is_object()) {
    for (const auto& [name, _] : request.at("headers").items()) {
      if (iequals(name, "host")) return true;
    }
  }
  return false;
}

http::Response mapping_error(const web::MappingError& e) {
  return http::Response::error(
      422, "Invalid stub mapping: " + e.reason(), "BAD_REQUEST",
      json{{"errors", json::array({json{{"title", e.reason()}, {"source", e.source()}}})}});
}

std::array<web::StubStore*, 2> stores(Services& s) {
  return {s.api_stubs.get(), &s.web->stubs()};
}

/// The store a mapping belongs in.
web::StubStore& store_for(Services& s, const nlohmann::ordered_json& mapping) {
  return targets_virtual_web(json::parse(mapping.dump())) ? s.web->stubs() : *s.api_stubs;
}

/// The mapping of a request body, ordered, so that a jsonBody is served with its keys in the
/// order they were given; nullopt when the body is not a JSON object.
std::optional<nlohmann::ordered_json> read_mapping(const http::Request& request) {
  auto mapping = nlohmann::ordered_json::parse(request.body, nullptr, false);
  if (!mapping.is_object()) return std::nullopt;
  return mapping;
}

http::Response no_mapping(const std::string& id) {
  return http::Response::error(404, "No stub mapping with id " + id);
}

http::Response empty_answer() {
  return http::Response::json(200, json::object());
}

http::Response list_mappings(Services& s, const http::Request&, const http::PathParams&) {
  json all = json::array();
  for (auto* store : stores(s)) {
    json listed = store->mappings_json();
    for (auto& m : listed.at("mappings")) all.push_back(std::move(m));
  }
  const auto total = all.size();
  return http::Response::json(200, {{"mappings", std::move(all)}, {"meta", {{"total", total}}}});
}

http::Response add_mapping(Services& s, const http::Request& request, const http::PathParams&) {
  const auto mapping = read_mapping(request);
  if (!mapping) return malformed_json();
  web::StubStore& store = store_for(s, *mapping);
  try {
    const std::string id = store.add_ordered(*mapping);
    return http::Response::json(201, store.mapping_json(id).value_or(json{{"id", id}}));
  } catch (const web::MappingError& e) {
    return mapping_error(e);
  }
}

http::Response remove_mappings(Services& s, const http::Request&, const http::PathParams&) {
  for (auto* store : stores(s)) {
    const json listed = store->mappings_json();
    for (const auto& m : listed.at("mappings")) store->remove(m.at("id").get<std::string>());
  }
  return empty_answer();
}

http::Response reset_mappings(Services& s, const http::Request&, const http::PathParams&) {
  for (auto* store : stores(s)) store->reset();
  return empty_answer();
}

http::Response get_mapping(Services& s, const http::Request&, const http::PathParams& params) {
  const std::string& id = params.at("id");
  for (auto* store : stores(s)) {
    if (auto found = store->mapping_json(id)) return http::Response::json(200, *found);
  }
  return no_mapping(id);
}

/// A mapping replaced under its id; it moves to the other store when its host says so.
http::Response replace_mapping(Services& s, const http::Request& request,
                               const http::PathParams& params) {
  const std::string& id = params.at("id");
  auto mapping = read_mapping(request);
  if (!mapping) return malformed_json();
  web::StubStore* owner = nullptr;
  for (auto* store : stores(s)) {
    if (store->mapping_json(id)) owner = store;
  }
  if (owner == nullptr) return no_mapping(id);
  (*mapping)["id"] = id;
  web::StubStore& target = store_for(s, *mapping);
  try {
    target.add_ordered(*mapping);  // same store, same id: replaces
    if (&target != owner) owner->remove(id);
    return http::Response::json(200, target.mapping_json(id).value_or(json{{"id", id}}));
  } catch (const web::MappingError& e) {
    return mapping_error(e);
  }
}

http::Response remove_mapping(Services& s, const http::Request&, const http::PathParams& params) {
  const std::string& id = params.at("id");
  const bool removed = s.api_stubs->remove(id) || s.web->stubs().remove(id);
  if (!removed) return no_mapping(id);
  return empty_answer();
}

http::Response list_scenarios(Services& s, const http::Request&, const http::PathParams&) {
  json all = json::array();
  for (auto* store : stores(s)) {
    for (auto& scenario : store->scenarios_json().at("scenarios")) all.push_back(scenario);
  }
  return http::Response::json(200, json{{"scenarios", all}});
}

http::Response reset_scenarios(Services& s, const http::Request&, const http::PathParams&) {
  for (auto* store : stores(s)) store->reset_scenarios();
  return empty_answer();
}

}  // namespace

void add_admin_mapping_routes(http::Router& admin, Services& s) {
  static const AdminRoute kRoutes[] = {{"GET", "/__admin/mappings", list_mappings},
                                       {"POST", "/__admin/mappings", add_mapping},
                                       {"DELETE", "/__admin/mappings", remove_mappings},
                                       {"POST", "/__admin/mappings/reset", reset_mappings},
                                       {"GET", "/__admin/mappings/{id}", get_mapping},
                                       {"PUT", "/__admin/mappings/{id}", replace_mapping},
                                       {"DELETE", "/__admin/mappings/{id}", remove_mapping},
                                       {"GET", "/__admin/scenarios", list_scenarios},
                                       {"POST", "/__admin/scenarios/reset", reset_scenarios}};
  add_admin_table(admin, s, kRoutes);
}

}  // namespace webdata::mock::handlers
