// Interact prompts in words as browser commands (docs/reference/browser.md#prompts): a small
// fixed grammar, so the same prompt on the same page always does the same.

#include <cctype>
#include <regex>

#include "scrape/browser_sessions.hpp"

namespace webdata::mock::scrape {

namespace {

std::string lowered(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string unquoted(std::string text) {
  while (!text.empty() && (text.back() == '.' || text.back() == ' ')) text.pop_back();
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    return text.substr(1, text.size() - 2);
  }
  return text;
}

std::string as_word(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool selector_like(const std::string& text) {
  return !text.empty() && (text[0] == '#' || text[0] == '.' || text[0] == '[' ||
                           text.find('[') != std::string::npos);
}

/// The clauses of a prompt: split at new lines, ';', ", then", " then" and " and then".
std::vector<std::string> clauses(const std::string& prompt) {
  static const std::regex separator(R"(\s*(?:\n|;|,\s*and then\s+|,\s*then\s+|\s+and then\s+|\s+then\s+)\s*)",
                                    std::regex::icase);
  std::vector<std::string> out;
  for (std::sregex_token_iterator it(prompt.begin(), prompt.end(), separator, -1), end;
       it != end; ++it) {
    std::string clause = it->str();
    while (!clause.empty() && std::isspace(static_cast<unsigned char>(clause.front()))) {
      clause.erase(0, 1);
    }
    if (!clause.empty()) out.push_back(clause);
  }
  return out;
}

/// Visible text of an HTML fragment, tags dropped and spaces collapsed, lowercased.
std::string text_of(const std::string& html) {
  std::string out;
  bool in_tag = false;
  for (const char c : html) {
    if (c == '<') in_tag = true;
    else if (c == '>') in_tag = false;
    else if (!in_tag && !(std::isspace(static_cast<unsigned char>(c)) &&
                          (out.empty() || out.back() == ' '))) {
      out += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    }
  }
  return lowered(out);
}

/// A selector for the first link (by href) or button (by id) whose text contains `wanted`.
std::optional<std::string> element_with_text(const std::string& body, const std::string& wanted) {
  static const std::regex element(R"(<(a|button)\b([^>]*)>)", std::regex::icase);
  static const std::regex href(R"re(\b(href|id)\s*=\s*(?:"([^"]*)"|'([^']*)'))re",
                               std::regex::icase);
  const std::string lower_body = lowered(body);
  const std::string target = lowered(wanted);
  for (std::sregex_iterator it(body.begin(), body.end(), element), end; it != end; ++it) {
    const std::string tag = lowered((*it)[1].str());
    const auto open_end = static_cast<std::size_t>(it->position() + it->length());
    const auto close = lower_body.find("</" + tag, open_end);
    if (close == std::string::npos) continue;
    if (text_of(body.substr(open_end, close - open_end)).find(target) == std::string::npos) {
      continue;
    }
    const std::string attributes = (*it)[2].str();
    for (std::sregex_iterator a(attributes.begin(), attributes.end(), href); a != end; ++a) {
      const std::string value = (*a)[2].matched ? (*a)[2].str() : (*a)[3].str();
      if (lowered((*a)[1].str()) == "href" && tag == "a") return "a[href=\"" + value + "\"]";
      if (lowered((*a)[1].str()) == "id") return "#" + value;
    }
  }
  return std::nullopt;
}

std::optional<std::string> click_line(const std::string& target, const content::Page* page,
                                      std::string& why) {
  if (selector_like(target)) return "click " + as_word(target);
  if (page != nullptr) {
    if (auto selector = element_with_text(page->body, target)) return "click " + as_word(*selector);
  }
  why = "no link or button on the page has the text \"" + target + "\"";
  return std::nullopt;
}

/// One clause as a command line; nullopt (why set) when it is not understood.
std::optional<std::string> clause_line(const std::string& clause, const content::Page* page,
                                       std::string& why) {
  static const std::regex go(R"(^(?:go to|open|navigate to|visit)\s+(.+)$)", std::regex::icase);
  static const std::regex click(R"(^click(?:\s+on)?(?:\s+the)?\s+(.+?)(?:\s+(?:link|button))?$)",
                                std::regex::icase);
  static const std::regex type(R"(^(?:type|enter|write)\s+(.+)\s+(?:into|in)\s+(?:the\s+)?(.+)$)",
                               std::regex::icase);
  static const std::regex press(R"(^press\s+(?:the\s+)?(\w+)(?:\s+key)?$)", std::regex::icase);
  static const std::regex scroll(R"(^scroll(?:\s+(up|down))?.*$)", std::regex::icase);
  static const std::regex wait(R"(^wait\s+(\d+)\s*(ms|milliseconds?|s|seconds?)?$)",
                               std::regex::icase);
  static const std::regex shot(R"(^(?:take\s+a\s+)?screenshot.*$)", std::regex::icase);
  std::smatch m;
  const std::string c = unquoted(clause);
  if (std::regex_match(c, m, go)) return "open " + as_word(unquoted(m[1].str()));
  if (std::regex_match(c, m, type)) {
    const std::string field = unquoted(m[2].str());
    const std::string selector = selector_like(field) ? field : "[name=\"" + field + "\"]";
    return "type " + as_word(selector) + " " + as_word(unquoted(m[1].str()));
  }
  if (std::regex_match(c, m, click)) return click_line(unquoted(m[1].str()), page, why);
  if (std::regex_match(c, m, press)) return "press " + m[1].str();
  if (std::regex_match(c, m, scroll)) return "scroll " + (m[1].matched ? lowered(m[1].str()) : "down");
  if (std::regex_match(c, m, wait)) {
    const long long n = std::stoll(m[1].str());
    const bool seconds = m[2].matched && lowered(m[2].str())[0] == 's';
    return "wait " + std::to_string(seconds ? n * 1000 : n);
  }
  if (std::regex_match(c, m, shot)) return std::string("screenshot");
  why = "the mock does not understand \"" + clause + "\"";
  return std::nullopt;
}

}  // namespace

BrowserRun run_browser_prompt(const std::string& prompt, std::optional<content::Page>& page,
                              const PageFetcher& navigate) {
  BrowserRun out;
  for (const auto& clause : clauses(prompt)) {
    std::string why;
    const auto line = clause_line(clause, page ? &*page : nullptr, why);
    if (!line) {
      out.stderr_text += why + "\n";
      out.exit_code = 1;
      return out;
    }
    const BrowserRun ran = run_browser_code(*line, page, navigate);
    out.stdout_text += ran.stdout_text;
    out.stderr_text += ran.stderr_text;
    if (!ran.result.empty()) out.result = ran.result;
    if (ran.exit_code != 0) {
      out.exit_code = ran.exit_code;
      return out;
    }
  }
  if (page) out.result = describe_page(*page);
  return out;
}

}  // namespace webdata::mock::scrape
