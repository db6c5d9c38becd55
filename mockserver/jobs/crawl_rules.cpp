#include "jobs/crawl_rules.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace webdata::mock::jobs {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string strip_www(const std::string& host) {
  return host.rfind("www.", 0) == 0 ? host.substr(4) : host;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// robots.txt

RobotsTxt RobotsTxt::parse(const std::string& text, const std::string& user_agent) {
  RobotsTxt out;
  struct Group {
    std::vector<std::string> agents;
    std::vector<Rule> rules;
  };
  std::vector<Group> groups;
  bool in_agents = false;  // consecutive User-agent lines open one group
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = lower(trim(line.substr(0, colon)));
    const std::string value = trim(line.substr(colon + 1));
    if (key == "user-agent") {
      if (!in_agents) groups.emplace_back();
      groups.back().agents.push_back(lower(value));
      in_agents = true;
    } else if (key == "allow" || key == "disallow") {
      in_agents = false;
      if (groups.empty()) continue;  // rules before any User-agent line are ignored
      if (key == "disallow" && value.empty()) continue;  // "Disallow:" allows everything
      groups.back().rules.push_back(Rule{value, key == "allow"});
    } else if (key == "sitemap") {
      if (!value.empty()) out.sitemaps_.push_back(value);
    } else {
      in_agents = false;
    }
  }
  const std::string agent = lower(user_agent);
  const Group* chosen = nullptr;
  std::size_t best = 0;
  for (const auto& group : groups) {
    for (const auto& name : group.agents) {
      if (name != "*" && !name.empty() && agent.find(name) != std::string::npos &&
          name.size() > best) {
        chosen = &group;
        best = name.size();
      }
    }
  }
  std::vector<Rule> rules;
  if (chosen != nullptr) {
    rules = chosen->rules;
  } else {
    // Every group that names `*` applies (RFC 9309 merges groups for the same agent).
    for (const auto& group : groups) {
      if (std::find(group.agents.begin(), group.agents.end(), "*") != group.agents.end()) {
        rules.insert(rules.end(), group.rules.begin(), group.rules.end());
      }
    }
  }
  out.rules_ = std::move(rules);
  return out;
}

bool RobotsTxt::matches(const std::string& pattern, const std::string& path) {
  // Iterative wildcard match: `*` any run, a final `$` anchors the end, else a prefix match.
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  const std::string p = anchored ? pattern.substr(0, pattern.size() - 1) : pattern;
  std::size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
  while (si < path.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (pi < p.size() && p[pi] == path[si]) {
      ++pi;
      ++si;
    } else if (pi == p.size() && !anchored) {
      return true;  // the pattern is a prefix of the rest
    } else if (star != std::string::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

bool RobotsTxt::allowed(const std::string& path_and_query) const {
  const Rule* best = nullptr;
  for (const auto& rule : rules_) {
    if (!matches(rule.pattern, path_and_query)) continue;
    if (best == nullptr || rule.pattern.size() > best->pattern.size() ||
        (rule.pattern.size() == best->pattern.size() && rule.allow && !best->allow)) {
      best = &rule;
    }
  }
  return best == nullptr || best->allow;
}

// ---------------------------------------------------------------------------------------------
// scope

std::optional<std::string> check_patterns(const std::vector<std::string>& patterns) {
  for (const auto& pattern : patterns) {
    try {
      std::regex re(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return "invalid regular expression '" + pattern + "': " + e.what();
    }
  }
  return std::nullopt;
}

Scope::Scope(const Url& start, ScopeOptions options)
    : start_(start), options_(std::move(options)), base_host_(strip_www(start.host)) {
  base_path_ = start.path;
  for (const auto& p : options_.include_paths) {
    if (auto bad = check_patterns({p})) throw std::invalid_argument(*bad);
    include_.emplace_back(p, std::regex::ECMAScript);
  }
  for (const auto& p : options_.exclude_paths) {
    if (auto bad = check_patterns({p})) throw std::invalid_argument(*bad);
    exclude_.emplace_back(p, std::regex::ECMAScript);
  }
}

bool Scope::host_allowed(const std::string& host) const {
  if (options_.allow_external) return true;
  const std::string bare = strip_www(host);
  if (bare == base_host_) return true;
  return options_.allow_subdomains && ends_with(bare, "." + base_host_);
}

bool Scope::contains(const Url& url) const {
  if (url.without_fragment() == start_.without_fragment()) return true;
  if (url.scheme != "http" && url.scheme != "https") return false;
  if (!host_allowed(url.host)) return false;
  const bool same_site = strip_www(url.host) == base_host_;
  if (same_site && !options_.crawl_entire_domain && base_path_ != "/") {
    // Children of the start path only: "/docs" admits "/docs", "/docs/", "/docs/a".
    std::string base = base_path_;
    if (base.size() > 1 && base.back() == '/') base.pop_back();
    const bool child = url.path == base || url.path.rfind(base + "/", 0) == 0 ||
                       (base_path_.back() != '/' && url.path.rfind(base, 0) == 0);
    if (!child) return false;
  }
  if (options_.max_path_depth >= 0 && same_site) {
    auto segments = [](const std::string& path) {
      int n = 0;
      for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '/' && i + 1 < path.size()) ++n;
      }
      return n;
    };
    if (segments(url.path) - segments(base_path_) > options_.max_path_depth) return false;
  }
  const std::string subject = options_.regex_on_full_url ? url.without_fragment() : url.path;
  if (!include_.empty()) {
    const bool any = std::any_of(include_.begin(), include_.end(), [&](const std::regex& re) {
      return std::regex_search(subject, re);
    });
    if (!any) return false;
  }
  for (const auto& re : exclude_) {
    if (std::regex_search(subject, re)) return false;
  }
  return true;
}

std::string url_identity(const Url& url, bool ignore_query, bool similar) {
  std::string host = url.host;
  std::string path = url.path;
  std::string scheme = url.scheme;
  if (similar) {
    host = strip_www(host);
    scheme = "http";
    if (ends_with(path, "/index.html") || ends_with(path, "/index.htm")) {
      path.erase(path.rfind('/') + 1);
    }
    if (path.size() > 1 && path.back() == '/') path.pop_back();
  }
  std::string out = scheme + "://" + host;
  if (url.port) out += ":" + std::to_string(*url.port);
  out += path;
  if (!ignore_query && url.query) out += "?" + *url.query;
  return out;
}

}  // namespace webdata::mock::jobs
