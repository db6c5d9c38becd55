#include "core/url.hpp"

#include "core/text.hpp"

namespace webdata::mock {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

int default_port(std::string_view scheme) {
  if (scheme == "http" || scheme == "ws") return 80;
  if (scheme == "https" || scheme == "wss") return 443;
  if (scheme == "ftp") return 21;
  return 0;
}

// Length of "scheme:" at the start of text, or 0.
std::size_t scheme_length(std::string_view text) {
  if (text.empty() || !is_alpha(text[0])) return 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ':') return i + 1;
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

bool is_special(std::string_view scheme) {
  return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" ||
         scheme == "ftp" || scheme == "file";
}

// Browsers trim leading/trailing C0 controls and spaces and drop tabs and newlines anywhere.
std::string preprocess(std::string_view ref) {
  while (!ref.empty() && static_cast<unsigned char>(ref.front()) <= 0x20) ref.remove_prefix(1);
  while (!ref.empty() && static_cast<unsigned char>(ref.back()) <= 0x20) ref.remove_suffix(1);
  std::string out;
  out.reserve(ref.size());
  for (const char c : ref) {
    if (c != '\t' && c != '\n' && c != '\r') out += c;
  }
  return out;
}

// Special schemes read a backslash as a slash, up to the query.
void slashes_for_backslashes(std::string& s) {
  for (char& c : s) {
    if (c == '?' || c == '#') break;
    if (c == '\\') c = '/';
  }
}

std::string percent_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '`') {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out;
}

std::string remove_dot_segments(std::string_view path) {
  std::vector<std::string_view> segments;
  const bool absolute = !path.empty() && path.front() == '/';
  std::string_view rest = absolute ? path.substr(1) : path;
  bool trailing_slash = false;
  while (true) {
    const std::size_t slash = rest.find('/');
    const std::string_view seg = rest.substr(0, slash);
    const bool last = slash == std::string_view::npos;
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!segments.empty()) segments.pop_back();
      trailing_slash = last;
    } else {
      segments.push_back(seg);
      trailing_slash = false;
    }
    if (last) break;
    rest.remove_prefix(slash + 1);
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out += '/';
    out += segments[i];
  }
  if (trailing_slash && !segments.empty() && out != "/") out += '/';
  return out;
}

// Splits "[userinfo@]host[:port]" into the URL; false when the port is not a number (a browser
// refuses such a URL too).
bool set_authority(Url& u, std::string_view authority) {
  const std::size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    u.userinfo = std::string(authority.substr(0, at));
    authority.remove_prefix(at + 1);
  }
  std::string_view host = authority;
  std::string_view port;
  if (!host.empty() && host.front() == '[') {
    const std::size_t close = host.find(']');
    if (close != std::string_view::npos) {
      if (close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
      host = host.substr(1, close - 1);
    }
  } else {
    const std::size_t colon = host.rfind(':');
    if (colon != std::string_view::npos) {
      port = host.substr(colon + 1);
      host = host.substr(0, colon);
    }
  }
  u.host = to_lower(host);
  if (port.empty()) return true;
  if (port.size() > 5) return false;
  for (const char c : port) {
    if (!is_digit(c)) return false;
  }
  const int p = std::stoi(std::string(port));
  if (p != default_port(u.scheme)) u.port = p;
  return true;
}

// Splits "path?query#fragment" into the parts of u.
void split_tail(std::string_view tail, Url& u) {
  const std::size_t hash = tail.find('#');
  if (hash != std::string_view::npos) {
    u.fragment = percent_encode(tail.substr(hash + 1));
    tail = tail.substr(0, hash);
  }
  const std::size_t q = tail.find('?');
  if (q != std::string_view::npos) {
    u.query = percent_encode(tail.substr(q + 1));
    tail = tail.substr(0, q);
  }
  u.path = percent_encode(tail);
}

std::optional<Url> parse_preprocessed(std::string text) {
  const std::size_t scheme_len = scheme_length(text);
  if (scheme_len == 0) return std::nullopt;
  Url u;
  u.scheme = to_lower(std::string_view(text).substr(0, scheme_len - 1));
  std::string rest = text.substr(scheme_len);
  if (is_special(u.scheme)) {
    slashes_for_backslashes(rest);
    // "http:example.com" and "http:///x" still name a host for special schemes.
    std::size_t slashes = 0;
    while (slashes < rest.size() && rest[slashes] == '/') ++slashes;
    rest = "//" + rest.substr(slashes);
  }
  if (rest.size() >= 2 && rest[0] == '/' && rest[1] == '/') {
    u.has_authority = true;
    std::size_t end = rest.find_first_of("/?#", 2);
    if (end == std::string::npos) end = rest.size();
    if (!set_authority(u, std::string_view(rest).substr(2, end - 2))) return std::nullopt;
    rest = rest.substr(end);
  }
  split_tail(rest, u);
  if (u.has_authority) {
    u.path = remove_dot_segments(u.path);
    if (u.path.empty() && is_special(u.scheme)) u.path = "/";
  }
  return u;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

int Url::effective_port() const { return port ? *port : default_port(scheme); }

std::string Url::host_header() const {
  std::string out = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port) out += ":" + std::to_string(*port);
  return out;
}

std::string Url::authority() const {
  return userinfo.empty() ? host_header() : userinfo + "@" + host_header();
}

std::string Url::origin() const { return scheme + "://" + host_header(); }

std::string Url::target() const {
  std::string out = path.empty() ? "/" : path;
  if (query) {
    out += '?';
    out += *query;
  }
  return out;
}

std::string Url::str() const {
  std::string out = without_fragment();
  if (fragment) {
    out += '#';
    out += *fragment;
  }
  return out;
}

std::string Url::without_fragment() const {
  std::string out = scheme + ":";
  if (has_authority) out += "//" + authority();
  out += path;
  if (query) {
    out += '?';
    out += *query;
  }
  return out;
}

std::optional<Url> parse_url(std::string_view text) { return parse_preprocessed(preprocess(text)); }

std::optional<Url> parse_http_url(std::string_view text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f) return std::nullopt;
  }
  const std::size_t sep = text.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  const std::string scheme = to_lower(text.substr(0, sep));
  if (scheme != "http" && scheme != "https") return std::nullopt;
  // An IPv6 literal must be closed; the lenient parser would take the rest as a host.
  const std::string_view after = text.substr(sep + 3);
  if (after.empty() || after.front() == '/' || after.front() == '\\') return std::nullopt;
  if (after.front() == '[') {
    const std::size_t close = after.find(']');
    const std::size_t end = after.find_first_of("/?#");
    if (close == std::string_view::npos || (end != std::string_view::npos && close > end)) {
      return std::nullopt;
    }
    if (close + 1 < after.size() && after[close + 1] != ':' && after[close + 1] != '/' &&
        after[close + 1] != '?' && after[close + 1] != '#') {
      return std::nullopt;
    }
  }
  auto url = parse_url(text);
  if (!url || url->host.empty()) return std::nullopt;
  if (url->port && (*url->port <= 0 || *url->port > 65535)) return std::nullopt;
  return url;
}

std::optional<Url> resolve_url(const std::optional<Url>& base, std::string_view reference) {
  std::string ref = preprocess(reference);
  if (scheme_length(ref) != 0) return parse_preprocessed(std::move(ref));
  if (!base) return std::nullopt;
  if (is_special(base->scheme)) slashes_for_backslashes(ref);
  if (ref.size() >= 2 && ref[0] == '/' && ref[1] == '/') {
    return parse_preprocessed(base->scheme + ":" + ref);
  }
  if (!base->has_authority) {
    // Only a fragment can be resolved against "mailto:x" or "data:...".
    if (ref.empty() || ref.front() != '#') return std::nullopt;
    Url u = *base;
    u.fragment = percent_encode(std::string_view(ref).substr(1));
    return u;
  }
  Url r;
  split_tail(ref, r);
  Url u = *base;
  u.fragment = r.fragment;
  if (r.path.empty()) {
    if (r.query) u.query = r.query;
    return u;
  }
  u.query = r.query;
  if (r.path.front() == '/') {
    u.path = remove_dot_segments(r.path);
  } else {
    const std::size_t last_slash = base->path.rfind('/');
    const std::string merged = last_slash == std::string::npos
                                   ? "/" + r.path
                                   : base->path.substr(0, last_slash + 1) + r.path;
    u.path = remove_dot_segments(merged);
  }
  if (u.path.empty()) u.path = "/";
  return u;
}

std::string resolve_url_string(const std::optional<Url>& base, std::string_view reference) {
  if (auto u = resolve_url(base, reference)) return u->str();
  return std::string(trim(reference));
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::pair<std::string, std::string> split_target(const std::string& target) {
  const auto q = target.find('?');
  if (q == std::string::npos) return {target, ""};
  return {target.substr(0, q), target.substr(q + 1)};
}

std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  while (!query.empty() && i <= query.size()) {
    std::size_t j = query.find('&', i);
    if (j == std::string_view::npos) j = query.size();
    const std::string_view part = query.substr(i, j - i);
    if (!part.empty()) {
      const auto eq = part.find('=');
      if (eq == std::string_view::npos) {
        out.emplace_back(percent_decode(part, true), "");
      } else {
        out.emplace_back(percent_decode(part.substr(0, eq), true),
                         percent_decode(part.substr(eq + 1), true));
      }
    }
    i = j + 1;
  }
  return out;
}

}  // namespace webdata::mock
