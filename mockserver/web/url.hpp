#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace webdata::mock::web {

/// An absolute http(s) URL split into parts. Host is lower case, IPv6 without brackets.
struct Url {
  std::string scheme;  ///< "http" or "https"
  std::string host;
  int port = 0;  ///< Always set: the explicit port or the scheme's default.
  bool explicit_port = false;
  std::string path = "/";  ///< Raw (percent-encoded) path, never empty.
  std::string query;       ///< Raw query without '?'; empty when absent.
  bool has_query = false;
  std::string fragment;

  /// Path plus query: what goes on the request line.
  std::string target() const;
  /// `host[:port]` as a Host header carries it (port only when not the default).
  std::string host_header() const;
  /// The URL without its fragment.
  std::string str() const;
};

/// Parses an absolute http or https URL; nullopt for anything else (other schemes, no host,
/// bad port, spaces or control characters).
std::optional<Url> parse_url(const std::string& text);
/// RFC 3986 reference resolution (e.g. a Location header against the URL that sent it).
std::optional<Url> resolve_url(const Url& base, const std::string& reference);
/// Splits `target` ("/a/b?x=1") into path and query (without '?').
std::pair<std::string, std::string> split_target(const std::string& target);
std::string percent_decode(const std::string& text, bool plus_is_space);
/// Query parameters in order, percent-decoded (`+` is a space).
std::vector<std::pair<std::string, std::string>> parse_query(const std::string& query);

}  // namespace webdata::mock::web
