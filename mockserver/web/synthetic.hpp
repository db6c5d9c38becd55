#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "web/types.hpp"

namespace webdata::mock::web {

/// How a synthetic site is shaped. Set by the host's labels (see parse_synthetic_host and
/// docs/mockserver/virtual-web.md) or by `<web root>/synthetic.json`.
struct SyntheticSettings {
  std::size_t pages = 25;       ///< Upper bound on pages; the tree may hold fewer (depth cap).
  std::size_t depth = 0;        ///< Deepest level (root is 0); 0 means as deep as `pages` needs.
  std::size_t fanout = 5;       ///< Children per page.
  std::size_t weight = 0;       ///< Minimum HTML bytes per page (padding paragraphs); 0: natural.
  std::size_t error_every = 0;  ///< Every Nth page (index % N == N-1) answers `error_status`.
  int error_status = 500;
  std::size_t missing_every = 0;  ///< Every Nth page also links to a page that answers 404.
  std::size_t slow_every = 0;     ///< Every Nth page waits `slow_delay` before answering.
  std::chrono::milliseconds slow_delay{3000};
  std::chrono::milliseconds delay{0};  ///< Wait before every answer of the host.
  bool protect_all = false;            ///< Anti-bot: basic proxy gets a 403 challenge page.
  std::size_t protected_every = 0;     ///< Only every Nth page is protected.
  bool private_section = false;  ///< A `/private/` page linked from the root, robots-disallowed.
  bool robots = true;            ///< Serve robots.txt (else 404).
  bool sitemap = true;           ///< Serve sitemap.xml (else 404).
  std::string fail;  ///< "", dns, refused, reset, tls, timeout: every fetch of the host fails.

  /// Pages the site really has: min(pages, size of the full tree of `depth` levels).
  std::size_t page_count() const;
};

/// Parses the labels of a `*.synthetic.test` host. nullopt when `host` is not under
/// `synthetic.test`; `error` is set (and nullopt returned) when a label is malformed.
std::optional<SyntheticSettings> parse_synthetic_host(const std::string& host, std::string& error);

/// Reads one site of a settings file (`{"pages": 100, "fanout": 4, ...}`). Throws
/// std::invalid_argument naming the bad key.
SyntheticSettings synthetic_settings_from_json(const nlohmann::json& site);

/// What a synthetic host answers: a response, or a fetch failure (`error_code` set).
struct SyntheticAnswer {
  StubResponse response;
  std::string error_code;  ///< SCRAPE_* code when the host is set to fail.
  std::string error_message;
};

/// Deterministic generated sites: same host and path, same bytes.
class SyntheticWeb {
 public:
  SyntheticWeb() = default;
  /// Sites from `<root>/synthetic.json` (`{"sites": {"host": {...}}}`); a missing file is none.
  /// Throws std::invalid_argument for a malformed file.
  explicit SyntheticWeb(const std::filesystem::path& root);
  /// The sites of every root's synthetic.json; a later root's site replaces an earlier one's of
  /// the same host.
  explicit SyntheticWeb(const std::vector<std::filesystem::path>& roots);

  /// Settings for `host` (configured first, then `*.synthetic.test` labels); nullopt when the
  /// host is not synthetic. A malformed synthetic host name yields nullopt and `error`.
  std::optional<SyntheticSettings> settings_for(const std::string& host, std::string& error) const;

  /// The answer for `target` (path and query) on `host` with settings `site`.
  SyntheticAnswer serve(const std::string& scheme, const std::string& host,
                        const SyntheticSettings& site, const std::string& target,
                        bool enhanced_proxy) const;

  /// Every page URL of a site (root first, breadth first), at most `limit`.
  std::vector<std::string> page_urls(const std::string& scheme, const std::string& host,
                                     const SyntheticSettings& site, std::size_t limit) const;

  /// The configured hosts.
  std::vector<std::string> configured_hosts() const;

 private:
  /// Adds the sites of one synthetic.json (a missing file is none).
  void load(const std::filesystem::path& file);
  std::map<std::string, SyntheticSettings> sites_;
};

/// The page an anti-bot wall answers with 403 (shared by fixtures and synthetic hosts).
std::string challenge_page(const std::string& host);

}  // namespace webdata::mock::web
