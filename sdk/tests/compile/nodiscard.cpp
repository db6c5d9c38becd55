// Compiled by sdk/tests/compile/compile_check.cmake: with WEBDATA_DISCARD a Result is dropped on
// the floor, which [[nodiscard]] turns into a diagnostic (an error with -Werror=unused-result);
// without it the same calls, with their results used, compile cleanly.
#include <webdata/webdata.hpp>

int main() {
  webdata::Client client("http://127.0.0.1:9", "");
#ifdef WEBDATA_DISCARD
  client.scrape("https://example.com");
#else
  auto doc = client.scrape("https://example.com");
  return doc.ok() ? 0 : 1;
#endif
}
