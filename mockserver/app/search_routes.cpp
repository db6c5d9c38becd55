#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "app/mock_server.hpp"
#include "core/ids.hpp"
#include "core/json_text.hpp"
#include "core/time.hpp"
#include "search/service.hpp"
#include "search/text.hpp"
#include "core/url.hpp"

// POST /v1|v2/search (specification 4.3, wire-decisions 5). The index lives in the server's
// search::SearchService, which the agent routes (app/agent_routes.cpp) share.

namespace webdata::mock {

using nlohmann::json;

namespace {

/// `sources` / `categories`: plain strings or {type} objects (the schema already checked them).
std::vector<std::string> type_names(const json& body, const char* key,
                                    std::vector<std::string> fallback) {
  if (!body.contains(key) || !body.at(key).is_array()) return fallback;
  std::vector<std::string> out;
  for (const auto& entry : body.at(key)) {
    const std::string name = entry.is_string() ? entry.get<std::string>() : entry.value("type", "");
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

/// The document's fields merged into a search item; `metadata` keeps what the item had.
void merge_document(json& item, const json& document) {
  for (const auto& [key, value] : document.items()) {
    if (key == "metadata" && item.contains("metadata")) {
      for (const auto& [name, field] : value.items()) item["metadata"][name] = field;
    } else {
      item[key] = value;
    }
  }
}

}  // namespace

void MockServer::add_search_routes() {
  search::SearchService* service = search_.get();

  for (const std::string version : {"v1", "v2"}) {
    api("POST", "/" + version + "/search", version + "/search.request",
        [this, service](ApiCall& call) {
          using Clock = std::chrono::steady_clock;
          const auto deadline =
              Clock::now() + std::chrono::milliseconds(call.body.value("timeout", 60000));
          if (auto refused = require_credits(call.team, 1)) return *refused;
          const bool v2 = call.version == "v2";

          search::SearchRequest request;
          request.query = call.body.value("query", "");
          request.sources =
              v2 ? type_names(call.body, "sources", {"web"}) : std::vector<std::string>{"web"};
          request.categories =
              v2 ? type_names(call.body, "categories", {}) : std::vector<std::string>{};
          if (v2) {
            // includeDomains / excludeDomains: hostnames (a URL's host is taken when one is sent).
            auto hosts = [&](const char* key) {
              std::vector<std::string> out;
              for (const auto& entry : call.body.value(key, json::array())) {
                std::string host = entry.get<std::string>();
                const auto scheme = host.find("://");
                if (scheme != std::string::npos) host.erase(0, scheme + 3);
                host = host.substr(0, host.find_first_of("/:?#"));
                for (char& c : host) {
                  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                }
                while (!host.empty() && host.back() == '.') host.pop_back();
                if (!host.empty()) out.push_back(host);
              }
              return out;
            };
            request.include_domains = hosts("includeDomains");
            request.exclude_domains = hosts("excludeDomains");
            if (!request.include_domains.empty() && !request.exclude_domains.empty()) {
              const std::string message = "includeDomains and excludeDomains cannot both be set";
              return http::Response::error(400, "Bad Request: " + message, "BAD_REQUEST",
                                           json::array({{{"code", "custom"},
                                                         {"path", json::array({"includeDomains"})},
                                                         {"message", message}}}));
            }
          }
          // enterprise ["zdr"]: zero data retention for the search, which the team must have.
          const json enterprise = call.body.value("enterprise", json::array());
          const bool zdr = std::find(enterprise.begin(), enterprise.end(), json("zdr")) !=
                           enterprise.end();
          if (zdr && !call.team.zero_data_retention) {
            const std::string message =
                "Zero data retention search (enterprise: zdr) is not enabled for this team (set "
                "zeroDataRetention on the team in the mock's configuration)";
            return http::Response::error(400, "Bad Request: " + message, "BAD_REQUEST",
                                         json::array({{{"code", "custom"},
                                                       {"path", json::array({"enterprise"})},
                                                       {"message", message}}}));
          }
          request.tbs = call.body.value("tbs", "");
          request.location = call.body.value("location", "");
          request.country = call.body.value("country", "");
          if (!v2) request.language = call.body.value("lang", "");
          const auto limit = static_cast<std::size_t>(call.body.value("limit", 5));
          const bool ignore_invalid = call.body.value("ignoreInvalidURLs", false);

          json scrape_options = call.body.value("scrapeOptions", json());
          const bool scrape = scrape_options.is_object() && scrape_options.contains("formats") &&
                              !scrape_options.at("formats").empty();
          if (scrape && zdr) scrape_options["zeroDataRetention"] = true;
          if (scrape) {
            if (auto refused = check_scrape_options(scrape_options, call.version, call.team))
              return *refused;
          }

          search::SearchAnswer answer;
          if (auto error = service->search(request, answer)) {
            return http::Response::error(400, "Bad Request: " + error->message, "BAD_REQUEST",
                                         json::array({{{"code", "custom"},
                                                       {"path", json::array({error->field})},
                                                       {"message", error->message}}}));
          }
          const search::Index& index = *answer.index;
          std::vector<std::string> warnings = answer.warnings;
          if (config_.has_fault("no-search-results")) {
            // --inject-fault no-search-results: a deployment without a search provider.
            answer.web.clear();
            answer.news.clear();
            answer.images.clear();
            warnings = {"No search results found"};
          }

          // Scrapes are shared between sources (a page can be a web and a news result) and billed
          // once.
          std::map<std::string, scrape::Outcome> scraped;
          std::int64_t credits = 0;
          std::size_t timed_out = 0;
          std::size_t failed = 0;
          // The results are scraped one after another: each starts when the one before is due
          // (`due`), so slow pages add up against the search's timeout as if each had been
          // waited for, and the answer waits for the last of them on the I/O thread's timer.
          Clock::time_point due{};
          auto scrape_next = [&](const json& options) {
            const auto begin = std::max(Clock::now(), due);
            scrape::Outcome outcome =
                scraper_->scrape_deferred(options, call.version, call.team, begin);
            due = std::max(begin, outcome.ready_at);
            return outcome;
          };
          auto scrape_url = [&](const std::string& url) -> const scrape::Outcome* {
            auto it = scraped.find(url);
            if (it != scraped.end()) return &it->second;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::max(Clock::now(), due));
            if (left.count() <= 0) return nullptr;
            json options = scrape_options;
            options["url"] = url;
            options["timeout"] =
                std::min<long long>(options.value("timeout", 30000LL), left.count());
            options.erase("waitFor");
            it = scraped.emplace(url, scrape_next(options)).first;
            return &it->second;
          };
          // ignoreInvalidURLs: results the scrape endpoint would refuse (not an http(s) URL, a file
          // type it cannot return) are left out; the check is a scrape of the page without formats.
          std::map<std::string, bool> validity;
          auto valid = [&](const std::string& url) {
            if (!ignore_invalid) return true;
            auto it = validity.find(url);
            if (it != validity.end()) return it->second;
            bool ok = parse_http_url(url).has_value();
            if (ok) {
              json probe = {{"url", url}, {"formats", json::array()}, {"timeout", 10000}};
              const auto outcome = scrape_next(probe);
              ok = !(outcome.failure && (outcome.failure->code == "SCRAPE_UNSUPPORTED_FILE_ERROR" ||
                                         outcome.failure->code == "BAD_REQUEST"));
            }
            return validity[url] = ok;
          };
          json data = json::object();
          std::set<std::string> billed;
          auto build_pages = [&](const std::vector<search::Hit>& hits, bool news) {
            json items = json::array();
            for (const auto& hit : hits) {
              if (items.size() >= limit) break;
              const search::PageRecord& page = index.page(hit.doc);
              if (!valid(page.url)) continue;
              json item;
              if (news) {
                item = {{"title", page.title},
                        {"snippet", hit.snippet},
                        {"url", page.url},
                        {"date", search::age_text(*page.date, clock_.now())}};
                const std::string image = !page.og_image.empty() ? page.og_image
                                          : page.images.empty()  ? std::string()
                                                                 : page.images.front().url;
                if (!image.empty()) item["imageUrl"] = image;
              } else {
                item = {{"title", page.title}, {"description", hit.snippet}, {"url", page.url}};
                if (!hit.category.empty()) item["category"] = hit.category;
              }
              item["position"] = items.size() + 1;
              if (scrape) {
                const scrape::Outcome* outcome = scrape_url(page.url);
                if (outcome == nullptr) {
                  ++timed_out;
                  credits += 1;
                } else if (outcome->failure) {
                  ++failed;
                  credits += 1;
                  item["metadata"] = {{"sourceURL", page.url},
                                      {"error", outcome->failure->message}};
                } else {
                  merge_document(item, outcome->document);
                  if (billed.insert(page.url).second) {
                    credits += outcome->credits;
                    // A search's scrape is a scrape of its own: readable by its scrapeId.
                    if (!scrape::keeps_nothing(scrape_options, call.version)) {
                      scraper_->results().add(
                          scrape::scrape_id_of(outcome->document), call.team.id,
                          std::make_shared<const std::string>(json_text(outcome->document)),
                          clock_.now());
                    }
                  }
                }
              } else {
                credits += 1;
              }
              items.push_back(std::move(item));
            }
            return items;
          };
          const auto wants = [&request](const char* source) {
            return std::find(request.sources.begin(), request.sources.end(), source) !=
                   request.sources.end();
          };
          if (wants("web")) data["web"] = build_pages(answer.web, false);
          if (wants("news")) data["news"] = build_pages(answer.news, true);
          if (wants("images")) {
            json items = json::array();
            for (const auto& hit : answer.images) {
              if (items.size() >= limit) break;
              const search::PageRecord& page = index.page(hit.doc);
              const search::ImageRecord& image = page.images[hit.image];
              json item = {{"title", image.alt.empty() ? page.title : image.alt},
                           {"imageUrl", image.url},
                           {"url", page.url}};
              if (image.size) {
                item["imageWidth"] = image.size->width;
                item["imageHeight"] = image.size->height;
              }
              item["position"] = items.size() + 1;
              credits += 1;
              items.push_back(std::move(item));
            }
            data["images"] = std::move(items);
          }
          if (timed_out > 0) {
            warnings.push_back("The search timeout was reached before " +
                               std::to_string(timed_out) +
                               " result(s) could be scraped; they carry no scraped content");
          }
          if (failed > 0) {
            warnings.push_back(std::to_string(failed) +
                               " result(s) could not be scraped; see their metadata.error");
          }

          http::Response response = [&] {
            if (credits > 0 && !teams_.try_charge(call.team.id, credits)) {
              return *require_credits(call.team, credits);
            }
            json warning = nullptr;
            if (!warnings.empty()) {
              std::string text;
              for (const auto& w : warnings) text += (text.empty() ? "" : "; ") + w;
              warning = text;
            }
            json body = {{"success", true}, {"creditsUsed", credits}, {"id", uuid4()}};
            if (v2) {
              body["data"] = std::move(data);
              body["warning"] = warning;
            } else {
              body["data"] = data.contains("web") ? data["web"] : json::array();
              if (!warning.is_null()) body["warning"] = warning;
            }
            return http::Response::json(200, body);
          }();
          response.delay = due_in(due);
          return response;
        });
  }
}

}  // namespace webdata::mock
