#include "jobs/persistence.hpp"

#include <sqlite3.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/json_text.hpp"

namespace webdata::mock::jobs {

namespace {

using TimePoint = std::chrono::system_clock::time_point;

long long to_ms(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
TimePoint from_ms(long long ms) { return TimePoint(std::chrono::milliseconds(ms)); }

/// A prepared statement that finalizes itself.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, long long v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& bind_null(int i) {
    sqlite3_bind_null(stmt_, i);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p == nullptr ? std::string()
                        : std::string(reinterpret_cast<const char*>(p),
                                      static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
  }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// The request a stored job was started with, typed again (what Job::request_json() wrote).
void read_request(Job& job, const nlohmann::json& stored) {
  const auto version = requests::parse_version(job.version).value_or(requests::Version::v2);
  if (job.kind == JobKind::crawl) {
    job.crawl = std::make_shared<const requests::CrawlRequest>(
        requests::decode<requests::CrawlRequest>(stored, version));
  } else {
    job.batch = std::make_shared<const requests::BatchScrapeRequest>(
        requests::decode<requests::BatchScrapeRequest>(stored, version));
  }
}

}  // namespace

JobPersistence::JobPersistence(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  path_ = (dir / "jobs.sqlite3").string();
  if (sqlite3_open_v2(path_.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open job state " + path_ + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL");
  exec("PRAGMA synchronous=NORMAL");
  exec(R"(CREATE TABLE IF NOT EXISTS jobs (
            id TEXT PRIMARY KEY, team_id TEXT NOT NULL, kind TEXT NOT NULL, version TEXT NOT NULL,
            url TEXT NOT NULL, options TEXT NOT NULL, created_at INTEGER NOT NULL,
            zero_data_retention INTEGER NOT NULL, status TEXT NOT NULL, total INTEGER NOT NULL,
            completed INTEGER NOT NULL, credits_used INTEGER NOT NULL, finished_at INTEGER,
            error TEXT, expired INTEGER NOT NULL DEFAULT 0))");
  exec(R"(CREATE TABLE IF NOT EXISTS documents (
            job_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (job_id, idx)))");
  exec("CREATE TABLE IF NOT EXISTS errors (job_id TEXT NOT NULL, seq INTEGER PRIMARY KEY "
       "AUTOINCREMENT, body TEXT NOT NULL)");
  exec("CREATE TABLE IF NOT EXISTS robots_blocked (job_id TEXT NOT NULL, seq INTEGER PRIMARY "
       "KEY AUTOINCREMENT, url TEXT NOT NULL)");
}

JobPersistence::~JobPersistence() { sqlite3_close(db_); }

void JobPersistence::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw std::runtime_error("job state " + path_ + ": " + why);
  }
}

std::vector<std::shared_ptr<Job>> JobPersistence::load(TimePoint now) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Job>> out;
  Statement jobs(db_,
                 "SELECT id, team_id, kind, version, url, options, created_at, "
                 "zero_data_retention, status, total, completed, credits_used, finished_at, "
                 "error, expired FROM jobs ORDER BY created_at");
  while (jobs.step()) {
    auto job = std::make_shared<Job>();
    job->id = jobs.text(0);
    job->team_id = jobs.text(1);
    job->kind = jobs.text(2) == "crawl" ? JobKind::crawl : JobKind::batch_scrape;
    job->version = jobs.text(3);
    job->url = jobs.text(4);
    read_request(*job, nlohmann::json::parse(jobs.text(5), nullptr, false));
    job->created_at = from_ms(jobs.integer(6));
    job->zero_data_retention = jobs.integer(7) != 0;
    const auto progress = job->lock();
    // A state this version does not know (a newer mock wrote it) reads as an ended job.
    progress->status = parse_state(jobs.text(8)).value_or(JobState::failed);
    progress->total = jobs.integer(9);
    progress->completed = jobs.integer(10);
    progress->credits_used = jobs.integer(11);
    if (!jobs.is_null(12)) progress->finished_at = from_ms(jobs.integer(12));
    if (!jobs.is_null(13)) progress->error = jobs.text(13);
    progress->expired_data_dropped = jobs.integer(14) != 0;
    out.push_back(job);
  }
  for (auto& job : out) {
    const auto progress = job->lock();
    Statement docs(db_, "SELECT body FROM documents WHERE job_id = ? ORDER BY idx");
    docs.bind(1, job->id);
    while (docs.step()) progress->add_document(std::make_shared<const std::string>(docs.text(0)));
    Statement errors(db_, "SELECT body FROM errors WHERE job_id = ? ORDER BY seq");
    errors.bind(1, job->id);
    while (errors.step()) {
      const auto e = nlohmann::json::parse(errors.text(0), nullptr, false);
      if (!e.is_object()) continue;
      progress->errors.push_back(JobError::from_json(e));
    }
    Statement blocked(db_, "SELECT url FROM robots_blocked WHERE job_id = ? ORDER BY seq");
    blocked.bind(1, job->id);
    while (blocked.step()) progress->robots_blocked.push_back(blocked.text(0));
    // The documents are what count: `completed` is what survived.
    progress->completed = static_cast<std::int64_t>(progress->documents.size());
    if (!progress->terminal()) {
      progress->status = JobState::failed;
      progress->finished_at = now;
      progress->error = "The mock server stopped while this job was running; the " +
                   std::to_string(progress->documents.size()) +
                   " pages scraped before are kept";
    }
  }
  return out;
}

void JobPersistence::save_job(const Job& job, const JobProgress& progress) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, R"(INSERT INTO jobs (id, team_id, kind, version, url, options, created_at,
                        zero_data_retention, status, total, completed, credits_used,
                        finished_at, error, expired)
                      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                      ON CONFLICT(id) DO UPDATE SET status = ?9, total = ?10, completed = ?11,
                        credits_used = ?12, finished_at = ?13, error = ?14, expired = ?15)");
  s.bind(1, job.id).bind(2, job.team_id).bind(3, std::string(kind_name(job.kind)));
  s.bind(4, job.version).bind(5, job.url).bind(6, json_text(job.request_json()));
  s.bind(7, to_ms(job.created_at)).bind(8, job.zero_data_retention ? 1LL : 0LL);
  s.bind(9, std::string(state_name(progress.status))).bind(10, static_cast<long long>(progress.total));
  s.bind(11, static_cast<long long>(progress.completed)).bind(12, static_cast<long long>(progress.credits_used));
  if (progress.finished_at) {
    s.bind(13, to_ms(*progress.finished_at));
  } else {
    s.bind_null(13);
  }
  if (progress.error) {
    s.bind(14, *progress.error);
  } else {
    s.bind_null(14);
  }
  s.bind(15, progress.expired_data_dropped ? 1LL : 0LL);
  s.step();
}

void JobPersistence::add_document(const std::string& job_id, std::size_t index,
                                  const std::string& body) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "INSERT OR REPLACE INTO documents (job_id, idx, body) VALUES (?, ?, ?)");
  s.bind(1, job_id).bind(2, static_cast<long long>(index)).bind(3, body);
  s.step();
}

void JobPersistence::add_error(const std::string& job_id, const JobError& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "INSERT INTO errors (job_id, body) VALUES (?, ?)");
  s.bind(1, job_id).bind(2, json_text(error.to_json()));
  s.step();
}

void JobPersistence::add_robots_blocked(const std::string& job_id, const std::string& url) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "INSERT INTO robots_blocked (job_id, url) VALUES (?, ?)");
  s.bind(1, job_id).bind(2, url);
  s.step();
}

void JobPersistence::drop_results(const std::string& job_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const char* sql : {"DELETE FROM documents WHERE job_id = ?",
                          "DELETE FROM errors WHERE job_id = ?",
                          "DELETE FROM robots_blocked WHERE job_id = ?",
                          "UPDATE jobs SET expired = 1 WHERE id = ?"}) {
    Statement s(db_, sql);
    s.bind(1, job_id);
    s.step();
  }
}

void JobPersistence::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  exec("DELETE FROM documents; DELETE FROM errors; DELETE FROM robots_blocked; DELETE FROM jobs;");
}

}  // namespace webdata::mock::jobs
