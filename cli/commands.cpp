#include "commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

#include <webdata/webdata.hpp>

#include "connection.hpp"
#include "progress.hpp"
#include "render.hpp"

namespace webdata::cli {
namespace {

struct Context {
  Context(const Args& a, std::ostream& o, std::ostream& e) : args(a), out(o), err(e) {}
  const Args& args;
  std::ostream& out;
  std::ostream& err;
  bool json = false;
  bool quiet = false;
  bool progress = false;
  ClientOptions client_options;
  PollingPolicy polling;
  std::shared_ptr<CliTransport> transport;
  std::string url_source;  ///< "--api-url", "WEBDATA_API_URL" or "the default"
  std::string key_source;  ///< "--api-key", "WEBDATA_API_KEY" or "" (no key)
};

const std::vector<std::string> kFormatsV2 = {"markdown", "summary", "html", "rawHtml",
                                             "links",    "images",  "screenshot", "json",
                                             "changeTracking", "branding"};
const std::vector<std::string> kFormatsV1 = {"markdown",   "html", "rawHtml",
                                             "links",      "screenshot", "screenshot@fullPage",
                                             "json",       "extract",    "changeTracking"};

// Refuses a value outside `accepted` before anything is sent: a typo is a usage error (exit 2)
// that names the accepted values, not a 400 from the service.
void check_values(const std::string& option, const std::vector<std::string>& values,
                  const std::vector<std::string>& accepted) {
  for (const auto& value : values) {
    if (std::find(accepted.begin(), accepted.end(), value) != accepted.end()) continue;
    std::string message = "unknown " + option + " '" + value + "'";
    if (const auto nearest = nearest_name(value, accepted, 2)) {
      message += " (did you mean '" + *nearest + "'?)";
    }
    std::string list;
    for (const auto& a : accepted) list += (list.empty() ? "" : ", ") + a;
    throw UsageError(message + "; accepted: " + list);
  }
}

// A command line that repeats this one's connection and job flags, for hints ("try ...").
// The key is never printed: it is a secret, and the environment or the same flag supplies it.
std::string suggest(const Context& c, const std::string& rest, bool batch) {
  std::string line = "webdata " + rest;
  if (batch) line += " --batch";
  if (c.args.flag("v1")) line += " --v1";
  if (c.args.flag("json")) line += " --json";
  if (c.url_source == "--api-url") line += " --api-url " + c.client_options.api_url;
  if (c.key_source == "--api-key") line += " --api-key ...";
  return line;
}

int exit_code_for(const Error& e) {
  switch (e.kind) {
    case ErrorKind::kHttp: return kApiError;
    case ErrorKind::kTransport: return kTransport;
    case ErrorKind::kTimeout: return kTimeout;
    case ErrorKind::kParse: return kBadAnswer;
    case ErrorKind::kCancelled: return kTimeout;
    case ErrorKind::kInvalidArgument: return kUsage;
    // A route the deployment lacks (an HTML 404) or a proxy's error page is an error status; a
    // 2xx answer that is not JSON is not what the API promises.
    case ErrorKind::kNotJson:
      return e.http_status >= 200 && e.http_status < 300 ? kBadAnswer : kApiError;
  }
  return kApiError;
}

int fail(Context& c, const Error& e) {
  c.err << "webdata: " << e.describe() << "\n";
  if (!e.details.empty()) c.err << "details: " << e.details << "\n";
  if (e.kind == ErrorKind::kHttp && e.http_status == 401) {
    if (c.key_source.empty()) {
      c.err << "webdata: no API key was sent: pass --api-key KEY or set WEBDATA_API_KEY\n";
    } else {
      c.err << "webdata: the service refused the key from " << c.key_source
            << ": check --api-key or WEBDATA_API_KEY (--api-key wins)\n";
    }
  } else if (e.kind == ErrorKind::kTransport && c.transport && !c.transport->answered()) {
    c.err << "webdata: nothing answers at " << c.client_options.api_url
          << ": is the service running? (the address comes from " << c.url_source
          << "; set it with --api-url or WEBDATA_API_URL)\n";
  }
  return exit_code_for(e);
}

// The service reads a job's `success: false` (with its `error`) as a failed request; for a job
// status it means the job failed, and the message is the job's error.
bool is_failed_job_report(const Error& e) {
  return e.kind == ErrorKind::kHttp && e.http_status >= 200 && e.http_status < 300;
}

// A job ended without completing: why, always (it is the reason for exit 5), and where to look.
int report_job_end(Context& c, const std::string& kind, const std::string& id,
                   const std::string& state, const std::optional<std::string>& why) {
  c.err << "webdata: " << kind << " " << id << " ended " << state;
  if (why) c.err << ": " << *why;
  c.err << "\n";
  if (state == "failed") {
    c.err << "webdata: pages that failed: " << suggest(c, "errors " + id, kind == "batch")
          << "\n";
  }
  return kJobNotCompleted;
}

// A status, cancel or errors request for an id the service does not know: say whether it is the
// other kind of job (a batch id used as a crawl, or the reverse) and how to ask for it.
int fail_lookup(Context& c, const std::string& command, const std::string& id, const Error& e);

void note(Context& c, const std::string& text) {
  if (!c.quiet) c.err << "webdata: " << text << "\n";
}

std::string one_positional(const Args& args, const char* what) {
  if (args.positional.size() != 1) {
    throw UsageError("'" + args.command + "' needs exactly one " + what);
  }
  return args.positional.front();
}

// --schema '{"type": ...}' or --schema @file.json
Json read_schema(const std::string& text) {
  std::string json_text = text;
  if (!text.empty() && text.front() == '@') {
    std::ifstream in(text.substr(1));
    if (!in) throw UsageError("cannot read schema file '" + text.substr(1) + "'");
    std::stringstream buffer;
    buffer << in.rdbuf();
    json_text = buffer.str();
  }
  auto parsed = Json::parse(json_text);
  if (!parsed.ok()) throw UsageError("--schema is not valid JSON: " + parsed.error().message);
  return *parsed;
}

std::optional<std::chrono::milliseconds> millis(const Args& a, const char* name, int max) {
  if (auto v = a.integer(name, 0, max)) return std::chrono::milliseconds(*v);
  return std::nullopt;
}

template <class Options>
void common_scrape_options(const Args& a, Options& o) {
  if (a.flag("no-main-content")) o.only_main_content = false;
  if (auto tags = a.list("include-tag"); !tags.empty()) o.include_tags = tags;
  if (auto tags = a.list("exclude-tag"); !tags.empty()) o.exclude_tags = tags;
  o.wait_for = millis(a, "wait-for", 300000);
  if (a.flag("mobile")) o.mobile = true;
  if (auto p = a.value("proxy")) {
    // The service's names: v2 takes all four (stealth is enhanced's other name), v1 refuses
    // enhanced; the service answers that refusal with the field named.
    if (*p != "basic" && *p != "enhanced" && *p != "stealth" && *p != "auto") {
      throw UsageError("--proxy needs basic, enhanced, stealth or auto");
    }
    o.proxy = ProxyMode(*p);
  }
  o.max_age = millis(a, "max-age", 2000000000);
  if (auto country = a.value("country")) o.location = Location{*country, std::nullopt};
}

ScrapeOptions scrape_options(const Args& a) {
  check_values("--format", a.list("format"), kFormatsV2);
  ScrapeOptions o;
  common_scrape_options(a, o);
  std::vector<FormatEntry> formats;
  for (const auto& f : a.list("format")) {
    if (f != "json") formats.emplace_back(f);
  }
  const auto schema = a.value("schema");
  const auto prompt = a.value("prompt");
  const auto listed = a.list("format");
  if (schema || prompt || std::find(listed.begin(), listed.end(), "json") != listed.end()) {
    formats.push_back(FormatEntry::json_extraction(
        schema ? std::optional<Json>(read_schema(*schema)) : std::nullopt, prompt));
  }
  if (!formats.empty()) o.formats = formats;
  return o;
}

v1::ScrapeOptions scrape_options_v1(const Args& a) {
  check_values("--format", a.list("format"), kFormatsV1);
  v1::ScrapeOptions o;
  common_scrape_options(a, o);
  if (auto formats = a.list("format"); !formats.empty()) o.formats = formats;
  if (a.value("schema") || a.value("prompt")) {
    v1::JsonOptions json;
    if (auto s = a.value("schema")) json.schema = read_schema(*s);
    json.prompt = a.value("prompt");
    o.json_options = json;
    if (!o.formats) o.formats = std::vector<std::string>{"json"};
  }
  return o;
}

bool ended_well(const JobState& state) { return state == JobState::completed(); }

// Whether a kTimeout is --max-wait running out (rather than one request's --timeout).
bool max_wait_over(const Context& c, std::chrono::steady_clock::time_point since, const Error& e) {
  return e.kind == ErrorKind::kTimeout && c.polling.max_wait &&
         std::chrono::steady_clock::now() - since >= *c.polling.max_wait;
}

std::string seconds_text(std::chrono::milliseconds ms) {
  std::ostringstream out;
  out << static_cast<double>(ms.count()) / 1000.0 << " s";
  return out.str();
}

int report_max_wait(Context& c, const std::string& kind, const std::string& id,
                    const std::string& state, const std::string& resume) {
  c.err << "webdata: " << kind << " " << id << " still " << (state.empty() ? "running" : state)
        << " after --max-wait " << seconds_text(*c.polling.max_wait)
        << "; it keeps running on the service\n"
        << "webdata: resume with: " << resume << "\n";
  return kTimeout;
}

bool answered_error_status(const Document& doc) {
  return doc.metadata.status_code && *doc.metadata.status_code >= 400;
}

// The job's state on its progress line, with the pages that answered an error status (normal in a
// crawl or a batch: counted, not an exit code).
std::string with_error_pages(const std::string& state, std::size_t error_pages) {
  if (error_pages == 0) return state;
  return state + "; " + std::to_string(error_pages) +
         (error_pages == 1 ? " page answered an error status" : " pages answered an error status");
}

// The JSON form of a follow, before its documents: `{"id": ..., "invalidURLs": [...], "data": [`.
void open_json_follow(Context& c, const Job& job) {
  c.out << "{\"id\": " << Json::string(job.id()).text() << ",\n";
  if (const auto& invalid = job.started().invalid_urls) {
    c.out << " \"invalidURLs\": [";
    for (std::size_t i = 0; i < invalid->size(); ++i) {
      c.out << (i == 0 ? "" : ", ") << Json::string((*invalid)[i]).text();
    }
    c.out << "],\n";
  }
  c.out << " \"data\": [";
}

// ... and after them: the data array closed, the job's last counters, the closing brace.
void close_json_follow(Context& c, std::size_t printed, const std::optional<JobStatus>& last) {
  c.out << (printed == 0 ? "]" : "\n ]");
  if (last) {
    c.out << ",\n \"status\": " << Json::string(last->status.value()).text()
          << ",\n \"total\": " << last->total << ",\n \"completed\": " << last->completed
          << ",\n \"creditsUsed\": " << last->credits_used;
    if (last->expires_at) {
      c.out << ",\n \"expiresAt\": " << Json::string(last->expires_at->text()).text();
    }
    if (last->error) {
      c.out << ",\n \"error\": " << Json::string(*last->error).text();
    } else if (const auto raw = last->extras.find("error"); raw != last->extras.end()) {
      c.out << ",\n \"error\": " << raw->second.text();  // as the service sent it
    }
  }
  c.out << "\n}\n";
}

// Follows a job's status chunks: progress bar on stderr, every document to stdout as it
// arrives (one chunk in memory at a time), and in JSON mode one object whose `data` is
// streamed and whose counters come last. The first `skip` documents are not printed (resuming
// a follow that stopped).
int follow_documents(Context& c, const Job& job, const std::string& kind, std::size_t skip = 0) {
  ProgressBar bar(c.err, c.progress, kind);
  const auto since = std::chrono::steady_clock::now();
  std::size_t seen = 0;     // documents of the job so far, skipped ones included
  std::size_t printed = 0;  // documents written to stdout
  std::size_t error_pages = 0;  // of those, pages that answered an error status
  if (c.json) open_json_follow(c, job);
  std::optional<JobStatus> last;
  std::optional<Error> error;
  for (auto& chunk : job.pages(c.polling)) {
    if (!chunk.ok()) {
      error = chunk.error();
      break;
    }
    bool cleared = false;
    for (const auto& doc : chunk->data) {
      if (seen++ < skip) continue;
      if (!cleared) {
        bar.clear();  // documents start on a line of their own, never after the bar
        cleared = true;
      }
      if (c.json) {
        c.out << (printed == 0 ? "\n  " : ",\n  ") << to_json(doc).text();
      } else {
        render_job_document(c.out, doc, seen, printed == 0);
      }
      ++printed;
      if (answered_error_status(doc)) ++error_pages;
    }
    c.out.flush();
    bar.update(chunk->completed, chunk->total, with_error_pages(chunk->status.value(), error_pages));
    chunk->data.clear();
    last = std::move(*chunk);
  }
  bar.finish();
  if (c.json) close_json_follow(c, printed, last);
  if (error) {
    if (is_failed_job_report(*error)) {
      return report_job_end(c, kind, job.id(), "failed", error->message);
    }
    if (max_wait_over(c, since, *error)) {
      return report_max_wait(
          c, kind, job.id(), last ? last->status.value() : "",
          suggest(c, "status " + job.id() + " --documents --skip " + std::to_string(seen),
                  kind == "batch"));
    }
    if (seen == 0 && error->kind == ErrorKind::kHttp && error->http_status == 404) {
      return fail_lookup(c, "status", job.id(), *error);
    }
    return fail(c, *error);
  }
  if (last && !ended_well(last->status)) {
    return report_job_end(c, kind, job.id(), last->status.value(), job_error(*last));
  }
  return kOk;
}

// Polls the status (counters only are shown) until the job ends.
int wait_for_job(Context& c, const Job& job, const std::string& kind) {
  ProgressBar bar(c.err, c.progress, kind);
  const auto start = std::chrono::steady_clock::now();
  bool first = true;
  for (;;) {
    auto st = job.status();
    if (!st.ok()) {
      bar.finish();
      if (is_failed_job_report(st.error())) {
        return report_job_end(c, kind, job.id(), "failed", st.error().message);
      }
      if (first) return fail_lookup(c, "status", job.id(), st.error());
      return fail(c, st.error());
    }
    first = false;
    bar.update(st->completed, st->total, st->status.value());
    if (st->status.is_terminal()) {
      bar.finish();
      st->data.clear();
      st->next.reset();
      if (c.json) {
        c.out << to_json(*st).pretty() << "\n";
      } else {
        render_status(c.out, kind, job.id(), *st);
      }
      if (ended_well(st->status)) return kOk;
      return report_job_end(c, kind, job.id(), st->status.value(), job_error(*st));
    }
    if (c.polling.max_wait && std::chrono::steady_clock::now() - start >= *c.polling.max_wait) {
      bar.finish();
      return report_max_wait(c, kind, job.id(), st->status.value(),
                             suggest(c, "status " + job.id() + " --wait", kind == "batch"));
    }
    c.polling.cancel.wait_for(c.polling.interval);
  }
}

int started(Context& c, const Job& job, const std::string& kind) {
  if (job.started().invalid_urls && !job.started().invalid_urls->empty()) {
    std::string list;
    for (const auto& u : *job.started().invalid_urls) list += (list.empty() ? "" : ", ") + u;
    note(c, "invalid URLs skipped: " + list);
  }
  if (c.args.flag("no-wait")) {
    if (c.json) {
      c.out << to_json(job.started()).pretty() << "\n";
    } else {
      c.out << job.id() << "\n";
    }
    return kOk;
  }
  note(c, kind + " " + job.id() + " started");
  return follow_documents(c, job, kind);
}

// A scrape's or a parse's answer: its warning on stderr, the document on stdout. A page that
// answered an error status is still a document (the 404 page's own content), but exit 8 and a
// note say so, for scripts that would otherwise keep an error page as the page.
int print_document(Context& c, const Result<Document>& doc) {
  if (!doc.ok()) return fail(c, doc.error());
  if (doc->warning) note(c, "warning: " + *doc->warning);
  if (c.json) {
    c.out << to_json(*doc).pretty() << "\n";
  } else {
    render_document(c.out, *doc);
  }
  if (!answered_error_status(*doc)) return kOk;
  const auto& meta = doc->metadata;
  note(c, "note: " + meta.source_url.value_or(meta.url.value_or("the page")) + " answered HTTP " +
              std::to_string(*meta.status_code) + "; the document is that page's content");
  return kPageError;
}

int cmd_scrape(Context& c) {
  const std::string url = one_positional(c.args, "URL");
  CallOptions call;
  Result<Document> doc = Error{};
  if (c.args.flag("v1")) {
    v1::ScrapeRequest req;
    static_cast<v1::ScrapeOptions&>(req) = scrape_options_v1(c.args);
    req.url = url;
    doc = v1::Client(c.client_options).scrape(req, call);
  } else {
    ScrapeRequest req;
    static_cast<ScrapeOptions&>(req) = scrape_options(c.args);
    req.url = url;
    doc = Client(c.client_options).scrape(req, call);
  }
  return print_document(c, doc);
}

// POST /v2/parse of a local file; printed as scrape prints its document.
int cmd_parse(Context& c) {
  const std::string path = one_positional(c.args, "FILE");
  // The options a file takes are the content options of a scrape: read them the same way.
  const ScrapeOptions scrape = scrape_options(c.args);
  ParseOptions options;
  options.formats = scrape.formats;
  options.only_main_content = scrape.only_main_content;
  options.include_tags = scrape.include_tags;
  options.exclude_tags = scrape.exclude_tags;
  Result<ParseFile> file = read_parse_file(path);
  if (!file.ok()) throw UsageError("cannot read '" + path + "': " + file.error().message);
  if (auto type = c.args.value("content-type")) file->content_type = *type;
  Result<Document> doc = Client(c.client_options).parse(*file, options);
  return print_document(c, doc);
}

int cmd_batch(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'batch' needs at least one URL");
  Result<BatchScrapeJob> job = Error{};
  if (c.args.flag("v1")) {
    v1::BatchScrapeRequest req;
    static_cast<v1::ScrapeOptions&>(req) = scrape_options_v1(c.args);
    req.urls = c.args.positional;
    req.ignore_invalid_urls = !c.args.flag("strict");
    req.max_concurrency = c.args.integer("max-concurrency", 1, 10000);
    job = v1::Client(c.client_options).start_batch_scrape(req);
  } else {
    BatchScrapeRequest req;
    static_cast<ScrapeOptions&>(req) = scrape_options(c.args);
    req.urls = c.args.positional;
    if (c.args.flag("strict")) req.ignore_invalid_urls = false;
    req.max_concurrency = c.args.integer("max-concurrency", 1, 10000);
    job = Client(c.client_options).start_batch_scrape(req);
  }
  if (!job.ok()) return fail(c, job.error());
  return started(c, *job, "batch");
}

/// The crawl options v1 and v2 share under one name; the rest differ by version.
template <class Request>
Request crawl_request(const Args& a, const std::string& url) {
  Request req;
  req.url = url;
  req.limit = a.integer("limit", 1, 10000000);
  auto paths = [&](const char* name) -> std::optional<std::vector<std::string>> {
    auto v = a.values.find(name);
    if (v == a.values.end()) return std::nullopt;
    return v->second;  // regexes may contain commas: no splitting
  };
  req.include_paths = paths("include-path");
  req.exclude_paths = paths("exclude-path");
  if (a.flag("subdomains")) req.allow_subdomains = true;
  if (a.flag("external-links")) req.allow_external_links = true;
  if (a.flag("ignore-robots")) req.ignore_robots_txt = true;
  if (auto seconds = a.number("delay", 0, 60)) {
    req.delay = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }
  req.max_concurrency = a.integer("max-concurrency", 1, 10000);
  return req;
}

int cmd_crawl(Context& c) {
  const std::string url = one_positional(c.args, "URL");
  const auto& a = c.args;
  Result<CrawlJob> job = Error{};
  if (a.flag("v1")) {
    auto req = crawl_request<v1::CrawlRequest>(a, url);
    req.max_depth = a.integer("max-depth", 0, 1000);
    if (a.flag("entire-domain")) req.allow_backward_links = true;
    if (auto s = a.value("sitemap")) {
      if (*s != "skip" && *s != "include") throw UsageError("--sitemap with --v1: skip or include");
      req.ignore_sitemap = *s == "skip";
    }
    if (!a.list("format").empty() || a.flag("no-main-content")) {
      req.scrape_options = scrape_options_v1(a);
    }
    job = v1::Client(c.client_options).start_crawl(req);
  } else {
    auto req = crawl_request<CrawlRequest>(a, url);
    req.max_discovery_depth = a.integer("max-depth", 0, 1000);
    if (a.flag("entire-domain")) req.crawl_entire_domain = true;
    if (auto s = a.value("sitemap")) {
      if (*s != "skip" && *s != "include" && *s != "only") {
        throw UsageError("--sitemap needs skip, include or only");
      }
      req.sitemap = SitemapMode(*s);
    }
    auto options = scrape_options(a);
    if (options.formats || options.only_main_content || options.include_tags ||
        options.exclude_tags || options.wait_for || options.mobile || options.proxy ||
        options.max_age || options.location) {
      req.scrape_options = options;
    }
    job = Client(c.client_options).start_crawl(req);
  }
  if (!job.ok()) return fail(c, job.error());
  return started(c, *job, "crawl");
}

int cmd_search(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'search' needs a query");
  std::string query;
  for (const auto& word : c.args.positional) query += (query.empty() ? "" : " ") + word;
  const auto& a = c.args;
  const bool scrape = a.flag("scrape") || !a.list("format").empty();
  if (a.flag("v1")) {
    v1::SearchRequest req;
    req.query = query;
    req.limit = a.integer("limit", 1, 100);
    req.tbs = a.value("tbs");
    req.location = a.value("location");
    req.country = a.value("country");
    if (!a.list("source").empty() || !a.list("category").empty()) {
      throw UsageError("--source and --category need the v2 search (drop --v1)");
    }
    if (scrape) {
      auto options = scrape_options_v1(a);
      if (!options.formats) options.formats = std::vector<std::string>{"markdown"};
      req.scrape_options = options;
    }
    auto res = v1::Client(c.client_options).search(req);
    if (!res.ok()) return fail(c, res.error());
    if (res->warning) note(c, "warning: " + *res->warning);
    if (c.json) {
      c.out << to_json(*res).pretty() << "\n";
    } else {
      render_search_v1(c.out, *res);
    }
    return kOk;
  }
  SearchRequest req;
  req.query = query;
  req.limit = a.integer("limit", 1, 100);
  check_values("--source", a.list("source"), {"web", "images", "news"});
  check_values("--category", a.list("category"), {"github", "research", "pdf"});
  if (auto sources = a.list("source"); !sources.empty()) {
    std::vector<SearchSource> list;
    for (const auto& s : sources) list.emplace_back(s);
    req.sources = list;
  }
  if (auto categories = a.list("category"); !categories.empty()) {
    std::vector<SearchCategory> list;
    for (const auto& s : categories) list.emplace_back(s);
    req.categories = list;
  }
  req.tbs = a.value("tbs");
  req.location = a.value("location");
  req.country = a.value("country");
  if (scrape) {
    auto options = scrape_options(a);
    if (!options.formats) options.formats = std::vector<FormatEntry>{"markdown"};
    req.scrape_options = options;
  }
  auto res = Client(c.client_options).search(req);
  if (!res.ok()) return fail(c, res.error());
  if (res->warning) note(c, "warning: " + *res->warning);
  if (c.json) {
    c.out << to_json(*res).pretty() << "\n";
  } else {
    render_search(c.out, *res);
  }
  return kOk;
}

/// The end of an agent run: the answer (or the state of a job that did not complete).
int agent_outcome(Context& c, const AgentResult& res) {
  if (c.json) {
    c.out << to_json(res).pretty() << "\n";
  } else if (res.status.empty() || res.status == JobState::completed()) {
    render_agent(c.out, res);
  } else {
    c.out << "agent " << res.id.value_or("") << ": " << res.status.value() << "\n";
  }
  if (!res.status.empty() && !ended_well(res.status)) {
    c.err << "webdata: agent ended " << res.status.value() << (res.error ? ": " + *res.error : "")
          << "\n";
    return kJobNotCompleted;
  }
  return kOk;
}

int cmd_agent(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'agent' needs a prompt");
  AgentRequest req;
  for (const auto& word : c.args.positional) req.prompt += (req.prompt.empty() ? "" : " ") + word;
  if (auto urls = c.args.values.find("url"); urls != c.args.values.end()) req.urls = urls->second;
  if (auto s = c.args.value("schema")) req.schema = read_schema(*s);
  req.max_credits = c.args.integer("max-credits", 1, 100000000);
  const Client client(c.client_options);
  if (c.args.flag("no-wait")) {
    auto res = client.start_agent(req);
    if (!res.ok()) return fail(c, res.error());
    if (res->status.is_terminal()) return agent_outcome(c, *res);  // answered at once
    if (c.json) {
      c.out << "{\"success\": true, \"id\": " << Json::string(res->id.value_or("")).text()
            << "}\n";
    } else {
      c.out << res->id.value_or("") << "\n";
    }
    return kOk;
  }
  auto res = client.agent(req, c.polling);
  if (!res.ok()) return fail(c, res.error());
  return agent_outcome(c, *res);
}

/// `status ID --agent`: the job's state, or with --wait its end.
int agent_status(Context& c, const std::string& id) {
  const Client client(c.client_options);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    auto st = client.agent_status(id);
    if (!st.ok()) return fail(c, st.error());
    if (!c.args.flag("wait") || st->status.is_terminal()) {
      if (st->status.is_terminal()) return agent_outcome(c, *st);
      if (c.json) {
        c.out << to_json(*st).pretty() << "\n";
      } else {
        c.out << "agent " << id << ": " << st->status.value() << "\n";
        if (st->credits_used) c.out << "credits used: " << *st->credits_used << "\n";
      }
      return kOk;
    }
    if (c.polling.max_wait && std::chrono::steady_clock::now() - start >= *c.polling.max_wait) {
      c.err << "webdata: agent " << id << " still " << st->status.value() << " after --max-wait "
            << seconds_text(*c.polling.max_wait) << "; it keeps running\n";
      return kTimeout;
    }
    c.polling.cancel.wait_for(c.polling.interval);
  }
}

/// `cancel ID --agent`.
int agent_cancel(Context& c, const std::string& id) {
  auto cancelled = Client(c.client_options).cancel_agent(id);
  if (!cancelled.ok()) return fail(c, cancelled.error());
  if (c.json) {
    c.out << "{\"success\": " << (*cancelled ? "true" : "false") << "}\n";
  } else {
    c.out << "agent " << id << ": " << (*cancelled ? "cancelled" : "already ended") << "\n";
  }
  if (!*cancelled) {
    c.err << "webdata: agent " << id << " had already ended; see "
          << suggest(c, "status " + id + " --agent", false) << "\n";
    return kApiError;
  }
  return kOk;
}

// The job named on the command line, as a crawl or (--batch) a batch scrape, v2 or --v1.
Job job_handle(Context& c, const std::string& id, bool batch) {
  if (c.args.flag("v1")) {
    v1::Client client(c.client_options);
    if (batch) return client.batch_scrape_job(id);
    return client.crawl_job(id);
  }
  Client client(c.client_options);
  if (batch) return client.batch_scrape_job(id);
  return client.crawl_job(id);
}

Job job_handle(Context& c, const std::string& id) { return job_handle(c, id, c.args.flag("batch")); }

int fail_lookup(Context& c, const std::string& command, const std::string& id, const Error& e) {
  const int rc = fail(c, e);
  if (e.kind != ErrorKind::kHttp || e.http_status != 404) return rc;
  if (e.message.find("xpired") != std::string::npos) {
    c.err << "webdata: a job's results are kept for 24 hours after it ends\n";
    return rc;
  }
  const bool batch = c.args.flag("batch");
  const std::string asked = batch ? "batch scrape" : "crawl";
  const std::string other = batch ? "crawl" : "batch scrape";
  // One status request for the other kind of job settles which one the id is.
  CallOptions probe;
  probe.retry = RetryPolicy::none();
  auto found = job_handle(c, id, !batch).status(probe);
  if (found.ok() || is_failed_job_report(found.error())) {
    c.err << "webdata: " << id << " is a " << other << ", not a " << asked
          << ": try " << suggest(c, command + " " + id, !batch) << "\n";
  } else if (found.error().kind == ErrorKind::kHttp && found.error().http_status == 404) {
    c.err << "webdata: no crawl or batch scrape " << id
          << " for this API key (mistyped, or another team's)\n";
  } else {
    c.err << "webdata: if " << id << " is a " << other << ", "
          << (batch ? "drop --batch" : "add --batch") << "\n";
  }
  return rc;
}

int cmd_extract_status(Context& c, const std::string& id);

int cmd_status(Context& c) {
  const std::string id = one_positional(c.args, "job id");
  if (c.args.flag("agent")) {
    if (c.args.flag("batch") || c.args.flag("documents") || c.args.flag("v1")) {
      throw UsageError("--agent does not go with --batch, --documents or --v1");
    }
    return agent_status(c, id);
  }
  if (c.args.flag("extract")) return cmd_extract_status(c, id);
  if (c.args.flag("scrape")) {
    // A past scrape is one document, not a job: printed as `scrape` prints it.
    for (const char* other : {"batch", "documents", "wait", "skip"}) {
      if (c.args.flag(other) || c.args.values.count(other) != 0) {
        throw UsageError(std::string("--scrape does not go with --") + other);
      }
    }
    return print_document(c, c.args.flag("v1") ? v1::Client(c.client_options).get_scrape(id)
                                               : Client(c.client_options).get_scrape(id));
  }
  const Job job = job_handle(c, id);
  const std::string kind = c.args.flag("batch") ? "batch" : "crawl";
  const auto skip = c.args.integer("skip", 0, 2000000000);
  if (skip && !c.args.flag("documents")) throw UsageError("--skip needs --documents");
  if (c.args.flag("documents")) {
    return follow_documents(c, job, kind, static_cast<std::size_t>(skip.value_or(0)));
  }
  if (c.args.flag("wait")) return wait_for_job(c, job, kind);
  auto st = job.status();
  if (!st.ok()) {
    if (is_failed_job_report(st.error())) {
      // The job failed; the service said so with `success: false` (its counters are lost).
      if (c.json) {
        c.out << st.error().raw_body << "\n";
      } else {
        c.out << kind << " " << id << ": failed\nerror: " << st.error().message << "\n";
      }
      return kOk;
    }
    return fail_lookup(c, "status", id, st.error());
  }
  st->data.clear();
  st->next.reset();
  if (c.json) {
    c.out << to_json(*st).pretty() << "\n";
  } else {
    render_status(c.out, kind, id, *st);
  }
  return kOk;
}

int cmd_cancel(Context& c) {
  const std::string id = one_positional(c.args, "job id");
  if (c.args.flag("agent")) {
    if (c.args.flag("batch") || c.args.flag("v1")) {
      throw UsageError("--agent does not go with --batch or --v1");
    }
    return agent_cancel(c, id);
  }
  auto state = job_handle(c, id).cancel();
  if (!state.ok()) return fail_lookup(c, "cancel", id, state.error());
  if (c.json) {
    c.out << "{\"success\": true, \"status\": " << Json::string(state->value()).text() << "}\n";
  } else {
    c.out << (c.args.flag("batch") ? "batch " : "crawl ") << id << ": " << state->value() << "\n";
  }
  return kOk;
}

int cmd_errors(Context& c) {
  const std::string id = one_positional(c.args, "job id");
  auto errors = job_handle(c, id).errors();
  if (!errors.ok()) return fail_lookup(c, "errors", id, errors.error());
  if (c.json) {
    c.out << to_json(*errors).pretty() << "\n";
  } else {
    render_errors(c.out, *errors);
  }
  return kOk;
}

int cmd_active(Context& c) {
  if (!c.args.positional.empty()) throw UsageError("'active' takes no arguments");
  auto crawls = c.args.flag("v1") ? v1::Client(c.client_options).active_crawls()
                                  : Client(c.client_options).active_crawls();
  if (!crawls.ok()) return fail(c, crawls.error());
  if (c.json) {
    c.out << "{\"success\": true, \"crawls\": [";
    for (std::size_t i = 0; i < crawls->size(); ++i) {
      c.out << (i == 0 ? "\n  " : ",\n  ") << to_json((*crawls)[i]).text();
    }
    c.out << (crawls->empty() ? "]}\n" : "\n]}\n");
  } else {
    render_active(c.out, *crawls);
  }
  return kOk;
}

// ---- map, extract, usage, queue, crawl-preview: the endpoints beyond the specification's core.

// The SDK has no to_json for these answers: their --json output is written here, member by
// member, with the wire's keys (and members the SDK did not know, from `extras`, written back).
class JsonObject {
 public:
  JsonObject& add(const std::string& key, const Json& value) {
    text_ += (text_.size() == 1 ? "" : ",") + Json::string(key).text() + ":" + value.text();
    return *this;
  }
  JsonObject& add(const std::string& key, const std::string& value) {
    return add(key, Json::string(value));
  }
  JsonObject& add(const std::string& key, long long value) {
    return add(key, Json::integer(value));
  }
  template <class T>
  JsonObject& maybe(const std::string& key, const std::optional<T>& value) {
    if (value) add(key, *value);
    return *this;
  }
  JsonObject& maybe(const std::string& key, const std::optional<Timestamp>& value) {
    if (value) add(key, value->text());
    return *this;
  }
  JsonObject& extras(const Extras& extras) {
    for (const auto& [key, value] : extras) add(key, value);
    return *this;
  }
  Json done() const { return Json::parse(text_ + "}").value(); }

 private:
  std::string text_ = "{";
};

Json json_array(const std::vector<Json>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "" : ",") + items[i].text();
  return Json::parse(text + "]").value();
}

Json json_strings(const std::vector<std::string>& items) {
  std::vector<Json> out;
  for (const auto& s : items) out.push_back(Json::string(s));
  return json_array(out);
}

void print_json(Context& c, const Json& value) {
  c.out << value.pretty() << "\n";
}

int cmd_map(Context& c) {
  const std::string url = one_positional(c.args, "URL");
  const auto& a = c.args;
  const auto limit = a.integer("limit", 1, 100000);
  const auto sitemap = a.value("sitemap");
  if (sitemap) check_values("--sitemap", {*sitemap}, {"include", "skip", "only"});
  // Off unless asked, as for crawl (the service's own default is on).
  const bool subdomains = a.flag("subdomains");
  const bool v1 = a.flag("v1");
  Result<MapResult> res = Error{};
  if (v1) {
    v1::MapRequest req;
    req.url = url;
    req.search = a.value("search");
    req.limit = limit;
    req.include_subdomains = subdomains;
    if (sitemap) {
      req.ignore_sitemap = *sitemap == "skip";
      req.sitemap_only = *sitemap == "only";
    }
    res = v1::Client(c.client_options).map(req);
  } else {
    MapRequest req;
    req.url = url;
    req.search = a.value("search");
    req.limit = limit;
    req.include_subdomains = subdomains;
    if (sitemap) req.sitemap = SitemapMode(*sitemap);
    res = Client(c.client_options).map(req);
  }
  if (!res.ok()) return fail(c, res.error());
  if (res->warning) note(c, "warning: " + *res->warning);
  if (c.json) {
    std::vector<Json> links;
    for (const auto& link : res->links) {
      if (v1) {
        links.push_back(Json::string(link.url));  // v1 links are plain URLs
        continue;
      }
      links.push_back(JsonObject()
                          .add("url", link.url)
                          .maybe("title", link.title)
                          .maybe("description", link.description)
                          .extras(link.extras)
                          .done());
    }
    print_json(c, JsonObject()
                      .add("success", Json::boolean(true))
                      .add("links", json_array(links))
                      .maybe("warning", res->warning)
                      .extras(res->extras)
                      .done());
  } else {
    for (const auto& link : res->links) c.out << link.url << "\n";
  }
  return kOk;
}

Json extract_json(const ExtractResult& r) {
  JsonObject sources;
  for (const auto& [field, urls] : r.sources) sources.add(field, json_strings(urls));
  JsonObject out;
  out.add("success", Json::boolean(r.success)).add("status", r.status).add("data", r.data);
  if (!r.sources.empty()) out.add("sources", sources.done());
  return out.maybe("expiresAt", r.expires_at)
      .add("creditsUsed", r.credits_used)
      .maybe("tokensUsed", r.tokens_used)
      .maybe("warning", r.warning)
      .maybe("error", r.error)
      .extras(r.extras)
      .done();
}

Result<ExtractResult> extract_status_of(Context& c, const std::string& id) {
  if (c.args.flag("v1")) return v1::Client(c.client_options).extract_status(id);
  return Client(c.client_options).extract_status(id);
}

int fail_extract_lookup(Context& c, const std::string& id, const Error& e) {
  const int rc = fail(c, e);
  if (e.kind == ErrorKind::kHttp && e.http_status == 404) {
    c.err << "webdata: no extract job " << id
          << " for this API key (mistyped, another team's, or ended more than 24 hours ago)\n";
  }
  return rc;
}

// Prints an ended extract job; a failed or cancelled one says why on stderr and exits 5.
int extract_ended(Context& c, const std::string& id, const ExtractResult& r, bool summary) {
  if (r.warning) note(c, "warning: " + *r.warning);
  if (c.json) {
    print_json(c, extract_json(r));
  } else if (summary) {
    render_extract_status(c.out, id, r);
  } else if (r.status == "completed") {
    render_extract(c.out, r);
  }
  if (r.status == "completed") return kOk;
  c.err << "webdata: extract " << id << " ended " << r.status;
  if (auto why = extract_error(r)) c.err << ": " << *why;
  c.err << "\n";
  return kJobNotCompleted;
}

// Polls an extract job (it has no page counters: no progress bar) until it ends.
int follow_extract(Context& c, const std::string& id, bool summary) {
  const auto start = std::chrono::steady_clock::now();
  for (bool first = true;; first = false) {
    auto st = extract_status_of(c, id);
    if (!st.ok()) return first ? fail_extract_lookup(c, id, st.error()) : fail(c, st.error());
    if (st->done()) return extract_ended(c, id, *st, summary);
    if (c.polling.max_wait && std::chrono::steady_clock::now() - start >= *c.polling.max_wait) {
      return report_max_wait(c, "extract", id, st->status,
                             suggest(c, "status " + id + " --extract --wait", false));
    }
    c.polling.cancel.wait_for(c.polling.interval);
  }
}

int cmd_extract(Context& c) {
  const auto& a = c.args;
  if (a.positional.empty()) throw UsageError("'extract' needs at least one URL");
  const auto prompt = a.value("prompt");
  const auto schema_text = a.value("schema");
  if (!prompt && !schema_text) {
    throw UsageError("'extract' needs --prompt TEXT, --schema JSON|@FILE, or both");
  }
  const std::optional<Json> schema =
      schema_text ? std::optional<Json>(read_schema(*schema_text)) : std::nullopt;
  const std::optional<bool> sources = a.flag("sources") ? std::optional<bool>(true) : std::nullopt;
  const std::optional<bool> external =
      a.flag("external-links") ? std::optional<bool>(true) : std::nullopt;
  Result<ExtractStarted> started = Error{};
  if (a.flag("v1")) {
    v1::ExtractRequest req;
    req.urls = a.positional;
    req.prompt = prompt;
    req.schema = schema;
    req.system_prompt = a.value("system-prompt");
    req.show_sources = sources;
    req.allow_external_links = external;
    started = v1::Client(c.client_options).start_extract(req);
  } else {
    ExtractRequest req;
    req.urls = a.positional;
    req.prompt = prompt;
    req.schema = schema;
    req.system_prompt = a.value("system-prompt");
    req.show_sources = sources;
    req.allow_external_links = external;
    started = Client(c.client_options).start_extract(req);
  }
  if (!started.ok()) return fail(c, started.error());
  if (started->warning) note(c, "warning: " + *started->warning);
  if (a.flag("no-wait")) {
    if (c.json) {
      JsonObject out;
      out.add("success", Json::boolean(true)).add("id", started->id);
      if (!started->invalid_urls.empty())
        out.add("invalidURLs", json_strings(started->invalid_urls));
      print_json(c, out.maybe("warning", started->warning).extras(started->extras).done());
    } else {
      c.out << started->id << "\n";
    }
    return kOk;
  }
  note(c, "extract " + started->id + " started");
  return follow_extract(c, started->id, false);
}

// ---- v1 deep research and llms.txt (v1-only jobs; docs/reference/v1-jobs.md).

/// The id alone (--no-wait): as text, or the start answer with --json.
int print_started(Context& c, const v1::V1JobStarted& started) {
  if (c.json) {
    print_json(c, JsonObject().add("success", Json::boolean(true)).add("id", started.id).done());
  } else {
    c.out << started.id << "\n";
  }
  return kOk;
}

/// An ended v1 job: a failed one says why on stderr and exits as an unfinished job.
int v1_job_ended(Context& c, const std::string& what, const std::string& status,
                 const std::optional<std::string>& error) {
  if (status == "completed") return kOk;
  c.err << "webdata: " << what << " ended " << status;
  if (error) c.err << ": " << *error;
  c.err << "\n";
  return kJobNotCompleted;
}

int cmd_deep_research(Context& c) {
  const auto& a = c.args;
  if (a.positional.empty()) throw UsageError("'deep-research' needs a QUERY");
  v1::DeepResearchRequest req;
  for (const auto& word : a.positional) req.query += (req.query.empty() ? "" : " ") + word;
  req.max_depth = a.integer("max-depth", 1, 10);
  req.max_urls = a.integer("max-urls", 1, 1000);
  const v1::Client client(c.client_options);
  if (a.flag("no-wait")) {
    auto started = client.start_deep_research(req);
    return started.ok() ? print_started(c, *started) : fail(c, started.error());
  }
  auto r = client.deep_research(req, c.polling);
  if (!r.ok()) return fail(c, r.error());
  std::vector<std::string> urls;
  for (const auto& s : r->sources) urls.push_back(s.url);
  if (c.json) {
    print_json(c, JsonObject()
                      .add("status", r->status)
                      .add("finalAnalysis", r->final_analysis)
                      .add("sources", json_strings(urls))
                      .maybe("error", r->error)
                      .done());
  } else if (r->status == "completed") {
    c.out << r->final_analysis;
    if (!r->final_analysis.empty() && r->final_analysis.back() != '\n') c.out << "\n";
  }
  return v1_job_ended(c, "deep research", r->status, r->error);
}

int cmd_llmstxt(Context& c) {
  const auto& a = c.args;
  v1::LlmsTxtRequest req;
  req.url = one_positional(a, "URL");
  req.max_urls = a.integer("max-urls", 1, 100);
  const bool full = a.flag("full");
  if (full) req.show_full_text = true;
  const v1::Client client(c.client_options);
  if (a.flag("no-wait")) {
    auto started = client.start_llms_txt(req);
    return started.ok() ? print_started(c, *started) : fail(c, started.error());
  }
  auto r = client.llms_txt(req, c.polling);
  if (!r.ok()) return fail(c, r.error());
  if (c.json) {
    print_json(c, JsonObject()
                      .add("status", r->status)
                      .add("llmstxt", r->llmstxt)
                      .maybe("llmsfulltxt", r->llmsfulltxt)
                      .maybe("error", r->error)
                      .done());
  } else if (r->status == "completed") {
    c.out << (full && r->llmsfulltxt ? *r->llmsfulltxt : r->llmstxt);
  }
  return v1_job_ended(c, "llms.txt", r->status, r->error);
}

// `status ID --extract`: the job's state once (--wait: until it ends).
int cmd_extract_status(Context& c, const std::string& id) {
  if (c.args.flag("batch") || c.args.flag("documents") || c.args.value("skip")) {
    throw UsageError("--extract does not combine with --batch, --documents or --skip");
  }
  if (c.args.flag("wait")) return follow_extract(c, id, true);
  auto st = extract_status_of(c, id);
  if (!st.ok()) return fail_extract_lookup(c, id, st.error());
  if (st->warning) note(c, "warning: " + *st->warning);
  if (c.json) {
    print_json(c, extract_json(*st));
  } else {
    render_extract_status(c.out, id, *st);
  }
  return kOk;
}

Json usage_json(const CreditUsage& u, bool v1) {
  JsonObject data;
  data.add(v1 ? "remaining_credits" : "remainingCredits", u.remaining_credits)
      .maybe(v1 ? "plan_credits" : "planCredits", u.plan_credits)
      .maybe(v1 ? "billing_period_start" : "billingPeriodStart", u.billing_period_start)
      .maybe(v1 ? "billing_period_end" : "billingPeriodEnd", u.billing_period_end)
      .extras(u.extras);
  return JsonObject().add("success", Json::boolean(true)).add("data", data.done()).done();
}

Json usage_json(const TokenUsage& u, bool v1) {
  JsonObject data;
  data.add(v1 ? "remaining_tokens" : "remainingTokens", u.remaining_tokens)
      .maybe(v1 ? "plan_tokens" : "planTokens", u.plan_tokens)
      .maybe(v1 ? "billing_period_start" : "billingPeriodStart", u.billing_period_start)
      .maybe(v1 ? "billing_period_end" : "billingPeriodEnd", u.billing_period_end)
      .extras(u.extras);
  return JsonObject().add("success", Json::boolean(true)).add("data", data.done()).done();
}

Json history_json(const UsageHistory& h, const char* used_key) {
  std::vector<Json> periods;
  for (const auto& p : h.periods) {
    periods.push_back(JsonObject()
                          .maybe("startDate", p.start_date)
                          .maybe("endDate", p.end_date)
                          .maybe("apiKey", p.api_key)
                          .add(used_key, p.used)
                          .extras(p.extras)
                          .done());
  }
  return JsonObject()
      .add("success", Json::boolean(true))
      .add("periods", json_array(periods))
      .extras(h.extras)
      .done();
}

std::string date_of(const std::optional<Timestamp>& t) {
  if (!t) return "?";
  return t->text().substr(0, 10);  // YYYY-MM-DD: periods are whole days
}

void render_history(std::ostream& out, const char* noun, const UsageHistory& h, bool by_key) {
  out << noun << " used per billing period:\n";
  if (h.periods.empty()) {
    out << "(none)\n";
    return;
  }
  for (const auto& p : h.periods) {
    out << "- " << date_of(p.start_date) << " to " << date_of(p.end_date);
    if (by_key) out << "  key " << p.api_key.value_or("(none)");
    out << "  " << p.used << "\n";
  }
}

int cmd_usage(Context& c) {
  const auto& a = c.args;
  if (!a.positional.empty()) throw UsageError("'usage' takes no arguments");
  const bool by_key = a.flag("by-api-key");
  if (by_key && !a.flag("historical")) throw UsageError("--by-api-key needs --historical");
  const bool v1 = a.flag("v1");
  const v1::Client old_client(c.client_options);
  const Client client(c.client_options);
  if (a.flag("historical")) {
    auto credits =
        v1 ? old_client.credit_usage_history(by_key) : client.credit_usage_history(by_key);
    if (!credits.ok()) return fail(c, credits.error());
    auto tokens = v1 ? old_client.token_usage_history(by_key) : client.token_usage_history(by_key);
    if (!tokens.ok()) return fail(c, tokens.error());
    if (c.json) {
      print_json(c, JsonObject()
                        .add("credits", history_json(*credits, "creditsUsed"))
                        .add("tokens", history_json(*tokens, "tokensUsed"))
                        .done());
    } else {
      render_history(c.out, "credits", *credits, by_key);
      render_history(c.out, "tokens", *tokens, by_key);
    }
    return kOk;
  }
  auto credits = v1 ? old_client.credit_usage() : client.credit_usage();
  if (!credits.ok()) return fail(c, credits.error());
  auto tokens = v1 ? old_client.token_usage() : client.token_usage();
  if (!tokens.ok()) return fail(c, tokens.error());
  if (c.json) {
    print_json(c, JsonObject()
                      .add("credits", usage_json(*credits, v1))
                      .add("tokens", usage_json(*tokens, v1))
                      .done());
    return kOk;
  }
  const auto line = [&](const char* noun, long long remaining, const std::optional<long long>& plan,
                        const std::optional<Timestamp>& start,
                        const std::optional<Timestamp>& end) {
    c.out << noun << ": " << remaining << " remaining";
    if (plan) c.out << " of " << *plan;
    if (start || end)
      c.out << " (billing period " << date_of(start) << " to " << date_of(end) << ")";
    c.out << "\n";
  };
  line("credits", credits->remaining_credits, credits->plan_credits, credits->billing_period_start,
       credits->billing_period_end);
  line("tokens", tokens->remaining_tokens, tokens->plan_tokens, tokens->billing_period_start,
       tokens->billing_period_end);
  return kOk;
}

int cmd_queue(Context& c) {
  if (!c.args.positional.empty()) throw UsageError("'queue' takes no arguments");
  const bool v1 = c.args.flag("v1");
  auto queue =
      v1 ? v1::Client(c.client_options).queue_status() : Client(c.client_options).queue_status();
  if (!queue.ok()) return fail(c, queue.error());
  auto concurrency =
      v1 ? v1::Client(c.client_options).concurrency() : Client(c.client_options).concurrency();
  if (!concurrency.ok()) return fail(c, concurrency.error());
  const QueueStatus& q = *queue;
  if (c.json) {
    print_json(c, JsonObject()
                      .add("queue", JsonObject()
                                        .add("success", Json::boolean(true))
                                        .add("jobsInQueue", q.jobs_in_queue)
                                        .add("activeJobsInQueue", q.active_jobs_in_queue)
                                        .add("waitingJobsInQueue", q.waiting_jobs_in_queue)
                                        .add("maxConcurrency", q.max_concurrency)
                                        .add("mostRecentSuccess",
                                             q.most_recent_success
                                                 ? Json::string(q.most_recent_success->text())
                                                 : Json())
                                        .extras(q.extras)
                                        .done())
                      .add("concurrency", JsonObject()
                                              .add("success", Json::boolean(true))
                                              .add("concurrency", concurrency->concurrency)
                                              .add("maxConcurrency", concurrency->max_concurrency)
                                              .extras(concurrency->extras)
                                              .done())
                      .done());
    return kOk;
  }
  c.out << "jobs in queue: " << q.jobs_in_queue << " (" << q.active_jobs_in_queue << " active, "
        << q.waiting_jobs_in_queue << " waiting)\n"
        << "concurrency: " << concurrency->concurrency << " of " << concurrency->max_concurrency
        << "\n"
        << "most recent success: "
        << (q.most_recent_success ? q.most_recent_success->text() : "none in 24 hours") << "\n";
  return kOk;
}

// A word for a shell command line: quoted unless it is plainly safe.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./:=,@%+") == std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The `webdata crawl` command line that runs the crawl a preview describes.
std::string crawl_command(const CrawlRequest& r) {
  std::string line = "webdata crawl " + shell_word(r.url);
  const auto opt = [&line](const std::string& name, const std::string& value) {
    line += " --" + name + " " + shell_word(value);
  };
  if (r.limit) opt("limit", std::to_string(*r.limit));
  if (r.max_discovery_depth) opt("max-depth", std::to_string(*r.max_discovery_depth));
  for (const auto& p : r.include_paths.value_or(std::vector<std::string>{})) opt("include-path", p);
  for (const auto& p : r.exclude_paths.value_or(std::vector<std::string>{})) opt("exclude-path", p);
  if (r.sitemap) opt("sitemap", r.sitemap->value());
  if (r.crawl_entire_domain.value_or(false)) line += " --entire-domain";
  if (r.allow_subdomains.value_or(false)) line += " --subdomains";
  if (r.allow_external_links.value_or(false)) line += " --external-links";
  if (r.ignore_robots_txt.value_or(false)) line += " --ignore-robots";
  return line;
}

int cmd_crawl_preview(Context& c) {
  if (c.args.positional.size() < 2) throw UsageError("'crawl-preview' needs a URL and a prompt");
  CrawlParamsPreviewRequest req;
  req.url = c.args.positional.front();
  for (std::size_t i = 1; i < c.args.positional.size(); ++i) {
    req.prompt += (req.prompt.empty() ? "" : " ") + c.args.positional[i];
  }
  auto res = Client(c.client_options).crawl_params_preview(req);
  if (!res.ok()) return fail(c, res.error());
  if (res->warning) note(c, "warning: " + *res->warning);
  if (c.json) {
    print_json(c, JsonObject()
                      .add("success", Json::boolean(true))
                      .add("data", to_json(res->request))
                      .maybe("warning", res->warning)
                      .extras(res->extras)
                      .done());
    return kOk;
  }
  c.out << "crawl options for \"" << req.prompt << "\":\n";
  c.out << "```json\n" << to_json(res->request).pretty() << "\n```\n";
  c.out << "\nrun it with:\n  " << crawl_command(res->request) << "\n";
  return kOk;
}

// ---- monitor: create|list|get|update|run|checks|check|delete (docs/reference/monitors.md)

Json monitor_json(const Monitor& m) {
  JsonObject schedule;
  schedule.maybe("cron", m.schedule.cron).maybe("text", m.schedule.text)
      .maybe("timezone", m.schedule.timezone);
  return JsonObject()
      .add("id", m.id).add("name", m.name).add("status", m.status)
      .add("schedule", schedule.done())
      .maybe("nextRunAt", m.next_run_at).maybe("lastRunAt", m.last_run_at)
      .add("retentionDays", m.retention_days)
      .maybe("estimatedCreditsPerMonth", m.estimated_credits_per_month)
      .add("createdAt", m.created_at).add("updatedAt", m.updated_at)
      .done();
}

Json monitor_check_json(const MonitorCheck& k) {
  std::vector<Json> pages;
  for (const auto& p : k.pages) {
    pages.push_back(JsonObject().add("url", p.url).add("status", p.status)
                        .add("targetId", p.target_id).maybe("error", p.error)
                        .maybe("diff", p.diff_text).done());
  }
  const Json summary = JsonObject()
      .add("totalPages", k.summary.total_pages).add("same", k.summary.same)
      .add("changed", k.summary.changed).add("new", k.summary.added)
      .add("removed", k.summary.removed).add("error", k.summary.error).done();
  return JsonObject()
      .add("id", k.id).add("monitorId", k.monitor_id).add("status", k.status)
      .add("trigger", k.trigger).maybe("finishedAt", k.finished_at)
      .maybe("actualCredits", k.actual_credits).add("summary", summary)
      .add("pages", json_array(pages)).maybe("next", k.next).done();
}

void render_monitor(Context& c, const Monitor& m) {
  if (c.json) return print_json(c, monitor_json(m));
  c.out << m.id << "  " << m.status << "  " << m.schedule.cron.value_or("") << "  " << m.name
        << (m.next_run_at ? "  next " + *m.next_run_at : "") << "\n";
}

void render_check(Context& c, const MonitorCheck& k) {
  if (c.json) return print_json(c, monitor_check_json(k));
  c.out << k.id << "  " << k.status << "  " << k.trigger << "  " << k.summary.total_pages
        << " pages: " << k.summary.same << " same, " << k.summary.changed << " changed, "
        << k.summary.added << " new, " << k.summary.removed << " removed, " << k.summary.error
        << " errors\n";
  for (const auto& p : k.pages) c.out << "  " << p.status << "  " << p.url << "\n";
}

MonitorSchedule monitor_schedule(const Args& a) {
  MonitorSchedule s;
  s.cron = a.value("cron");
  s.text = a.value("schedule");
  s.timezone = a.value("timezone");
  return s;
}

Result<Monitor> monitor_create(const Client& client, const Args& a) {
  CreateMonitorRequest req;
  req.name = a.value("name").value_or("");
  if (req.name.empty()) throw UsageError("'monitor create' needs --name");
  req.schedule = monitor_schedule(a);
  if (!req.schedule.cron && !req.schedule.text) throw UsageError("--cron or --schedule is needed");
  MonitorTarget target;
  target.urls = a.list("url");
  if (target.urls.empty()) throw UsageError("'monitor create' needs --url (repeatable)");
  req.targets = {target};
  return client.create_monitor(req);
}

Result<Monitor> monitor_update(const Client& client, const Args& a, const std::string& id) {
  UpdateMonitorRequest req;
  req.name = a.value("name");
  req.status = a.value("state");
  if (req.status) check_values("--state", {*req.status}, {"active", "paused"});
  const MonitorSchedule s = monitor_schedule(a);
  if (s.cron || s.text || s.timezone) req.schedule = s;
  if (!a.list("url").empty()) {
    MonitorTarget target;
    target.urls = a.list("url");
    req.targets = std::vector<MonitorTarget>{target};
  }
  return client.update_monitor(id, req);
}

/// `monitor run ID --wait`: the check once it has ended, with its pages (the SDK's wait, on
/// --poll-interval and within --max-wait).
Result<MonitorCheck> monitor_run(Context& c, const Client& client, const std::string& id) {
  auto check = client.run_monitor(id);
  if (!check.ok() || !c.args.flag("wait")) return check;
  return client.wait_monitor_check(id, check->id, c.polling);
}

int cmd_monitor(Context& c) {
  const auto& a = c.args;
  const std::string action = a.positional.empty() ? "" : a.positional[0];
  const std::string id = a.positional.size() > 1 ? a.positional[1] : "";
  check_values("ACTION", {action}, {"create", "list", "get", "update", "run", "checks", "check", "delete"});
  if (action != "create" && action != "list" && id.empty()) throw UsageError("'monitor " + action + "' needs a monitor id");
  const Client client(c.client_options);
  MonitorListOptions paging;
  if (auto n = a.integer("limit", 1, 1000)) paging.limit = *n;
  if (auto n = a.integer("offset", 0, 1000000000)) paging.offset = *n;
  if (action == "create" || action == "get" || action == "update") {
    auto m = action == "create" ? monitor_create(client, a)
             : action == "get"  ? client.get_monitor(id)
                                : monitor_update(client, a, id);
    if (!m.ok()) return fail(c, m.error());
    render_monitor(c, *m);
  } else if (action == "list") {
    auto all = client.list_monitors(paging);
    if (!all.ok()) return fail(c, all.error());
    for (const auto& m : *all) render_monitor(c, m);
  } else if (action == "delete") {
    auto done = client.delete_monitor(id);
    if (!done.ok()) return fail(c, done.error());
    note(c, "deleted monitor " + id);
  } else if (action == "checks") {
    auto all = client.monitor_checks(id, paging);
    if (!all.ok()) return fail(c, all.error());
    for (const auto& k : *all) render_check(c, k);
  } else {
    MonitorCheckOptions query;
    query.limit = paging.limit;
    if (auto n = a.integer("skip", 0, 1000000000)) query.skip = *n;
    query.status = a.value("page-status");
    if (action == "check" && a.positional.size() < 3) throw UsageError("'monitor check' needs ID CHECK_ID");
    auto k = action == "run" ? monitor_run(c, client, id) : client.monitor_check(id, a.positional[2], query);
    if (!k.ok()) return fail(c, k.error());
    render_check(c, *k);
  }
  return kOk;
}

// ---- papers, paper, related, github, developer, feedback, doctor: research, developer search,
// feedback and support ask (the SDK's typed answers; --json writes them back with the wire's keys).

std::string joined_words(const std::vector<std::string>& words, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < words.size(); ++i) out += (out.empty() ? "" : " ") + words[i];
  return out;
}

/// `{"success": true, ...}`: the start of every research answer's JSON.
JsonObject answer_object() {
  JsonObject out;
  out.add("success", Json::boolean(true));
  return out;
}

Json ids_json(const std::map<std::string, std::vector<std::string>>& ids) {
  JsonObject out;
  for (const auto& [kind, values] : ids) out.add(kind, json_strings(values));
  return out.done();
}

Json signals_json(const PaperSignals& s) {
  return JsonObject()
      .add("structural", Json::number(s.structural))
      .add("semantic", Json::number(s.semantic))
      .add("articleRank", Json::number(s.article_rank))
      .add("seedOverlap", Json::number(s.seed_overlap))
      .extras(s.extras)
      .done();
}

Json papers_json(const std::vector<PaperResult>& papers) {
  std::vector<Json> items;
  for (const auto& p : papers) {
    JsonObject item;
    item.add("paperId", p.paper_id)
        .add("primaryId", p.primary_id)
        .add("ids", ids_json(p.ids))
        .add("title", p.title)
        .add("abstract", p.abstract)
        .add("score", Json::number(p.score));
    if (p.signals) item.add("signals", signals_json(*p.signals));
    items.push_back(item.extras(p.extras).done());
  }
  return json_array(items);
}

Json paper_json(const Paper& p) {
  const PaperMetadata& m = p.paper;
  JsonObject paper;
  paper.add("paperId", m.paper_id)
      .add("ids", ids_json(m.ids))
      .add("title", m.title)
      .add("abstract", m.abstract)
      .maybe("authors", m.authors)
      .add("categories", json_strings(m.categories))
      .maybe("createdDate", m.created_date)
      .maybe("updateDate", m.update_date)
      .extras(m.extras);
  JsonObject out = answer_object();
  out.add("paper", paper.done()).maybe("query", p.query);
  if (p.query || !p.passages.empty()) {
    std::vector<Json> passages;
    for (const auto& passage : p.passages) {
      passages.push_back(JsonObject()
                             .add("text", passage.text)
                             .add("score", Json::number(passage.score))
                             .extras(passage.extras)
                             .done());
    }
    out.add("passages", json_array(passages));
  }
  return out.extras(p.extras).done();
}

void print_papers(Context& c, const std::vector<PaperResult>& papers) {
  for (const auto& p : papers) {
    c.out << "- " << p.primary_id << " (paperId " << p.paper_id << ", score " << p.score << ")\n  "
          << p.title << "\n  " << p.abstract << "\n";
  }
}

int cmd_papers(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'papers' needs a query");
  SearchPapersRequest req;
  req.query = joined_words(c.args.positional, 0);
  if (auto k = c.args.integer("limit", 1, 500)) req.k = *k;
  auto res = Client(c.client_options).search_papers(req);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(
        c, answer_object().add("results", papers_json(res->results)).extras(res->extras).done());
    return kOk;
  }
  print_papers(c, res->results);
  return kOk;
}

int cmd_paper(Context& c) {
  if (c.args.positional.size() != 1) throw UsageError("'paper' needs one paper id");
  const std::string& id = c.args.positional.front();
  const auto question = c.args.value("question");
  const Client client(c.client_options);
  auto res = question ? client.read_paper(id, *question, c.args.integer("limit", 1, 50))
                      : client.get_paper(id);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(c, paper_json(*res));
    return kOk;
  }
  c.out << "# " << res->paper.title << "\n\n";
  if (res->paper.authors) c.out << *res->paper.authors << "\n\n";
  c.out << res->paper.abstract << "\n";
  for (const auto& passage : res->passages) {
    c.out << "\n> " << passage.text << " (score " << passage.score << ")\n";
  }
  return kOk;
}

int cmd_related(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'related' needs a paper id");
  const auto intent = c.args.value("intent");
  if (!intent) throw UsageError("'related' needs --intent TEXT");
  SimilarPapersRequest req;
  req.intent = *intent;
  req.k = c.args.integer("limit", 1, 500);
  for (std::size_t i = 1; i < c.args.positional.size(); ++i) req.anchor.push_back(c.args.positional[i]);
  auto res = Client(c.client_options).similar_papers(c.args.positional.front(), req);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(c, answer_object()
                      .add("results", papers_json(res->results))
                      .add("poolSize", res->pool_size)
                      .add("truncated", Json::boolean(res->truncated))
                      .maybe("note", res->note)
                      .extras(res->extras)
                      .done());
    return kOk;
  }
  print_papers(c, res->results);
  if (res->note) note(c, *res->note);
  return kOk;
}

Json github_json(const GithubSearch& g) {
  std::vector<Json> items;
  for (const auto& i : g.results) {
    items.push_back(JsonObject()
                        .maybe("resultType", i.result_type)
                        .add("repo", i.repo)
                        .add("url", i.url)
                        .maybe("pageType", i.page_type)
                        .maybe("number", i.number)
                        .add("snippet", i.snippet)
                        .maybe("contentMd", i.content_md)
                        .extras(i.extras)
                        .done());
  }
  JsonObject out = answer_object();
  out.add("results", json_array(items));
  if (!g.warnings.empty()) out.add("warnings", json_strings(g.warnings));
  return out.maybe("replacement", g.replacement).extras(g.extras).done();
}

/// "issue #12", "pull #3", "readme": what a GitHub result is, for its heading.
std::string github_kind(const GithubSearchItem& i) {
  if (i.page_type) return *i.page_type + (i.number ? " #" + std::to_string(*i.number) : "");
  if (i.result_type == "repo_readme") return "readme";
  return i.result_type.value_or("");
}

int cmd_github(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'github' needs a query");
  auto res = Client(c.client_options)
                 .search_github(joined_words(c.args.positional, 0), c.args.integer("limit", 1, 100));
  if (!res.ok()) return fail(c, res.error());
  for (const auto& w : res->warnings) note(c, "warning: " + w);
  if (res->replacement) note(c, "the service's replacement: " + *res->replacement + " ('webdata developer')");
  if (c.json) {
    print_json(c, github_json(*res));
    return kOk;
  }
  for (const auto& i : res->results) {
    c.out << "## " << i.repo << " " << github_kind(i) << "\n" << i.url << "\n" << i.snippet << "\n\n";
  }
  return kOk;
}

Json developer_json(const DeveloperSearch& d) {
  std::vector<Json> items;
  for (const auto& r : d.results) {
    std::vector<Json> passages;
    for (const auto& p : r.passages) {
      passages.push_back(JsonObject()
                             .add("text", p.text)
                             .maybe("citation_url", p.citation_url)
                             .extras(p.extras)
                             .done());
    }
    JsonObject item;
    item.add("id", r.id).add("url", r.url).maybe("title", r.title).add("passages", json_array(passages));
    if (r.license_state) {
      item.add("license", JsonObject().add("state", *r.license_state).maybe("spdx_id", r.license_spdx).done());
    } else {
      item.maybe("license", r.license_spdx);  // the older form: the SPDX id alone
    }
    items.push_back(item.extras(r.extras).done());
  }
  return answer_object().add("results", json_array(items)).extras(d.extras).done();
}

int cmd_developer(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'developer' needs a query");
  DeveloperSearchRequest req;
  req.query = joined_words(c.args.positional, 0);
  req.k = c.args.integer("limit", 1, 100);
  auto res = Client(c.client_options).developer_search(req);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(c, developer_json(*res));
    return kOk;
  }
  for (const auto& r : res->results) {
    c.out << "## " << r.id << " " << r.title.value_or("") << "\n" << r.url << "\n";
    for (const auto& p : r.passages) c.out << p.text << "\n";
    c.out << "\n";
  }
  return kOk;
}

int cmd_feedback(Context& c) {
  if (c.args.positional.size() != 2) throw UsageError("'feedback' needs an endpoint and a job id");
  const auto rating = c.args.value("rating");
  if (!rating) throw UsageError("'feedback' needs --rating good|partial|bad");
  FeedbackRequest req;
  req.endpoint = c.args.positional[0];
  req.job_id = c.args.positional[1];
  req.rating = *rating;
  req.note = c.args.value("note");
  auto res = Client(c.client_options).feedback(req);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(c, answer_object()
                      .add("feedbackId", res->feedback_id)
                      .add("creditsRefunded", res->credits_refunded)
                      .add("alreadySubmitted", Json::boolean(res->already_submitted))
                      .maybe("warning", res->warning)
                      .extras(res->extras)
                      .done());
    return kOk;
  }
  c.out << "feedback " << res->feedback_id << (res->already_submitted ? " (already submitted)" : "")
        << "\n";
  return kOk;
}

Json support_json(const SupportAnswer& a) {
  std::vector<Json> sources;
  for (const auto& url : a.sources) sources.push_back(JsonObject().add("url", url).done());
  return answer_object()
      .add("answer", a.answer)
      .maybe("jobId", a.job_id)
      .maybe("jobType", a.job_type)
      .maybe("status", a.status)
      .add("sources", json_array(sources))
      .extras(a.extras)
      .done();
}

int cmd_doctor(Context& c) {
  if (c.args.positional.size() != 1) throw UsageError("'doctor' needs a job id");
  const std::string question = c.args.value("question").value_or("why did this run fail?");
  auto res = Client(c.client_options).support_ask(question, c.args.positional.front());
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    print_json(c, support_json(*res));
    return kOk;
  }
  c.out << res->answer << "\n";
  return kOk;
}

// ---- browser sessions and interact (docs/reference/browser.md).

/// The positionals from `first` on, joined by spaces (a prompt or code in several words).
std::string joined_from(const Args& args, std::size_t first) {
  std::string out;
  for (std::size_t i = first; i < args.positional.size(); ++i) {
    out += (out.empty() ? "" : " ") + args.positional[i];
  }
  return out;
}

Json session_json(const BrowserSession& s) {
  return JsonObject()
      .add("id", s.id)
      .add("cdpUrl", s.cdp_url)
      .add("liveViewUrl", s.live_view_url)
      .maybe("status", s.status.empty() ? std::nullopt : std::optional<std::string>(s.status))
      .maybe("expiresAt", s.expires_at)
      .maybe("createdAt", s.created_at)
      .extras(s.extras)
      .done();
}

/// What code or a prompt printed: stdout (else the result) on standard output, stderr as a
/// note; exit 5 when it failed.
int print_run(Context& c, const BrowserRun& run) {
  if (c.json) {
    print_json(c, JsonObject()
                      .add("success", Json::boolean(true))
                      .add("stdout", run.stdout_text)
                      .add("result", run.result)
                      .add("stderr", run.stderr_text)
                      .add("exitCode", run.exit_code)
                      .extras(run.extras)
                      .done());
  } else {
    c.out << (run.stdout_text.empty() ? run.result + "\n" : run.stdout_text);
  }
  if (!run.stderr_text.empty()) note(c, run.stderr_text);
  return run.exit_code == 0 ? kOk : kJobNotCompleted;
}

int print_ended(Context& c, const BrowserEnded& ended) {
  if (c.json) {
    print_json(c, JsonObject()
                      .add("success", Json::boolean(true))
                      .add("status", ended.status)
                      .add("sessionDurationMs", ended.session_duration_ms)
                      .add("creditsBilled", ended.credits_billed)
                      .done());
  } else {
    c.out << ended.status << " after " << ended.session_duration_ms << " ms, "
          << ended.credits_billed << " credits\n";
  }
  return kOk;
}

int cmd_browser_list(Context& c, const Client& client) {
  const std::string status = c.args.positional.size() > 1 ? c.args.positional[1] : "";
  if (!status.empty()) check_values("status", {status}, {"active", "destroyed"});
  auto res = client.list_browsers(status);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    std::vector<Json> sessions;
    for (const auto& s : *res) sessions.push_back(session_json(s));
    print_json(c, JsonObject()
                      .add("success", Json::boolean(true))
                      .add("sessions", json_array(sessions))
                      .done());
    return kOk;
  }
  for (const auto& s : *res) {
    c.out << s.id << "  " << s.status << "  " << s.created_at.value_or("") << "\n";
  }
  return kOk;
}

int cmd_browser(Context& c) {
  const auto& a = c.args;
  const std::string sub = a.positional.empty() ? "" : a.positional.front();
  const Client client(c.client_options);
  if (sub == "create") {
    BrowserRequest req;
    if (auto ttl = a.integer("ttl", 30, 3600)) req.ttl = *ttl;
    if (auto idle = a.integer("activity-ttl", 10, 3600)) req.activity_ttl = *idle;
    if (auto profile = a.value("profile")) req.profile = BrowserProfile{*profile, !a.flag("no-save-changes")};
    auto res = client.create_browser(req);
    if (!res.ok()) return fail(c, res.error());
    if (c.json) {
      print_json(c, session_json(*res));
    } else {
      c.out << res->id << "\ncdp: " << res->cdp_url << "\nlive view: " << res->live_view_url
            << "\nexpires: " << res->expires_at.value_or("") << "\n";
    }
    return kOk;
  }
  if (sub == "list") return cmd_browser_list(c, client);
  if (sub == "execute" && a.positional.size() >= 3) {
    BrowserExecuteRequest req;
    req.code = joined_from(a, 2);
    if (auto language = a.value("language")) req.language = *language;
    auto res = client.browser_execute(a.positional[1], req);
    return res.ok() ? print_run(c, *res) : fail(c, res.error());
  }
  if (sub == "delete" && a.positional.size() == 2) {
    auto res = client.delete_browser(a.positional[1]);
    return res.ok() ? print_ended(c, *res) : fail(c, res.error());
  }
  throw UsageError("'browser' needs create, list [STATUS], execute ID CODE... or delete ID");
}

int cmd_interact(Context& c) {
  const auto& a = c.args;
  if (a.positional.empty()) throw UsageError("'interact' needs a scrape id");
  const std::string& id = a.positional.front();
  const Client client(c.client_options);
  if (a.flag("stop")) {
    auto res = client.stop_interaction(id);
    return res.ok() ? print_ended(c, *res) : fail(c, res.error());
  }
  InteractRequest req;
  req.code = a.value("code");
  if (!req.code) {
    req.prompt = joined_from(a, 1);
    if (req.prompt->empty()) throw UsageError("'interact' needs a prompt or --code CODE");
  }
  if (auto language = a.value("language")) req.language = *language;
  auto res = client.interact(id, req);
  return res.ok() ? print_run(c, *res) : fail(c, res.error());
}

}  // namespace

namespace {

/// The context of a run: output switches, the API address and key (with where each came from),
/// the transport and the polling settings.
void configure(Context& c, const Args& args, std::ostream& err, bool err_is_tty) {
  c.json = args.flag("json");
  c.quiet = args.flag("quiet");
  const std::string when = args.value("progress").value_or("auto");
  if (when != "auto" && when != "always" && when != "never") {
    throw UsageError("--progress needs auto, always or never");
  }
  c.progress = !c.quiet && (when == "always" || (when == "auto" && err_is_tty));
  // Resolved here rather than by the SDK, so that messages can say where each came from.
  auto from_env = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') return std::nullopt;
    return std::string(v);
  };
  if (auto url = args.value("api-url")) {
    c.client_options.api_url = *url;
    c.url_source = "--api-url";
  } else if (auto env = from_env("WEBDATA_API_URL")) {
    c.client_options.api_url = *env;
    c.url_source = "WEBDATA_API_URL";
  } else {
    c.client_options.api_url = "http://127.0.0.1:3002";
    c.url_source = "the default";
  }
  while (!c.client_options.api_url.empty() && c.client_options.api_url.back() == '/') {
    c.client_options.api_url.pop_back();
  }
  if (auto key = args.value("api-key")) {
    c.client_options.api_key = *key;
    c.key_source = "--api-key";
  } else if (auto env = from_env("WEBDATA_API_KEY")) {
    c.client_options.api_key = *env;
    c.key_source = "WEBDATA_API_KEY";
  }
  c.transport = std::make_shared<CliTransport>(make_curl_transport(), err, c.quiet,
                                               c.client_options.retry.max_retries);
  c.client_options.transport = c.transport;
  if (auto seconds = args.number("timeout", 0.001, 86400)) {
    c.client_options.timeout = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }
  c.polling.interval = std::chrono::milliseconds(args.integer("poll-interval", 10, 600000).value_or(500));
  if (auto seconds = args.number("max-wait", 0.001, 31536000)) {
    c.polling.max_wait = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }
}

using Command = int (*)(Context&);

/// The command of each name.
const std::map<std::string, Command>& command_table() {
  static const std::map<std::string, Command> table = {
      {"scrape", cmd_scrape},         {"parse", cmd_parse},
      {"batch", cmd_batch},           {"crawl", cmd_crawl},
      {"search", cmd_search},         {"agent", cmd_agent},
      {"status", cmd_status},         {"cancel", cmd_cancel},
      {"errors", cmd_errors},         {"active", cmd_active},
      {"map", cmd_map},               {"extract", cmd_extract},
      {"usage", cmd_usage},           {"queue", cmd_queue},
      {"crawl-preview", cmd_crawl_preview}, {"monitor", cmd_monitor},
      {"papers", cmd_papers},         {"paper", cmd_paper},
      {"related", cmd_related},       {"github", cmd_github},
      {"developer", cmd_developer},
      {"feedback", cmd_feedback},     {"doctor", cmd_doctor},
      {"deep-research", cmd_deep_research}, {"llmstxt", cmd_llmstxt},
      {"browser", cmd_browser},       {"interact", cmd_interact},
  };
  return table;
}

}  // namespace

int run_command(const Args& args, std::ostream& out, std::ostream& err, bool err_is_tty) {
  Context c(args, out, err);
  configure(c, args, err, err_is_tty);
  int rc = kOk;
  const auto command = command_table().find(args.command);
  if (command != command_table().end()) rc = command->second(c);
  out.flush();
  if (!out) {
    err << "webdata: cannot write the output\n";
    return kOutputError;
  }
  return rc;
}

}  // namespace webdata::cli
