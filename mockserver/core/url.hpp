#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace webdata::mock {

/// An absolute URL split the RFC 3986 way, normalised as a browser does: scheme and host lower
/// case, the scheme's default port dropped, dot segments removed, spaces and non-ASCII bytes
/// percent-encoded. `has_authority` is false for mailto:, data: and the like.
struct Url {
  std::string scheme;
  bool has_authority = false;
  std::string userinfo;  ///< Before '@', without it; usually empty.
  std::string host;      ///< Lower case; an IPv6 literal without its brackets.
  std::optional<int> port;  ///< Only a port that is not the scheme's default.
  std::string path;
  std::optional<std::string> query;     ///< Without '?'.
  std::optional<std::string> fragment;  ///< Without '#'.

  bool is_http() const { return scheme == "http" || scheme == "https"; }
  /// The port a connection uses: the explicit one or the scheme's default (0 when unknown).
  int effective_port() const;
  /// `host[:port]` as a Host header carries it (IPv6 in brackets, default port left out).
  std::string host_header() const;
  /// `[userinfo@]host[:port]`.
  std::string authority() const;
  /// `scheme://host[:port]`.
  std::string origin() const;
  /// Path plus query: what goes on a request line ("/" for an empty path).
  std::string target() const;
  std::string str() const;
  std::string without_fragment() const;
};

/// Parses an absolute URL of any scheme the way a browser reads an attribute value (blanks
/// trimmed, tabs and newlines dropped, backslashes as slashes in http(s)); nullopt without a scheme.
std::optional<Url> parse_url(std::string_view text);
/// Parses an absolute http or https URL that can be fetched: `scheme://host[:port]...` with a
/// host, a port in 1..65535 and no blanks or control characters. Nullopt for anything else.
std::optional<Url> parse_http_url(std::string_view text);
/// Resolves a reference (an attribute value, a Location header) against `base` as a browser
/// does; nullopt when it cannot be resolved (a relative reference without a base).
std::optional<Url> resolve_url(const std::optional<Url>& base, std::string_view reference);
/// resolve_url(...).str(), or the reference itself (trimmed) when it cannot be resolved.
std::string resolve_url_string(const std::optional<Url>& base, std::string_view reference);

/// `%XX` sequences decoded (invalid ones kept as written); `+` is a space when asked.
std::string percent_decode(std::string_view text, bool plus_is_space);
/// Splits a request target ("/a/b?x=1") into path and query (without '?').
std::pair<std::string, std::string> split_target(const std::string& target);
/// Query parameters in order, percent-decoded (`+` is a space); `a` without `=` has value "".
std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query);

}  // namespace webdata::mock
