#include "jobs/crawl_prompt.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace webdata::mock::jobs {

namespace {

using nlohmann::json;

/// Lower-case words; a word keeps '/', '-' and '_' so that "/docs/api" stays one word.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (const char raw : text) {
    const auto c = static_cast<unsigned char>(raw);
    if (std::isalnum(c) || raw == '/' || raw == '-' || raw == '_') {
      word += static_cast<char>(std::tolower(c));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool is_number(const std::string& w) {
  return !w.empty() && w.size() <= 9 && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

bool is_exclusion(const std::string& w) {
  static const char* const kWords[] = {"except", "exclude", "excluding", "skip", "skipping",
                                       "without", "not", "no", "ignore", "ignoring", "avoid"};
  return std::any_of(std::begin(kWords), std::end(kWords), [&w](const char* k) { return w == k; });
}

/// Section words and the path each one means.
const std::map<std::string, std::string>& sections() {
  static const std::map<std::string, std::string> kSections = {
      {"blog", "blog"},         {"blogs", "blog"},         {"posts", "blog"},
      {"docs", "docs"},         {"documentation", "docs"}, {"news", "news"},
      {"product", "products"},  {"products", "products"},  {"pricing", "pricing"},
      {"careers", "careers"},   {"jobs", "careers"},       {"about", "about"},
      {"help", "help"},         {"support", "help"},       {"api", "api"},
      {"guides", "guides"},     {"guide", "guides"},       {"tutorials", "tutorials"},
      {"changelog", "changelog"}};
  return kSections;
}

std::string path_pattern(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.front() != '/') path = "/" + path;
  return "^" + path + "(/.*)?$";
}

void add_unique(json& array, const std::string& value) {
  for (const auto& v : array) {
    if (v == value) return;
  }
  array.push_back(value);
}

}  // namespace

json crawl_options_from_prompt(const std::string& prompt) {
  const auto w = words(prompt);
  json out = json::object();
  json include = json::array();
  json exclude = json::array();
  bool excluding = false;  // a word of exclusion was seen in this clause
  const auto at = [&w](std::size_t i) -> std::string { return i < w.size() ? w[i] : ""; };
  const auto any = [&w](std::initializer_list<const char*> list) {
    return std::any_of(w.begin(), w.end(), [&list](const std::string& word) {
      return std::any_of(list.begin(), list.end(), [&word](const char* k) { return word == k; });
    });
  };

  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& word = w[i];
    if (is_exclusion(word)) excluding = true;
    if (word == "and" || word == "but" || word == "only" || word == "include" ||
        word == "including") {
      if (word != "and") excluding = false;
    }
    if (is_number(word)) {
      const long n = std::stol(word);
      const std::string next = at(i + 1);
      const std::string prev = at(i - 1);
      if (next == "levels" || next == "level" || prev == "depth") {
        out["maxDiscoveryDepth"] = n;
      } else if (next == "pages" || next == "page" || next == "urls" || prev == "limit" ||
                 (prev == "to" && at(i - 2) == "up") || (prev == "most" && at(i - 2) == "at") ||
                 prev == "first" || prev == "max" || prev == "maximum") {
        if (n > 0) out["limit"] = n;
      }
      continue;
    }
    if (word.size() > 1 && word.front() == '/') {
      add_unique(excluding ? exclude : include, path_pattern(word));
      continue;
    }
    const auto section = sections().find(word);
    if (section != sections().end() && word != "sitemap") {
      add_unique(excluding ? exclude : include, path_pattern(section->second));
    }
  }
  if (!include.empty()) out["includePaths"] = include;
  if (!exclude.empty()) out["excludePaths"] = exclude;

  const std::string text = [&w] {
    std::string t;
    for (const auto& x : w) t += " " + x;
    return t + " ";
  }();
  const auto has = [&text](const char* phrase) {
    return text.find(std::string(" ") + phrase + " ") != std::string::npos;
  };
  if (any({"subdomains", "subdomain"})) out["allowSubdomains"] = true;
  if (any({"external"})) out["allowExternalLinks"] = true;
  if (has("entire site") || has("whole site") || has("entire domain") || has("whole domain") ||
      has("entire website") || has("whole website")) {
    out["crawlEntireDomain"] = true;
  }
  if (has("sitemap only") || has("only the sitemap") || has("only sitemap")) {
    out["sitemap"] = "only";
  } else if (has("skip sitemap") || has("skip the sitemap") || has("ignore sitemap") ||
             has("ignore the sitemap") || has("no sitemap") || has("without sitemap") ||
             has("without the sitemap")) {
    out["sitemap"] = "skip";
  }
  if (has("ignore robots") || has("ignore robots txt") || has("ignore the robots")) {
    out["ignoreRobotsTxt"] = true;
  }
  if (has("query parameters") || has("query params")) {
    out["ignoreQueryParameters"] = has("ignore query parameters") || has("ignore query params") ||
                                   has("ignoring query parameters") ||
                                   has("without query parameters");
  }
  return out;
}

}  // namespace webdata::mock::jobs
