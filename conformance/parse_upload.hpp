#pragma once

// POST /v2/parse takes multipart/form-data, not JSON: the body built byte by byte, so that the
// suite sees exactly what a deployment answers to a well-formed upload (parse_test.cpp, and the
// precheck's `parse` capability probe).

#include <string>
#include <vector>

#include "support.hpp"

namespace webdata::conformance {

/// One part of the upload: a file when `filename` is set, else a plain field.
struct UploadPart {
  std::string name;
  std::string filename;
  std::string content_type;
  std::string body;
};

inline const char* upload_boundary() {
  return "----webdata-conformance-5v8Lq2Rk";
}

inline std::string multipart_body(const std::vector<UploadPart>& parts) {
  const std::string dash = std::string("--") + upload_boundary();
  std::string out;
  for (const auto& p : parts) {
    out += dash + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) out += "; filename=\"" + p.filename + "\"";
    out += "\r\n";
    if (!p.content_type.empty()) out += "Content-Type: " + p.content_type + "\r\n";
    out += "\r\n" + p.body + "\r\n";
  }
  return out + dash + "--\r\n";
}

/// POST /v2/parse with `parts`.
inline ApiResponse post_parse(const std::vector<UploadPart>& parts, Auth auth = Auth::kKey) {
  Call c;
  c.method = "POST";
  c.path = "/v2/parse";
  c.auth = auth;
  c.raw_body = multipart_body(parts);
  c.headers.emplace_back("Content-Type",
                         std::string("multipart/form-data; boundary=") + upload_boundary());
  return call(c);
}

}  // namespace webdata::conformance
