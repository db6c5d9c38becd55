#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/config.hpp"
#include "app/journal.hpp"
#include "core/clock.hpp"
#include "core/teams.hpp"
#include "http/server.hpp"
#include "jobs/extract_jobs.hpp"
#include "jobs/feedback.hpp"
#include "jobs/job_engine.hpp"
#include "jobs/llmstxt_jobs.hpp"
#include "jobs/monitors.hpp"
#include "requests/requests.hpp"
#include "scrape/browser_sessions.hpp"
#include "scrape/scraper.hpp"
#include "web/stub_store.hpp"
#include "web/virtual_web.hpp"
#include "webhooks/dispatcher.hpp"

namespace webdata::mock {

namespace search {
class SearchService;
class AgentEngine;
class ResearchEngine;
class ResearchService;
}  // namespace search

/// The crawl watcher's live switch, connection limits and count of open connections: the
/// watcher route reads them, the admin API reads and sets them.
class WatcherState {
 public:
  bool enabled() const { return enabled_.load(); }
  void set_enabled(bool enabled) { enabled_ = enabled; }
  http::WebSocketLimits limits() const;
  void set_limits(const http::WebSocketLimits& limits);
  /// The count of open connections, shared with each connection's close handler.
  const std::shared_ptr<std::atomic<std::size_t>>& open() const { return open_; }

 private:
  std::atomic<bool> enabled_{true};
  mutable std::mutex mutex_;
  http::WebSocketLimits limits_;
  std::shared_ptr<std::atomic<std::size_t>> open_ = std::make_shared<std::atomic<std::size_t>>(0);
};

/// What the handlers work with: the configuration, the clock, the teams, the journal and the
/// engines built from the configuration, and the checks several resources share. MockServer
/// owns one; the handlers (app/handlers/) take it by reference.
struct Services {
  explicit Services(Config config);
  ~Services();
  Services(const Services&) = delete;
  Services& operator=(const Services&) = delete;

  /// Refuses with 402 when the team cannot pay `credits` (wire-decisions section 8).
  std::optional<http::Response> require_credits(const Team& team, std::int64_t credits) const;
  /// The scrape pipeline's refusal of options the team cannot use.
  std::optional<http::Response> check_scrape_options(const requests::ScrapeOptions& options,
                                                     const Team& team) const;
  /// 400 when the request's `webhook` cannot be used.
  std::optional<http::Response> check_webhook(const std::optional<nlohmann::json>& webhook) const;
  /// The key webhook deliveries of `team` are signed with ("" sends no signature).
  std::string webhook_secret(const Team& team) const;
  /// A monitor's `webhook` as a delivery target (its events "monitor.page" and
  /// "monitor.check.completed"), or nullopt with why in `error`.
  std::optional<webhooks::Target> monitor_webhook(const nlohmann::json& webhook,
                                                  std::string* error) const;
  /// "scheme://Host" of a request, for the absolute URLs the API returns (`url`, `next`).
  std::string public_base(const http::Request& request) const;
  /// The live settings changeable through POST /__admin/settings.
  nlohmann::json settings_json() const;
  /// Journal, stubs, scenarios, clock, credits, caches and every engine back to the start.
  void reset();

  Config config;
  Clock clock;
  Teams teams;
  Journal journal;
  std::unique_ptr<web::VirtualWeb> web;
  std::unique_ptr<web::StubStore> api_stubs;
  std::unique_ptr<scrape::Scraper> scraper;
  std::unique_ptr<webhooks::Dispatcher> webhooks;
  std::unique_ptr<jobs::JobEngine> jobs;          // after webhooks: its events go there
  std::unique_ptr<search::SearchService> search;  // shared by the search and agent routes
  std::unique_ptr<search::AgentEngine> agents;    // after search and teams: its jobs use them
  std::unique_ptr<jobs::ExtractEngine> extracts;  // after scraper: its workers use it
  std::unique_ptr<search::ResearchEngine> deep_research;  // v1 deep research, over search
  std::unique_ptr<jobs::LlmsTxtEngine> llmstxt;      // v1 llms.txt, after scraper
  std::unique_ptr<jobs::MonitorEngine> monitors;  // after scraper and webhooks: its checks use them
  std::unique_ptr<search::ResearchService> research;  // after search: developer docs
  jobs::FeedbackStore feedback;  // POST /v2/feedback, POST /v2/search/{id}/feedback
  std::unique_ptr<scrape::BrowserSessions> browsers;  // browser and interact sessions
  WatcherState watchers;
  /// The running server's "http://HOST:PORT", for a request without a Host header.
  std::function<std::string()> base_url;

 private:
  void make_web();
  void make_scraper();
  void make_engines();
  /// Job and agent events -> signed webhook deliveries, when the request named a webhook.
  void route_events();
  void deliver(const std::string& job_id, const std::optional<webhooks::Target>& target,
               const std::string& team_id, const std::string& event, bool success,
               const nlohmann::json& data, const std::optional<std::string>& error);
};

}  // namespace webdata::mock
