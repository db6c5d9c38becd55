// POST /v2/parse: a file uploaded as multipart/form-data (a `file` part and an `options` part
// holding JSON), answered with a document like a scrape's.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <system_error>
#include <iterator>

#include "client_core.hpp"
#include "webdata/client.hpp"

namespace webdata {

namespace detail {

// The field list of parse.fields.json, written as C++ by webdata_codegen.
#include "parse.fields.inc"

namespace {

Error invalid_argument(std::string message) {
  return error_of(ErrorKind::kInvalidArgument, std::move(message));
}

}  // namespace
}  // namespace detail

std::string parse_content_type_for(const std::string& filename) {
  const std::size_t dot = filename.rfind('.');
  const std::size_t slash = filename.find_last_of("/\\");
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    return "application/octet-stream";
  }
  std::string extension = filename.substr(dot);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".html" || extension == ".htm") return "text/html";
  if (extension == ".xhtml") return "application/xhtml+xml";
  if (extension == ".pdf") return "application/pdf";
  if (extension == ".txt") return "text/plain";
  if (extension == ".md" || extension == ".markdown") return "text/markdown";
  return "application/octet-stream";
}

Result<Document> Client::parse(const ParseFile& file, const ParseOptions& parse_options,
                               const CallOptions& options) const {
  // The service refuses these too, but only after the upload; a caller learns sooner here.
  if (file.filename.find_first_not_of(" \t") == std::string::npos) {
    return detail::invalid_argument("parse: the file needs a filename");
  }
  detail::Call call;
  call.method = "POST";
  call.target = "/v2/parse";
  FormPart options_part;
  options_part.name = "options";
  options_part.data = detail::dump(detail::write_fields(parse_options));
  FormPart file_part;
  file_part.name = "file";
  file_part.data = file.data;
  file_part.filename = file.filename;
  file_part.content_type =
      file.content_type.empty() ? parse_content_type_for(file.filename) : file.content_type;
  call.form = {std::move(options_part), std::move(file_part)};
  call.min_timeout = detail::request_time_for(parse_options.timeout);
  return detail::document_call(*core_, call, options, "parse");
}

Result<ParseFile> read_parse_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return detail::invalid_argument("parse: " + path.string() + " is not a readable file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return detail::invalid_argument("parse: cannot open " + path.string());
  ParseFile file;
  file.data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return detail::invalid_argument("parse: cannot read " + path.string());
  file.filename = path.filename().string();
  file.content_type = parse_content_type_for(file.filename);
  return file;
}

Result<Document> Client::parse(const std::filesystem::path& path,
                               const ParseOptions& parse_options,
                               const CallOptions& options) const {
  Result<ParseFile> file = read_parse_file(path);
  if (!file.ok()) return file.error();
  return parse(*file, parse_options, options);
}

}  // namespace webdata
