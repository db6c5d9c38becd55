#include <algorithm>

#include "app/mock_server.hpp"
#include "search/agent_jobs.hpp"
#include "core/ids.hpp"
#include "core/time.hpp"

// The admin surface under /__admin/ (wire-decisions section 9): WireMock-compatible journal,
// mappings and scenarios, plus the mock's own clock, settings and reset.

namespace webdata::mock {

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
  return http::Response::error(422, "Invalid stub mapping: " + e.reason(), "BAD_REQUEST",
                               json{{"errors", json::array({json{{"title", e.reason()},
                                                                 {"source", e.source()}}})}});
}

json merged_mappings(const web::StubStore& a, const web::StubStore& b) {
  json all = json::array();
  for (const auto* store : {&a, &b}) {
    json listed = store->mappings_json();
    for (auto& m : listed.at("mappings")) all.push_back(std::move(m));
  }
  const auto total = all.size();
  return json{{"mappings", std::move(all)}, {"meta", {{"total", total}}}};
}

}  // namespace

json MockServer::settings_json() const {
  const auto engine = jobs_->settings();
  const auto delivery = webhooks_->settings();
  return {{"chunkBytes", engine.chunk_bytes},
          {"pagePacingMs", engine.pacing.count()},
          {"webhookMaxAttempts", delivery.max_attempts},
          {"webhookBackoffMs", delivery.first_backoff.count()},
          {"webhookTimeoutMs", delivery.receiver_timeout.count()},
          {"crawlWatcher", watcher_enabled_.load()}};
}

void MockServer::reset_all() {
  journal_.clear();
  clock_.reset();
  teams_.reset_balances();
  api_stubs_->reset();
  web_->stubs().reset();
  scraper_->cache().clear();
  scraper_->change_tracker().clear();
  scraper_->results().clear();
  jobs_->reset();
  agents_->reset();
  extracts_->reset();
  webhooks_->reset();
  std::lock_guard<std::mutex> lock(idempotency_mutex_);
  idempotency_keys_.clear();
}

void MockServer::add_admin_mapping_routes() {
  auto& r = admin_router_;
  r.add("GET", "/__admin/mappings", [this](const http::Request&, const http::PathParams&) {
    return http::Response::json(200, merged_mappings(*api_stubs_, web_->stubs()));
  });
  r.add("POST", "/__admin/mappings", [this](const http::Request& req, const http::PathParams&) {
    // Ordered, so that a jsonBody is served with its keys in the order they were given.
    const auto mapping = nlohmann::ordered_json::parse(req.body, nullptr, false);
    if (!mapping.is_object()) {
      return http::Response::error(400, "Bad request, malformed JSON", "BAD_REQUEST_INVALID_JSON");
    }
    web::StubStore& store =
        targets_virtual_web(json::parse(mapping.dump())) ? web_->stubs() : *api_stubs_;
    try {
      const std::string id = store.add_ordered(mapping);
      return http::Response::json(201, store.mapping_json(id).value_or(json{{"id", id}}));
    } catch (const web::MappingError& e) {
      return mapping_error(e);
    }
  });
  r.add("DELETE", "/__admin/mappings", [this](const http::Request&, const http::PathParams&) {
    for (auto* store : {api_stubs_.get(), &web_->stubs()}) {
      const json listed = store->mappings_json();
      for (const auto& m : listed.at("mappings")) store->remove(m.at("id").get<std::string>());
    }
    return http::Response::json(200, json::object());
  });
  r.add("POST", "/__admin/mappings/reset", [this](const http::Request&, const http::PathParams&) {
    api_stubs_->reset();
    web_->stubs().reset();
    return http::Response::json(200, json::object());
  });
  r.add("GET", "/__admin/mappings/{id}", [this](const http::Request&, const http::PathParams& p) {
    const std::string& id = p.at("id");
    for (auto* store : {api_stubs_.get(), &web_->stubs()}) {
      if (auto found = store->mapping_json(id)) return http::Response::json(200, *found);
    }
    return http::Response::error(404, "No stub mapping with id " + id);
  });
  r.add("PUT", "/__admin/mappings/{id}", [this](const http::Request& req,
                                                 const http::PathParams& p) {
    const std::string& id = p.at("id");
    auto mapping = nlohmann::ordered_json::parse(req.body, nullptr, false);
    if (!mapping.is_object()) {
      return http::Response::error(400, "Bad request, malformed JSON", "BAD_REQUEST_INVALID_JSON");
    }
    web::StubStore* owner = nullptr;
    for (auto* store : {api_stubs_.get(), &web_->stubs()}) {
      if (store->mapping_json(id)) owner = store;
    }
    if (owner == nullptr) return http::Response::error(404, "No stub mapping with id " + id);
    mapping["id"] = id;
    web::StubStore& target =
        targets_virtual_web(json::parse(mapping.dump())) ? web_->stubs() : *api_stubs_;
    try {
      if (&target != owner) {
        target.add_ordered(mapping);
        owner->remove(id);
      } else {
        target.add_ordered(mapping);  // same id: replaces
      }
      return http::Response::json(200, target.mapping_json(id).value_or(json{{"id", id}}));
    } catch (const web::MappingError& e) {
      return mapping_error(e);
    }
  });
  r.add("DELETE", "/__admin/mappings/{id}", [this](const http::Request&,
                                                    const http::PathParams& p) {
    const std::string& id = p.at("id");
    const bool removed = api_stubs_->remove(id) || web_->stubs().remove(id);
    if (!removed) return http::Response::error(404, "No stub mapping with id " + id);
    return http::Response::json(200, json::object());
  });
  r.add("GET", "/__admin/scenarios", [this](const http::Request&, const http::PathParams&) {
    json all = json::array();
    for (auto* store : {api_stubs_.get(), &web_->stubs()}) {
      for (auto& s : store->scenarios_json().at("scenarios")) all.push_back(s);
    }
    return http::Response::json(200, json{{"scenarios", all}});
  });
  r.add("POST", "/__admin/scenarios/reset", [this](const http::Request&, const http::PathParams&) {
    api_stubs_->reset_scenarios();
    web_->stubs().reset_scenarios();
    return http::Response::json(200, json::object());
  });
}

void MockServer::add_admin_routes() {
  auto& r = admin_router_;
  r.add("GET", "/__admin/requests", [this](const http::Request&, const http::PathParams&) {
    return http::Response::json(200, journal_.to_json());
  });
  r.add("DELETE", "/__admin/requests", [this](const http::Request&, const http::PathParams&) {
    journal_.clear();
    return http::Response::json(200, json::object());
  });
  r.add("POST", "/__admin/requests/reset", [this](const http::Request&, const http::PathParams&) {
    journal_.clear();
    return http::Response::json(200, json::object());
  });
  r.add("POST", "/__admin/reset", [this](const http::Request&, const http::PathParams&) {
    reset_all();
    return http::Response::json(200, json::object());
  });
  r.add("GET", "/__admin/clock", [this](const http::Request&, const http::PathParams&) {
    return http::Response::json(200, {{"now", iso8601(clock_.now())},
                                      {"offsetMs", clock_.offset().count()}});
  });
  r.add("POST", "/__admin/clock/advance", [this](const http::Request& req, const http::PathParams&) {
    const json body = json::parse(req.body, nullptr, false);
    const bool ok = body.is_object() && body.size() == 1 && body.contains("milliseconds") &&
                    body.at("milliseconds").is_number_integer() &&
                    body.at("milliseconds").get<long long>() >= 0;
    if (!ok) {
      return http::Response::error(
          400, "body must be {\"milliseconds\": <non-negative integer>}", "BAD_REQUEST");
    }
    clock_.advance(std::chrono::milliseconds(body.at("milliseconds").get<long long>()));
    return http::Response::json(200, {{"now", iso8601(clock_.now())},
                                      {"offsetMs", clock_.offset().count()}});
  });
  // Back to real time, keeping every job and run: a test that moved the clock to see something
  // expire leaves the rest of the mock's state to the tests after it.
  r.add("POST", "/__admin/clock/reset", [this](const http::Request&, const http::PathParams&) {
    clock_.reset();
    return http::Response::json(200, {{"now", iso8601(clock_.now())},
                                      {"offsetMs", clock_.offset().count()}});
  });
  r.add("GET", "/__admin/settings", [this](const http::Request&, const http::PathParams&) {
    json out = config_.to_json();
    json balances = json::object();
    for (const auto& t : config_.effective_teams()) balances[t.id] = teams_.balance(t.id);
    out["creditBalances"] = balances;
    out.update(settings_json());
    return http::Response::json(200, out);
  });
  r.add("POST", "/__admin/settings", [this](const http::Request& req, const http::PathParams&) {
    const json body = json::parse(req.body, nullptr, false);
    if (!body.is_object()) {
      return http::Response::error(400, "body must be a JSON object", "BAD_REQUEST");
    }
    for (const auto& [key, value] : body.items()) {
      const bool known = key == "chunkBytes" || key == "pagePacingMs" ||
                         key == "webhookMaxAttempts" || key == "webhookBackoffMs" ||
                         key == "webhookTimeoutMs" || key == "crawlWatcher";
      if (!known) {
        return http::Response::error(
            400,
            "unknown setting '" + key +
                "' (settable: chunkBytes, pagePacingMs, webhookMaxAttempts, "
                "webhookBackoffMs, webhookTimeoutMs, crawlWatcher; "
                "credits via /__admin/settings/credits)",
            "BAD_REQUEST");
      }
      if (key == "crawlWatcher") {
        if (!value.is_boolean()) {
          return http::Response::error(400, "crawlWatcher must be true or false", "BAD_REQUEST");
        }
        continue;
      }
      const long long max = key == "chunkBytes"           ? (1LL << 34)
                            : key == "webhookMaxAttempts" ? 20
                                                          : 600000;
      const long long min = key == "chunkBytes" || key == "webhookMaxAttempts" ||
                                    key == "webhookTimeoutMs"
                                ? 1
                                : 0;
      if (!value.is_number_integer() || value.get<long long>() < min ||
          value.get<long long>() > max) {
        return http::Response::error(400, key + " must be an integer from " +
                                              std::to_string(min) + " to " + std::to_string(max),
                                     "BAD_REQUEST");
      }
    }
    if (body.contains("chunkBytes")) {
      jobs_->set_chunk_bytes(body.at("chunkBytes").get<std::size_t>());
    }
    if (body.contains("pagePacingMs")) {
      const std::chrono::milliseconds pacing(body.at("pagePacingMs").get<long long>());
      jobs_->set_pacing(pacing);
      extracts_->set_pacing(pacing);
    }
    auto delivery = webhooks_->settings();
    if (body.contains("webhookMaxAttempts")) {
      delivery.max_attempts = body.at("webhookMaxAttempts").get<int>();
    }
    if (body.contains("webhookBackoffMs")) {
      delivery.first_backoff = std::chrono::milliseconds(body.at("webhookBackoffMs").get<long long>());
    }
    if (body.contains("webhookTimeoutMs")) {
      delivery.receiver_timeout =
          std::chrono::milliseconds(body.at("webhookTimeoutMs").get<long long>());
    }
    webhooks_->set_settings(delivery);
    // Off: later upgrade requests are answered as plain HTTP, as by a deployment without the
    // watcher (open connections stay); a black-box client's fallback to polling is testable.
    if (body.contains("crawlWatcher")) watcher_enabled_ = body.at("crawlWatcher").get<bool>();
    return http::Response::json(200, settings_json());
  });
  r.add("POST", "/__admin/settings/credits", [this](const http::Request& req,
                                                   const http::PathParams&) {
    const json body = json::parse(req.body, nullptr, false);
    const bool ok = body.is_object() && body.contains("team") && body.at("team").is_string() &&
                    body.contains("credits") && body.at("credits").is_number_integer();
    if (!ok) {
      return http::Response::error(400, "body must be {\"team\": str, \"credits\": int}",
                                   "BAD_REQUEST");
    }
    const auto team = body.at("team").get<std::string>();
    if (teams_.find(team) == nullptr) return http::Response::error(404, "Unknown team " + team);
    teams_.set_balance(team, body.at("credits").get<std::int64_t>());
    return http::Response::json(200, {{"team", team}, {"credits", teams_.balance(team)}});
  });
  // Open crawl watcher connections: a client that stopped watching must not leave one behind.
  r.add("GET", "/__admin/watchers", [this](const http::Request&, const http::PathParams&) {
    return http::Response::json(200,
                                {{"enabled", watcher_enabled_.load()}, {"open", open_watchers()}});
  });
  r.add("GET", "/__admin/webhooks", [this](const http::Request&, const http::PathParams&) {
    json log = webhooks_->log_json();
    const auto total = log.size();
    return http::Response::json(200, {{"deliveries", std::move(log)}, {"meta", {{"total", total}}}});
  });
  r.add("DELETE", "/__admin/webhooks", [this](const http::Request&, const http::PathParams&) {
    webhooks_->clear_log();
    return http::Response::json(200, json::object());
  });
  add_admin_mapping_routes();
}

}  // namespace webdata::mock
