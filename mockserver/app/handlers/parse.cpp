#include <string>
#include <string_view>

#include "app/answers.hpp"
#include "app/handlers/handlers.hpp"
#include "core/multipart.hpp"
#include "core/text.hpp"
#include "core/time.hpp"

// POST /v2/parse: a file upload (multipart/form-data: a `file` part and an optional `options`
// part holding JSON) made into a document by the scrape pipeline, as if a page had answered the
// file's bytes (scrape::Scraper::scrape_upload). The service's own answers are the reference for
// what is refused and how (docs/reference/parse.md).

namespace webdata::mock::handlers {

using nlohmann::json;

namespace {

constexpr const char* kMissingFile =
    "Missing file upload. Send multipart/form-data with a 'file' field and optional 'options' "
    "JSON string.";
constexpr const char* kSupported =
    "Supported file types: HTML (.html, .htm, .xhtml), PDF (.pdf), plain text (.txt), Markdown "
    "(.md, .markdown)";

/// What an uploaded file is read as, and the Content-Type the pipeline reads it with.
struct FileKind {
  const char* extension;     ///< Appended to a filename without one, as the service does.
  const char* content_type;  ///< When the part did not name a usable one.
};
constexpr FileKind kHtml{".html", "text/html"};
constexpr FileKind kPdf{".pdf", "application/pdf"};
constexpr FileKind kText{".txt", "text/plain"};
constexpr FileKind kMarkdown{".md", "text/markdown"};

const FileKind* kind_of_media(const std::string& media) {
  if (media == "text/html" || media == "application/xhtml+xml") return &kHtml;
  if (media == "application/pdf") return &kPdf;
  if (media == "text/plain") return &kText;
  if (media == "text/markdown" || media == "text/x-markdown") return &kMarkdown;
  return nullptr;
}

std::string extension_of(const std::string& filename) {
  const std::size_t slash = filename.find_last_of("/\\");
  const std::string base = slash == std::string::npos ? filename : filename.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  return dot == std::string::npos || dot == 0 ? std::string() : to_lower(base.substr(dot));
}

const FileKind* kind_of_extension(const std::string& extension) {
  if (extension == ".html" || extension == ".htm" || extension == ".xhtml") return &kHtml;
  if (extension == ".pdf") return &kPdf;
  if (extension == ".txt" || extension == ".text") return &kText;
  if (extension == ".md" || extension == ".markdown") return &kMarkdown;
  return nullptr;
}

/// encodeURIComponent: the synthetic URL of an upload is built as the service builds it.
std::string encode_component(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
        std::string_view("-_.!~*'()").find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

http::Response bad_upload(const std::string& message, const std::string& code = "BAD_REQUEST") {
  return http::Response::error(400, message, code);
}

/// The multipart body and its `file` part, or the service's refusal.
std::optional<http::Response> read_file_part(const http::Request& request, MultipartResult& body,
                                             const MultipartPart*& file) {
  const std::string sent = request.header("Content-Type").value_or("");
  if (!is_multipart_form_data(sent)) {
    return bad_upload(std::string(kMissingFile) + " The body was sent " +
                      (sent.empty() ? std::string("without a Content-Type") : "as '" + sent + "'") +
                      ".");
  }
  const auto boundary = multipart_boundary(sent);
  if (!boundary) {
    return bad_upload("Malformed multipart/form-data body: the Content-Type '" + sent +
                      "' has no usable boundary parameter (1 to 70 characters).");
  }
  body = parse_multipart(request.body, *boundary);
  if (!body.ok()) return bad_upload("Malformed multipart/form-data body: " + body.error + ".");
  file = body.find("file");
  if (file == nullptr) return bad_upload(kMissingFile);
  if (!file->filename) {
    // A part without a filename is a form field, not a file, to the service's upload reader.
    return bad_upload(std::string(kMissingFile) +
                      " The 'file' part has no filename in its Content-Disposition, so it is a "
                      "text field rather than a file.");
  }
  return std::nullopt;
}

/// The `options` part, checked against v2/parse.request and decoded; or the refusal.
std::optional<http::Response> read_options(const MultipartResult& body,
                                           requests::ScrapeOptions& out) {
  json options = json::object();
  if (const MultipartPart* part = body.find("options")) {
    options = json::parse(part->body, nullptr, false);
    if (options.is_discarded()) {
      return bad_upload("Invalid JSON in the 'options' field. Provide a valid JSON string.");
    }
    if (!options.is_object()) return bad_upload("The 'options' field must parse to a JSON object.");
  }
  if (auto refusal = requests::validate("v2/parse.request", options)) {
    return refusal_answer(*refusal);
  }
  out = requests::decode_parse_options(options);
  // What needs a browser or a history of the page: refused with the service's texts.
  static const std::pair<const char*, const char*> kNotForFiles[] = {
      {"screenshot", "screenshot output"},
      {"branding", "branding output"},
      {"changeTracking", "change tracking"}};
  for (const auto& [format, what] : kNotForFiles) {
    if (out.wants(format)) {
      return bad_upload(std::string("Parse uploads do not support ") + what + ".",
                        "PARSE_UNSUPPORTED_OPTIONS");
    }
  }
  return std::nullopt;
}

/// The file as the pipeline reads it (its synthetic URL and Content-Type), or the refusal.
std::optional<http::Response> make_upload(const MultipartPart& file, scrape::Upload& upload,
                                          std::string& filename) {
  // The part's Content-Type decides; a missing or generic one (what clients send for a file
  // type they do not know) leaves it to the filename's extension.
  filename = file.filename->empty() ? std::string("upload") : *file.filename;
  const std::string media =
      to_lower(trim(std::string_view(file.content_type).substr(0, file.content_type.find(';'))));
  const FileKind* kind = kind_of_media(media);
  const bool from_media = kind != nullptr;
  if (kind == nullptr) kind = kind_of_extension(extension_of(filename));
  if (kind == nullptr) {
    return bad_upload("Unsupported upload type" +
                          (media.empty() ? std::string() : " '" + media + "'") + " of '" +
                          filename + "'. " + kSupported + ".",
                      "UNSUPPORTED_FILE_TYPE");
  }
  const std::string synthetic =
      extension_of(filename).empty() ? filename + kind->extension : filename;
  upload.url = "https://parse.firecrawl.dev/uploads/" + encode_component(synthetic);
  upload.content_type = from_media ? file.content_type : kind->content_type;
  upload.body = file.body;
  return std::nullopt;
}

/// The document of a parsed upload, billed; it names the file it came from, as the
/// service's does.
http::Response parsed_answer(Services& s, ApiCall& call, scrape::Outcome& outcome,
                             const std::string& filename) {
  if (outcome.failure) return failure_answer(*outcome.failure);
  if (!s.teams.try_charge(call.team.id, outcome.credits)) {
    return *s.require_credits(call.team, outcome.credits);
  }
  json& metadata = outcome.document["metadata"];
  metadata["sourceURL"] = filename;
  if (const auto id = metadata.find("scrapeId"); id != metadata.end() && id->is_string()) {
    s.feedback.issue(call.team.id, "parse", id->get<std::string>(), s.clock.now());
  }
  return http::Response::json(200, json{{"success", true}, {"data", outcome.document}});
}

// No request schema here: the body is multipart, not JSON, so the JSON parse and the JSON-only
// Content-Type rule of the API's flow do not apply; the `options` part is checked against
// v2/parse.request like any JSON body. Credits come first, as for every route.
http::Response parse_upload(Services& s, ApiCall& call) {
  if (auto refused = s.require_credits(call.team, 1)) return *refused;
  MultipartResult body;
  const MultipartPart* file = nullptr;
  if (auto refused = read_file_part(call.request, body, file)) return *refused;
  requests::ScrapeOptions options;
  if (auto refused = read_options(body, options)) return *refused;
  scrape::Upload upload;
  std::string filename;
  if (auto refused = make_upload(*file, upload, filename)) return *refused;
  scrape::Outcome outcome = s.scraper->scrape_upload(options, upload, call.team);
  http::Response response = parsed_answer(s, call, outcome, filename);
  // Pages its actions navigated to may be slow: the answer waits on the I/O thread's timer.
  response.delay = s.clock.due_in(outcome.ready_at);
  return response;
}

}  // namespace

void add_parse_routes(ApiRoutes& routes, Services& s) {
  // --inject-fault no-parse: a deployment from before the endpoint answers 404 for the route.
  if (s.config.has_fault("no-parse")) return;
  routes.api("POST", "/v2/parse", [&s](ApiCall& call) { return parse_upload(s, call); });
}

}  // namespace webdata::mock::handlers
