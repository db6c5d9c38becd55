#include "web/synthetic.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/time.hpp"
#include "core/url.hpp"

namespace webdata::mock::web {

using nlohmann::json;

namespace {

constexpr const char* kSuffix = "synthetic.test";
constexpr std::size_t kMaxPages = 1000000;
constexpr std::size_t kMaxWeight = 20 * 1024 * 1024;
constexpr std::size_t kSitemapChunk = 50000;

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  template <typename T, std::size_t N>
  const T& pick(const T (&items)[N]) {
    return items[below(N)];
  }

 private:
  std::uint64_t state_;
};

const char* const kTopics[] = {
    "Orbital Mechanics", "Sourdough Baking",  "Urban Beekeeping", "Tidal Energy",
    "Bicycle Repair",    "Glacier Research",  "Typography",       "Coffee Roasting",
    "Rail Signalling",   "Mushroom Foraging", "Sea Kayaking",     "Compiler Design",
    "Alpine Botany",     "Letterpress",       "Wind Turbines",    "Cave Surveying",
    "Night Photography", "Soil Chemistry",    "Violin Making",    "Desert Hydrology"};
const char* const kAdjectives[] = {"practical", "modern",   "quiet",   "reliable", "seasonal",
                                   "careful",   "portable", "durable", "coastal",  "northern",
                                   "precise",   "simple",   "layered", "measured", "gradual",
                                   "resilient", "hidden",   "steady",  "bright",   "frugal"};
const char* const kNouns[] = {"method",   "harbour",  "workshop", "network",  "journal", "survey",
                              "pattern",  "material", "season",   "gradient", "archive", "field",
                              "notebook", "schedule", "sample",   "engine",   "river",   "lantern",
                              "frame",    "valley",   "ledger",   "compass",  "signal",  "garden",
                              "bridge",   "timber",   "current",  "ridge"};
const char* const kVerbs[] = {"explains",  "measures",  "compares", "records",  "improves",
                              "documents", "tests",     "follows",  "balances", "reveals",
                              "supports",  "describes", "maps",     "tracks"};
const char* const kConnectors[] = {"while",  "because", "although", "after",
                                   "before", "so that", "whenever", "since"};

std::string capitalize(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::string sentence(Rng& rng, const std::string& topic) {
  std::string s = capitalize(std::string("the ") + rng.pick(kAdjectives) + " " + rng.pick(kNouns));
  s += std::string(" ") + rng.pick(kVerbs) + " how " + to_lower(topic) + " " + rng.pick(kVerbs) +
       " the " + rng.pick(kNouns);
  if (rng.below(2) == 0) {
    s += std::string(" ") + rng.pick(kConnectors) + " a " + rng.pick(kAdjectives) + " " +
         rng.pick(kNouns) + " " + rng.pick(kVerbs) + " each " + rng.pick(kNouns);
  }
  return s + ".";
}

std::string paragraph(Rng& rng, const std::string& topic) {
  std::string p;
  const std::size_t n = 3 + rng.below(3);
  for (std::size_t i = 0; i < n; ++i) p += (i ? " " : "") + sentence(rng, topic);
  return p;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::size_t parse_count(const std::string& label, const std::string& text, std::size_t max) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    throw std::invalid_argument("label '" + label + "': '" + text + "' is not a number");
  }
  const auto n = static_cast<std::size_t>(std::stoull(text));
  if (n > max) {
    throw std::invalid_argument("label '" + label + "': " + text + " exceeds " +
                                std::to_string(max));
  }
  return n;
}

std::size_t parse_size(const std::string& label, std::string text) {
  std::size_t unit = 1;
  if (!text.empty() && (text.back() == 'k' || text.back() == 'm')) {
    unit = text.back() == 'k' ? 1024 : 1024 * 1024;
    text.pop_back();
  }
  const auto n = parse_count(label, text, kMaxWeight) * unit;
  if (n > kMaxWeight) throw std::invalid_argument("label '" + label + "': exceeds 20m");
  return n;
}

const char* fail_code(const std::string& fail) {
  if (fail == "dns") return "SCRAPE_DNS_RESOLUTION_ERROR";
  if (fail == "tls") return "SCRAPE_SSL_ERROR";
  return "SCRAPE_SITE_ERROR";
}

bool valid_fail(const std::string& fail) {
  return fail.empty() || fail == "dns" || fail == "refused" || fail == "reset" || fail == "tls" ||
         fail == "timeout";
}

// Node index <-> path. Index 0 is "/", node i has children i*F+1 .. i*F+F (breadth first).
std::string node_path(std::size_t index, std::size_t fanout) {
  std::vector<std::size_t> ordinals;
  while (index > 0) {
    ordinals.push_back((index - 1) % fanout + 1);
    index = (index - 1) / fanout;
  }
  if (ordinals.empty()) return "/";
  std::string path;
  for (auto it = ordinals.rbegin(); it != ordinals.rend(); ++it) path += "/p" + std::to_string(*it);
  return path;
}

std::optional<std::size_t> node_index(const std::string& path, std::size_t fanout,
                                      std::size_t count) {
  if (path == "/" || path.empty()) return 0;
  std::size_t index = 0;
  std::size_t pos = 0;
  while (pos < path.size()) {
    if (path[pos] != '/' || pos + 1 >= path.size() || path[pos + 1] != 'p') return std::nullopt;
    std::size_t end = path.find('/', pos + 1);
    if (end == std::string::npos) end = path.size();
    const std::string digits = path.substr(pos + 2, end - pos - 2);
    if (digits.empty() || digits.size() > 6 || digits[0] == '0' ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return std::nullopt;
    }
    const std::size_t k = std::stoul(digits);
    if (k < 1 || k > fanout) return std::nullopt;
    index = index * fanout + k;
    if (index >= count) return std::nullopt;
    pos = end;
  }
  return index;
}

std::size_t node_depth(std::size_t index, std::size_t fanout) {
  std::size_t depth = 0;
  while (index > 0) {
    index = (index - 1) / fanout;
    ++depth;
  }
  return depth;
}

bool every(std::size_t n, std::size_t index) {
  return n > 0 && index % n == n - 1;
}

// A 1x1 PNG (grey), valid for any decoder.
const unsigned char kPng[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00,
    0x00, 0x3a, 0x7e, 0x9b, 0x55, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78,
    0x9c, 0x63, 0x68, 0x00, 0x00, 0x00, 0x82, 0x00, 0x81, 0xdd, 0x43, 0x6a, 0xf4, 0x00,
    0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

struct PageText {
  std::string topic;
  std::string title;
  std::string description;
  std::string date;
};

PageText page_text(const std::string& host, std::size_t index) {
  Rng rng(fnv1a(host) ^ (index * 0x9e3779b97f4a7c15ULL));
  PageText t;
  t.topic = rng.pick(kTopics);
  t.title = capitalize(rng.pick(kAdjectives)) + " " + rng.pick(kNouns) + "s in " + t.topic;
  if (index == 0) t.title = "Welcome to " + host;
  t.description = "A " + std::string(rng.pick(kAdjectives)) + " guide to " + to_lower(t.topic) +
                  ": " + rng.pick(kNouns) + "s, " + rng.pick(kNouns) + "s and the " +
                  rng.pick(kNouns) + " behind them.";
  t.date = date_from_days(19358 + static_cast<long>((fnv1a(host + "#date") + index * 37) % 900));
  return t;
}

std::string simple_page(const std::string& title, const std::string& heading,
                        const std::string& text) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escape(title) + "</title>\n</head>\n<body>\n<h1>" + html_escape(heading) +
         "</h1>\n<p>" + html_escape(text) +
         "</p>\n<p><a href=\"/\">Home</a></p>\n</body>\n</html>\n";
}

}  // namespace

std::size_t SyntheticSettings::page_count() const {
  if (depth == 0) return pages;
  std::size_t full = 0;
  std::size_t level = 1;
  for (std::size_t d = 0; d <= depth; ++d) {
    full += level;
    if (full >= pages) return pages;
    if (level > kMaxPages) break;
    level *= fanout;
  }
  return std::min(full, pages);
}

std::optional<SyntheticSettings> parse_synthetic_host(const std::string& input,
                                                      std::string& error) {
  const std::string host = to_lower(input);
  const std::string suffix = kSuffix;
  if (host != suffix &&
      (host.size() <= suffix.size() + 1 ||
       host.compare(host.size() - suffix.size() - 1, std::string::npos, "." + suffix) != 0)) {
    return std::nullopt;
  }
  SyntheticSettings s;
  if (host == suffix) return s;
  std::stringstream labels(host.substr(0, host.size() - suffix.size() - 1));
  std::string label;
  try {
    while (std::getline(labels, label, '.')) {
      std::vector<std::string> parts;
      std::stringstream ps(label);
      std::string part;
      while (std::getline(ps, part, '-')) parts.push_back(part);
      if (parts.empty()) continue;
      const std::string& key = parts[0];
      const std::size_t n = parts.size();
      if (key == "pages" && n == 2) {
        s.pages = parse_count(label, parts[1], kMaxPages);
        if (s.pages == 0) throw std::invalid_argument("label '" + label + "': at least 1 page");
      } else if (key == "depth" && n == 2) {
        s.depth = parse_count(label, parts[1], 64);
      } else if (key == "fanout" && n == 2) {
        s.fanout = parse_count(label, parts[1], 1000);
        if (s.fanout == 0) throw std::invalid_argument("label '" + label + "': fanout >= 1");
      } else if (key == "weight" && n == 2) {
        s.weight = parse_size(label, parts[1]);
      } else if (key == "errors" && (n == 2 || n == 3)) {
        s.error_every = parse_count(label, parts[1], kMaxPages);
        if (n == 3) {
          s.error_status = static_cast<int>(parse_count(label, parts[2], 599));
          if (s.error_status < 400)
            throw std::invalid_argument("label '" + label + "': status 400..599");
        }
      } else if (key == "missing" && n == 2) {
        s.missing_every = parse_count(label, parts[1], kMaxPages);
      } else if (key == "slow" && (n == 2 || n == 3)) {
        s.slow_every = parse_count(label, parts[1], kMaxPages);
        if (n == 3) s.slow_delay = std::chrono::milliseconds(parse_count(label, parts[2], 600000));
      } else if (key == "delay" && n == 2) {
        s.delay = std::chrono::milliseconds(parse_count(label, parts[1], 600000));
      } else if (key == "protected" && n == 1) {
        s.protect_all = true;
      } else if (key == "protected" && n == 2) {
        s.protected_every = parse_count(label, parts[1], kMaxPages);
      } else if (key == "private" && n == 1) {
        s.private_section = true;
      } else if (key == "norobots" && n == 1) {
        s.robots = false;
      } else if (key == "nositemap" && n == 1) {
        s.sitemap = false;
      } else if (key == "fail" && n == 2) {
        if (!valid_fail(parts[1]) || parts[1].empty()) {
          throw std::invalid_argument("label '" + label +
                                      "': fail-dns|fail-refused|fail-reset|fail-tls|fail-timeout");
        }
        s.fail = parts[1];
      } else if (key == "pages" || key == "depth" || key == "fanout" || key == "weight" ||
                 key == "errors" || key == "missing" || key == "slow" || key == "delay" ||
                 key == "protected" || key == "fail") {
        throw std::invalid_argument("label '" + label + "' is malformed");
      }
      // Any other label is a free name: it only makes the host distinct.
    }
  } catch (const std::invalid_argument& e) {
    error = std::string("synthetic host ") + input + ": " + e.what();
    return std::nullopt;
  }
  return s;
}

SyntheticSettings synthetic_settings_from_json(const json& site) {
  if (!site.is_object()) throw std::invalid_argument("a site must be an object");
  SyntheticSettings s;
  auto count = [&](const char* key, std::size_t max) {
    const auto& v = site.at(key);
    if (!v.is_number_unsigned() || v.get<std::size_t>() > max) {
      throw std::invalid_argument(std::string("'") + key + "' must be an integer 0.." +
                                  std::to_string(max));
    }
    return v.get<std::size_t>();
  };
  auto flag = [&](const char* key) {
    const auto& v = site.at(key);
    if (!v.is_boolean()) throw std::invalid_argument(std::string("'") + key + "' must be boolean");
    return v.get<bool>();
  };
  for (const auto& [key, value] : site.items()) {
    if (key == "pages") {
      s.pages = std::max<std::size_t>(1, count("pages", kMaxPages));
    } else if (key == "depth") {
      s.depth = count("depth", 64);
    } else if (key == "fanout") {
      s.fanout = std::max<std::size_t>(1, count("fanout", 1000));
    } else if (key == "weight") {
      s.weight = count("weight", kMaxWeight);
    } else if (key == "errorEvery") {
      s.error_every = count("errorEvery", kMaxPages);
    } else if (key == "errorStatus") {
      s.error_status = static_cast<int>(count("errorStatus", 599));
    } else if (key == "missingEvery") {
      s.missing_every = count("missingEvery", kMaxPages);
    } else if (key == "slowEvery") {
      s.slow_every = count("slowEvery", kMaxPages);
    } else if (key == "slowMs") {
      s.slow_delay = std::chrono::milliseconds(count("slowMs", 600000));
    } else if (key == "delayMs") {
      s.delay = std::chrono::milliseconds(count("delayMs", 600000));
    } else if (key == "protected") {
      s.protect_all = flag("protected");
    } else if (key == "protectedEvery") {
      s.protected_every = count("protectedEvery", kMaxPages);
    } else if (key == "private") {
      s.private_section = flag("private");
    } else if (key == "robots") {
      s.robots = flag("robots");
    } else if (key == "sitemap") {
      s.sitemap = flag("sitemap");
    } else if (key == "fail") {
      if (!value.is_string() || !valid_fail(value.get<std::string>())) {
        throw std::invalid_argument("'fail' must be one of dns, refused, reset, tls, timeout");
      }
      s.fail = value.get<std::string>();
    } else {
      throw std::invalid_argument("unknown key '" + key + "'");
    }
  }
  return s;
}

SyntheticWeb::SyntheticWeb(const std::filesystem::path& root)
    : SyntheticWeb(std::vector<std::filesystem::path>{root}) {}

SyntheticWeb::SyntheticWeb(const std::vector<std::filesystem::path>& roots) {
  for (const auto& root : roots) load(root / "synthetic.json");
}

void SyntheticWeb::load(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) return;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const auto doc = json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("sites") ||
      !doc.at("sites").is_object()) {
    throw std::invalid_argument(file.string() + ": expected {\"sites\": {\"host\": {...}}}");
  }
  for (const auto& [host, site] : doc.at("sites").items()) {
    try {
      sites_[to_lower(host)] = synthetic_settings_from_json(site);
    } catch (const std::exception& e) {
      throw std::invalid_argument(file.string() + ": site " + host + ": " + e.what());
    }
  }
}

std::optional<SyntheticSettings> SyntheticWeb::settings_for(const std::string& host,
                                                            std::string& error) const {
  const auto it = sites_.find(to_lower(host));
  if (it != sites_.end()) return it->second;
  return parse_synthetic_host(host, error);
}

std::vector<std::string> SyntheticWeb::configured_hosts() const {
  std::vector<std::string> out;
  for (const auto& [host, site] : sites_) out.push_back(host);
  return out;
}

std::vector<std::string> SyntheticWeb::page_urls(const std::string& scheme, const std::string& host,
                                                 const SyntheticSettings& site,
                                                 std::size_t limit) const {
  std::vector<std::string> out;
  const std::size_t count = std::min(site.page_count(), limit);
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(scheme + "://" + host + node_path(i, site.fanout));
  }
  return out;
}

std::string challenge_page(const std::string& host) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"robots\" content=\"noindex, nofollow\">\n"
         "<title>Just a moment...</title>\n</head>\n<body>\n<h1>Checking your browser before "
         "accessing " +
         html_escape(host) +
         "</h1>\n<p>This site is protected against automated access. Enable JavaScript and "
         "cookies to continue.</p>\n<p>Request blocked by the bot wall (proxy: basic).</p>\n"
         "</body>\n</html>\n";
}

namespace {

/// The answer of a site configured to fail: the error a fetch of it meets.
SyntheticAnswer failing_site(const std::string& host, const SyntheticSettings& site) {
  SyntheticAnswer answer;
  answer.response.delay = site.delay;
  answer.error_code = fail_code(site.fail);
  if (site.fail == "dns") answer.error_message = "DNS lookup of " + host + " failed (NXDOMAIN)";
  if (site.fail == "refused") answer.error_message = "connection to " + host + " refused";
  if (site.fail == "reset") answer.error_message = "connection to " + host + " reset by peer";
  if (site.fail == "tls") {
    answer.error_message = "TLS handshake with " + host + " failed: certificate has expired";
  }
  if (site.fail == "timeout") {
    // Never answers: the caller's timeout decides.
    answer.error_code.clear();
    answer.response.delay = std::chrono::hours(24);
  }
  return answer;
}

void html_answer(StubResponse& r, std::string body, int status = 200) {
  r.status = status;
  r.headers = {{"Content-Type", "text/html; charset=utf-8"}};
  r.body = std::move(body);
}

std::string robots_txt(const SyntheticSettings& site, const std::string& base) {
  std::string body = "User-agent: *\n";
  if (site.private_section) body += "Disallow: /private/\n";
  body += "Allow: /\n";
  if (site.sitemap) body += "\nSitemap: " + base + "/sitemap.xml\n";
  return body;
}

bool is_sitemap_path(const std::string& path) {
  return path == "/sitemap.xml" || (path.rfind("/sitemap-", 0) == 0 && path.size() > 13 &&
                                    path.compare(path.size() - 4, 4, ".xml") == 0);
}

/// The sitemap at `path`: the index of the chunks when the site needs more than one, or the
/// chunk's URLs; nullopt for a chunk that does not exist.
std::optional<std::string> sitemap_xml(const std::string& path, const std::string& host,
                                       const std::string& base, const SyntheticSettings& site) {
  const std::size_t count = site.page_count();
  std::string b = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::size_t chunks = (count + kSitemapChunk - 1) / kSitemapChunk;
  std::size_t from = 0;
  std::size_t to = count;
  if (path == "/sitemap.xml" && chunks > 1) {
    b += "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    for (std::size_t c = 0; c < chunks; ++c) {
      b += "  <sitemap><loc>" + base + "/sitemap-" + std::to_string(c + 1) +
           ".xml</loc></sitemap>\n";
    }
    return b + "</sitemapindex>\n";
  }
  if (path != "/sitemap.xml") {
    const std::string digits = path.substr(9, path.size() - 13);
    if (digits.empty() || digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return std::nullopt;
    }
    const std::size_t c = std::stoul(digits);
    if (c < 1 || c > chunks || chunks < 2) return std::nullopt;
    from = (c - 1) * kSitemapChunk;
    to = std::min(count, c * kSitemapChunk);
  }
  b += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (std::size_t i = from; i < to; ++i) {
    b += "  <url><loc>" + base + node_path(i, site.fanout) + "</loc><lastmod>" +
         page_text(host, i).date + "</lastmod></url>\n";
  }
  return b + "</urlset>\n";
}

/// A generated page: what it is built from, and its HTML so far.
struct PageBuild {
  const std::string& host;
  const std::string& base;
  const SyntheticSettings& site;
  std::size_t index;
  std::size_t count;
  PageText text;
  Rng rng;
  std::string b;
};

/// <head> and the site's header with its navigation.
void page_head(PageBuild& p) {
  std::string& b = p.b;
  const std::size_t fanout = p.site.fanout;
  b += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  b += "<title>" + html_escape(p.text.title) + "</title>\n";
  b += "<meta name=\"description\" content=\"" + html_escape(p.text.description) + "\">\n";
  b += "<meta name=\"keywords\" content=\"" + html_escape(to_lower(p.text.topic)) + ", " +
       p.rng.pick(kNouns) + ", " + p.rng.pick(kAdjectives) + "\">\n";
  b += "<meta property=\"og:title\" content=\"" + html_escape(p.text.title) + "\">\n";
  b += "<meta property=\"og:type\" content=\"article\">\n";
  b += "<meta property=\"article:published_time\" content=\"" + p.text.date + "T09:00:00Z\">\n";
  b += "<link rel=\"canonical\" href=\"" + p.base + node_path(p.index, fanout) + "\">\n";
  b += "</head>\n<body>\n<header class=\"site-header\">\n<a class=\"logo\" href=\"/\">" +
       html_escape(p.host) + "</a>\n<nav>\n<ul>\n<li><a href=\"/\">Home</a></li>\n";
  for (std::size_t c = 1; c <= std::min<std::size_t>(fanout, 6) && c < p.count; ++c) {
    b += "<li><a href=\"" + node_path(c, fanout) + "\">" + page_text(p.host, c).topic +
         "</a></li>\n";
  }
  b += "</ul>\n</nav>\n</header>\n";
  if (p.index == 0) return;
  b += "<nav class=\"breadcrumb\"><a href=\"/\">Home</a>";
  std::vector<std::size_t> chain;
  for (std::size_t up = (p.index - 1) / fanout; up > 0; up = (up - 1) / fanout) {
    chain.push_back(up);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    b += " &rsaquo; <a href=\"" + node_path(*it, fanout) + "\">" +
         html_escape(page_text(p.host, *it).title) + "</a>";
  }
  b += "</nav>\n";
}

/// The article's heading, image and sections of generated text.
void page_text_sections(PageBuild& p, std::size_t depth) {
  std::string& b = p.b;
  b += "<main>\n<article>\n<h1>" + html_escape(p.text.title) + "</h1>\n";
  b += "<p class=\"meta\">Published <time datetime=\"" + p.text.date + "\">" + p.text.date +
       "</time> &middot; level " + std::to_string(depth) + "</p>\n";
  b += "<img src=\"/images/" + std::to_string(p.index) + ".png\" alt=\"" +
       html_escape(p.text.topic) + " illustration\" width=\"640\" height=\"360\">\n";
  b += "<p>" + html_escape(paragraph(p.rng, p.text.topic)) + "</p>\n";
  const std::size_t sections = 2 + p.rng.below(2);
  for (std::size_t s = 0; s < sections; ++s) {
    b += "<h2>" + capitalize(p.rng.pick(kAdjectives)) + " " + p.rng.pick(kNouns) + "s</h2>\n";
    b += "<p>" + html_escape(paragraph(p.rng, p.text.topic)) + "</p>\n";
    if (s != 0) continue;
    b += "<ul>\n";
    for (int k = 0; k < 3; ++k) {
      b += "<li>" + capitalize(p.rng.pick(kAdjectives)) + " " + p.rng.pick(kNouns) + " " +
           p.rng.pick(kVerbs) + " the " + p.rng.pick(kNouns) + "</li>\n";
    }
    b += "</ul>\n";
  }
}

/// The article's links: its children, a retired page, the staff area.
void page_links(PageBuild& p, std::size_t depth) {
  std::string& b = p.b;
  const SyntheticSettings& site = p.site;
  const std::size_t first_child = p.index * site.fanout + 1;
  if (first_child < p.count && (site.depth == 0 || depth < site.depth)) {
    b += "<section class=\"children\">\n<h2>In this section</h2>\n<ul>\n";
    for (std::size_t c = first_child; c < first_child + site.fanout && c < p.count; ++c) {
      b += "<li><a href=\"" + node_path(c, site.fanout) + "\">" +
           html_escape(page_text(p.host, c).title) + "</a></li>\n";
    }
    b += "</ul>\n</section>\n";
  }
  if (every(site.missing_every, p.index)) {
    b += "<p>See also the <a href=\"" +
         (p.index == 0 ? std::string() : node_path(p.index, site.fanout)) +
         "/retired-page\">retired page</a>.</p>\n";
  }
  if (p.index == 0 && site.private_section) {
    b += "<p><a href=\"/private/\">Staff area</a></p>\n";
  }
  b += "</article>\n";
}

/// Archive sections up to the site's page weight, and the footer.
void page_end(PageBuild& p) {
  std::string& b = p.b;
  while (b.size() < p.site.weight) {
    b += "<section class=\"archive\">\n<h2>Archive notes</h2>\n";
    for (int k = 0; k < 8 && b.size() < p.site.weight; ++k) {
      b += "<p>" + html_escape(paragraph(p.rng, p.text.topic)) + "</p>\n";
    }
    b += "</section>\n";
  }
  b += "</main>\n<footer class=\"site-footer\">\n<p>&copy; " + p.text.date.substr(0, 4) + " " +
       html_escape(p.host) + ". Generated page " + std::to_string(p.index + 1) + " of " +
       std::to_string(p.count) + ".</p>\n";
  if (p.index == 0) b += "<p><a href=\"https://external.synthetic.test/\">A friendly site</a></p>\n";
  b += "</footer>\n</body>\n</html>\n";
}

/// The HTML of the site's page `index`.
std::string page_html(const std::string& host, const std::string& base,
                      const SyntheticSettings& site, std::size_t index) {
  PageBuild p{host,
              base,
              site,
              index,
              site.page_count(),
              page_text(host, index),
              Rng(fnv1a(host + "#body") ^ (index * 0xda942042e4dd58b5ULL)),
              std::string()};
  const std::size_t depth = node_depth(index, site.fanout);
  p.b.reserve(std::max<std::size_t>(4096, site.weight + 1024));
  page_head(p);
  page_text_sections(p, depth);
  page_links(p, depth);
  page_end(p);
  return std::move(p.b);
}

}  // namespace

SyntheticAnswer SyntheticWeb::serve(const std::string& scheme, const std::string& host,
                                    const SyntheticSettings& site, const std::string& target,
                                    bool enhanced_proxy) const {
  if (!site.fail.empty()) return failing_site(host, site);
  SyntheticAnswer answer;
  StubResponse& r = answer.response;
  r.delay = site.delay;
  const auto [raw_path, query] = split_target(target);
  const std::string path = percent_decode(raw_path, false);
  const std::string base = scheme + "://" + host;
  const auto not_found = [&] {
    html_answer(r, simple_page("Page not found - " + host, "404: page not found",
                               "There is no page at " + path + " on this site."),
                404);
    return answer;
  };
  if (path == "/robots.txt") {
    if (!site.robots) return not_found();
    r.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
    r.body = robots_txt(site, base);
    return answer;
  }
  if (is_sitemap_path(path)) {
    auto xml = site.sitemap ? sitemap_xml(path, host, base, site) : std::nullopt;
    if (!xml) return not_found();
    r.headers = {{"Content-Type", "application/xml"}};
    r.body = std::move(*xml);
    return answer;
  }
  if (path.rfind("/images/", 0) == 0 && path.size() > 12 &&
      path.compare(path.size() - 4, 4, ".png") == 0) {
    r.headers = {{"Content-Type", "image/png"}};
    r.body.assign(reinterpret_cast<const char*>(kPng), sizeof kPng);
    return answer;
  }
  if (site.private_section && (path == "/private/" || path == "/private")) {
    html_answer(r, simple_page("Staff area - " + host, "Staff area",
                               "Internal notes. Crawlers are asked not to visit this page."));
    return answer;
  }
  std::string page_path = path;
  if (page_path.size() > 1 && page_path.back() == '/') page_path.pop_back();
  const auto found = node_index(page_path, site.fanout, site.page_count());
  if (!found) return not_found();
  const std::size_t index = *found;
  if ((site.protect_all || every(site.protected_every, index)) && !enhanced_proxy) {
    html_answer(r, challenge_page(host), 403);
    return answer;
  }
  if (every(site.slow_every, index)) r.delay += site.slow_delay;
  if (index > 0 && every(site.error_every, index)) {
    html_answer(r,
                simple_page("Error " + std::to_string(site.error_status) + " - " + host,
                            "Something went wrong (" + std::to_string(site.error_status) + ")",
                            "The server could not render " + path + ". Please try again later."),
                site.error_status);
    return answer;
  }
  html_answer(r, page_html(host, base, site, index));
  return answer;
}

}  // namespace webdata::mock::web
