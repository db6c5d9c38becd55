#include "checks.hpp"

#include <algorithm>
#include <sstream>

namespace webdata::conformance {

using json = nlohmann::json;

namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

// A line of only `c` (at least one), trailing blanks allowed: a setext underline.
bool is_underline(const std::string& line, char c) {
  const std::string t = trim(line);
  return !t.empty() && t.find_first_not_of(c) == std::string::npos;
}

// Three or more of one of - * _ with optional blanks between: a thematic break.
bool is_thematic_break(const std::string& line) {
  for (const char c : {'-', '*', '_'}) {
    int count = 0;
    bool other = false;
    for (const char ch : line) {
      if (ch == c) {
        ++count;
      } else if (ch != ' ' && ch != '\t') {
        other = true;
      }
    }
    if (!other && count >= 3) return true;
  }
  return false;
}

bool is_list_item(const std::string& line) {
  if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') &&
      (line[1] == ' ' || line[1] == '\t')) {
    return true;
  }
  std::size_t digits = 0;
  while (digits < line.size() && digits < 9 &&
         std::isdigit(static_cast<unsigned char>(line[digits])))
    ++digits;
  return digits > 0 && digits + 1 < line.size() && (line[digits] == '.' || line[digits] == ')') &&
         (line[digits + 1] == ' ' || line[digits + 1] == '\t');
}

// The ATX heading on `line` (indentation already removed), or level 0.
Heading atx_heading(const std::string& line) {
  std::size_t level = 0;
  while (level < line.size() && line[level] == '#') ++level;
  if (level == 0 || level > 6) return {};
  if (level < line.size() && line[level] != ' ' && line[level] != '\t') return {};
  std::string text = trim(line.substr(level));
  // An optional closing sequence of '#', after a blank (or the whole text).
  const auto last = text.find_last_not_of('#');
  if (last == std::string::npos) {
    text.clear();
  } else if (last + 1 < text.size() && (text[last] == ' ' || text[last] == '\t')) {
    text = trim(text.substr(0, last));
  }
  return {static_cast<int>(level), text};
}

void collect(const json& issues, const std::vector<json>& outer,
             const std::vector<std::string>& codes, std::vector<FoundIssue>& out) {
  if (!issues.is_array()) return;
  for (const auto& issue : issues) {
    if (!issue.is_object()) continue;
    std::vector<json> paths = outer;
    paths.push_back(issue.contains("path") ? issue.at("path") : json::array());
    const std::string code = issue.contains("code") && issue.at("code").is_string()
                                 ? issue.at("code").get<std::string>()
                                 : std::string();
    if (std::find(codes.begin(), codes.end(), code) != codes.end()) out.push_back({issue, paths});
    // zod 3: invalid_union carries unionErrors: [{issues: [...], name: "ZodError"}, ...].
    if (issue.contains("unionErrors") && issue.at("unionErrors").is_array()) {
      for (const auto& member : issue.at("unionErrors")) {
        if (member.is_object() && member.contains("issues")) {
          collect(member.at("issues"), paths, codes, out);
        }
      }
    }
    // zod 4: invalid_union carries errors: [[issues of member 1], [issues of member 2], ...].
    if (issue.contains("errors") && issue.at("errors").is_array()) {
      for (const auto& member : issue.at("errors")) collect(member, paths, codes, out);
    }
    // zod 4: invalid_key / invalid_element carry issues: [...].
    if (issue.contains("issues")) collect(issue.at("issues"), paths, codes, out);
  }
}

}  // namespace

std::vector<Heading> markdown_headings(const std::string& markdown) {
  std::vector<Heading> out;
  std::istringstream in(markdown);
  std::string raw;
  std::string fence;                   // the opening fence while inside a fenced block
  std::vector<std::string> paragraph;  // lines a setext underline would turn into a heading
  while (std::getline(in, raw)) {
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    std::size_t indent = 0;
    while (indent < raw.size() && raw[indent] == ' ') ++indent;
    if (indent >= 4 && paragraph.empty()) continue;  // indented code
    const std::string line = raw.substr(std::min<std::size_t>(indent, 3));
    const std::string stripped = trim(line);
    if (!fence.empty()) {
      if (stripped.rfind(fence, 0) == 0 &&
          stripped.find_first_not_of(fence[0]) == std::string::npos) {
        fence.clear();
      }
      continue;
    }
    if (stripped.rfind("```", 0) == 0 || stripped.rfind("~~~", 0) == 0) {
      fence = stripped.substr(0, stripped.find_first_not_of(stripped[0]));
      paragraph.clear();
      continue;
    }
    if (stripped.empty()) {
      paragraph.clear();
      continue;
    }
    if (!paragraph.empty() && (is_underline(line, '=') || is_underline(line, '-'))) {
      std::string text;
      for (const auto& p : paragraph) text += (text.empty() ? "" : " ") + p;
      out.push_back({stripped[0] == '=' ? 1 : 2, text});
      paragraph.clear();
      continue;
    }
    const Heading atx = atx_heading(stripped);
    if (atx.level > 0) {
      out.push_back(atx);
      paragraph.clear();
      continue;
    }
    if (stripped[0] == '>' || is_list_item(stripped) || is_thematic_break(stripped)) {
      paragraph.clear();
      continue;
    }
    paragraph.push_back(stripped);
  }
  return out;
}

bool has_heading(const std::string& markdown, int level, const std::string& text) {
  const auto headings = markdown_headings(markdown);
  return std::find(headings.begin(), headings.end(), Heading{level, text}) != headings.end();
}

bool has_bullet_item(const std::string& markdown, const std::string& item) {
  std::istringstream in(markdown);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string t = trim(line);
    if (t.size() < 2 || (t[0] != '-' && t[0] != '*' && t[0] != '+')) continue;
    if (t[1] != ' ' && t[1] != '\t') continue;
    if (trim(t.substr(1)) == item) return true;
  }
  return false;
}

bool has_strong(const std::string& markdown, const std::string& word) {
  return markdown.find("**" + word + "**") != std::string::npos ||
         markdown.find("__" + word + "__") != std::string::npos;
}

bool FoundIssue::at(const std::string& key) const {
  for (const auto& path : paths) {
    if (!path.is_array()) continue;
    for (const auto& part : path) {
      if (part.is_string() && part.get<std::string>() == key) return true;
    }
  }
  return false;
}

std::vector<FoundIssue> find_issues(const json& details, const std::vector<std::string>& codes) {
  std::vector<FoundIssue> out;
  collect(details, {}, codes, out);
  return out;
}

std::string with_port(const std::string& host, unsigned short port) {
  const std::string suffix = ":" + std::to_string(port);
  if (host.empty()) return host;
  if (host.front() == '[') {
    const auto close = host.find(']');
    if (close != std::string::npos && close + 1 < host.size() && host[close + 1] == ':') {
      return host;
    }
    return host + suffix;
  }
  const auto colons = std::count(host.begin(), host.end(), ':');
  if (colons == 0) return host + suffix;
  if (colons == 1) return host;
  return "[" + host + "]" + suffix;  // a bare IPv6 address
}

std::string host_of(const std::string& host_port) {
  if (!host_port.empty() && host_port.front() == '[') {
    const auto close = host_port.find(']');
    return host_port.substr(1, close == std::string::npos ? std::string::npos : close - 1);
  }
  if (std::count(host_port.begin(), host_port.end(), ':') == 1) {
    return host_port.substr(0, host_port.find(':'));
  }
  return host_port;
}

bool last_label_too_short(const std::string& host_port) {
  std::string host = host_of(host_port);
  if (host.find(':') != std::string::npos) return false;  // IPv6: no labels
  while (!host.empty() && host.back() == '.') host.pop_back();
  const auto dot = host.rfind('.');
  const std::string label = dot == std::string::npos ? host : host.substr(dot + 1);
  return label.size() < 2;
}

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned min = 0;
    if (c < 0x80) {
      length = 1;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2;
      min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      min = 0x10000;
    }
    bool ok = length > 0 && i + length <= text.size();
    unsigned code = length == 1 ? c : c & (0xFF >> (length + 1));
    for (std::size_t k = 1; ok && k < length; ++k) {
      const auto cont = static_cast<unsigned char>(text[i + k]);
      ok = (cont & 0xC0) == 0x80;
      code = (code << 6) | (cont & 0x3F);
    }
    ok = ok && code >= min && code <= 0x10FFFF && (code < 0xD800 || code > 0xDFFF);
    if (ok) {
      out.append(text, i, length);
      i += length;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char ch : valid_utf8(text)) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
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
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        if (c >= 0x20) out += ch;  // other control characters are not allowed in XML 1.0
    }
  }
  return out;
}

}  // namespace webdata::conformance
