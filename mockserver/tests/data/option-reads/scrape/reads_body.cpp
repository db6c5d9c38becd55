// Test data for check_option_reads.cmake: a scrape step that reads a request body by key
// instead of its typed request, which the check must refuse.
#include <nlohmann/json.hpp>

bool only_main_content(const nlohmann::json& options) {
  return options.value("onlyMainContent", true);
}
