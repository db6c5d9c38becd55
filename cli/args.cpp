#include "args.hpp"

#include <charconv>
#include <cstdlib>
#include <set>

namespace webdata::cli {
namespace {

struct OptionSpec {
  bool takes_value;
  std::set<std::string> commands;  ///< Empty: every command.
};

const std::map<std::string, OptionSpec>& option_specs() {
  const std::set<std::string> jobs = {"batch", "crawl"};
  const std::set<std::string> scraping = {"scrape", "batch", "crawl"};
  const std::set<std::string> followed = {"batch", "crawl", "status", "extract", "agent"};
  static const std::map<std::string, OptionSpec> specs = {
      {"api-url", {true, {}}},
      {"api-key", {true, {}}},
      {"json", {false, {}}},
      {"timeout", {true, {}}},
      {"quiet", {false, {}}},
      {"progress", {true, {}}},
      {"help", {false, {}}},
      {"version", {false, {}}},
      {"v1",
       {false,
        {"scrape", "batch", "crawl", "search", "status", "cancel", "errors", "active", "map",
         "extract", "usage", "queue"}}},
      {"format", {true, {"scrape", "batch", "crawl", "search", "parse"}}},
      {"no-main-content", {false, {"scrape", "batch", "crawl", "search", "parse"}}},
      {"include-tag", {true, {"scrape", "batch", "crawl", "parse"}}},
      {"exclude-tag", {true, {"scrape", "batch", "crawl", "parse"}}},
      {"wait-for", {true, scraping}},
      {"mobile", {false, scraping}},
      {"proxy", {true, scraping}},
      {"max-age", {true, scraping}},
      {"country", {true, {"scrape", "batch", "crawl", "search"}}},
      {"schema", {true, {"scrape", "agent", "extract", "parse"}}},
      {"prompt", {true, {"scrape", "extract", "parse"}}},
      {"content-type", {true, {"parse"}}},
      {"no-wait", {false, {"batch", "crawl", "extract", "agent"}}},
      {"wait", {false, {"status"}}},
      {"documents", {false, {"status"}}},
      {"skip", {true, {"status"}}},
      {"batch", {false, {"status", "cancel", "errors"}}},
      {"max-wait", {true, followed}},
      {"poll-interval", {true, followed}},
      {"max-concurrency", {true, jobs}},
      {"strict", {false, {"batch"}}},
      {"limit", {true, {"crawl", "search", "map"}}},
      {"max-depth", {true, {"crawl"}}},
      {"include-path", {true, {"crawl"}}},
      {"exclude-path", {true, {"crawl"}}},
      {"entire-domain", {false, {"crawl"}}},
      {"subdomains", {false, {"crawl", "map"}}},
      {"external-links", {false, {"crawl", "extract"}}},
      {"ignore-robots", {false, {"crawl"}}},
      {"sitemap", {true, {"crawl", "map"}}},
      {"delay", {true, {"crawl"}}},
      {"source", {true, {"search"}}},
      {"category", {true, {"search"}}},
      {"tbs", {true, {"search"}}},
      {"location", {true, {"search"}}},
      {"scrape", {false, {"search", "status"}}},
      {"url", {true, {"agent"}}},
      {"max-credits", {true, {"agent"}}},
      // map, extract, usage, queue, crawl-preview (the endpoints beyond the specification's core)
      {"search", {true, {"map"}}},
      {"system-prompt", {true, {"extract"}}},
      {"sources", {false, {"extract"}}},
      {"extract", {false, {"status"}}},
      {"historical", {false, {"usage"}}},
      {"by-api-key", {false, {"usage"}}},
      {"agent", {false, {"status", "cancel"}}},
  };
  return specs;
}

const std::set<std::string>& commands() {
  static const std::set<std::string> names = {
      "scrape", "batch",  "crawl", "search",  "agent", "status", "cancel",
      "errors", "active", "map",   "extract", "usage", "queue",  "crawl-preview", "parse"};
  return names;
}

}  // namespace

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::list(const std::string& name) const {
  std::vector<std::string> out;
  auto it = values.find(name);
  if (it == values.end()) return out;
  for (const auto& v : it->second) {
    std::size_t start = 0;
    while (start <= v.size()) {
      const auto comma = v.find(',', start);
      const auto piece = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!piece.empty()) out.push_back(piece);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

std::optional<int> Args::integer(const std::string& name, int min, int max) const {
  const auto text = value(name);
  if (!text) return std::nullopt;
  int out = 0;
  const auto* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, out);
  if (ec != std::errc() || ptr != end || out < min || out > max) {
    throw UsageError("--" + name + " needs a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max));
  }
  return out;
}

std::optional<double> Args::number(const std::string& name, double min, double max) const {
  const auto text = value(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double out = std::strtod(text->c_str(), &end);
  if (text->empty() || end != text->c_str() + text->size() || !(out >= min && out <= max)) {
    throw UsageError("--" + name + " needs a number from " + std::to_string(min) + " to " +
                     std::to_string(max));
  }
  return out;
}

Args parse_args(const std::vector<std::string>& argv) {
  Args args;
  std::vector<std::pair<std::string, std::string>> seen;  // option, how it was written
  bool only_positional = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      if (args.command.empty() && !only_positional) {
        if (commands().count(arg) == 0) throw UsageError("unknown command '" + arg + "'");
        args.command = arg;
      } else {
        args.positional.push_back(arg);
      }
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    if (arg == "-h") {
      args.flags["help"] = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) throw UsageError("unknown option '" + arg + "'");
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const auto spec = option_specs().find(name);
    if (spec == option_specs().end()) throw UsageError("unknown option '--" + name + "'");
    if (spec->second.takes_value) {
      std::string value;
      if (inline_value) {
        value = *inline_value;
      } else if (i + 1 < argv.size()) {
        value = argv[++i];
      } else {
        throw UsageError("--" + name + " needs a value");
      }
      args.values[name].push_back(value);
    } else {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      args.flags[name] = true;
    }
    seen.emplace_back(name, arg);
  }
  if (args.flag("help") || args.flag("version")) return args;
  if (args.command.empty()) throw UsageError("no command given");
  for (const auto& [name, written] : seen) {
    const auto& allowed = option_specs().at(name).commands;
    if (!allowed.empty() && allowed.count(args.command) == 0) {
      throw UsageError("'" + written + "' does not apply to '" + args.command + "'");
    }
  }
  return args;
}

std::string usage() {
  return R"(Usage: webdata [global options] COMMAND [arguments] [options]

A command-line client for the web data extraction API (v2; --v1 for the v1 endpoints).

Commands:
  scrape URL            scrape one page (markdown, or every --format asked for)
  parse FILE            turn a local file (HTML, PDF, text, Markdown) into a document
  batch URL...          batch scrape: start, show progress, print every document
  crawl URL             crawl a site: start, show progress, print every document
  search QUERY          search the web (operators: "exact", -word, site:, filetype:, inurl:,
                        intitle:, related:, imagesize:, larger:)
  agent PROMPT          let the agent research and answer
  map URL               the site's URLs, one a line, without scraping it
  extract URL...        structured data from pages (URL/* for a section): --prompt, --schema
  crawl-preview URL PROMPT...   the crawl options a prompt implies, without crawling
  status ID             state and counters of a crawl (--batch: a batch scrape, --agent: an
                        agent job, --extract: an extract job)
  cancel ID             cancel a crawl (--batch: a batch scrape, --agent: an agent job)
  errors ID             failed pages and robots.txt blocks of a crawl (--batch: a batch scrape)
  active                the team's running crawls
  usage                 the team's remaining credits and extract tokens (--historical)
  queue                 the team's queued and running jobs, and its concurrency

Global options:
  --api-url URL         service address (default $WEBDATA_API_URL, else http://127.0.0.1:3002)
  --api-key KEY         API key (default $WEBDATA_API_KEY; none: no Authorization header)
  --json                print the API's JSON instead of markdown
  --timeout SECONDS     per HTTP request (default 120)
  --progress WHEN       progress bar on stderr: auto (when it is a terminal), always, never
  --quiet               no progress bar and no notes on stderr
  -h, --help            this text; 'webdata COMMAND --help' for a command's options
  --version             the client's version

Exit codes:
  0 success            1 API error (the service refused)   2 usage error
  3 transport error    4 timeout                            5 job failed or was cancelled
  6 unexpected answer  7 output could not be written
)";
}

std::string command_usage(const std::string& command) {
  static const std::map<std::string, std::string> texts = {
      {"scrape", R"(Usage: webdata scrape URL [options]
  --format F            markdown (default), summary, html, rawHtml, links, images, screenshot,
                        json, changeTracking, branding; repeatable or comma-separated
  --schema JSON|@FILE   JSON Schema of the json format (implies --format json)
  --prompt TEXT         prompt of the json format (implies --format json)
  --no-main-content     keep headers, navigation and footers (onlyMainContent false)
  --include-tag SEL     keep only matching elements (repeatable)
  --exclude-tag SEL     drop matching elements (repeatable)
  --wait-for MS         wait before capturing    --mobile    mobile emulation
  --proxy MODE          basic, enhanced, stealth or auto  --max-age MS  accept a cached copy this old
  --country CODE        location country (ISO code)
  --v1                  use POST /v1/scrape
)"},
      {"parse", R"(Usage: webdata parse FILE [options]
  Uploads FILE (HTML, PDF, plain text or Markdown) to POST /v2/parse and prints the document
  as scrape does: markdown, or the whole document with --json.
  --format F            as for scrape (screenshot, branding and changeTracking need a page)
  --schema JSON|@FILE, --prompt TEXT   the json format, as for scrape
  --no-main-content, --include-tag SEL, --exclude-tag SEL   as for scrape
  --content-type TYPE   the file's media type (default: from its extension)
)"},
      {"batch", R"(Usage: webdata batch URL... [options]
  --format F, --no-main-content, --include-tag, --exclude-tag, --wait-for, --mobile, --proxy,
  --max-age, --country   as for scrape, applied to every URL
  --strict              refuse the whole batch when a URL is invalid (ignoreInvalidURLs false)
  --max-concurrency N   pages scraped at once
  --no-wait             print the job id and return at once
  --max-wait SECONDS    give up waiting (exit 4) and print the command that resumes; the job
                        keeps running
  --poll-interval MS    pause between status requests while nothing new arrives (default 500)
  --v1                  use /v1/batch/scrape
)"},
      {"crawl", R"(Usage: webdata crawl URL [options]
  --limit N             at most N pages          --max-depth N   link hops (v1: path depth)
  --include-path RE     only paths matching RE (repeatable)
  --exclude-path RE     skip paths matching RE (repeatable)
  --entire-domain       also pages outside the start path
  --subdomains          follow subdomains        --external-links  follow other sites
  --ignore-robots       ignore robots.txt        --sitemap MODE  include, skip or only
  --delay SECONDS       pause between pages      --max-concurrency N
  --format F, --no-main-content, ...   scrape options of every page, as for scrape
  --no-wait, --max-wait SECONDS, --poll-interval MS   as for batch
  --v1                  use /v1/crawl
)"},
      {"search", R"(Usage: webdata search QUERY [options]
  --limit N             results per source (1..100, default 5)
  --source S            web, images, news (repeatable)
  --category C          github, research, pdf (repeatable)
  --tbs T               time filter, e.g. qdr:d, qdr:w, cdr:1,cd_min:1/1/2024,cd_max:12/31/2024
  --location PLACE      e.g. "Berlin,Germany"  --country CODE
  --scrape              scrape every web result (markdown); --format F for other formats
  --v1                  use POST /v1/search
)"},
      {"agent", R"(Usage: webdata agent PROMPT [options]
  --url URL             start from this page (repeatable)
  --schema JSON|@FILE   shape of the answer
  --max-credits N       spending limit (a job that would spend more fails)
  --no-wait             print the job id and return at once (where the service runs agents as
                        jobs; one that answers at once prints the answer)
  --max-wait SECONDS, --poll-interval MS   as for batch
)"},
      {"status", R"(Usage: webdata status ID [options]
  --batch               ID is a batch scrape (default: a crawl)
  --agent               ID is an agent job (with --wait: print its answer once it ends)
  --extract             ID is an extract job: its state, and its data once completed
  --scrape              ID is a past scrape (its metadata.scrapeId, within 24 hours): its
                        document, printed as scrape prints one (--json: the whole document)
  --wait                wait until the job ends, with a progress bar
  --documents           print every document of the job (markdown or --json)
  --skip N              with --documents: leave out the first N documents (resuming)
  --max-wait SECONDS, --poll-interval MS   as for crawl
  --v1                  use the /v1 endpoints
)"},
      {"cancel", "Usage: webdata cancel ID [--batch | --agent] [--v1]\n"},
      {"errors", "Usage: webdata errors ID [--batch] [--v1]\n"},
      {"active", "Usage: webdata active [--v1]\n"},
      {"map", R"(Usage: webdata map URL [options]
  --search WORDS        order the URLs by relevance to WORDS
  --sitemap MODE        include (default), skip or only
  --subdomains          also URLs of the site's subdomains
  --limit N             at most N URLs (1..100000, default 5000)
  --v1                  use POST /v1/map
)"},
      {"extract", R"(Usage: webdata extract URL... [options]
  URL                   a page, or URL/* for the pages of that section of the site (1..10)
  --prompt TEXT         what to extract       --schema JSON|@FILE   shape of the data
  --system-prompt TEXT  instructions for the extraction
  --sources             also print which pages each field came from
  --external-links      also read pages of other sites the pages link to
  --no-wait             print the job id and return; 'webdata status ID --extract' reads it
  --max-wait SECONDS, --poll-interval MS   as for crawl
  --v1                  use /v1/extract
)"},
      {"usage", R"(Usage: webdata usage [options]
  --historical          credits and tokens used per billing period
  --by-api-key          with --historical: one line per API key and period
  --v1                  use the /v1/team endpoints
)"},
      {"queue", "Usage: webdata queue [--v1]\n"},
      {"crawl-preview", R"(Usage: webdata crawl-preview URL PROMPT...
  Prints the crawl options the prompt implies (POST /v2/crawl/params-preview), and the
  'webdata crawl' command line that runs that crawl.
)"},
  };
  auto it = texts.find(command);
  return it == texts.end() ? usage() : it->second;
}

}  // namespace webdata::cli
