// The HTML content pipeline: one untrusted page, every derived format. The input's size picks
// the options, so a seed (a fixture page as is) exercises several option sets as it mutates;
// its first line is also tried as a CSS selector.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "content/document.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace content = webdata::mock::content;
  const std::string body(reinterpret_cast<const char*>(data), size);

  const std::string first_line = body.substr(0, std::min<std::size_t>(body.find('\n'), 256));
  const bool selector_ok = !content::selector_error(first_line).has_value();

  content::Page page;
  page.url = "https://fuzz.example.test/dir/page.html";
  page.content_type = (size & 8) ? "text/html; charset=utf-8" : "";
  page.status_code = 200;
  page.body = body;
  const auto doc = content::Document::parse(page);

  content::Options options;
  options.only_main_content = (size & 1) != 0;
  options.remove_base64_images = (size & 2) != 0;
  options.block_ads = (size & 4) != 0;
  if ((size & 16) != 0) {
    options.include_tags = {"main", "article .content", "#main > p"};
    options.exclude_tags = {"nav", ".ad", "footer a[href^=\"/\"]"};
  }
  if (selector_ok && !first_line.empty() && (size & 32) != 0) {
    options.include_tags.push_back(first_line);
  }
  try {
    (void)doc.markdown(options);
    (void)doc.html(options);
    (void)doc.text(options);
  } catch (const content::SelectorError&) {
    __builtin_trap();  // selector_error() said the selector was fine
  }
  (void)doc.raw_html();
  (void)doc.title();
  (void)doc.base_url();
  (void)doc.links();
  (void)doc.images();
  (void)doc.metadata().dump();  // throws on invalid UTF-8: metadata must be sanitized
  return 0;
}
