// multipart/form-data parsing (core/multipart.hpp): the boundary from the Content-Type, the
// delimiters, part headers, and content that is binary or looks like a delimiter.
#include <catch2/catch.hpp>

#include <string>

#include "core/multipart.hpp"

using namespace webdata::mock;
using namespace std::string_literals;

TEST_CASE("multipart_boundary reads the boundary parameter, quoted or not", "[core][multipart]") {
  CHECK(multipart_boundary("multipart/form-data; boundary=abc123") == std::optional<std::string>("abc123"));
  CHECK(multipart_boundary("Multipart/Form-Data;BOUNDARY=\"a b;c=d\"") ==
        std::optional<std::string>("a b;c=d"));
  CHECK(multipart_boundary("multipart/form-data; charset=utf-8; boundary=\"q\\\"x\"") ==
        std::optional<std::string>("q\"x"));
  CHECK(multipart_boundary("multipart/form-data; boundary=  tok  ; x=1") ==
        std::optional<std::string>("tok"));
  CHECK_FALSE(multipart_boundary("multipart/form-data"));
  CHECK_FALSE(multipart_boundary("multipart/form-data; boundary="));
  CHECK_FALSE(multipart_boundary("multipart/form-data; boundary=\"\""));
  CHECK_FALSE(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'x')));
  CHECK(multipart_boundary("multipart/form-data; boundary=" + std::string(70, 'x')));
  CHECK_FALSE(multipart_boundary("multipart/mixed; boundary=abc"));
  CHECK_FALSE(multipart_boundary("application/json"));
  CHECK(is_multipart_form_data(" multipart/FORM-data "));
  CHECK_FALSE(is_multipart_form_data("multipart/form-datax; boundary=a"));
}

TEST_CASE("header_parameter unescapes quoted strings and prefers RFC 5987 values",
          "[core][multipart]") {
  const std::string value = "form-data; name=\"file\"; filename=\"a;b \\\"c\\\".html\"";
  CHECK(header_parameter(value, "name") == std::optional<std::string>("file"));
  CHECK(header_parameter(value, "filename") == std::optional<std::string>("a;b \"c\".html"));
  CHECK(header_parameter(value, "NAME") == std::optional<std::string>("file"));
  CHECK_FALSE(header_parameter(value, "missing"));
  // `filename*` wins over `filename`, in any order.
  CHECK(header_parameter("form-data; filename*=UTF-8''%E2%82%AC%20rates.pdf; filename=\"rates.pdf\"",
                         "filename") == std::optional<std::string>("\xE2\x82\xAC rates.pdf"));
  CHECK(header_parameter("form-data; filename*=iso-8859-1'en'%E9t%E9.txt", "filename") ==
        std::optional<std::string>("\xC3\xA9t\xC3\xA9.txt"));
  // A bad ext-value falls back to the plain parameter.
  CHECK(header_parameter("form-data; filename*=UTF-8''%zz; filename=plain.txt", "filename") ==
        std::optional<std::string>("plain.txt"));
  // `name` is not `filename`, nor a prefix match.
  CHECK_FALSE(header_parameter("form-data; filename=\"x\"", "name"));
}

namespace {

std::string part(const std::string& boundary, const std::string& headers, const std::string& content) {
  return "--" + boundary + "\r\n" + headers + "\r\n" + content + "\r\n";
}

}  // namespace

TEST_CASE("parse_multipart reads parts, their headers and their exact content",
          "[core][multipart]") {
  const std::string b = "----formdata-0123";
  const std::string body =
      part(b, "Content-Disposition: form-data; name=\"options\"\r\n",
           "{\"formats\":[\"markdown\"]}") +
      part(b,
           "content-disposition: form-data; name=\"file\"; filename=\"page.html\"\r\n"
           "CONTENT-TYPE: text/html; charset=utf-8\r\nX-Extra:  kept  \r\n",
           "<html>\r\n<body>line one\r\nline two</body></html>") +
      "--" + b + "--\r\n";
  const MultipartResult result = parse_multipart(body, b);
  REQUIRE(result.ok());
  REQUIRE(result.parts.size() == 2);
  CHECK(result.parts[0].name == "options");
  CHECK_FALSE(result.parts[0].filename);
  CHECK(result.parts[0].content_type.empty());
  CHECK(result.parts[0].body == "{\"formats\":[\"markdown\"]}");
  const MultipartPart* file = result.find("file");
  REQUIRE(file != nullptr);
  CHECK(file->filename == std::optional<std::string>("page.html"));
  CHECK(file->content_type == "text/html; charset=utf-8");
  CHECK(find_header(file->headers, "x-extra") == std::optional<std::string>("kept"));
  // CRLFs inside the content are content; only the one before the delimiter is not.
  CHECK(file->body == "<html>\r\n<body>line one\r\nline two</body></html>");
  CHECK(result.find("other") == nullptr);
}

TEST_CASE("parse_multipart keeps binary content, NUL bytes and near-delimiters intact",
          "[core][multipart]") {
  const std::string b = "XyZ";
  // NULs, bare CR and LF, a CRLF at the end of the content, and lines that start like the
  // delimiter but are not one (the boundary followed by other bytes).
  const std::string content = "%PDF-1.4\0\x01\xff\r\r\n\n--XyZ\r\n--XyZabc\r\n--XyZ-\r\n\0\r\n"s;
  const std::string body =
      part(b, "Content-Disposition: form-data; name=\"file\"; filename=\"x.pdf\"\r\n", content) +
      "--" + b + "--";
  const MultipartResult result = parse_multipart(body, b);
  REQUIRE(result.ok());
  REQUIRE(result.parts.size() == 1);
  CHECK(result.parts[0].body == content);
  CHECK(result.parts[0].body.size() == content.size());
}

TEST_CASE("parse_multipart: preamble, epilogue, padding, empty parts, parts without headers "
          "other than the disposition", "[core][multipart]") {
  const std::string b = "bnd";
  const std::string body = "This is the preamble.\r\nIt is ignored.\r\n"
                           "--bnd  \t\r\n"  // transport padding after the delimiter
                           "Content-Disposition: form-data; name=\"empty\"\r\n\r\n"
                           "\r\n--bnd\r\n"
                           "Content-Disposition: form-data; name=\"a\"\r\n\r\n"
                           "x\r\n--bnd--  \r\nThe epilogue, ignored too, even --bnd\r\n";
  const MultipartResult result = parse_multipart(body, b);
  REQUIRE(result.ok());
  REQUIRE(result.parts.size() == 2);
  CHECK(result.parts[0].name == "empty");
  CHECK(result.parts[0].body.empty());
  CHECK(result.parts[1].body == "x");

  // Only a closing delimiter: a body with no parts at all.
  const MultipartResult none = parse_multipart("--bnd--\r\n", b);
  REQUIRE(none.ok());
  CHECK(none.parts.empty());
}

TEST_CASE("parse_multipart refuses malformed bodies with a reason", "[core][multipart]") {
  const std::string b = "bnd";
  const std::string disposition = "Content-Disposition: form-data; name=\"file\"\r\n";
  SECTION("no delimiter at all") {
    const auto r = parse_multipart("just some text", b);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("--bnd") != std::string::npos);
  }
  SECTION("a different boundary than the one declared") {
    CHECK_FALSE(parse_multipart(part("other", disposition, "x") + "--other--", b).ok());
  }
  SECTION("missing final boundary") {
    const auto r = parse_multipart(part(b, disposition, "truncated content"), b);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("closing delimiter") != std::string::npos);
    const auto cut = parse_multipart("--bnd\r\n" + disposition + "\r\nno line end", b);
    CHECK_FALSE(cut.ok());
  }
  SECTION("headers without the blank line that ends them") {
    const auto r = parse_multipart("--bnd\r\n" + disposition, b);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("blank line") != std::string::npos);
  }
  SECTION("a header line without a colon") {
    const auto r = parse_multipart(part(b, disposition + "not a header\r\n", "x") + "--bnd--", b);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("colon") != std::string::npos);
  }
  SECTION("a part without a form-data disposition and name") {
    CHECK_FALSE(parse_multipart(part(b, "Content-Type: text/plain\r\n", "x") + "--bnd--", b).ok());
    CHECK_FALSE(
        parse_multipart(part(b, "Content-Disposition: attachment; name=\"f\"\r\n", "x") + "--bnd--", b)
            .ok());
    CHECK_FALSE(
        parse_multipart(part(b, "Content-Disposition: form-data\r\n", "x") + "--bnd--", b).ok());
  }
  SECTION("a delimiter followed by neither CRLF nor --") {
    CHECK_FALSE(parse_multipart("--bnd\r\n" + disposition + "\r\nx\r\n--bnd junk", b).ok());
  }
  SECTION("too many parts, too long headers") {
    std::string body;
    for (int i = 0; i < 3; ++i) body += part(b, disposition, "x");
    body += "--bnd--";
    MultipartLimits limits;
    limits.max_parts = 2;
    CHECK_FALSE(parse_multipart(body, b, limits).ok());
    limits.max_parts = 3;
    CHECK(parse_multipart(body, b, limits).ok());
    limits.max_header_bytes = 10;
    const auto r = parse_multipart(body, b, limits);
    CHECK_FALSE(r.ok());
    CHECK(r.error.find("longer than") != std::string::npos);
  }
  SECTION("LF-only line ends are not delimiters") {
    CHECK_FALSE(parse_multipart("--bnd\n" + disposition + "\nx\n--bnd--\n", b).ok());
  }
}
