#include "web/url.hpp"

#include <cctype>

#include "web/types.hpp"

namespace webdata::mock::web {
namespace {

int default_port(const std::string& scheme) {
  return scheme == "https" ? 443 : 80;
}

std::string remove_dot_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  const bool absolute = !path.empty() && path[0] == '/';
  if (absolute) i = 1;
  bool trailing_slash = false;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string seg = path.substr(i, j - i);
    const bool last = j == path.size();
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!out.empty()) out.pop_back();
      trailing_slash = last;
    } else {
      out.push_back(seg);
      trailing_slash = false;
    }
    i = j + 1;
  }
  std::string result = absolute ? "/" : "";
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k) result += '/';
    result += out[k];
  }
  if (trailing_slash && (result.empty() || result.back() != '/')) result += '/';
  return result;
}

std::string merge_paths(const Url& base, const std::string& ref_path) {
  const auto slash = base.path.rfind('/');
  if (slash == std::string::npos) return "/" + ref_path;
  return base.path.substr(0, slash + 1) + ref_path;
}

}  // namespace

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

std::string to_lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<std::string> find_header(const HeaderList& headers, const std::string& name) {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return v;
  }
  return std::nullopt;
}

std::vector<std::string> find_headers(const HeaderList& headers, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) out.push_back(v);
  }
  return out;
}

std::string Url::target() const {
  return has_query ? path + "?" + query : path;
}

std::string Url::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (explicit_port && port != default_port(scheme)) h += ":" + std::to_string(port);
  return h;
}

std::string Url::str() const {
  return scheme + "://" + host_header() + target();
}

std::optional<Url> parse_url(const std::string& text) {
  for (unsigned char c : text) {
    if (c <= 0x20 || c == 0x7f) return std::nullopt;
  }
  const auto colon = text.find("://");
  if (colon == std::string::npos) return std::nullopt;
  Url url;
  url.scheme = to_lower(text.substr(0, colon));
  if (url.scheme != "http" && url.scheme != "https") return std::nullopt;
  std::size_t pos = colon + 3;
  std::size_t end = text.find_first_of("/?#", pos);
  if (end == std::string::npos) end = text.size();
  std::string authority = text.substr(pos, end - pos);
  const auto at = authority.rfind('@');
  if (at != std::string::npos) authority = authority.substr(at + 1);
  std::string host;
  std::string port;
  if (!authority.empty() && authority[0] == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else {
    const auto pc = authority.rfind(':');
    host = authority.substr(0, pc);
    if (pc != std::string::npos) port = authority.substr(pc + 1);
  }
  if (host.empty()) return std::nullopt;
  url.host = to_lower(host);
  url.port = default_port(url.scheme);
  if (!port.empty()) {
    if (port.size() > 5) return std::nullopt;
    for (char c : port) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    }
    const int p = std::stoi(port);
    if (p <= 0 || p > 65535) return std::nullopt;
    url.port = p;
    url.explicit_port = true;
  }
  std::string rest = text.substr(end);
  const auto hash = rest.find('#');
  if (hash != std::string::npos) {
    url.fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  const auto q = rest.find('?');
  if (q != std::string::npos) {
    url.query = rest.substr(q + 1);
    url.has_query = true;
    rest = rest.substr(0, q);
  }
  url.path = rest.empty() ? "/" : remove_dot_segments(rest);
  if (url.path.empty()) url.path = "/";
  return url;
}

std::optional<Url> resolve_url(const Url& base, const std::string& reference) {
  if (reference.find("://") != std::string::npos) {
    const auto scheme_end = reference.find("://");
    bool is_scheme = scheme_end > 0;
    for (std::size_t i = 0; i < scheme_end; ++i) {
      const char c = reference[i];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') {
        is_scheme = false;
      }
    }
    if (is_scheme) return parse_url(reference);
  }
  if (reference.rfind("//", 0) == 0) return parse_url(base.scheme + ":" + reference);
  Url url = base;
  url.fragment.clear();
  std::string ref = reference;
  const auto hash = ref.find('#');
  if (hash != std::string::npos) {
    url.fragment = ref.substr(hash + 1);
    ref = ref.substr(0, hash);
  }
  if (ref.empty()) return url;
  std::string query;
  bool has_query = false;
  const auto q = ref.find('?');
  if (q != std::string::npos) {
    query = ref.substr(q + 1);
    has_query = true;
    ref = ref.substr(0, q);
  }
  if (ref.empty()) {
    url.query = query;
    url.has_query = has_query;
    return url;
  }
  url.path = remove_dot_segments(ref[0] == '/' ? ref : merge_paths(base, ref));
  if (url.path.empty()) url.path = "/";
  url.query = query;
  url.has_query = has_query;
  for (unsigned char c : url.path) {
    if (c <= 0x20 || c == 0x7f) return std::nullopt;
  }
  return url;
}

std::pair<std::string, std::string> split_target(const std::string& target) {
  const auto q = target.find('?');
  if (q == std::string::npos) return {target, ""};
  return {target.substr(0, q), target.substr(q + 1)};
}

std::string percent_decode(const std::string& text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_query(const std::string& query) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  while (i <= query.size() && !query.empty()) {
    std::size_t j = query.find('&', i);
    if (j == std::string::npos) j = query.size();
    const std::string part = query.substr(i, j - i);
    if (!part.empty()) {
      const auto eq = part.find('=');
      if (eq == std::string::npos) {
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

}  // namespace webdata::mock::web
