#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "content/document.hpp"

namespace content_test {

inline std::string load(const std::string& name) {
  std::ifstream in(std::string(WEBDATA_CONTENT_TEST_DATA) + "/" + name, std::ios::binary);
  if (!in) throw std::runtime_error("missing test data " + name);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline webdata::mock::content::Document parse(const std::string& html,
                                              const std::string& url = "https://example.com/dir/page.html",
                                              const std::string& type = "text/html; charset=utf-8") {
  return webdata::mock::content::Document::parse({url, type, 200, html});
}

// Markdown of a body fragment with the whole page kept (no main-content narrowing).
inline std::string md(const std::string& html) {
  webdata::mock::content::Options o;
  o.only_main_content = false;
  return parse(html).markdown(o);
}

// `s` written `n` times.
inline std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

inline webdata::mock::content::Options full_page() {
  webdata::mock::content::Options o;
  o.only_main_content = false;
  return o;
}

}  // namespace content_test
