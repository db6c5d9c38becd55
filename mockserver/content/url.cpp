#include "content/url.hpp"

#include <vector>

#include "content/dom.hpp"

namespace webdata::mock::content::url {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Length of "scheme:" at the start of text, or 0.
std::size_t scheme_length(std::string_view text) {
  if (text.empty() || !is_alpha(text[0])) return 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    char c = text[i];
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
  for (char c : ref) {
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
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
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
  bool absolute = !path.empty() && path.front() == '/';
  std::string_view rest = absolute ? path.substr(1) : path;
  bool trailing_slash = false;
  while (true) {
    std::size_t slash = rest.find('/');
    std::string_view seg = rest.substr(0, slash);
    bool last = slash == std::string_view::npos;
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
  if (trailing_slash && !segments.empty() && !(out.size() == 1 && out == "/")) out += '/';
  return out;
}

void normalize_authority(Url& u) {
  std::string& a = u.authority;
  std::size_t at = a.rfind('@');
  std::size_t host_start = at == std::string::npos ? 0 : at + 1;
  std::string host = a.substr(host_start);
  std::string port;
  if (!host.empty() && host.front() != '[') {
    std::size_t colon = host.rfind(':');
    if (colon != std::string::npos) {
      port = host.substr(colon + 1);
      host.resize(colon);
    }
  } else {
    std::size_t close = host.find(']');
    if (close != std::string::npos && close + 1 < host.size() && host[close + 1] == ':') {
      port = host.substr(close + 2);
      host.resize(close + 1);
    }
  }
  host = dom::ascii_lower(host);
  if ((u.scheme == "http" && port == "80") || (u.scheme == "https" && port == "443")) port.clear();
  a = a.substr(0, host_start) + host + (port.empty() ? "" : ":" + port);
}

// Splits "path?query#fragment" into the parts of u.
void split_tail(std::string_view tail, Url& u) {
  std::size_t hash = tail.find('#');
  if (hash != std::string_view::npos) {
    u.fragment = percent_encode(tail.substr(hash + 1));
    tail = tail.substr(0, hash);
  }
  std::size_t q = tail.find('?');
  if (q != std::string_view::npos) {
    u.query = percent_encode(tail.substr(q + 1));
    tail = tail.substr(0, q);
  }
  u.path = percent_encode(tail);
}

std::optional<Url> parse_preprocessed(std::string text) {
  std::size_t scheme_len = scheme_length(text);
  if (scheme_len == 0) return std::nullopt;
  Url u;
  u.scheme = dom::ascii_lower(std::string_view(text).substr(0, scheme_len - 1));
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
    u.authority = rest.substr(2, end - 2);
    rest = rest.substr(end);
    normalize_authority(u);
  }
  split_tail(rest, u);
  if (u.has_authority) {
    u.path = remove_dot_segments(u.path);
    if (u.path.empty() && is_special(u.scheme)) u.path = "/";
  }
  return u;
}

}  // namespace

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
  if (has_authority) out += "//" + authority;
  out += path;
  if (query) {
    out += '?';
    out += *query;
  }
  return out;
}

std::optional<Url> parse(std::string_view text) { return parse_preprocessed(preprocess(text)); }

std::optional<Url> resolve(const std::optional<Url>& base, std::string_view reference) {
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
    std::size_t last_slash = base->path.rfind('/');
    std::string merged =
        last_slash == std::string::npos ? "/" + r.path : base->path.substr(0, last_slash + 1) + r.path;
    u.path = remove_dot_segments(merged);
  }
  if (u.path.empty()) u.path = "/";
  return u;
}

std::string resolve_string(const std::optional<Url>& base, std::string_view reference) {
  if (auto u = resolve(base, reference)) return u->str();
  return std::string(dom::trim_html_space(reference));
}

}  // namespace webdata::mock::content::url
