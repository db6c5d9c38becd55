#include "jobs/job_engine.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "core/ids.hpp"
#include "core/time.hpp"
#include "core/buffers.hpp"
#include "jobs/crawl_rules.hpp"
#include "jobs/sitemap.hpp"
#include "jobs/persistence.hpp"
#include "core/url.hpp"
#include "core/json_text.hpp"

namespace webdata::mock::jobs {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

struct JobEngine::Task {
  std::string url;
  int depth = 0;
  bool seed = false;  ///< The crawl's first step: robots.txt and sitemaps, then the start page.
  /// A page appended to a batch (`appendToId`) carries the appending request's options.
  std::shared_ptr<const requests::ScrapeOptions> options;
};

struct JobEngine::Runtime {
  std::shared_ptr<Job> job;
  const Team* team = nullptr;
  std::deque<Task> pending;
  int in_flight = 0;
  int max_concurrency = 1;
  std::chrono::milliseconds delay{0};
  SteadyClock::time_point next_start{};
  std::optional<std::string> failure;  ///< Set when the job must end as failed.
  bool finished = false;

  // Crawl state (guarded by the engine mutex).
  std::unique_ptr<Scope> scope;
  RobotsTxt robots;  ///< Of the start origin, read before the first page.
  std::string start_origin;
  bool ignore_robots = false;
  /// Other origins (external links), read lazily: their robots.txt and when it was due (a
  /// page of that origin starts no sooner).
  struct OtherRobots {
    RobotsTxt robots;
    SteadyClock::time_point due;
  };
  std::map<std::string, OtherRobots> other_robots;
  std::unordered_set<std::string> seen;
  bool ignore_query = false;
  bool similar = true;
  bool follow_links = true;
  bool prefaulted = false;  ///< Guarded by the job's lock: chunk buffers made ready once per job.
  std::size_t chunk_bytes = 0;  ///< The chunk limit when the job started (for prefault only).
  int max_discovery_depth = -1;  ///< -1: no limit
  double limit = 0;              ///< The crawl's `limit` (a fraction admits one page more).
  std::int64_t queued = 0;  ///< Pages queued so far (what the crawl `limit` counts).
  /// Pages that failed: the job's `total` leaves them out, as the service's does.
  std::int64_t failed = 0;
  requests::ScrapeOptions scrape_options;
  std::string api_key;  ///< The key that started the job: its pages are billed to it.
};

struct JobEngine::Later {
  SteadyClock::time_point ready_at{};  ///< The epoch: due now.
  std::function<void()> complete;      ///< Runs on a worker, without the engine's lock.
};

struct JobEngine::Deferred {
  std::shared_ptr<Runtime> runtime;
  Task task;
  std::function<void()> complete;
};

namespace {

/// A crawl's robots.txt or sitemap, fetched from `due` on (the epoch: now) without waiting for
/// it; `due` moves to when its answer is due. The body when it answered 200.
std::optional<std::string> fetch_crawl_file(const web::VirtualWeb& web, const std::string& url,
                                            std::chrono::steady_clock::time_point& due) {
  web::FetchRequest request;
  request.url = url;
  request.timeout = std::chrono::seconds(10);
  request.start = due;
  web::FetchResult fetched = web.fetch_deferred(request);
  due = std::max(due, fetched.ready_at);
  if (!fetched.ok || fetched.status != 200) return std::nullopt;
  return std::move(fetched.body);
}

ScopeOptions scope_options(const requests::CrawlRequest& crawl) {
  ScopeOptions s;
  s.crawl_entire_domain = crawl.entire_domain();
  s.allow_subdomains = crawl.allow_subdomains;
  s.allow_external = crawl.allow_external_links;
  s.regex_on_full_url = crawl.regex_on_full_url;
  s.include_paths = crawl.include_paths;
  s.exclude_paths = crawl.exclude_paths;
  if (crawl.version == requests::Version::v1) s.max_path_depth = static_cast<int>(crawl.max_depth);
  return s;
}

/// The options each page of a job is scraped with; a job with zero data retention keeps
/// nothing of any page.
requests::ScrapeOptions page_options(requests::ScrapeOptions options, bool zero_data_retention) {
  if (zero_data_retention) options.zero_data_retention = true;
  return options;
}

}  // namespace

JobEngine::JobEngine(scrape::Scraper& scraper, const web::VirtualWeb& web, Teams& teams,
                     const Clock& clock, EngineSettings settings)
    : scraper_(scraper),
      web_(web),
      teams_(teams),
      clock_(clock),
      settings_(std::move(settings)),
      clock_advanced_(clock, [this] {
        const std::lock_guard<std::mutex> lock(mutex_);
        wake_.notify_all();
      }) {
  if (!settings_.state_dir.empty()) {
    persistence_ = std::make_unique<JobPersistence>(settings_.state_dir);
    for (auto& job : persistence_->load(clock_.now())) jobs_[job->id] = job;
  }
  const int workers = std::max(1, settings_.workers);
  for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { worker_loop(); });
}

JobEngine::~JobEngine() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

// ---------------------------------------------------------------------------------------------
// Starting jobs

std::shared_ptr<Job> JobEngine::start_crawl(const Team& team,
                                            std::shared_ptr<const requests::CrawlRequest> request) {
  const requests::CrawlRequest& crawl = *request;
  auto job = std::make_shared<Job>();
  job->id = uuid4();
  job->team_id = team.id;
  job->kind = JobKind::crawl;
  job->version = requests::version_name(crawl.version);
  job->url = crawl.url;
  job->created_at = clock_.now();
  job->zero_data_retention = crawl.zero_data_retention;

  auto runtime = std::make_shared<Runtime>();
  runtime->job = job;
  runtime->team = &team;
  runtime->api_key = UsageAttribution::current();
  const auto start = parse_http_url(job->url);
  runtime->scope = std::make_unique<Scope>(*start, scope_options(crawl));
  runtime->ignore_query = crawl.ignore_query_parameters;
  runtime->ignore_robots = crawl.ignore_robots_txt;
  runtime->start_origin = start->origin();
  runtime->similar = crawl.deduplicate_similar_urls;
  // A team with fewer credits than the limit gets a crawl of what it can pay for, which
  // completes, rather than one that fails when the credits run out.
  const auto credits = static_cast<double>(std::max<std::int64_t>(teams_.balance(team.id), 1));
  runtime->limit = std::min(crawl.limit, credits);
  if (crawl.max_discovery_depth) {
    runtime->max_discovery_depth = static_cast<int>(*crawl.max_discovery_depth);
  }
  runtime->follow_links = crawl.sitemap_mode() != "only";
  runtime->scrape_options = page_options(crawl.scrape_options, job->zero_data_retention);
  if (crawl.delay) {
    runtime->delay = std::chrono::milliseconds(static_cast<long long>(*crawl.delay * 1000));
  }
  runtime->max_concurrency =
      static_cast<int>(crawl.max_concurrency.value_or(team.concurrency));
  if (runtime->delay.count() > 0) runtime->max_concurrency = 1;
  job->crawl = std::move(request);

  Task seed;
  seed.url = job->url;
  seed.seed = true;
  runtime->pending.push_back(seed);

  std::lock_guard<std::mutex> lock(mutex_);
  runtime->chunk_bytes = settings_.chunk_bytes;
  jobs_[job->id] = job;
  {
    const auto progress = job->lock();
    emit(*job, *progress, JobEvent::started, true, json::array(), std::nullopt);
  }
  persist(*job);
  running_.push_back(runtime);
  wake_.notify_all();
  return job;
}

std::shared_ptr<Job> JobEngine::start_batch(
    const Team& team, std::shared_ptr<const requests::BatchScrapeRequest> request,
    std::vector<std::string> urls) {
  auto job = std::make_shared<Job>();
  job->id = uuid4();
  job->team_id = team.id;
  job->kind = JobKind::batch_scrape;
  job->version = requests::version_name(request->version);
  job->created_at = clock_.now();
  job->zero_data_retention = request->options.zero_data_retention;

  auto runtime = std::make_shared<Runtime>();
  runtime->job = job;
  runtime->team = &team;
  runtime->api_key = UsageAttribution::current();
  runtime->max_concurrency =
      static_cast<int>(request->max_concurrency.value_or(team.concurrency));
  // Every scrape option of the batch applies to each URL.
  runtime->scrape_options = request->options;
  for (auto& url : urls) runtime->pending.push_back(Task{std::move(url), 0, false, nullptr});
  runtime->queued = static_cast<std::int64_t>(runtime->pending.size());
  job->lock()->total = runtime->queued;
  job->batch = std::move(request);

  std::lock_guard<std::mutex> lock(mutex_);
  runtime->chunk_bytes = settings_.chunk_bytes;
  jobs_[job->id] = job;
  {
    const auto progress = job->lock();
    emit(*job, *progress, JobEvent::started, true, json::array(), std::nullopt);
  }
  if (runtime->pending.empty()) {
    finish_locked(*runtime);
  } else {
    running_.push_back(runtime);
    wake_.notify_all();
  }
  persist(*job);
  return job;
}

JobEngine::AppendOutcome JobEngine::append_batch(const Team& team, const std::string& id,
                                                 requests::ScrapeOptions scrape_options,
                                                 std::vector<std::string> urls) {
  std::shared_ptr<Job> job;
  const Lookup lookup = find(id, team.id, JobKind::batch_scrape, job);
  if (lookup == Lookup::not_found || lookup == Lookup::other_team) return AppendOutcome::not_found;
  if (lookup == Lookup::expired) return AppendOutcome::expired;
  if (job->version != requests::version_name(scrape_options.version)) {
    return AppendOutcome::not_found;
  }
  const auto options = std::make_shared<const requests::ScrapeOptions>(
      page_options(std::move(scrape_options), job->zero_data_retention));

  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<Runtime> runtime;
  for (const auto& r : running_) {
    if (r->job == job && !r->finished) runtime = r;
  }
  {
    const auto progress = job->lock();
    if (urls.empty()) {
      // Nothing to add (every URL was invalid and ignored): the job stays as it is.
      return progress->status == JobState::scraping || progress->status == JobState::completed
                 ? AppendOutcome::appended
                 : AppendOutcome::already_finished;
    }
    if (!runtime) {
      // Only a completed job takes more pages: it runs again, as the service's status turns
      // back to `scraping` while appended pages wait.
      if (progress->status != JobState::completed) return AppendOutcome::already_finished;
      runtime = std::make_shared<Runtime>();
      runtime->job = job;
      runtime->team = &team;
      runtime->api_key = UsageAttribution::current();
      runtime->max_concurrency = static_cast<int>(
          job->batch ? job->batch->max_concurrency.value_or(team.concurrency) : team.concurrency);
      runtime->scrape_options = *options;
      runtime->chunk_bytes = settings_.chunk_bytes;
      runtime->queued = progress->total;
      progress->status = JobState::scraping;
      progress->finished_at.reset();
      running_.push_back(runtime);
    } else if (progress->terminal()) {
      return AppendOutcome::already_finished;  // cancelled while its runtime winds down
    }
    for (auto& url : urls) runtime->pending.push_back(Task{std::move(url), 0, false, options});
    runtime->queued += static_cast<std::int64_t>(urls.size());
    progress->total = runtime->queued - runtime->failed;
  }
  persist(*job);
  wake_.notify_all();
  return AppendOutcome::appended;
}

// ---------------------------------------------------------------------------------------------
// Scheduling

bool JobEngine::runnable_locked(const Runtime& r, SteadyClock::time_point now) {
  if (r.pending.empty() || r.in_flight >= r.max_concurrency || now < r.next_start) return false;
  return team_in_flight_[r.team->id] < r.team->concurrency;
}

bool JobEngine::pick_locked(std::shared_ptr<Runtime>& runtime, Task& task) {
  const auto now = clock_.steady_now();
  for (auto it = running_.begin(); it != running_.end(); ++it) {
    Runtime& r = **it;
    if (!runnable_locked(r, now)) continue;
    task = std::move(r.pending.front());
    r.pending.pop_front();
    ++r.in_flight;
    ++team_in_flight_[r.team->id];
    r.next_start = now + r.delay;
    runtime = *it;
    running_.splice(running_.end(), running_, it);  // round robin: to the back
    return true;
  }
  return false;
}

void JobEngine::worker_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    std::shared_ptr<Runtime> runtime;
    Task task;
    std::shared_ptr<Deferred> due;
    const auto now = clock_.steady_now();
    if (!deferred_.empty() && deferred_.begin()->first <= now) {
      // A task whose fetches came due: completed before any new task starts.
      due = std::move(deferred_.begin()->second);
      deferred_.erase(deferred_.begin());
      runtime = due->runtime;
      task = due->task;
    } else if (!pick_locked(runtime, task)) {
      // Sleep until woken, until the earliest delayed job may start its next page, or until the
      // earliest deferred page is due.
      auto until = deferred_.empty() ? SteadyClock::time_point::max() : deferred_.begin()->first;
      for (const auto& r : running_) {
        if (!r->pending.empty() && r->next_start > now) until = std::min(until, r->next_start);
      }
      if (until == SteadyClock::time_point::max()) {
        wake_.wait(lock);
      } else {
        // On the mock's clock: a wait for its time, cut short when the clock is advanced.
        wake_.wait_for(lock, until - now);
      }
      continue;
    } else if (std::any_of(running_.begin(), running_.end(),
                           [picked_at = clock_.steady_now(),
                            this](const std::shared_ptr<Runtime>& r) {
                             // Not `now`: the pick moved its job's next start past it.
                             return runnable_locked(*r, picked_at);
                           })) {
      // Wake-ups are chained: a worker that took a page wakes one more only if another page
      // can start now, and that one does the same. Waking every idle worker after each page
      // (as before) made the idle half of the pool wake and sleep again thousands of times a
      // second, which cost a crawl more CPU than its pages did on a 2-core machine
      // (bench/analysis.md).
      wake_.notify_one();
    }
    lock.unlock();
    std::optional<Later> later;
    try {
      const UsageAttribution attribution(runtime->api_key);  // its credits, billed to its key
      if (due) {
        due->complete();
      } else {
        later = run_task(runtime, task);
        if (later && later->ready_at <= clock_.steady_now()) {
          later->complete();
          later.reset();
        }
      }
    } catch (const std::exception& e) {
      fail_job(*runtime, std::string("internal error: ") + e.what());
    }
    lock.lock();
    if (later) {
      // Not due yet: no worker sleeps for it. An idle worker may be waiting without a deadline,
      // so one is woken to take this task's deadline into account.
      deferred_.emplace(later->ready_at, std::make_shared<Deferred>(Deferred{
                                             runtime, task, std::move(later->complete)}));
      wake_.notify_one();
      continue;
    }
    --runtime->in_flight;
    --team_in_flight_[runtime->team->id];
    // Page pacing is per job: its next page starts no sooner than this.
    if (!task.seed && settings_.pacing.count() > 0) {
      runtime->next_start = std::max(runtime->next_start, clock_.steady_now() + settings_.pacing);
    }
    if (runtime->in_flight == 0 && (runtime->pending.empty() || runtime->failure)) {
      finish_locked(*runtime);
    }
    // No wake-up here: this worker picks the next page itself at the top of the loop, and wakes
    // another one from there if more can start.
  }
}

void JobEngine::finish_locked(Runtime& runtime) {
  if (runtime.finished) return;
  runtime.finished = true;
  runtime.pending.clear();
  running_.remove_if([&](const std::shared_ptr<Runtime>& r) { return r.get() == &runtime; });
  Job& job = *runtime.job;
  {
    const auto progress = job.lock();
    if (!progress->terminal()) {
      progress->finished_at = clock_.now();
      if (runtime.failure) {
        progress->status = JobState::failed;
        progress->error = runtime.failure;
        emit(job, *progress, JobEvent::failed, false, json::array(), progress->error);
      } else {
        progress->status = JobState::completed;
        emit(job, *progress, JobEvent::completed, true, json::array(), std::nullopt);
      }
    }
  }
  persist(job);
  idle_.notify_all();
}

void JobEngine::fail_job(Runtime& runtime, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!runtime.failure) runtime.failure = message;
  runtime.pending.clear();
}

// ---------------------------------------------------------------------------------------------
// Work

JobEngine::QueueFigures JobEngine::queue_figures(const std::string& team_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  QueueFigures out;
  for (const auto& runtime : running_) {
    if (runtime->team == nullptr || runtime->team->id != team_id || runtime->finished) continue;
    out.active += runtime->in_flight;
    out.waiting += static_cast<std::int64_t>(runtime->pending.size());
  }
  return out;
}

std::optional<JobEngine::Later> JobEngine::run_task(const std::shared_ptr<Runtime>& runtime,
                                                   const Task& task) {
  if (runtime->job->lock()->terminal()) return std::nullopt;  // cancelled while queued
  if (task.seed) return seed_crawl(runtime);
  return scrape_page(runtime, task);
}

JobEngine::Later JobEngine::seed_crawl(const std::shared_ptr<Runtime>& runtime) {
  const Job& job = *runtime->job;
  const Url& start = runtime->scope->start();
  const std::string origin = start.origin();

  // robots.txt, then the sitemaps one after another: each fetch starts when the one before it
  // was due, and the crawl's first pages are queued when the last is (nothing sleeps).
  SteadyClock::time_point due{};
  RobotsTxt robots;
  std::vector<std::string> sitemap_urls;
  auto fetch_text = [&](const std::string& url) { return fetch_crawl_file(web_, url, due); };
  const auto robots_text = fetch_text(origin + "/robots.txt");
  if (robots_text) robots = RobotsTxt::parse(*robots_text);
  const bool ignore_robots = job.crawl->ignore_robots_txt;
  if (job.crawl->sitemap_mode() != "skip") {
    std::vector<std::string> start = robots.sitemaps();
    start.push_back(origin + "/sitemap.xml");
    follow_sitemaps(std::move(start), fetch_text,
                    [&](const std::string& loc) { sitemap_urls.push_back(loc); });
  }

  return Later{due, [this, runtime, robots = std::move(robots), ignore_robots,
                     sitemap_urls = std::move(sitemap_urls)]() mutable {
                 std::lock_guard<std::mutex> lock(mutex_);
                 if (runtime->job->lock()->terminal()) return;  // cancelled while it waited
                 if (!ignore_robots) runtime->robots = std::move(robots);
                 offer_locked(*runtime, runtime->job->url, 0);
                 for (const auto& url : sitemap_urls) offer_locked(*runtime, url, 0);
               }};
}

void JobEngine::offer_locked(Runtime& runtime, const std::string& text, int depth) {
  const auto url = parse_http_url(text);
  if (!url) return;
  const bool is_start = url->without_fragment() == runtime.scope->start().without_fragment();
  if (!is_start && !runtime.scope->contains(*url)) return;
  if (runtime.max_discovery_depth >= 0 && depth > runtime.max_discovery_depth) return;
  Url target = *url;
  target.fragment.reset();
  if (runtime.ignore_query) target.query.reset();
  const std::string identity = url_identity(target, runtime.ignore_query, runtime.similar);
  if (!runtime.seen.insert(identity).second) return;
  Job& job = *runtime.job;
  // Pages of other origins are checked against their own robots.txt when their turn comes.
  if (target.origin() == runtime.start_origin && !runtime.robots.allowed(target.target())) {
    job.lock()->robots_blocked.push_back(target.str());
    if (persistence_) persistence_->add_robots_blocked(job.id, target.str());
    return;
  }
  if (runtime.queued >= runtime.limit) return;
  ++runtime.queued;
  job.lock()->total = runtime.queued - runtime.failed;
  runtime.pending.push_back(Task{target.str(), depth, false, nullptr});
}

std::optional<bool> JobEngine::known_robots(Runtime& runtime, const std::string& url,
                                            SteadyClock::time_point& due) {
  const auto parsed = parse_http_url(url);
  if (!parsed || runtime.ignore_robots) return true;
  const std::string origin = parsed->origin();
  if (origin == runtime.start_origin) return true;  // checked when queued
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = runtime.other_robots.find(origin);
  if (it == runtime.other_robots.end()) return std::nullopt;
  due = it->second.due;
  return it->second.robots.allowed(parsed->target());
}

std::optional<JobEngine::Later> JobEngine::scrape_page(const std::shared_ptr<Runtime>& runtime,
                                                      const Task& task) {
  Job& job = *runtime->job;
  // A page of another origin than the start is checked against its own robots.txt, fetched
  // once per origin; the page's own fetch starts when that answer is due.
  SteadyClock::time_point start{};
  std::optional<bool> allowed = job.kind == JobKind::crawl
                                    ? known_robots(*runtime, task.url, start)
                                    : std::optional<bool>(true);
  if (!allowed) {
    const auto parsed = parse_http_url(task.url);
    const std::string origin = parsed->origin();
    RobotsTxt robots;
    if (const auto text = fetch_crawl_file(web_, origin + "/robots.txt", start)) {
      robots = RobotsTxt::parse(*text);
    }
    allowed = robots.allowed(parsed->target());
    std::lock_guard<std::mutex> lock(mutex_);
    runtime->other_robots.emplace(origin, Runtime::OtherRobots{std::move(robots), start});
  }
  if (!*allowed) {
    return Later{start, [this, runtime, task] {
                   std::lock_guard<std::mutex> lock(mutex_);
                   Job& blocked = *runtime->job;
                   const auto progress = blocked.lock();
                   if (progress->terminal()) return;  // cancelled while robots.txt was due
                   --runtime->queued;  // a blocked page is not a page of the crawl
                   progress->total = runtime->queued - runtime->failed;
                   progress->robots_blocked.push_back(task.url);
                   if (persistence_) persistence_->add_robots_blocked(blocked.id, task.url);
                 }};
  }
  const requests::ScrapeOptions& options = task.options ? *task.options : runtime->scrape_options;
  auto outcome = std::make_shared<scrape::Outcome>(
      scraper_.scrape_deferred(options, task.url, *runtime->team, start));
  const auto ready_at = outcome->ready_at;
  // The runtime (and the task's options) outlive the deferred completion.
  return Later{ready_at, [this, runtime, task, outcome] {
                 record_page(*runtime, task,
                             task.options ? *task.options : runtime->scrape_options, *outcome);
               }};
}

void JobEngine::record_page(Runtime& runtime, const Task& task,
                            const requests::ScrapeOptions& options, scrape::Outcome& outcome) {
  Job& job = *runtime.job;
  if (outcome.failure) {
    // A failed page is listed by the errors endpoint and leaves `total`. When it is the start
    // page of a crawl, the crawl has nothing to follow: it ends failed, with the reason.
    const bool start_unreachable =
        job.kind == JobKind::crawl && task.depth == 0 && task.url == runtime.scope->start().str();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto progress = job.lock();
      if (progress->terminal()) return;
      ++runtime.failed;
      progress->total = runtime.queued - runtime.failed;
      JobError error{uuid4(), iso8601(clock_.now()), task.url, outcome.failure->code,
                     outcome.failure->message};
      if (persistence_) persistence_->add_error(job.id, error);
      progress->errors.push_back(std::move(error));
    }
    if (start_unreachable) {
      fail_job(runtime, "The start URL could not be reached: " + outcome.failure->message);
    }
    return;
  }

  if (!teams_.try_charge(runtime.team->id, outcome.credits)) {
    fail_job(runtime, "Insufficient credits: the team cannot pay for " + task.url);
    return;
  }
  bool prefault = false;
  {
    const auto progress = job.lock();
    if (progress->terminal()) return;  // cancelled while this page was in flight
    auto serialized = std::make_shared<const std::string>(json_text(outcome.document));
    // Every page of a job is also a scrape of its own, readable by its scrapeId as deployments
    // store every scrape job (GET /scrape/{id}): the same text, not a copy.
    if (!job.zero_data_retention && !options.keeps_nothing()) {
      scraper_.results().add(scrape::scrape_id_of(outcome.document), job.team_id, serialized,
                             clock_.now());
    }
    if (persistence_ && !job.zero_data_retention) {
      persistence_->add_document(job.id, progress->documents.size(), *serialized);
    }
    progress->add_document(std::move(serialized));
    prefault = !runtime.prefaulted && progress->offsets.back() >= runtime.chunk_bytes / 2;
    if (prefault) runtime.prefaulted = true;
    ++progress->completed;
    progress->credits_used += outcome.credits;
    emit(job, *progress, JobEvent::page, true, json::array({outcome.document}), std::nullopt);
  }
  persist(job);
  // A job this large will be read in full chunks: have resident buffers ready for them, so that
  // the first chunks are not slowed by page faults (LargeBuffers).
  if (prefault) LargeBuffers::prefault(runtime.chunk_bytes + (64u << 10), 2);

  if (job.kind != JobKind::crawl || !runtime.follow_links) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (runtime.failure || runtime.finished) return;
  for (const auto& link : outcome.links) offer_locked(runtime, link, task.depth + 1);
}

// ---------------------------------------------------------------------------------------------
// Queries

JobEngine::Lookup JobEngine::find(const std::string& id, const std::string& team_id,
                                  JobKind kind, std::shared_ptr<Job>& out) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return Lookup::not_found;
    job = it->second;
  }
  // --inject-fault one-job-store: as the Aug-2025 build, either kind's routes read any job.
  if (job->kind != kind && !settings_.fault_one_job_store) return Lookup::not_found;
  if (job->team_id != team_id) return Lookup::other_team;
  const auto progress = job->lock();
  const auto now = clock_.now();
  // Once its results are dropped a job stays expired, even if the mock's clock is set back.
  if (progress->expired_data_dropped ||
      (progress->finished_at && now > *progress->finished_at + std::chrono::hours(24))) {
    if (!progress->expired_data_dropped) {
      // Past retention nothing of the results is kept: the id stays as a tombstone.
      std::vector<std::shared_ptr<const std::string>>().swap(progress->documents);
      progress->offsets.assign(1, 0);
      progress->errors.clear();
      progress->robots_blocked.clear();
      progress->expired_data_dropped = true;
      if (persistence_) persistence_->drop_results(job->id);
    }
    return Lookup::expired;
  }
  out = job;
  return Lookup::found;
}

JobEngine::CancelOutcome JobEngine::cancel(const std::string& id, const std::string& team_id,
                                           JobKind kind) {
  std::shared_ptr<Job> job;
  switch (find(id, team_id, kind, job)) {
    case Lookup::not_found:
    case Lookup::other_team: return CancelOutcome::not_found;
    case Lookup::expired: return CancelOutcome::expired;
    case Lookup::found: break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  {
    const auto progress = job->lock();
    if (progress->terminal()) {
      if (!settings_.fault_cancel_finished_flips) return CancelOutcome::already_finished;
      // --inject-fault cancel-finished-flips: as the Aug-2025 server, mark it cancelled anyway.
      progress->status = JobState::cancelled;
    } else {
      progress->status = JobState::cancelled;
      progress->finished_at = clock_.now();
      // `completed` comes once, after the last page, also for a cancelled job (issue 7).
      emit(*job, *progress, JobEvent::completed, true, json::array(), std::nullopt);
    }
  }
  for (auto& runtime : running_) {
    if (runtime->job == job) runtime->pending.clear();  // queued pages are dropped silently
  }
  running_.remove_if([&](const std::shared_ptr<Runtime>& r) {
    if (r->job != job || r->in_flight > 0) return false;
    r->finished = true;
    return true;
  });
  persist(*job);
  idle_.notify_all();
  return CancelOutcome::cancelled;
}

std::vector<std::shared_ptr<Job>> JobEngine::active_crawls(const std::string& team_id) {
  std::vector<std::shared_ptr<Job>> out;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [id, job] : jobs_) {
    if (job->team_id != team_id || job->kind != JobKind::crawl) continue;
    if (!job->lock()->terminal()) out.push_back(job);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->created_at < b->created_at; });
  return out;
}

std::string JobEngine::status_body(const Job& job, std::size_t skip, std::size_t limit,
                                   const std::string& next_base) {
  const std::size_t chunk_bytes = settings().chunk_bytes;
  if (settings_.fault_ignore_limit) limit = 0;  // --inject-fault ignore-limit (Aug-2025 build)
  const auto progress = job.lock();
  // --inject-fault ignore-skip: as the Aug-2025 server, every chunk starts at the first document
  // while `next` still advances by the documents returned.
  const bool ignore_skip = settings_.fault_ignore_skip;
  Chunk chunk = progress->chunk(ignore_skip ? 0 : skip, limit, chunk_bytes);
  std::size_t next_skip = chunk.end;
  if (ignore_skip) {
    next_skip = skip + (chunk.end - chunk.begin);
    chunk.more = progress->documents.size() > next_skip;
  }
  bool more = chunk.more || !progress->terminal();
  std::optional<std::int64_t> shown_total;
  // --inject-fault first-status-without-next: as the Aug-2025 server, `total` is 0 until the
  // first page is done and `next` is there only when total > skip + returned, running or not.
  if (settings_.fault_first_status_without_next) {
    shown_total = progress->terminal() || !progress->documents.empty() ? progress->total : 0;
    more = static_cast<std::uint64_t>(*shown_total) > skip + (chunk.end - chunk.begin);
  }
  std::optional<std::string> next;
  if (more) {
    const bool repeat = settings_.fault_repeat_skip && chunk.end > chunk.begin;
    next = next_base + "?skip=" + std::to_string(next_skip - (repeat ? 1 : 0));
    if (limit > 0) *next += "&limit=" + std::to_string(limit);
  }
  return status_body_locked(job, *progress, chunk, next, shown_total);
}

std::string JobEngine::status_body_locked(const Job& job, const JobProgress& progress,
                                          const Chunk& chunk,
                                          const std::optional<std::string>& next,
                                          std::optional<std::int64_t> shown_total) const {
  json head = {{"success", true},
               {"status", state_name(progress.status)},
               {"total", shown_total.value_or(progress.total)},
               {"completed", progress.completed},
               {"creditsUsed", progress.credits_used},
               {"expiresAt", iso8601_seconds(progress.expires_at(clock_.now()))}};
  // A failed job (its start URL could not be fetched, or it ran out of credits) answers 200 with
  // `success: false` and the reason in `error`, as the service does.
  if (progress.status == JobState::failed) head["success"] = false;
  if (next) head["next"] = *next;
  if (progress.error) head["error"] = *progress.error;
  // The newer service's v2 status says so once the job has ended with robots-blocked pages.
  if (job.version == "v2" && progress.terminal() && !progress.robots_blocked.empty() &&
      !settings_.fault_baseline_fields) {
    head["warning"] = kRobotsBlockedWarning;
  }
  // The documents are already serialized: splice them in rather than parse them again.
  const std::string head_text = json_text(head);
  // One allocation of the exact size: growing a 10 MB chunk by doubling costs several copies
  // and page faults, which made each chunk take hundreds of milliseconds (bench/run.sh crawl).
  // Large bodies come from recycled, already resident buffers (LargeBuffers).
  std::string body = LargeBuffers::take(
      head_text.size() + 16 + (chunk.end - chunk.begin) +
      static_cast<std::size_t>(progress.offsets[chunk.end] - progress.offsets[chunk.begin]));
  body.append(head_text, 0, head_text.size() - 1);  // without the closing brace
  body += ",\"data\":[";
  for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
    if (i != chunk.begin) body += ',';
    body += *progress.documents[i];
  }
  body += "]}";
  return body;
}

json JobEngine::errors_body(const Job& job) const {
  const auto progress = job.lock();
  json errors = json::array();
  for (const auto& e : progress->errors) errors.push_back(e.to_json());
  return {{"errors", errors}, {"robotsBlocked", progress->robots_blocked}};
}

json JobEngine::active_entry(const Job& job) const {
  // The crawler's options and the scrape options with every default, as the service lists them.
  return {{"id", job.id},
          {"teamId", job.team_id},
          {"url", job.url},
          {"created_at", iso8601(job.created_at)},
          {"options", job.crawl ? job.crawl->listed_options() : json::object()}};
}

// ---------------------------------------------------------------------------------------------
// Settings and housekeeping

void JobEngine::emit(const Job& job, const JobProgress& progress, JobEvent event, bool success,
                     const json& data, const std::optional<std::string>& error) {
  if (sink_) sink_(job, event, success, data, error);
  notify_watchers(job, progress, event, error);
}

void JobEngine::notify_watchers(const Job& job, const JobProgress& progress, JobEvent event,
                                const std::optional<std::string>& error) {
  std::lock_guard<std::mutex> lock(watchers_mutex_);
  const auto it = watchers_.find(job.id);
  if (it == watchers_.end()) return;
  // A page event follows the page's storing: the document is the last one, as stored.
  const std::string_view document =
      event == JobEvent::page && !progress.documents.empty()
          ? std::string_view(*progress.documents.back())
          : std::string_view();
  for (const auto& [id, listener] : it->second) listener(event, document, error);
}

std::uint64_t JobEngine::watch(const std::shared_ptr<Job>& job,
                               const std::function<void(const WatchSnapshot&)>& snapshot,
                               WatchListener listener) {
  const auto progress = job->lock();
  snapshot(WatchSnapshot{status_body_locked(*job, *progress, progress->all(), std::nullopt),
                         progress->status, progress->error});
  if (progress->terminal()) return 0;
  std::lock_guard<std::mutex> lock(watchers_mutex_);
  const std::uint64_t id = next_watcher_++;
  watchers_[job->id].emplace(id, std::move(listener));
  watcher_jobs_.emplace(id, job->id);
  return id;
}

void JobEngine::unwatch(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(watchers_mutex_);
  const auto job = watcher_jobs_.find(id);
  if (job == watcher_jobs_.end()) return;
  const auto it = watchers_.find(job->second);
  if (it != watchers_.end()) {
    it->second.erase(id);
    if (it->second.empty()) watchers_.erase(it);
  }
  watcher_jobs_.erase(job);
}

std::size_t JobEngine::watcher_count() const {
  std::lock_guard<std::mutex> lock(watchers_mutex_);
  return watcher_jobs_.size();
}

void JobEngine::persist(const Job& job) {
  if (!persistence_) return;
  persistence_->save_job(job, *job.lock());
}

void JobEngine::set_event_sink(EventSink sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_ = std::move(sink);
}

EngineSettings JobEngine::settings() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return settings_;
}

void JobEngine::set_chunk_bytes(std::size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  settings_.chunk_bytes = bytes;
}

void JobEngine::set_pacing(std::chrono::milliseconds pacing) {
  std::lock_guard<std::mutex> lock(mutex_);
  settings_.pacing = pacing;
}

std::size_t JobEngine::deferred_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return deferred_.size();
}

bool JobEngine::wait_idle(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return running_.empty(); });
}

void JobEngine::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& runtime : running_) {
    runtime->pending.clear();
    runtime->finished = true;
    const auto progress = runtime->job->lock();
    if (!progress->terminal()) {
      progress->status = JobState::cancelled;
      progress->finished_at = clock_.now();
      // No webhook (the dispatcher is reset too), but a watcher must not wait forever.
      notify_watchers(*runtime->job, *progress, JobEvent::completed, std::nullopt);
    }
  }
  running_.clear();
  jobs_.clear();
  if (persistence_) persistence_->clear();
  idle_.notify_all();
}

}  // namespace webdata::mock::jobs
