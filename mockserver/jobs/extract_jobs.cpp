#include "jobs/extract_jobs.hpp"

#include <algorithm>
#include <set>

#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/url.hpp"
#include "core/usage.hpp"
#include "formats/extract.hpp"
#include "jobs/site_map.hpp"

namespace webdata::mock::jobs {

using nlohmann::json;

namespace {

constexpr auto kRetention = std::chrono::hours(24);

bool is_glob(const std::string& url) {
  return url.size() >= 2 && url.compare(url.size() - 2, 2, "/*") == 0;
}

/// Empty answers do not hide a later page's evidence: null, "", [] and {}.
bool empty_value(const json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) ||
         (v.is_array() && v.empty()) || (v.is_object() && v.empty());
}

json merge_two(const json& a, const json& b, const json& schema) {
  if (empty_value(a)) return b;
  if (empty_value(b)) return a;
  if (a.is_object() && b.is_object()) {
    json out = a;
    const json props = schema.is_object() ? schema.value("properties", json::object()) : json();
    for (const auto& [key, value] : b.items()) {
      const json sub = props.is_object() && props.contains(key) ? props.at(key) : json();
      out[key] = out.contains(key) ? merge_two(out.at(key), value, sub) : value;
    }
    return out;
  }
  if (a.is_array() && b.is_array()) {
    json out = a;
    std::set<std::string> seen;
    for (const auto& item : a) seen.insert(item.dump());
    const std::size_t cap = schema.is_object() && schema.contains("maxItems") &&
                                    schema.at("maxItems").is_number_unsigned()
                                ? schema.at("maxItems").get<std::size_t>()
                                : static_cast<std::size_t>(-1);
    for (const auto& item : b) {
      if (out.size() >= cap) break;
      if (seen.insert(item.dump()).second) out.push_back(item);
    }
    return out;
  }
  return a;  // a scalar: the first page that had one
}

/// About four bytes of text to a token, as language models count them.
std::int64_t tokens_of(std::size_t bytes) { return static_cast<std::int64_t>((bytes + 3) / 4); }

}  // namespace

const char* extract_state_name(ExtractState state) {
  switch (state) {
    case ExtractState::processing: return "processing";
    case ExtractState::completed: return "completed";
    case ExtractState::failed: return "failed";
    case ExtractState::cancelled: return "cancelled";
  }
  return "processing";
}

json merge_answers(const std::vector<json>& answers, const json& schema) {
  if (answers.empty()) return json::object();
  json merged = answers.front();
  for (std::size_t i = 1; i < answers.size(); ++i) merged = merge_two(merged, answers[i], schema);
  if (formats::conforms_to(merged, schema)) return merged;
  return answers.front();
}

ExtractEngine::ExtractEngine(scrape::Scraper& scraper, const web::VirtualWeb& web, Teams& teams,
                             const Clock& clock, ExtractSettings settings)
    : scraper_(scraper),
      web_(web),
      teams_(teams),
      clock_(clock),
      settings_(settings),
      pacing_ms_(settings.pacing.count()),
      runner_(clock, kRetention, settings.workers, [this](ExtractJob& job) {
        settings_.no_model ? fail_without_model(job) : run(job);
      }) {}

ExtractEngine::~ExtractEngine() {
  reset();  // running jobs stop at their next page instead of holding the shutdown
}

std::shared_ptr<ExtractJob> ExtractEngine::start(const Team& team, ExtractRequest request) {
  auto job = std::make_shared<ExtractJob>();
  job->id = uuid4();
  job->team_id = team.id;
  job->team = &team;
  job->api_key = UsageAttribution::current();
  job->created_at = clock_.now();
  job->lock()->warnings = request.warnings;
  job->request = std::move(request);
  runner_.submit(job);
  return job;
}

std::shared_ptr<ExtractJob> ExtractEngine::find(const std::string& id,
                                                const std::string& team_id) {
  return runner_.find(id, team_id);
}

json ExtractEngine::status_body(const ExtractJob& job) const {
  const auto progress = job.lock();
  // Milliseconds zeroed (wire-decisions 6); while running the results live a day from now.
  const auto base = progress->finished_at ? *progress->finished_at : clock_.now();
  const auto expires = std::chrono::time_point_cast<std::chrono::seconds>(base + kRetention);
  json body = {{"success", progress->state != ExtractState::failed},
               {"status", extract_state_name(progress->state)},
               {"data", progress->data},
               {"expiresAt", iso8601(expires)},
               {"creditsUsed", progress->credits_used},
               {"tokensUsed", progress->tokens_used}};
  if (settings_.baseline_fields) {  // as the Aug-2025 build, which did not report them
    body.erase("creditsUsed");
    body.erase("tokensUsed");
  }
  if (job.request.show_sources) {
    json sources = json::object();
    for (const auto& [field, urls] : progress->sources) sources[field] = urls;
    body["sources"] = std::move(sources);
  }
  if (!progress->warnings.empty()) {
    std::string warning;
    for (const auto& w : progress->warnings) warning += (warning.empty() ? "" : " ") + w;
    body["warning"] = warning;
  }
  if (progress->error) {
    body["error"] = settings_.fault_error_object ? json::object() : json(*progress->error);
  }
  return body;
}

bool ExtractEngine::wait_idle(std::chrono::milliseconds timeout) {
  return runner_.wait_idle(timeout);
}

void ExtractEngine::reset() {
  runner_.reset([this](ExtractJob& job) {
    const auto progress = job.lock();
    if (progress->state == ExtractState::processing) {
      progress->state = ExtractState::cancelled;
      progress->finished_at = clock_.now();
    }
  });
}

void ExtractEngine::fail_without_model(ExtractJob& job) {
  // Processing for one step, as the service's job is until its model call fails.
  if (!runner_.pause(std::chrono::milliseconds(pacing_ms_.load()), [&job] { return ended(job); })) {
    return;
  }
  const auto progress = job.lock();
  progress->state = ExtractState::failed;
  progress->error = "No language model is configured: nothing can be extracted";
  progress->finished_at = clock_.now();
}

bool ExtractEngine::ended(const ExtractJob& job) {
  return job.lock()->state != ExtractState::processing;
}

std::vector<std::string> ExtractEngine::expand(const ExtractRequest& request,
                                               std::vector<std::string>& warnings) const {
  std::vector<std::string> pages;
  std::set<std::string> seen;
  const auto add = [&](const std::string& url) {
    if (pages.size() < settings_.max_pages && seen.insert(url).second) pages.push_back(url);
  };
  for (const auto& url : request.urls) {
    if (!is_glob(url)) {
      add(url);
      continue;
    }
    MapOptions options;
    options.url = url.substr(0, url.size() - 1);  // "https://site/docs/" from ".../docs/*"
    options.include_subdomains = request.include_subdomains;
    options.limit = settings_.glob_pages;
    options.page_budget = settings_.glob_pages;
    const MapResult found = map_site(web_, options);
    if (found.links.empty()) warnings.push_back("No pages were found for " + url + ".");
    for (const auto& link : found.links) add(link.url);
  }
  return pages;
}

void ExtractEngine::run(ExtractJob& job) {
  const Team& team = *job.team;
  const UsageAttribution attribution(job.api_key);
  const ExtractRequest& request = job.request;
  std::vector<std::string> warnings;
  std::vector<std::string> pages = expand(request, warnings);

  // The scrape each page gets: the caller's scrape options with the `json` format (and markdown,
  // which is what a model would read and what the tokens are counted on).
  const requests::ScrapeOptions options = request.scrape_options.with_json_format(request.spec);
  const std::size_t request_bytes =
      request.spec.prompt.size() + request.spec.system_prompt.size() +
      (request.spec.schema.is_null() ? 0 : request.spec.schema.dump().size());

  std::vector<json> answers;
  std::vector<std::string> answer_urls;
  std::set<std::string> external;
  std::string last_failure;  // "URL: why", of the last page that could not be read
  for (std::size_t i = 0; i < pages.size(); ++i) {
    // A pause between pages; a reset or the engine's stop cuts it short.
    const auto is_ended = [&job] { return ended(job); };
    if (i > 0 ? !runner_.pause(std::chrono::milliseconds(pacing_ms_.load()), is_ended)
              : is_ended()) {
      return;
    }
    scrape::Outcome outcome = scraper_.scrape_deferred(options, pages[i], team);
    // A slow page holds the job's slot until its answer is due, as the service's queue would;
    // the wait is the runner's, so a reset or the engine's stop cuts it short.
    const auto left = clock_.due_in(outcome.ready_at);
    if (left.count() > 0 && !runner_.pause(left, is_ended)) return;
    if (outcome.failure) {
      last_failure = pages[i] + ": " + outcome.failure->message;
      warnings.push_back("Skipped " + pages[i] + ": " + outcome.failure->message);
      continue;
    }
    const json answer = outcome.document.value("json", json::object());
    const std::int64_t tokens = tokens_of(request_bytes + outcome.document.value("markdown", "").size() +
                                          answer.dump().size());
    if (!teams_.try_charge(team.id, outcome.credits)) {
      const auto progress = job.lock();
      progress->state = ExtractState::failed;
      progress->error = "Insufficient credits to extract from " + pages[i];
      progress->finished_at = clock_.now();
      return;
    }
    teams_.charge_tokens(team.id, tokens);
    {
      const auto progress = job.lock();
      progress->credits_used += outcome.credits;
      progress->tokens_used += tokens;
    }
    answers.push_back(answer);
    answer_urls.push_back(outcome.document.value("metadata", json::object())
                              .value("sourceURL", pages[i]));
    // External links: pages of other sites that the pages read link to, when asked.
    if (request.allow_external_links) add_external_links(pages[i], outcome.links, pages, external);
  }

  const auto progress = job.lock();
  if (progress->state != ExtractState::processing) return;  // reset while the last page ran
  for (auto& w : warnings) progress->warnings.push_back(std::move(w));
  progress->finished_at = clock_.now();
  if (answers.empty()) {
    progress->state = ExtractState::failed;
    progress->error = pages.empty() ? std::string("No pages to extract from.")
                                    : "No page could be read: " + last_failure;
    return;
  }
  complete(*progress, answers, answer_urls, request.spec.schema);
}

void ExtractEngine::complete(ExtractProgress& progress, const std::vector<json>& answers,
                             const std::vector<std::string>& answer_urls, const json& schema) {
  json data = merge_answers(answers, schema);
  if (data.is_object()) {
    for (const auto& [field, value] : data.items()) {
      std::vector<std::string>& urls = progress.sources[field];
      for (std::size_t i = 0; i < answers.size(); ++i) {
        const json& answer = answers[i];
        if (answer.is_object() && answer.contains(field) && !empty_value(answer.at(field)) &&
            std::find(urls.begin(), urls.end(), answer_urls[i]) == urls.end()) {
          urls.push_back(answer_urls[i]);
        }
      }
    }
  }
  progress.data = std::move(data);
  progress.state = ExtractState::completed;
}

void ExtractEngine::add_external_links(const std::string& page, const std::vector<std::string>& links,
                                       std::vector<std::string>& pages,
                                       std::set<std::string>& external) const {
  const auto here = parse_http_url(page);
  for (const auto& link : links) {
    const auto there = parse_http_url(link);
    if (!here || !there || there->host == here->host) continue;
    if (pages.size() < settings_.max_pages &&
        std::find(pages.begin(), pages.end(), there->str()) == pages.end() &&
        external.size() < settings_.glob_pages && external.insert(there->str()).second) {
      pages.push_back(there->str());
    }
  }
}

}  // namespace webdata::mock::jobs
