#include "app/mock_server.hpp"
#include "core/url.hpp"
#include "jobs/extract_jobs.hpp"

// POST /v1|v2/extract starts an extract job (jobs::ExtractEngine); GET /v1|v2/extract/{id} reads
// it. A job made through one version is readable through the other, as deployments share one
// store; the status answer has the same shape in both.

namespace webdata::mock {

using nlohmann::json;

namespace {

/// A URL as deployments take it: without a scheme, `http://` is assumed (wire-decisions 4). A
/// trailing `/*` is kept (a glob); the rest must be an absolute http(s) URL.
std::optional<std::string> read_url(std::string url) {
  if (url.find("://") == std::string::npos) url = "http://" + url;
  const bool glob = url.size() >= 2 && url.compare(url.size() - 2, 2, "/*") == 0;
  const std::string base = glob ? url.substr(0, url.size() - 1) : url;
  const auto parsed = parse_http_url(base);
  if (!parsed) return std::nullopt;
  return glob ? parsed->str() + (parsed->str().back() == '/' ? "*" : "/*") : parsed->str();
}

}  // namespace

void MockServer::add_extract_routes() {
  for (const std::string v : {"v1", "v2"}) {
    api("POST", "/" + v + "/extract", v + "/extract.request", [this](ApiCall& call) {
      if (auto refused = require_credits(call.team, 1)) return *refused;
      // --inject-fault no-llm-key: the recorded build's v1 extract fails outright without one.
      if (call.version == "v1" && config_.has_fault("no-llm-key")) {
        return http::Response::error(500, "Internal server error");
      }
      const bool ignore_invalid = call.body.value("ignoreInvalidURLs", false);
      jobs::ExtractRequest request;
      request.version = call.version;
      json details = json::array();
      json invalid = json::array();
      const json& urls = call.body.at("urls");
      for (std::size_t i = 0; i < urls.size(); ++i) {
        const std::string given = urls[i].get<std::string>();
        if (auto url = read_url(given)) {
          request.urls.push_back(*url);
          continue;
        }
        invalid.push_back(given);
        details.push_back({{"code", "invalid_string"},
                           {"path", json::array({"urls", i})},
                           {"message", "Invalid URL '" + given + "'"}});
      }
      if (!invalid.empty() && !ignore_invalid) {
        std::string names;
        for (const auto& u : invalid) names += (names.empty() ? "" : ", ") + u.get<std::string>();
        return http::Response::error(400, "Bad Request: invalid URLs: " + names, "BAD_REQUEST",
                                     details);
      }
      if (request.urls.empty()) {
        const std::string message = "No valid URL to extract from";
        return http::Response::error(400, "Bad Request: " + message, "BAD_REQUEST",
                                     json::array({{{"code", "custom"},
                                                   {"path", json::array({"urls"})},
                                                   {"message", message}}}));
      }
      if (!invalid.empty()) {
        request.warnings.push_back("Skipped " + std::to_string(invalid.size()) +
                                   " invalid URL" + (invalid.size() == 1 ? "" : "s") + ".");
      }
      if (call.body.value("enableWebSearch", false)) {
        request.warnings.push_back(
            "enableWebSearch: the mock reads only the URLs given and the pages they stand for.");
      }
      json scrape_options = call.body.value("scrapeOptions", json::object());
      if (auto refused = check_scrape_options(scrape_options, call.version, call.team)) {
        return *refused;
      }
      scrape_options.erase("formats");
      request.scrape_options = std::move(scrape_options);
      request.prompt = call.body.value("prompt", "");
      request.system_prompt = call.body.value("systemPrompt", "");
      request.schema = call.body.value("schema", json());
      request.allow_external_links = call.body.value("allowExternalLinks", false);
      request.include_subdomains = call.body.value("includeSubdomains", true);
      request.show_sources = call.body.value("showSources", false);
      const auto job = extracts_->start(call.team, std::move(request));
      // The service answers the start with the (empty) trace of the URLs it will consider.
      json out = {{"success", true}, {"id", job->id}, {"urlTrace", json::array()}};
      if (ignore_invalid && !invalid.empty()) out["invalidURLs"] = invalid;
      return http::Response::json(200, out);
    });
    api("GET", "/" + v + "/extract/{id}", "", [this](ApiCall& call) {
      const auto job = extracts_->find(call.params.at("id"), call.team.id);
      if (!job) return http::Response::error(404, "Extract job not found");
      return http::Response::json(200, extracts_->status_body(*job));
    });
  }
}

}  // namespace webdata::mock
