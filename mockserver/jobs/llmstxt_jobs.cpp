#include "jobs/llmstxt_jobs.hpp"

#include "core/ids.hpp"
#include "core/time.hpp"
#include "jobs/site_map.hpp"

namespace webdata::mock::jobs {

using nlohmann::json;

namespace {

constexpr auto kLlmsTxtRetention = std::chrono::hours(24);

/// A string member of a scraped document's object, or "".
std::string llms_text_of(const json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// One page as read: its title, description and markdown.
struct LlmsPage {
  std::string url;
  std::string title;
  std::string description;
  std::string markdown;
};

std::optional<LlmsPage> read_llms_page(scrape::Scraper& scraper, const Team& team,
                                       const std::string& url, std::int64_t& credits) {
  const auto options = requests::ScrapeOptions::defaults(requests::Version::v1);
  const scrape::Outcome outcome = scraper.scrape_deferred(options, url, team);
  if (outcome.failure) return std::nullopt;
  credits += outcome.credits;
  const auto meta = outcome.document.find("metadata");
  const json metadata = meta != outcome.document.end() ? *meta : json::object();
  return LlmsPage{url, llms_text_of(metadata, "title"), llms_text_of(metadata, "description"),
                  llms_text_of(outcome.document, "markdown")};
}

void write_llms_texts(LlmsTxtJob& job, const std::string& site,
                      const std::vector<LlmsPage>& pages) {
  job.llmstxt = "# " + site + " llms.txt\n\n";
  if (!pages.front().description.empty()) job.llmstxt += "> " + pages.front().description + "\n\n";
  job.llmsfulltxt = "# " + site + " llms-full.txt\n\n";
  for (const auto& p : pages) {
    const std::string title = p.title.empty() ? p.url : p.title;
    job.llmstxt += "- [" + title + "](" + p.url + ")";
    job.llmstxt += p.description.empty() ? "\n" : ": " + p.description + "\n";
    job.llmsfulltxt += "## " + title + "\n\nSource: " + p.url + "\n\n" + p.markdown + "\n\n";
  }
}

}  // namespace

LlmsTxtEngine::LlmsTxtEngine(scrape::Scraper& scraper, const web::VirtualWeb& web,
                             const Clock& clock)
    : scraper_(scraper), web_(web), clock_(clock) {}

std::shared_ptr<const LlmsTxtJob> LlmsTxtEngine::start(const Team& team, const std::string& url,
                                                       std::size_t max_urls, bool show_full_text) {
  auto job = std::make_shared<LlmsTxtJob>();
  job->id = uuid4();
  job->team_id = team.id;
  job->created_at = clock_.now();
  job->show_full_text = show_full_text;
  MapOptions options;
  options.url = url;
  options.limit = max_urls;
  std::vector<LlmsPage> pages;
  for (const auto& link : map_site(web_, options).links) {
    if (auto page = read_llms_page(scraper_, team, link.url, job->credits)) pages.push_back(*page);
  }
  job->duration = kLlmsTxtStep * static_cast<std::int64_t>(pages.size() + 1);
  if (pages.empty()) {
    job->error = "No page of " + url + " could be read";
  } else {
    write_llms_texts(*job, url, pages);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_[job->id] = job;
  return job;
}

std::shared_ptr<const LlmsTxtJob> LlmsTxtEngine::find(const std::string& id,
                                                      const std::string& team_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end() || it->second->team_id != team_id) return nullptr;
  if (clock_.now() >= it->second->created_at + kLlmsTxtRetention) return nullptr;
  return it->second;
}

void LlmsTxtEngine::discard(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.erase(id);
}

json LlmsTxtEngine::status_body(const LlmsTxtJob& job) const {
  const bool done = clock_.now() >= job.created_at + job.duration;
  json data = {{"llmstxt", done && !job.error ? job.llmstxt : std::string()}};
  if (done && !job.error && job.show_full_text) data["llmsfulltxt"] = job.llmsfulltxt;
  json out = {{"success", true},
              {"status", !done       ? "processing"
                         : job.error ? "failed"
                                     : "completed"},
              {"data", data},
              {"expiresAt", iso8601(job.created_at + kLlmsTxtRetention)}};
  if (done && job.error) out["error"] = *job.error;
  return out;
}

void LlmsTxtEngine::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.clear();
}

}  // namespace webdata::mock::jobs
