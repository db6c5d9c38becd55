// Code and prompts of browser sessions as the scrape pipeline's actions
// (docs/reference/browser.md#code and #prompts). Deterministic: the same code on the same page
// prints the same.

#include <cctype>
#include <regex>

#include <nlohmann/json.hpp>

#include "formats/actions.hpp"
#include "scrape/browser_sessions.hpp"

namespace webdata::mock::scrape {

using nlohmann::json;

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// Words of a command line; '...' and "..." quote (with \ escapes in "...").
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    std::string word;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) {
      const char quote = line[i];
      if (quote != '"' && quote != '\'') {
        word += line[i++];
        continue;
      }
      for (++i; i < line.size() && line[i] != quote; ++i) {
        if (quote == '"' && line[i] == '\\' && i + 1 < line.size()) ++i;
        word += line[i];
      }
      ++i;
    }
    out.push_back(word);
  }
  return out;
}

/// An argument list with its separating commas (those outside quotes) as spaces.
std::string unlisted(std::string args) {
  char quote = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (quote != 0) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'' || c == '`') {
      quote = c;
      if (c == '`') args[i] = '"';
    } else if (c == ',') {
      args[i] = ' ';
    }
  }
  for (auto& c : args) {
    if (c == '`') c = '"';
  }
  return args;
}

/// `page.method(args)` (Playwright, node or python), `print(...)` / `console.log(...)` around it,
/// as the command line it stands for; the line itself when it is not such a call.
std::string as_command(std::string line) {
  static const std::regex wrapper(R"(^(?:print|console\.log)\s*\((.*)\)$)");
  static const std::regex call(
      R"(^(?:(?:const|let|var)\s+\w+\s*=\s*|\w+\s*=\s*)?(?:await\s+)?page\.([\w.]+)\s*(?:\((.*)\))?$)");
  std::smatch m;
  if (std::regex_match(line, m, wrapper)) line = trimmed(m[1].str());
  if (!std::regex_match(line, m, call)) return line;
  static const std::map<std::string, std::string> verbs = {
      {"goto", "open"},       {"click", "click"},         {"fill", "type"},
      {"type", "type"},       {"keyboard.press", "press"}, {"title", "get title"},
      {"url", "get url"},     {"content", "get html"},     {"evaluate", "eval"},
      {"screenshot", "screenshot"}, {"waitForTimeout", "wait"}, {"press", "click-press"}};
  const auto verb = verbs.find(m[1].str());
  if (verb == verbs.end()) return line;
  std::string out = verb->second;
  return out + " " + unlisted(m[2].str());
}

/// One command as an action, and what it prints.
enum class Prints { nothing, javascript, html, markdown, screenshot };
struct Step {
  json action;
  Prints prints = Prints::nothing;
};

std::optional<std::vector<Step>> steps_of(const std::vector<std::string>& w) {
  const std::string& verb = w[0];
  const auto arg = [&](std::size_t i) { return i < w.size() ? w[i] : std::string(); };
  const auto js = [](const std::string& script) {
    return Step{{{"type", "executeJavascript"}, {"script", script}}, Prints::javascript};
  };
  if (verb == "click" && w.size() >= 2) return std::vector<Step>{{{{"type", "click"}, {"selector", w[1]}}}};
  if (verb == "type" && w.size() >= 3) {
    return std::vector<Step>{{{{"type", "click"}, {"selector", w[1]}}},
                             {{{"type", "write"}, {"text", w[2]}}}};
  }
  if (verb == "click-press" && w.size() >= 3) {
    return std::vector<Step>{{{{"type", "click"}, {"selector", w[1]}}},
                             {{{"type", "press"}, {"key", w[2]}}}};
  }
  if (verb == "press" && w.size() >= 2) return std::vector<Step>{{{{"type", "press"}, {"key", w[1]}}}};
  if (verb == "scroll") {
    return std::vector<Step>{{{{"type", "scroll"}, {"direction", arg(1) == "up" ? "up" : "down"}}}};
  }
  if (verb == "wait" && w.size() >= 2 && std::isdigit(static_cast<unsigned char>(w[1][0]))) {
    return std::vector<Step>{{{{"type", "wait"}, {"milliseconds", std::stoll(w[1])}}}};
  }
  if (verb == "eval" && w.size() >= 2) return std::vector<Step>{js(w[1])};
  if (verb == "title" || (verb == "get" && arg(1) == "title")) return std::vector<Step>{js("document.title")};
  if (verb == "url" || (verb == "get" && arg(1) == "url")) return std::vector<Step>{js("document.URL")};
  if (verb == "get" && arg(1) == "html") return std::vector<Step>{{{{"type", "scrape"}}, Prints::html}};
  if (verb == "snapshot" || (verb == "get" && arg(1) == "text")) {
    return std::vector<Step>{{{{"type", "scrape"}}, Prints::markdown}};
  }
  if (verb == "screenshot") return std::vector<Step>{{{{"type", "screenshot"}}, Prints::screenshot}};
  return std::nullopt;
}

content::Page blank_page() {
  return content::Page{"about:blank", "text/html", 200,
                       "<html><head><title></title></head><body></body></html>"};
}

std::string markdown_of(const std::string& url, const std::string& html) {
  return content::Document::parse(content::Page{url, "text/html", 200, html})
      .markdown(content::Options{});
}

std::string javascript_text(const json& value) {
  const auto found = value.find("value");
  if (found == value.end()) return "undefined";
  const json& v = *found;
  return v.is_string() ? v.get<std::string>() : v.dump();
}

/// The text each printing step of a batch printed, from the runner's result.
void collect(const std::vector<Step>& batch, const json& result, std::size_t ran,
             BrowserRun& out) {
  std::size_t js = 0, scrapes = 0, shots = 0;
  for (std::size_t i = 0; i < batch.size() && i < ran; ++i) {
    std::string text;
    switch (batch[i].prints) {
      case Prints::nothing: continue;
      case Prints::javascript: text = javascript_text(result["javascriptReturns"][js++]); break;
      case Prints::html: text = result["scrapes"][scrapes++]["html"].get<std::string>(); break;
      case Prints::markdown: {
        const json& s = result["scrapes"][scrapes++];
        text = markdown_of(s["url"].get<std::string>(), s["html"].get<std::string>());
        break;
      }
      case Prints::screenshot:
        text = result["screenshots"][shots++].get<std::string>();
        break;
    }
    out.result = text;
    out.stdout_text += (batch[i].prints == Prints::screenshot ? "Screenshot taken" : text) + "\n";
  }
}

/// Runs a batch of steps on `page`; false (stderr set) when an action failed.
bool run_batch(std::vector<Step>& batch, content::Page& page, const PageFetcher& navigate,
               BrowserRun& out) {
  if (batch.empty()) return true;
  json actions = json::array();
  for (const auto& step : batch) actions.push_back(step.action);
  formats::ActionSettings settings;
  settings.max_actions = 1000;
  const formats::ActionRunner runner(navigate, settings);
  formats::ActionsOutcome ran = runner.run(page, actions);
  collect(batch, ran.result, ran.error ? ran.error->index : batch.size(), out);
  batch.clear();
  if (ran.error) {
    out.stderr_text += ran.error->message + "\n";
    out.exit_code = 1;
    return false;
  }
  page = std::move(ran.final_page);
  return true;
}

bool fail(BrowserRun& out, const std::string& message) {
  out.stderr_text += message + "\n";
  out.exit_code = 1;
  return false;
}

/// One line of code: a navigation now, or steps added to the batch.
bool run_line(const std::string& raw, std::size_t number, std::vector<Step>& batch,
              std::optional<content::Page>& page, const PageFetcher& navigate, BrowserRun& out) {
  std::string line = trimmed(raw);
  if (!line.empty() && line.back() == ';') line = trimmed(line.substr(0, line.size() - 1));
  if (line.empty() || line[0] == '#' || starts_with(line, "//")) return true;
  if (starts_with(line, "agent-browser ")) line = trimmed(line.substr(14));
  const auto w = words(as_command(line));
  const std::string where = "line " + std::to_string(number) + ": ";
  if (w.empty()) return true;
  if ((w[0] == "open" || w[0] == "goto" || w[0] == "navigate") && w.size() >= 2) {
    if (!run_batch(batch, *page, navigate, out)) return false;
    auto next = navigate(w[1]);
    if (!next) return fail(out, where + "could not open " + w[1]);
    page = std::move(next);
    return true;
  }
  auto steps = steps_of(w);
  if (!steps) return fail(out, where + "the mock's browser does not run: " + line);
  for (auto& step : *steps) batch.push_back(std::move(step));
  return true;
}

}  // namespace

BrowserRun run_browser_code(const std::string& code, std::optional<content::Page>& page,
                            const PageFetcher& navigate) {
  BrowserRun out;
  if (!page) page = blank_page();
  std::vector<Step> batch;
  std::size_t number = 0;
  std::size_t start = 0;
  while (start <= code.size()) {
    auto end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    if (!run_line(code.substr(start, end - start), ++number, batch, page, navigate, out)) {
      return out;
    }
    start = end + 1;
  }
  run_batch(batch, *page, navigate, out);
  return out;
}

std::string describe_page(const content::Page& page) {
  const auto document = content::Document::parse(page);
  std::string markdown = document.markdown(content::Options{});
  if (markdown.size() > 2000) markdown = markdown.substr(0, 2000) + "...";
  return "Page: " + document.title() + "\nURL: " + page.url + "\n\n" + markdown;
}

}  // namespace webdata::mock::scrape
