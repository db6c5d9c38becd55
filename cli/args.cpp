// `webdata`'s command line, read by CLI11 (ADR 0024): one table of options and one of commands,
// each command listing the options that apply to it. CLI11 recognises the options wherever they
// stand and takes their values; the applicability check, the refusals and both help texts are
// written from the same tables.
#include "args.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include <CLI/CLI.hpp>

namespace webdata::cli {
namespace {

/// An option: its name without the dashes, the name of its value in the help ("" for a switch)
/// and the help a command shows unless it says its own.
struct OptionSpec {
  std::string name;
  std::string value;
  std::string help;
};

/// An option as a command lists it: `help` empty for the option's own.
struct Use {
  std::string option;
  std::string help;
};

struct CommandSpec {
  std::string name;
  std::string arguments;  ///< "URL", "URL...", "" for none
  std::string summary;    ///< its line in 'webdata --help'
  std::string about;      ///< more words for 'webdata COMMAND --help' ("" for none)
  std::vector<Use> options;
};

const std::vector<OptionSpec>& global_options() {
  static const std::vector<OptionSpec> options = {
      {"api-url", "URL", "service address (default $WEBDATA_API_URL, else http://127.0.0.1:3002)"},
      {"api-key", "KEY", "API key (default $WEBDATA_API_KEY; none: no Authorization header)"},
      {"json", "", "print the API's JSON instead of markdown"},
      {"timeout", "SECONDS", "per HTTP request (default 120)"},
      {"progress", "WHEN", "progress bar on stderr: auto (when it is a terminal), always, never"},
      {"quiet", "", "no progress bar and no notes on stderr"},
      {"help", "", "this text; 'webdata COMMAND --help' for a command's options"},
      {"version", "", "the client's version"},
  };
  return options;
}

const std::vector<OptionSpec>& command_options() {
  static const std::vector<OptionSpec> options = {
      {"v1", "", "use the /v1 endpoints"},
      {"format", "F",
       "markdown (default), summary, html, rawHtml, links, images, screenshot,\njson, "
       "changeTracking, branding; repeatable or comma-separated"},
      {"schema", "JSON|@FILE", "JSON Schema of the json format (implies --format json)"},
      {"prompt", "TEXT", "prompt of the json format (implies --format json)"},
      {"no-main-content", "", "keep headers, navigation and footers (onlyMainContent false)"},
      {"include-tag", "SEL", "keep only matching elements (repeatable)"},
      {"exclude-tag", "SEL", "drop matching elements (repeatable)"},
      {"wait-for", "MS", "wait before capturing"},
      {"mobile", "", "mobile emulation"},
      {"proxy", "MODE", "basic, enhanced, stealth or auto"},
      {"max-age", "MS", "accept a cached copy this old"},
      {"country", "CODE", "location country (ISO code)"},
      {"content-type", "TYPE", "the file's media type (default: from its extension)"},
      {"strict", "", "refuse the whole batch when a URL is invalid (ignoreInvalidURLs false)"},
      {"max-concurrency", "N", "pages scraped at once"},
      {"no-wait", "", "print the job id and return at once"},
      {"max-wait", "SECONDS",
       "give up waiting (exit 4) and print the command that resumes; the job\nkeeps running"},
      {"poll-interval", "MS", "pause between status requests while nothing new arrives (default 500)"},
      {"limit", "N", "at most N pages"},
      {"max-depth", "N", "link hops (v1: path depth)"},
      {"include-path", "RE", "only paths matching RE (repeatable)"},
      {"exclude-path", "RE", "skip paths matching RE (repeatable)"},
      {"entire-domain", "", "also pages outside the start path"},
      {"subdomains", "", "follow subdomains"},
      {"external-links", "", "follow other sites"},
      {"ignore-robots", "", "ignore robots.txt"},
      {"sitemap", "MODE", "include, skip or only"},
      {"delay", "SECONDS", "pause between pages"},
      {"source", "S", "web, images, news (repeatable)"},
      {"category", "C", "github, research, pdf (repeatable)"},
      {"tbs", "T", "time filter, e.g. qdr:d, qdr:w, cdr:1,cd_min:1/1/2024,cd_max:12/31/2024"},
      {"location", "PLACE", "e.g. \"Berlin,Germany\""},
      {"scrape", "", "scrape every web result (markdown); --format F for other formats"},
      {"url", "URL", "start from this page (repeatable)"},
      {"max-credits", "N", "spending limit (a job that would spend more fails)"},
      {"wait", "", "wait until the job ends, with a progress bar"},
      {"documents", "", "print every document of the job (markdown or --json)"},
      {"skip", "N", "with --documents: leave out the first N documents (resuming)"},
      {"batch", "", "ID is a batch scrape (default: a crawl)"},
      {"agent", "", "ID is an agent job"},
      {"extract", "", "ID is an extract job: its state, and its data once completed"},
      {"max-urls", "N", "at most N pages or sources (v1 deep research, llms.txt)"},
      {"full", "", "llms-full.txt: every page's markdown"},
      {"search", "WORDS", "order the URLs by relevance to WORDS"},
      {"system-prompt", "TEXT", "instructions for the extraction"},
      {"sources", "", "also print which pages each field came from"},
      {"historical", "", "credits and tokens used per billing period"},
      {"by-api-key", "", "with --historical: one line per API key and period"},
      {"name", "TEXT", "the monitor's name"},
      {"cron", "EXPR", "a 5-field cron schedule, e.g. \"*/30 * * * *\""},
      {"schedule", "TEXT", "a schedule in words, e.g. \"every 30 minutes\""},
      {"timezone", "TZ", "the schedule's time zone (default UTC)"},
      {"state", "STATE", "active or paused"},
      {"offset", "N", "leave out the first N"},
      {"page-status", "S", "only pages in this status: same, new, changed, removed, error"},
      {"question", "TEXT", "paper: read the passages answering TEXT; doctor: what to ask"},
      {"intent", "TEXT", "what the related papers should be about"},
      {"rating", "R", "good, partial or bad"},
      {"note", "TEXT", "a short note with the feedback"},
      {"ttl", "SECONDS", "the session lives at most this long (30..3600, default 600)"},
      {"activity-ttl", "SECONDS", "the session ends this long after its last command (default 300)"},
      {"language", "LANG", "bash (default for browser execute), node or python"},
      {"profile", "NAME", "start from the team's named browser profile, and save the session into it"},
      {"no-save-changes", "", "with --profile: read the profile, leave it as it was"},
      {"code", "CODE", "run this code instead of a prompt"},
      {"stop", "", "end the scrape's interaction session"},
  };
  return options;
}

// The options of a page's scrape, as scrape, batch and crawl take them.
std::vector<Use> page_uses() {
  return {{"format", ""},      {"no-main-content", ""}, {"include-tag", ""},
          {"exclude-tag", ""}, {"wait-for", ""},        {"mobile", ""},
          {"proxy", ""},       {"max-age", ""},         {"country", ""}};
}

// The options of following a job to its end.
std::vector<Use> follow_uses() {
  return {{"no-wait", ""}, {"max-wait", ""}, {"poll-interval", ""}};
}

std::vector<Use> joined(std::vector<Use> first, const std::vector<Use>& then) {
  first.insert(first.end(), then.begin(), then.end());
  return first;
}

std::vector<CommandSpec> page_commands() {
  return {
      {"scrape", "URL", "scrape one page (markdown, or every --format asked for)", "",
       joined(page_uses(), {{"schema", ""}, {"prompt", ""}, {"v1", "use POST /v1/scrape"}})},
      {"parse", "FILE", "turn a local file (HTML, PDF, text, Markdown) into a document",
       "Uploads FILE (HTML, PDF, plain text or Markdown) to POST /v2/parse and prints the "
       "document\nas scrape does: markdown, or the whole document with --json.",
       {{"format", "as for scrape (screenshot, branding and changeTracking need a page)"},
        {"schema", ""},
        {"prompt", ""},
        {"no-main-content", ""},
        {"include-tag", ""},
        {"exclude-tag", ""},
        {"content-type", ""}}},
      {"batch", "URL...", "batch scrape: start, show progress, print every document",
       "The scrape options apply to every URL.",
       joined(joined(page_uses(), {{"strict", ""}, {"max-concurrency", ""}}),
              joined(follow_uses(), {{"v1", "use /v1/batch/scrape"}}))},
      {"crawl", "URL", "crawl a site: start, show progress, print every document",
       "The scrape options apply to every page.",
       joined(joined({{"limit", ""},
                      {"max-depth", ""},
                      {"include-path", ""},
                      {"exclude-path", ""},
                      {"entire-domain", ""},
                      {"subdomains", ""},
                      {"external-links", ""},
                      {"ignore-robots", ""},
                      {"sitemap", ""},
                      {"delay", ""},
                      {"max-concurrency", ""}},
                     page_uses()),
              joined(follow_uses(), {{"v1", "use /v1/crawl"}}))},
  };
}

std::vector<CommandSpec> research_commands() {
  return {
      {"search", "QUERY",
       "search the web (operators: \"exact\", -word, site:, filetype:, inurl:,\nintitle:, "
       "related:, imagesize:, larger:)",
       "",
       {{"limit", "results per source (1..100, default 5)"},
        {"source", ""},
        {"category", ""},
        {"tbs", ""},
        {"location", ""},
        {"country", ""},
        {"scrape", ""},
        {"format", "the formats of the scraped results (with --scrape)"},
        {"no-main-content", "with --scrape: keep headers, navigation and footers"},
        {"v1", "use POST /v1/search"}}},
      {"agent", "PROMPT", "let the agent research and answer", "",
       {{"url", ""},
        {"schema", "shape of the answer"},
        {"max-credits", ""},
        {"no-wait",
         "print the job id and return at once (where the service runs agents as\njobs; one that "
         "answers at once prints the answer)"},
        {"max-wait", ""},
        {"poll-interval", ""}}},
      {"map", "URL", "the site's URLs, one a line, without scraping it", "",
       {{"search", ""},
        {"sitemap", "include (default), skip or only"},
        {"subdomains", "also URLs of the site's subdomains"},
        {"limit", "at most N URLs (1..100000, default 5000)"},
        {"v1", "use POST /v1/map"}}},
      {"extract", "URL...", "structured data from pages (URL/* for a section): --prompt, --schema",
       "URL is a page, or URL/* for the pages of that section of the site (1..10).",
       {{"prompt", "what to extract"},
        {"schema", "shape of the data"},
        {"system-prompt", ""},
        {"sources", ""},
        {"external-links", "also read pages of other sites the pages link to"},
        {"no-wait", "print the job id and return; 'webdata status ID --extract' reads it"},
        {"max-wait", ""},
        {"poll-interval", ""},
        {"v1", "use /v1/extract"}}},
      {"crawl-preview", "URL PROMPT...", "the crawl options a prompt implies, without crawling",
       "Prints the crawl options the prompt implies (POST /v2/crawl/params-preview), and the\n"
       "'webdata crawl' command line that runs that crawl.",
       {}},
  };
}

/// The newer service surface: research, feedback, support, v1 jobs, browser sessions.
std::vector<CommandSpec> service_commands() {
  return {
      {"papers", "QUERY...", "search the research paper index",
       "Papers ranked by relevance (GET /v2/search/research/papers).",
       {{"limit", "at most N papers (1..500, default 40)"}}},
      {"paper", "ID", "a paper's metadata; --question: its passages answering it",
       "ID is a paperId, arxiv:ID, doi:DOI or a bare arXiv id.",
       {{"question", ""}, {"limit", "at most N passages (1..50, default 4)"}}},
      {"related", "ID [ANCHOR...]", "papers related to ID through the citation graph",
       "", {{"intent", ""}, {"limit", "at most N papers (1..500, default 40)"}}},
      {"github", "QUERY...", "search the research index's GitHub slice (readmes, issues, PRs)",
       "Repository readmes, issues and pull requests ranked by relevance\n"
       "(GET /v2/search/research/github). The service deprecates it for 'webdata developer';\n"
       "its warning is shown on stderr.",
       {{"limit", "at most N results (1..100, default 20)"}}},
      {"developer", "QUERY...", "search repositories and developer documentation",
       "", {{"limit", "at most N results (1..100, default 10)"}}},
      {"feedback", "ENDPOINT ID", "feedback on a scrape, parse, map or search job",
       "", {{"rating", ""}, {"note", ""}}},
      {"doctor", "ID", "ask about a job: an answer from its state (POST /v2/support/ask)",
       "", {{"question", ""}}},
      {"deep-research", "QUERY...", "research a query in rounds of searches (v1): the final analysis",
       "Runs a v1 deep research job (POST /v1/deep-research) and prints its final analysis\n"
       "(markdown); --json prints its status, analysis and source URLs.",
       {{"max-depth", "rounds of searches at most (1..10, default 7)"},
        {"max-urls", "sources at most (1..1000, default 20)"},
        {"no-wait", "print the job id and return"},
        {"max-wait", ""},
        {"poll-interval", ""}}},
      {"llmstxt", "URL", "the site's llms.txt, made from its pages (v1)",
       "Runs a v1 llms.txt generation (POST /v1/llmstxt) and prints the llms.txt.",
       {{"max-urls", "pages at most (1..100, default 10)"},
        {"full", "print llms-full.txt (every page's markdown) instead"},
        {"no-wait", "print the job id and return"},
        {"max-wait", ""},
        {"poll-interval", ""}}},
      {"browser", "create|list|execute|delete ...", "browser sessions driven by code",
       "webdata browser create [--ttl S] [--activity-ttl S] [--profile NAME [--no-save-changes]];\n"
       "webdata browser list [active|destroyed];\n"
       "webdata browser execute ID CODE... [--language L]; webdata browser delete ID.\n"
       "Code that fails exits 5 with its stderr on stderr.",
       {{"ttl", ""}, {"activity-ttl", ""}, {"profile", ""}, {"no-save-changes", ""}, {"language", ""}}},
      {"interact", "SCRAPE_ID [PROMPT...]", "a prompt or code on the page of an earlier scrape",
       "Acts on the page of the scrape (its metadata.scrapeId); --stop ends the session.",
       {{"code", ""}, {"language", ""}, {"stop", ""}}},
  };
}

std::vector<CommandSpec> job_commands() {
  return {
      {"status", "ID",
       "state and counters of a crawl (--batch: a batch scrape, --agent: an\nagent job, "
       "--extract: an extract job)",
       "",
       {{"batch", ""},
        {"agent", "ID is an agent job (with --wait: print its answer once it ends)"},
        {"extract", ""},
        {"scrape",
         "ID is a past scrape (its metadata.scrapeId, within 24 hours): its\ndocument, printed "
         "as scrape prints one (--json: the whole document)"},
        {"wait", ""},
        {"documents", ""},
        {"skip", ""},
        {"max-wait", ""},
        {"poll-interval", ""},
        {"v1", ""}}},
      {"cancel", "ID", "cancel a crawl (--batch: a batch scrape, --agent: an agent job)", "",
       {{"batch", ""}, {"agent", ""}, {"v1", ""}}},
      {"errors", "ID", "failed pages and robots.txt blocks of a crawl (--batch: a batch scrape)",
       "", {{"batch", ""}, {"v1", ""}}},
      {"active", "", "the team's running crawls", "", {{"v1", ""}}},
      {"usage", "", "the team's remaining credits and extract tokens (--historical)", "",
       {{"historical", ""}, {"by-api-key", ""}, {"v1", "use the /v1/team endpoints"}}},
      {"queue", "", "the team's queued and running jobs, and its concurrency", "", {{"v1", ""}}},
      {"monitor", "ACTION [ID [CHECK_ID]]",
       "monitors: create|list|get|update|run|checks|check|delete",
       "create --name N --cron E|--schedule T --url U...; list; get ID; update ID [--name]\n"
       "[--state active|paused] [--cron|--schedule|--timezone] [--url U...]; run ID [--wait];\n"
       "checks ID; check ID CHECK_ID [--limit N --skip N --page-status S]; delete ID.",
       {{"name", ""}, {"cron", ""}, {"schedule", ""}, {"timezone", ""}, {"url", "a page to check (repeatable)"},
        {"state", ""}, {"wait", "wait until the check ends"}, {"limit", "at most N"},
        {"offset", ""}, {"skip", "leave out the first N pages"}, {"page-status", ""},
        {"max-wait", ""}, {"poll-interval", ""}}},
  };
}

const std::vector<CommandSpec>& commands() {
  static const std::vector<CommandSpec> all = [] {
    std::vector<CommandSpec> out = page_commands();
    for (auto more : {research_commands(), service_commands(), job_commands()}) {
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }();
  return all;
}

const CommandSpec* find_command(const std::string& name) {
  for (const auto& command : commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

const OptionSpec* find_option(const std::string& name) {
  for (const auto* table : {&global_options(), &command_options()}) {
    for (const auto& option : *table) {
      if (option.name == name) return &option;
    }
  }
  return nullptr;
}

bool is_global(const std::string& option) {
  const auto& globals = global_options();
  return std::any_of(globals.begin(), globals.end(),
                     [&](const OptionSpec& o) { return o.name == option; });
}

bool applies(const std::string& option, const CommandSpec& command) {
  return is_global(option) ||
         std::any_of(command.options.begin(), command.options.end(),
                     [&](const Use& use) { return use.option == option; });
}

// The names a mistyped option is compared with: those of `command` first (when it is known),
// then every other.
std::vector<std::vector<std::string>> option_candidates(const CommandSpec* command) {
  std::vector<std::string> near;
  std::vector<std::string> far;
  for (const auto* table : {&global_options(), &command_options()}) {
    for (const auto& option : *table) {
      const bool close = command == nullptr || applies(option.name, *command);
      (close ? near : far).push_back("--" + option.name);
    }
  }
  return {near, far};
}

// How far a mistyped name may be from a known one to be suggested: one edit for a short name
// ("scrap"), two for a longer one ("serach"); "fetch" suggests nothing ("batch" is two away).
std::size_t suggestion_distance(const std::string& name) {
  return name.size() <= 5 ? 1 : 2;
}

std::string with_suggestion(std::string message, const std::optional<std::string>& nearest) {
  if (nearest) message += " (did you mean '" + *nearest + "'?)";
  return message;
}

UsageError unknown_command(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& command : commands()) names.push_back(command.name);
  return UsageError(with_suggestion("unknown command '" + name + "'",
                                    nearest_name(name, names, suggestion_distance(name))));
}

// "--limt=3" is refused as '--limt', with the nearest option of the command when there is one.
UsageError unknown_option(const std::string& written, const CommandSpec* command) {
  const std::string name = written.substr(0, written.find('='));
  std::optional<std::string> nearest;
  if (name.rfind("--", 0) == 0) {
    const std::size_t distance = suggestion_distance(name.substr(2));
    for (const auto& candidates : option_candidates(command)) {
      nearest = nearest_name(name, candidates, distance);
      if (nearest) break;
    }
  }
  return UsageError(with_suggestion("unknown option '" + name + "'", nearest));
}

// ---- help --------------------------------------------------------------------------------

constexpr std::size_t kHelpColumn = 24;

// "  NAME  help", the help in a column from kHelpColumn; its '\n's continue in that column.
std::string help_line(const std::string& name, const std::string& help) {
  std::string line = "  " + name;
  line += line.size() + 2 <= kHelpColumn ? std::string(kHelpColumn - line.size(), ' ')
                                         : "\n" + std::string(kHelpColumn, ' ');
  for (const char ch : help) {
    line += ch;
    if (ch == '\n') line += std::string(kHelpColumn, ' ');
  }
  return line + "\n";
}

std::string option_line(const OptionSpec& option, const std::string& help) {
  std::string name = option.name == "help" ? "-h, --help" : "--" + option.name;
  if (!option.value.empty()) name += " " + option.value;
  return help_line(name, help.empty() ? option.help : help);
}

std::string global_help() {
  std::string text;
  for (const auto& option : global_options()) text += option_line(option, "");
  return text;
}

const char* const kExitCodes = R"(Exit codes:
  0 success            1 API error (the service refused)   2 usage error
  3 transport error    4 timeout                            5 job failed or was cancelled
  6 unexpected answer  7 output could not be written
  8 the page answered an error status (scrape: its metadata.statusCode is 400 or more)
)";

/// The command line as CLI11 reads it: every option of every command (an option may come before
/// the command), and the words that are not options, the command first.
struct Parser {
  CLI::App app{"", "webdata"};
  std::map<const CLI::Option*, const OptionSpec*> options;
  std::vector<std::string> given;  // the words, for CLI11 to take them as positionals
  CLI::Option* words = nullptr;

  Parser() {
    app.set_help_flag();  // -h and --help are an option of the table like any other
    for (const auto* table : {&global_options(), &command_options()}) {
      for (const auto& spec : *table) add(spec);
    }
    words = app.add_option("words", given);
  }

  void add(const OptionSpec& spec) {
    const std::string names = spec.name == "help" ? "-h,--help" : "--" + spec.name;
    CLI::Option* option = spec.value.empty() ? app.add_flag(names) : app.add_option(names);
    option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    if (!spec.value.empty()) option->expected(1);
    options.emplace(option, &spec);
  }

  /// The command named by the first word, if it is one (for suggestions while refusing).
  const CommandSpec* command() const {
    const auto& given = words->results();
    return given.empty() ? nullptr : find_command(given.front());
  }
};

// CLI11's refusal in the client's words: an argument no option takes is an unknown option, an
// option without its value says so.
UsageError refusal(const CLI::ParseError& error, const Parser& parser) {
  const auto extra = parser.app.remaining();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr && !extra.empty()) {
    return unknown_option(extra.front(), parser.command());
  }
  const std::string text = error.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    return UsageError(text.substr(0, text.find(':')) + " needs a value");  // "--limit: 1 required"
  }
  return UsageError(text);
}

// The options as given, into `args`; the names in command-line order, for the applicability check.
std::vector<std::string> take_options(const Parser& parser, Args& args) {
  std::vector<std::string> order;
  std::map<const CLI::Option*, std::size_t> taken;
  for (const CLI::Option* option : parser.app.parse_order()) {
    const auto bound = parser.options.find(option);
    if (bound == parser.options.end()) continue;
    const OptionSpec& spec = *bound->second;
    const std::string& value = option->results().at(taken[option]++);
    if (spec.value.empty()) {
      if (value != "true") throw UsageError("--" + spec.name + " takes no value");
      args.flags[spec.name] = true;
    } else {
      args.values[spec.name].push_back(value);
    }
    order.push_back(spec.name);
  }
  return order;
}

// CLI11 reads '--format=' as '--format' without its value and takes the next argument instead;
// written as '--format ""' it is the empty value the user gave (for an option that takes one).
std::vector<std::string> with_empty_values_split(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  bool options = true;
  for (const auto& arg : argv) {
    if (arg == "--") options = false;
    const OptionSpec* spec = nullptr;
    if (options && arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.find('=') == arg.size() - 1) {
      spec = find_option(arg.substr(2, arg.size() - 3));
    }
    if (spec != nullptr && spec->value.empty()) throw UsageError("--" + spec->name + " takes no value");
    if (spec != nullptr) {
      out.push_back(arg.substr(0, arg.size() - 1));
      out.emplace_back();
    } else {
      out.push_back(arg);
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& name,
                                        const std::vector<std::string>& known,
                                        std::size_t max_distance) {
  std::optional<std::string> nearest;
  std::size_t best = max_distance + 1;
  for (const auto& candidate : known) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best) {
      best = d;
      nearest = candidate;
    }
  }
  return nearest;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string usage() {
  std::string text =
      "Usage: webdata [global options] COMMAND [arguments] [options]\n\n"
      "A command-line client for the web data extraction API (v2; --v1 for the v1 "
      "endpoints).\n\nCommands:\n";
  for (const auto& command : commands()) {
    text += help_line(command.name + (command.arguments.empty() ? "" : " " + command.arguments),
                      command.summary);
  }
  return text + "\nGlobal options:\n" + global_help() + "\n" + kExitCodes;
}

std::string command_usage(const std::string& name) {
  const CommandSpec* command = find_command(name);
  if (command == nullptr) return usage();
  std::string text = "Usage: webdata " + command->name +
                     (command->arguments.empty() ? "" : " " + command->arguments) +
                     (command->options.empty() ? "" : " [options]") + "\n";
  if (!command->about.empty()) text += "\n" + command->about + "\n";
  if (!command->options.empty()) text += "\nOptions:\n";
  for (const auto& use : command->options) {
    text += option_line(*find_option(use.option), use.help);
  }
  return text + "\nGlobal options:\n" + global_help() + "\n" + kExitCodes;
}
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
  Parser parser;
  const auto split = with_empty_values_split(argv);
  std::vector<std::string> reversed(split.rbegin(), split.rend());  // CLI11 reads from the back
  try {
    parser.app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw refusal(e, parser);
  }
  Args args;
  const std::vector<std::string> order = take_options(parser, args);
  args.positional = parser.words->results();
  if (!args.positional.empty()) {
    args.command = args.positional.front();
    args.positional.erase(args.positional.begin());
    if (find_command(args.command) == nullptr) throw unknown_command(args.command);
  }
  if (args.flag("help") || args.flag("version")) return args;
  if (args.command.empty()) throw UsageError("no command given");
  const CommandSpec& command = *find_command(args.command);
  for (const auto& name : order) {
    if (!applies(name, command)) {
      throw UsageError("'--" + name + "' does not apply to '" + args.command + "'");
    }
  }
  return args;
}

}  // namespace webdata::cli
