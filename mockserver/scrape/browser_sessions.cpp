#include "scrape/browser_sessions.hpp"

#include <algorithm>

#include "core/ids.hpp"
#include "scrape/stages.hpp"

namespace webdata::mock::scrape {

namespace {

using std::chrono::system_clock;

/// 2 credits for every started minute of the session's life.
std::int64_t credits_for(system_clock::duration lived) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(lived).count();
  const std::int64_t minutes = std::max<std::int64_t>(1, (ms + 59999) / 60000);
  return minutes * BrowserSessions::kCreditsPerMinute;
}

}  // namespace

BrowserSessions::BrowserSessions(const web::VirtualWeb& web, const Clock& clock, Bill bill)
    : web_(web), clock_(clock), bill_(std::move(bill)) {}

BrowserSession BrowserSessions::create(const std::string& team_id,
                                       const BrowserSessionOptions& options) {
  BrowserSession session;
  session.id = uuid4();
  session.team_id = team_id;
  session.created_at = clock_.now();
  session.last_activity = session.created_at;
  session.expires_at = session.created_at + options.ttl;
  session.activity_ttl = options.activity_ttl;
  session.stream_web_view = options.stream_web_view;
  session.profile = options.profile;
  session.save_profile = options.profile && options.save_profile;
  const std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(session.created_at);
  if (session.profile) {
    const auto saved = profiles_.find(team_id + "/" + *session.profile);
    if (saved != profiles_.end()) session.page = saved->second;
  }
  sessions_[session.id] = session;
  return session;
}

void BrowserSessions::end_locked(BrowserSession& session, system_clock::time_point at) {
  if (session.destroyed) return;
  session.destroyed = true;
  session.ended_at = std::max(at, session.created_at);
  session.credits_billed = credits_for(session.ended_at - session.created_at);
  if (session.save_profile && session.page) {
    profiles_[session.team_id + "/" + *session.profile] = *session.page;
  }
  session.page.reset();
  if (bill_) bill_(session.team_id, session.credits_billed);
  if (!session.scrape_id.empty()) by_scrape_.erase(session.team_id + "/" + session.scrape_id);
}

void BrowserSessions::expire_locked(system_clock::time_point now) {
  for (auto& [id, session] : sessions_) {
    if (session.destroyed) continue;
    const auto idle_end = session.last_activity + session.activity_ttl;
    const auto end = std::min(session.expires_at, idle_end);
    if (now >= end) end_locked(session, end);
  }
}

std::optional<BrowserSession> BrowserSessions::find(const std::string& id,
                                                    const std::string& team_id) {
  auto session = find_by_id(id);
  if (session && session->team_id != team_id) return std::nullopt;
  return session;
}

std::optional<BrowserSession> BrowserSessions::find_by_id(const std::string& id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(clock_.now());
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) return std::nullopt;
  return it->second;
}

std::vector<BrowserSession> BrowserSessions::list(const std::string& team_id,
                                                  const std::string& status) {
  const std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(clock_.now());
  std::vector<BrowserSession> out;
  for (const auto& [id, session] : sessions_) {
    if (session.team_id != team_id || !session.scrape_id.empty()) continue;
    if (!status.empty() && (status == "destroyed") != session.destroyed) continue;
    out.push_back(session);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.created_at > b.created_at;
  });
  return out;
}

BrowserSessions::Ran BrowserSessions::execute(const std::string& id, const std::string& team_id,
                                              const std::string& code, BrowserRun& out,
                                              bool is_prompt) {
  std::optional<content::Page> page;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    expire_locked(clock_.now());
    const auto it = sessions_.find(id);
    if (it == sessions_.end() || it->second.team_id != team_id) return Ran::not_found;
    if (it->second.destroyed) return Ran::ended;
    it->second.last_activity = clock_.now();
    page = it->second.page;
  }
  const PageFetcher navigate = [this](const std::string& url) { return open(url); };
  out = is_prompt ? run_browser_prompt(code, page, navigate)
                  : run_browser_code(code, page, navigate);
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = sessions_.find(id);
  if (it != sessions_.end() && !it->second.destroyed) it->second.page = std::move(page);
  return Ran::ok;
}

std::optional<BrowserSession> BrowserSessions::destroy(const std::string& id,
                                                       const std::string& team_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto now = clock_.now();
  expire_locked(now);
  const auto it = sessions_.find(id);
  if (it == sessions_.end() || it->second.team_id != team_id) return std::nullopt;
  end_locked(it->second, now);
  return it->second;
}

BrowserSession BrowserSessions::interact_session(const std::string& scrape_id,
                                                 const std::string& team_id,
                                                 const std::string& url) {
  if (auto live = interact_id(scrape_id, team_id)) {
    if (auto found = find(*live, team_id); found && !found->destroyed) return *found;
  }
  BrowserSessionOptions options;  // an interactive session lives 10 minutes, 5 of them idle
  options.ttl = std::chrono::minutes(10);
  options.activity_ttl = std::chrono::minutes(5);
  BrowserSession session = create(team_id, options);
  auto page = open(url);
  const std::lock_guard<std::mutex> lock(mutex_);
  auto& kept = sessions_[session.id];
  kept.scrape_id = scrape_id;
  kept.page = std::move(page);
  by_scrape_[team_id + "/" + scrape_id] = session.id;
  return kept;
}

std::optional<std::string> BrowserSessions::interact_id(const std::string& scrape_id,
                                                        const std::string& team_id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(clock_.now());
  const auto it = by_scrape_.find(team_id + "/" + scrape_id);
  if (it == by_scrape_.end()) return std::nullopt;
  return it->second;
}

std::optional<content::Page> BrowserSessions::open(const std::string& url) const {
  web::FetchRequest request;
  request.url = url;
  web::FetchResult fetched = web_.fetch_deferred(request);
  if (!fetched.ok || !reads_as_page(fetched.content_type)) return std::nullopt;
  return page_of(std::move(fetched), url);
}

void BrowserSessions::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  sessions_.clear();
  by_scrape_.clear();
  profiles_.clear();
}

}  // namespace webdata::mock::scrape
