#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace webdata::mock::content::url {

/// An absolute URL split the RFC 3986 way. has_authority is false for mailto:, data: and the like.
struct Url {
  std::string scheme;  // lower case
  bool has_authority = false;
  std::string authority;  // host lower-cased, default port removed for http(s)
  std::string path;
  std::optional<std::string> query;
  std::optional<std::string> fragment;

  std::string str() const;
  std::string without_fragment() const;
  bool is_http() const { return scheme == "http" || scheme == "https"; }
};

/// Parses an absolute URL; nullopt when it has no scheme.
std::optional<Url> parse(std::string_view text);

/// Resolves a reference (an attribute value as written) against base, the way a browser does
/// for http(s): whitespace trimmed, tabs/newlines removed, backslashes taken as slashes, dot
/// segments removed, spaces and non-ASCII bytes percent-encoded. Nullopt when it cannot be
/// resolved (relative reference without a base).
std::optional<Url> resolve(const std::optional<Url>& base, std::string_view reference);

/// resolve(...).str(), or the reference itself (trimmed) when it cannot be resolved.
std::string resolve_string(const std::optional<Url>& base, std::string_view reference);

}  // namespace webdata::mock::content::url
