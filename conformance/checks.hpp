#pragma once

// Pure helpers behind the verdicts that accept several valid spellings of one behaviour
// (Markdown headings, validation issues nested in unions) and the runner's address handling.
// No I/O: conformance/checks_test.cpp tests them with real inputs.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace webdata::conformance {

/// A heading of a Markdown text: ATX (`# Title`, `## Title ##`) or setext (`Title` over `===`
/// for level 1 or `---` for level 2), outside fenced code blocks.
struct Heading {
  int level = 0;
  std::string text;
  bool operator==(const Heading& other) const { return level == other.level && text == other.text; }
};
std::vector<Heading> markdown_headings(const std::string& markdown);
/// Whether `markdown` has a heading of `level` whose text is `text`.
bool has_heading(const std::string& markdown, int level, const std::string& text);
/// Whether a line of `markdown` is the bullet list item `item` (`-`, `*` or `+` marker).
bool has_bullet_item(const std::string& markdown, const std::string& item);
/// Whether `word` is set in strong emphasis (`**word**` or `__word__`).
bool has_strong(const std::string& markdown, const std::string& word);

/// A validation issue of an error answer's `details`, found at any depth: zod reports a wrong
/// value of a union field as one `invalid_union` issue with the issues of each member inside
/// (`unionErrors[].issues` in zod 3, `errors[][]` in zod 4).
struct FoundIssue {
  nlohmann::json issue;
  /// The `path` of the issue and of every issue it is nested in, outermost first.
  std::vector<nlohmann::json> paths;
  /// Whether one of `paths` contains `key`.
  bool at(const std::string& key) const;
};
/// Every issue of `details` with one of `codes`, nested ones included.
std::vector<FoundIssue> find_issues(const nlohmann::json& details,
                                    const std::vector<std::string>& codes);

/// `host` as given to --site-host, with `port` added when it names none ("127.0.0.10" ->
/// "127.0.0.10:PORT"; "[::1]" -> "[::1]:PORT"; "runner.example:8089" unchanged).
std::string with_port(const std::string& host, unsigned short port);
/// The host of HOST[:PORT] ("[::1]:80" -> "::1").
std::string host_of(const std::string& host_port);
/// Whether the last dot-separated label of the host is shorter than two characters
/// ("127.0.0.1"): deployments refuse such URLs ("URL must have a valid top-level domain").
bool last_label_too_short(const std::string& host_port);

/// `text` with invalid UTF-8 sequences replaced by '?', for reports read by XML parsers.
std::string valid_utf8(const std::string& text);
/// `text` escaped for an XML attribute or element; characters XML 1.0 forbids are dropped.
std::string xml_escape(const std::string& text);

}  // namespace webdata::conformance
