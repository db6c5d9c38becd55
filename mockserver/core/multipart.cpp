#include "core/multipart.hpp"

#include <cstdint>

namespace webdata::mock {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// RFC 5987 ext-value: charset'language'pct-encoded. UTF-8 stays as decoded; ISO-8859-1 bytes
/// are transcoded. nullopt when it is not an ext-value.
std::optional<std::string> decode_ext_value(std::string_view value) {
  const std::size_t first = value.find('\'');
  if (first == std::string_view::npos) return std::nullopt;
  const std::size_t second = value.find('\'', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const std::string charset = to_lower(value.substr(0, first));
  const bool latin1 = charset == "iso-8859-1";
  if (!latin1 && charset != "utf-8") return std::nullopt;
  std::string out;
  for (std::size_t i = second + 1; i < value.size(); ++i) {
    std::uint32_t byte = static_cast<unsigned char>(value[i]);
    if (value[i] == '%') {
      if (i + 2 >= value.size() || hex_value(value[i + 1]) < 0 || hex_value(value[i + 2]) < 0) {
        return std::nullopt;
      }
      byte = static_cast<std::uint32_t>(hex_value(value[i + 1]) * 16 + hex_value(value[i + 2]));
      i += 2;
    }
    if (latin1) {
      append_utf8(out, byte);
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

/// The media type of a Content-Type value, lower case, without parameters.
std::string media_type(std::string_view content_type) {
  return to_lower(trim(content_type.substr(0, content_type.find(';'))));
}

}  // namespace

const MultipartPart* MultipartResult::find(std::string_view name) const {
  for (const auto& part : parts) {
    if (part.name == name) return &part;
  }
  return nullptr;
}

std::optional<std::string> header_parameter(std::string_view value, std::string_view name) {
  std::optional<std::string> plain;
  std::optional<std::string> extended;
  std::size_t i = value.find(';');
  while (i != std::string_view::npos && i < value.size()) {
    // At a ';' (or past the previous parameter): the next "name[=value]".
    while (i < value.size() && (value[i] == ';' || is_blank(value[i]))) ++i;
    const std::size_t name_start = i;
    while (i < value.size() && value[i] != '=' && value[i] != ';') ++i;
    const std::string key = to_lower(trim(value.substr(name_start, i - name_start)));
    std::string parameter;
    if (i < value.size() && value[i] == '=') {
      ++i;
      while (i < value.size() && is_blank(value[i])) ++i;
      if (i < value.size() && value[i] == '"') {
        // quoted-string: a backslash escapes the next character; an unterminated string runs
        // to the end of the value.
        for (++i; i < value.size() && value[i] != '"'; ++i) {
          if (value[i] == '\\' && i + 1 < value.size()) ++i;
          parameter += value[i];
        }
        if (i < value.size()) ++i;  // the closing quote
        while (i < value.size() && value[i] != ';') ++i;
      } else {
        const std::size_t start = i;
        while (i < value.size() && value[i] != ';') ++i;
        parameter = std::string(trim(value.substr(start, i - start)));
      }
    }
    if (key.empty()) continue;
    if (iequals(key, name) && !plain) plain = parameter;
    if (key.size() == name.size() + 1 && key.back() == '*' &&
        iequals(std::string_view(key).substr(0, name.size()), name) && !extended) {
      extended = decode_ext_value(parameter);
    }
  }
  return extended ? extended : plain;
}

bool is_multipart_form_data(std::string_view content_type) {
  return media_type(content_type) == "multipart/form-data";
}

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  if (!is_multipart_form_data(content_type)) return std::nullopt;
  auto boundary = header_parameter(content_type, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > 70) return std::nullopt;
  // A boundary cannot end in a space (RFC 2046 bchars), nor hold line breaks.
  if (boundary->back() == ' ' || boundary->find_first_of("\r\n") != std::string::npos) {
    return std::nullopt;
  }
  return boundary;
}

namespace {

// The delimiter line after `at` (which points just past "--boundary"): "--" closes the body,
// otherwise transport padding then CRLF. Returns where the next line starts, or npos when these
// bytes are not a delimiter line (content that merely starts like one).
std::size_t delimiter_end(std::string_view body, std::size_t at, bool& closing) {
  if (body.compare(at, 2, "--") == 0) {
    closing = true;
    return at + 2;
  }
  closing = false;
  while (at < body.size() && is_blank(body[at])) ++at;
  if (body.compare(at, 2, "\r\n") == 0) return at + 2;
  return std::string_view::npos;
}

/// Where the first part starts: after the first delimiter, at the very start or after a
/// preamble that ends in CRLF; npos when there is none.
std::size_t first_part(std::string_view body, const std::string& dash, bool& closing) {
  const std::string line_dash = "\r\n" + dash;
  const bool at_start = body.compare(0, dash.size(), dash) == 0;
  for (std::size_t candidate = at_start ? 0 : body.find(line_dash);
       candidate != std::string_view::npos; candidate = body.find(line_dash, candidate + 1)) {
    const std::size_t start = candidate == 0 && at_start ? 0 : candidate + 2;
    const std::size_t pos = delimiter_end(body, start + dash.size(), closing);
    if (pos != std::string_view::npos) return pos;
  }
  return std::string_view::npos;
}

/// The header lines of `block` into `part`; false (and `error`) for a line that is no header.
bool read_header_lines(std::string_view block, std::size_t index, MultipartPart& part,
                       std::string& error) {
  std::size_t line_start = 0;
  while (line_start <= block.size()) {
    std::size_t line_end = block.find("\r\n", line_start);
    if (line_end == std::string_view::npos) line_end = block.size();
    const std::string_view line = block.substr(line_start, line_end - line_start);
    line_start = line_end + 2;
    if (!line.empty() && is_blank(line.front()) && !part.headers.empty()) {
      // An obsolete folded line continues the previous header.
      part.headers.back().second += " " + std::string(trim(line));
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || trim(line.substr(0, colon)).empty()) {
      error = "part " + std::to_string(index) + " has a header line without a name and a colon: '" +
              std::string(line.substr(0, 80)) + "'";
      return false;
    }
    part.headers.emplace_back(std::string(trim(line.substr(0, colon))),
                              std::string(trim(line.substr(colon + 1))));
  }
  return true;
}

/// The headers of the part at `pos` (a part may have none: the empty line comes first); returns
/// where its content starts, or npos (and `error`).
std::size_t read_part_headers(std::string_view body, std::size_t pos, std::size_t index,
                              const MultipartLimits& limits, MultipartPart& part,
                              std::string& error) {
  if (body.compare(pos, 2, "\r\n") == 0) return pos + 2;
  const std::size_t end = body.find("\r\n\r\n", pos);
  if (end == std::string_view::npos) {
    error = "part " + std::to_string(index) + " has no blank line after its headers";
    return std::string_view::npos;
  }
  if (end - pos > limits.max_header_bytes) {
    error = "the headers of part " + std::to_string(index) + " are longer than " +
            std::to_string(limits.max_header_bytes) + " bytes";
    return std::string_view::npos;
  }
  if (!read_header_lines(body.substr(pos, end - pos), index, part, error)) {
    return std::string_view::npos;
  }
  return end + 4;
}

/// The part's name, filename and Content-Type from its headers; false (and `error`) without a
/// form-data Content-Disposition that names it.
bool name_part(MultipartPart& part, std::size_t index, std::string& error) {
  const auto disposition = find_header(part.headers, "Content-Disposition");
  const std::string type =
      disposition ? to_lower(trim(std::string_view(*disposition).substr(0, disposition->find(';'))))
                  : std::string();
  const auto name = disposition ? header_parameter(*disposition, "name") : std::nullopt;
  if (type != "form-data" || !name) {
    error = "part " + std::to_string(index) +
            " has no 'Content-Disposition: form-data; name=...' header";
    return false;
  }
  part.name = *name;
  part.filename = header_parameter(*disposition, "filename");
  part.content_type = std::string(trim(find_header(part.headers, "Content-Type").value_or("")));
  return true;
}

}  // namespace

MultipartResult parse_multipart(std::string_view body, std::string_view boundary,
                                const MultipartLimits& limits) {
  MultipartResult result;
  if (boundary.empty()) {
    result.error = "the multipart boundary is empty";
    return result;
  }
  const std::string dash = "--" + std::string(boundary);
  const std::string line_dash = "\r\n" + dash;
  bool closing = false;
  std::size_t pos = first_part(body, dash, closing);
  if (pos == std::string_view::npos) {
    result.error = "the body does not contain the boundary delimiter '" + dash + "'";
    return result;
  }
  while (!closing) {
    if (result.parts.size() == limits.max_parts) {
      result.error = "more than " + std::to_string(limits.max_parts) + " parts";
      return result;
    }
    const std::size_t index = result.parts.size() + 1;
    MultipartPart part;
    const std::size_t content_start = read_part_headers(body, pos, index, limits, part, result.error);
    if (content_start == std::string_view::npos) return result;
    // The content runs to the next CRLF--boundary that is a delimiter line.
    std::size_t next = body.find(line_dash, content_start);
    std::size_t after = std::string_view::npos;
    while (next != std::string_view::npos) {
      after = delimiter_end(body, next + line_dash.size(), closing);
      if (after != std::string_view::npos) break;
      next = body.find(line_dash, next + 1);
    }
    if (next == std::string_view::npos) {
      result.error = "the body ends before the closing delimiter '" + dash + "--'";
      return result;
    }
    part.body = std::string(body.substr(content_start, next - content_start));
    if (!name_part(part, index, result.error)) return result;
    result.parts.push_back(std::move(part));
    pos = after;
  }
  return result;
}

}  // namespace webdata::mock
