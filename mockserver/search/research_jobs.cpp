#include "search/research_jobs.hpp"

#include <algorithm>

#include "core/ids.hpp"
#include "core/time.hpp"

namespace webdata::mock::search {

using nlohmann::json;

namespace {

constexpr auto kResearchRetention = std::chrono::hours(24);

std::string research_quoted(const std::string& text) {
  return "\"" + text + "\"";
}

json research_activity_json(const ResearchJob& job, const ResearchActivity& a, bool done) {
  const auto at = job.created_at + a.step * kResearchStep;
  return {{"type", a.type},
          {"status", done || a.type != "synthesis" ? "complete" : "processing"},
          {"message", a.message},
          {"timestamp", iso8601(at)},
          {"depth", a.depth}};
}

}  // namespace

ResearchEngine::ResearchEngine(SearchService& service, const Clock& clock)
    : service_(service), clock_(clock) {}

bool ResearchEngine::round(ResearchJob& job, const ResearchSpec& spec, const std::string& query,
                           std::int64_t depth) {
  const std::int64_t search_step = static_cast<std::int64_t>(job.activities.size()) + 1;
  job.activities.push_back({"search", "Searching " + research_quoted(query), depth, search_step});
  SearchRequest request;
  request.query = query;
  SearchAnswer answer;
  std::vector<std::string> titles;
  if (!service_.search(request, answer) && answer.index) {
    for (const auto& hit : answer.web) {
      if (static_cast<std::int64_t>(job.sources.size()) >= spec.max_urls) break;
      const PageRecord& page = answer.index->page(hit.doc);
      const bool known = std::any_of(job.sources.begin(), job.sources.end(),
                                     [&](const ResearchSource& s) { return s.url == page.url; });
      if (known) continue;
      const std::string description = page.description.empty() ? hit.snippet : page.description;
      job.sources.push_back({page.url, page.title, description, search_step});
      titles.push_back(page.title.empty() ? page.url : page.title);
    }
  }
  std::string message =
      "Analyzed " + std::to_string(titles.size()) + " new source" + (titles.size() == 1 ? "" : "s");
  std::string summary = "Depth " + std::to_string(depth) + ": ";
  for (std::size_t i = 0; i < titles.size(); ++i) summary += (i ? "; " : "") + titles[i];
  if (titles.empty()) summary += "no new sources";
  job.activities.push_back({"analyze", message, depth, search_step + 1});
  job.summaries.push_back(summary);
  return !titles.empty();
}

std::string ResearchEngine::analysis(const ResearchJob& job, const ResearchSpec& spec) const {
  std::string out = "# " + spec.query + "\n\n";
  if (!spec.analysis_prompt.empty()) out += "> " + spec.analysis_prompt + "\n\n";
  if (job.sources.empty()) return out + "No sources were found for this research.\n";
  out += "Findings from " + std::to_string(job.sources.size()) + " sources.\n\n";
  for (std::size_t i = 0; i < job.sources.size(); ++i) {
    const auto& s = job.sources[i];
    out += "## " + (s.title.empty() ? s.url : s.title) + "\n\n";
    if (!s.description.empty()) out += s.description + " ";
    out += "[" + std::to_string(i + 1) + "](" + s.url + ")\n\n";
  }
  return out;
}

std::shared_ptr<const ResearchJob> ResearchEngine::start(const std::string& team_id,
                                                         const ResearchSpec& spec) {
  auto job = std::make_shared<ResearchJob>();
  job->id = uuid4();
  job->team_id = team_id;
  job->created_at = clock_.now();
  job->max_depth = std::max<std::int64_t>(1, spec.max_depth);
  std::string query = spec.query;
  for (std::int64_t depth = 1; depth <= job->max_depth; ++depth) {
    const std::size_t before = job->sources.size();
    if (!round(*job, spec, query, depth)) break;
    if (static_cast<std::int64_t>(job->sources.size()) >= spec.max_urls) break;
    const auto& lead = job->sources[before];
    query = spec.query + " " + (lead.title.empty() ? lead.url : lead.title);
  }
  const std::int64_t synthesis_step = static_cast<std::int64_t>(job->activities.size()) + 1;
  job->activities.push_back(
      {"synthesis",
       "Writing the final analysis from " + std::to_string(job->sources.size()) + " sources", 0,
       synthesis_step});
  job->done_step = synthesis_step + 1;
  job->final_analysis = analysis(*job, spec);
  if (spec.json) {
    AgentRequest request;
    request.prompt = spec.json_prompt.empty() ? spec.query : spec.json_prompt;
    for (const auto& s : job->sources) request.urls.push_back(s.url);
    request.schema = spec.schema;
    const AgentAnswer answer = service_.agent_answer(request, request.urls);
    job->json = answer.object ? *answer.object : json{{"result", answer.result}};
  }
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_[job->id] = job;
  return job;
}

std::shared_ptr<const ResearchJob> ResearchEngine::find(const std::string& id,
                                                        const std::string& team_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end() || it->second->team_id != team_id) return nullptr;
  if (clock_.now() >= it->second->created_at + kResearchRetention) return nullptr;
  return it->second;
}

void ResearchEngine::discard(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.erase(id);
}

json ResearchEngine::status_body(const ResearchJob& job) const {
  const auto elapsed = clock_.now() - job.created_at;
  const std::int64_t step = elapsed / kResearchStep;
  const bool done = step >= job.done_step;
  json activities = json::array();
  std::int64_t depth = 0;
  for (const auto& a : job.activities) {
    if (a.step > step) break;
    activities.push_back(research_activity_json(job, a, done));
    depth = std::max(depth, a.depth);
  }
  json sources = json::array();
  for (const auto& s : job.sources) {
    if (s.step > step) break;
    sources.push_back({{"url", s.url}, {"title", s.title}, {"description", s.description}});
  }
  json data = {{"finalAnalysis", done ? job.final_analysis : std::string()},
               {"activities", activities},
               {"sources", sources}};
  if (done && job.json) data["json"] = *job.json;
  const std::size_t rounds = static_cast<std::size_t>(std::max<std::int64_t>(depth, 0));
  json summaries = json::array();
  for (std::size_t i = 0; i < job.summaries.size() && i < rounds; ++i) {
    summaries.push_back(job.summaries[i]);
  }
  return {{"success", true},
          {"status", done ? "completed" : "processing"},
          {"data", data},
          {"expiresAt", iso8601(job.created_at + kResearchRetention)},
          {"currentDepth", depth},
          {"maxDepth", job.max_depth},
          {"activities", activities},
          {"sources", sources},
          {"summaries", summaries},
          {"totalUrls", sources.size()}};
}

void ResearchEngine::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.clear();
}

}  // namespace webdata::mock::search
