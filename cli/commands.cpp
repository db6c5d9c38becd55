#include "commands.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <webdata/webdata.hpp>

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
  /// When the command began: a job's pages/s count from its start request.
  std::chrono::steady_clock::time_point began = std::chrono::steady_clock::now();
};

int exit_code_for(const Error& e) {
  switch (e.kind) {
    case ErrorKind::kHttp: return kApiError;
    case ErrorKind::kTransport: return kTransport;
    case ErrorKind::kTimeout: return kTimeout;
    case ErrorKind::kParse: return kBadAnswer;
    case ErrorKind::kCancelled: return kTimeout;
    case ErrorKind::kInvalidArgument: return kUsage;
  }
  return kApiError;
}

int fail(Context& c, const Error& e) {
  c.err << "webdata: " << e.describe() << "\n";
  if (!e.details.empty()) c.err << "details: " << e.details << "\n";
  return exit_code_for(e);
}

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
    if (*p != "basic" && *p != "enhanced" && *p != "auto") {
      throw UsageError("--proxy needs basic, enhanced or auto");
    }
    o.proxy = ProxyMode(*p);
  }
  o.max_age = millis(a, "max-age", 2000000000);
  if (auto country = a.value("country")) o.location = Location{*country, std::nullopt};
}

ScrapeOptions scrape_options(const Args& a) {
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

// Follows a job's status chunks: progress bar on stderr, every document to stdout as it
// arrives (one chunk in memory at a time), and in JSON mode one object whose `data` is
// streamed and whose counters come last.
int follow_documents(Context& c, const Job& job, const std::string& kind) {
  ProgressBar bar(c.err, c.progress, kind, c.began);
  std::size_t printed = 0;
  if (c.json) {
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
  std::optional<JobStatus> last;
  std::optional<Error> error;
  for (auto& chunk : job.pages(c.polling)) {
    if (!chunk.ok()) {
      error = chunk.error();
      break;
    }
    for (const auto& doc : chunk->data) {
      if (c.json) {
        c.out << (printed == 0 ? "\n  " : ",\n  ") << to_json(doc).text();
      } else {
        render_job_document(c.out, doc);
      }
      ++printed;
    }
    c.out.flush();
    bar.update(chunk->completed, chunk->total, chunk->status.value());
    chunk->data.clear();
    last = std::move(*chunk);
  }
  bar.finish();
  if (c.json) {
    c.out << (printed == 0 ? "]" : "\n ]");
    if (last) {
      c.out << ",\n \"status\": " << Json::string(last->status.value()).text()
            << ",\n \"total\": " << last->total << ",\n \"completed\": " << last->completed
            << ",\n \"creditsUsed\": " << last->credits_used;
      if (last->expires_at) {
        c.out << ",\n \"expiresAt\": " << Json::string(last->expires_at->text()).text();
      }
    }
    c.out << "\n}\n";
  }
  if (error) return fail(c, *error);
  if (last && !ended_well(last->status)) {
    note(c, kind + " " + job.id() + " ended " + last->status.value());
    return kJobNotCompleted;
  }
  return kOk;
}

// Polls the status (counters only are shown) until the job ends.
int wait_for_job(Context& c, const Job& job, const std::string& kind) {
  ProgressBar bar(c.err, c.progress, kind, c.began);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    auto st = job.status();
    if (!st.ok()) return fail(c, st.error());
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
      return ended_well(st->status) ? kOk : kJobNotCompleted;
    }
    if (c.polling.max_wait && std::chrono::steady_clock::now() - start >= *c.polling.max_wait) {
      bar.finish();
      c.err << "webdata: " << kind << " " << job.id() << " still " << st->status.value()
            << " after --max-wait\n";
      return kTimeout;
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
  if (!doc.ok()) return fail(c, doc.error());
  if (doc->warning) note(c, "warning: " + *doc->warning);
  if (c.json) {
    c.out << to_json(*doc).pretty() << "\n";
  } else {
    render_document(c.out, *doc);
  }
  return kOk;
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

int cmd_crawl(Context& c) {
  const std::string url = one_positional(c.args, "URL");
  const auto& a = c.args;
  std::optional<std::chrono::milliseconds> delay;
  if (auto seconds = a.number("delay", 0, 60)) {
    delay = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }
  auto paths = [&](const char* name) -> std::optional<std::vector<std::string>> {
    auto v = a.values.find(name);
    if (v == a.values.end()) return std::nullopt;
    return v->second;  // regexes may contain commas: no splitting
  };
  Result<CrawlJob> job = Error{};
  if (a.flag("v1")) {
    v1::CrawlRequest req;
    req.url = url;
    req.limit = a.integer("limit", 1, 10000000);
    req.max_depth = a.integer("max-depth", 0, 1000);
    req.include_paths = paths("include-path");
    req.exclude_paths = paths("exclude-path");
    if (a.flag("entire-domain")) req.allow_backward_links = true;
    if (a.flag("subdomains")) req.allow_subdomains = true;
    if (a.flag("external-links")) req.allow_external_links = true;
    if (a.flag("ignore-robots")) req.ignore_robots_txt = true;
    if (auto s = a.value("sitemap")) {
      if (*s != "skip" && *s != "include") throw UsageError("--sitemap with --v1: skip or include");
      req.ignore_sitemap = *s == "skip";
    }
    req.delay = delay;
    req.max_concurrency = a.integer("max-concurrency", 1, 10000);
    if (!a.list("format").empty() || a.flag("no-main-content")) {
      req.scrape_options = scrape_options_v1(a);
    }
    job = v1::Client(c.client_options).start_crawl(req);
  } else {
    CrawlRequest req;
    req.url = url;
    req.limit = a.integer("limit", 1, 10000000);
    req.max_discovery_depth = a.integer("max-depth", 0, 1000);
    req.include_paths = paths("include-path");
    req.exclude_paths = paths("exclude-path");
    if (a.flag("entire-domain")) req.crawl_entire_domain = true;
    if (a.flag("subdomains")) req.allow_subdomains = true;
    if (a.flag("external-links")) req.allow_external_links = true;
    if (a.flag("ignore-robots")) req.ignore_robots_txt = true;
    if (auto s = a.value("sitemap")) {
      if (*s != "skip" && *s != "include" && *s != "only") {
        throw UsageError("--sitemap needs skip, include or only");
      }
      req.sitemap = SitemapMode(*s);
    }
    req.delay = delay;
    req.max_concurrency = a.integer("max-concurrency", 1, 10000);
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

int cmd_agent(Context& c) {
  if (c.args.positional.empty()) throw UsageError("'agent' needs a prompt");
  AgentRequest req;
  for (const auto& word : c.args.positional) req.prompt += (req.prompt.empty() ? "" : " ") + word;
  if (auto urls = c.args.values.find("url"); urls != c.args.values.end()) req.urls = urls->second;
  if (auto s = c.args.value("schema")) req.schema = read_schema(*s);
  req.max_credits = c.args.integer("max-credits", 1, 100000000);
  auto res = Client(c.client_options).agent(req, c.polling);
  if (!res.ok()) return fail(c, res.error());
  if (c.json) {
    c.out << to_json(*res).pretty() << "\n";
  } else {
    render_agent(c.out, *res);
  }
  if (!res->status.empty() && !ended_well(res->status)) {
    note(c, "agent ended " + res->status.value() + (res->error ? ": " + *res->error : ""));
    return kJobNotCompleted;
  }
  return kOk;
}

// The job named on the command line, as a crawl or (--batch) a batch scrape, v2 or --v1.
Job job_handle(Context& c, const std::string& id) {
  const bool batch = c.args.flag("batch");
  if (c.args.flag("v1")) {
    v1::Client client(c.client_options);
    if (batch) return client.batch_scrape_job(id);
    return client.crawl_job(id);
  }
  Client client(c.client_options);
  if (batch) return client.batch_scrape_job(id);
  return client.crawl_job(id);
}

int cmd_status(Context& c) {
  const std::string id = one_positional(c.args, "job id");
  const Job job = job_handle(c, id);
  const std::string kind = c.args.flag("batch") ? "batch" : "crawl";
  if (c.args.flag("documents")) return follow_documents(c, job, kind);
  if (c.args.flag("wait")) return wait_for_job(c, job, kind);
  auto st = job.status();
  if (!st.ok()) return fail(c, st.error());
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
  auto state = job_handle(c, id).cancel();
  if (!state.ok()) return fail(c, state.error());
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
  if (!errors.ok()) return fail(c, errors.error());
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

}  // namespace

int run_command(const Args& args, std::ostream& out, std::ostream& err, bool err_is_tty) {
  Context c(args, out, err);
  c.json = args.flag("json");
  c.quiet = args.flag("quiet");
  const std::string when = args.value("progress").value_or("auto");
  if (when != "auto" && when != "always" && when != "never") {
    throw UsageError("--progress needs auto, always or never");
  }
  c.progress = !c.quiet && (when == "always" || (when == "auto" && err_is_tty));
  if (auto url = args.value("api-url")) c.client_options.api_url = *url;
  if (auto key = args.value("api-key")) c.client_options.api_key = *key;
  if (auto seconds = args.number("timeout", 0.001, 86400)) {
    c.client_options.timeout = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }
  c.polling.interval = std::chrono::milliseconds(args.integer("poll-interval", 10, 600000).value_or(500));
  if (auto seconds = args.number("max-wait", 0.001, 31536000)) {
    c.polling.max_wait = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000));
  }

  int rc = kOk;
  const std::string& cmd = args.command;
  if (cmd == "scrape") rc = cmd_scrape(c);
  else if (cmd == "batch") rc = cmd_batch(c);
  else if (cmd == "crawl") rc = cmd_crawl(c);
  else if (cmd == "search") rc = cmd_search(c);
  else if (cmd == "agent") rc = cmd_agent(c);
  else if (cmd == "status") rc = cmd_status(c);
  else if (cmd == "cancel") rc = cmd_cancel(c);
  else if (cmd == "errors") rc = cmd_errors(c);
  else if (cmd == "active") rc = cmd_active(c);
  out.flush();
  if (!out) {
    err << "webdata: cannot write the output\n";
    return kOutputError;
  }
  return rc;
}

}  // namespace webdata::cli
